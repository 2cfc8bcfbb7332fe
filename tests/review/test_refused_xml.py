"""An EDI file the validators refused (past a depth cap, a DTD, not XML) was not validated: a model
that answers "no findings" cannot get the change approved."""

from __future__ import annotations

from dualrag.checks.edi import refused_files
from dualrag.findings import Finding
from dualrag.pipeline import run_review
from dualrag.review.model import Decision

from .conftest import answer


def added(path: str, text: str) -> bytes:
    lines = text.split("\n")
    body = "".join(f"+{line}\n" for line in lines)
    return (f"diff --git a/{path} b/{path}\nnew file mode 100644\nindex 0000000..1111111\n--- /dev/null\n"
            f"+++ b/{path}\n@@ -0,0 +1,{len(lines)} @@\n{body}").encode()


def test_refused_xml_is_never_approved(oai, llm_settings):
    oai.responder = lambda req: oai.chat(answer())  # complies: no findings
    deep = '<?xml version="1.0"?>\n<flow id="d">\n' + "<step>\n" * 300 + "</step>\n" * 300 + "</flow>"
    review = run_review(added("edi/flows/deep.flow", deep), llm_settings())
    assert review.decision is Decision.NO_VERDICT, (review.decision, review.decision_reasons)
    assert any("edi/flows/deep.flow" in r for r in review.decision_reasons)


def test_refused_files_are_the_unreadable_ones():
    def f(rule: str, message: str, path: str = "a.flow") -> Finding:
        return Finding(path=path, line=1, severity="major", category="edi", title=rule, message=message,
                       rule_id=rule, source="detector")
    found = [f("EDI-FMT-007", "too deep"), f("EDI-FMT-001", "the root element is <x>", "b.flow"),
             f("EDI-FMT-001", "not well-formed XML: junk", "c.flow"), f("EDI-FMT-002", "a DTD", "d.flow")]
    assert refused_files(found) == ("a.flow", "c.flow", "d.flow")
