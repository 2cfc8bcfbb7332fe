"""XML depth and element caps: measured in one linear pass before tree-sitter (whose parse time
grows with the square of the depth) or expat sees the text."""

from __future__ import annotations

import time

from dualrag.chunking import chunk_changes
from dualrag.config import ChunkingConfig, LimitsConfig, load_settings
from dualrag.diff import ingest
from dualrag.edi.reader import read_document
from dualrag.languages.outline import outline
from dualrag.parsing.xml import xml_shape
from dualrag.tokens import get_estimator


def nested(depth: int) -> str:
    return "<flow>\n" + "<step>\n" * depth + "</step>\n" * depth + "</flow>\n"


def test_shape_stops_at_the_first_cap():
    assert xml_shape(nested(5), max_depth=10, max_elements=100) is None
    assert "limits.max_xml_depth" in xml_shape(nested(20), max_depth=10, max_elements=100)
    wide = "<r>" + "<s/><t a='1'/>" * 60 + "</r>"
    assert "limits.max_xml_elements" in xml_shape(wide, max_depth=10, max_elements=100)
    assert xml_shape("<r><!-- <a> --><?pi x?><a/></r>", max_depth=2, max_elements=5) is None


def test_a_deep_file_is_not_parsed_into_elements():
    start = time.perf_counter()
    out = outline("xml", nested(30_000), limits=LimitsConfig(max_xml_depth=100))
    assert out.error and "limits.max_xml_depth" in out.error
    assert time.perf_counter() - start < 1  # tree-sitter alone takes seconds on this input


def test_chunking_says_why_a_deep_flow_is_split_at_hunks():
    body = nested(40).rstrip("\n").split("\n")
    diff = ("diff --git a/f/x.flow b/f/x.flow\nnew file mode 100644\n--- /dev/null\n+++ b/f/x.flow\n"
            f"@@ -0,0 +1,{len(body)} @@\n" + "".join(f"+{line}\n" for line in body)).encode()
    changes = ingest(diff, load_settings(None))
    plan = chunk_changes(changes, estimator=get_estimator("fast"), config=ChunkingConfig(),
                         limits=LimitsConfig(max_xml_depth=10))
    assert any("limits.max_xml_depth" in n and "hunk boundaries" in n for c in plan.chunks for n in c.notes)


def test_the_edi_reader_refuses_past_the_caps():
    doc = read_document("f/x.flow", "flow", nested(50).encode(), max_depth=10)
    assert doc.root is None and doc.issues[0].rule_id == "EDI-FMT-007" and "max_xml_depth" in doc.issues[0].message
    wide = ("<flow>" + "<s/>" * 30 + "</flow>").encode()
    doc = read_document("f/x.flow", "flow", wide, max_elements=20)
    assert doc.root is None and "max_xml_elements" in doc.issues[0].message
    assert read_document("f/x.flow", "flow", nested(5).encode(), max_depth=10).root is not None


def test_a_sampled_flow_is_not_validated_as_broken_xml():
    from dualrag.checks.edi import validate_changes
    from dualrag.rulebook import load_bundled_cached

    line = "<flow>" + "<s/>" * 200 + "</flow>"
    diff = ("diff --git a/f/x.flow b/f/x.flow\nnew file mode 100644\n--- /dev/null\n+++ b/f/x.flow\n"
            f"@@ -0,0 +1 @@\n+{line}\n").encode()
    settings = load_settings(None).model_copy(update={"limits": LimitsConfig(max_line_chars=100)})
    findings, notes = validate_changes(ingest(diff, settings), load_bundled_cached())
    assert findings == [] and any("not validated" in n and "max_line_chars" in n for n in notes)
