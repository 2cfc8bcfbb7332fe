"""A text that ends without a newline reaches every grammar with one: tree-sitter-kotlin 1.1.0
never returns on a text ending in an annotation, and a hunk ends wherever the change does."""

from __future__ import annotations

import subprocess
import sys
import textwrap

from dualrag import languages


def test_every_parser_gets_a_final_newline():
    tree = languages.parser("kotlin").parse(b"class A\n@Foo(1)")
    assert tree.root_node.type == "source_file"
    assert tree.root_node.end_point.row == 2  # the newline was added at the end, nothing moved
    assert languages.parser("java").parse(b"class A {}\n").root_node.end_point.row == 1  # an ending text is left alone


def test_a_kotlin_hunk_ending_in_an_annotation_is_reviewed(tmp_path):
    diff = textwrap.dedent("""\
        diff --git a/src/App.kt b/src/App.kt
        new file mode 100644
        --- /dev/null
        +++ b/src/App.kt
        @@ -0,0 +1,2 @@
        +val retries = 3
        +@Deprecated("x")
        \\ No newline at end of file
        """)
    path = tmp_path / "change.diff"
    path.write_text(diff, encoding="utf-8")
    run = subprocess.run([sys.executable, "-m", "dualrag", "review", "--diff-file", str(path), "--store",
                          str(tmp_path / "store"), "--format", "json"],
                         check=False, capture_output=True, text=True, timeout=240, cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    assert '"src/App.kt"' in run.stdout
