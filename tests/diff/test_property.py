"""Property: for any pair of text files, the parsed hunks sit exactly on both files' lines."""

from __future__ import annotations

from hypothesis import HealthCheck, given
from hypothesis import settings as hsettings
from hypothesis import strategies as st

from dualrag.config import load_settings
from dualrag.diff import ingest

# Characters that never split a line on their own ("\r" is only used as part of CRLF).
_CHARS = st.sampled_from(list("ab xyz{};()=+-@\\\t") + ["中", "文", "注", "释", "é", "ü", "€", "😀"])
_TEXT = st.text(_CHARS, max_size=12)
_ENDING = st.sampled_from(["\n", "\r\n"])


@st.composite
def file_pair(draw) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    """Two files as (text, ending) lines drawn from a shared pool, so that they overlap."""
    pool = draw(st.lists(_TEXT, min_size=1, max_size=6))
    line = st.tuples(st.sampled_from(pool), _ENDING)
    old = draw(st.lists(line, max_size=25))
    new = draw(st.lists(line, max_size=25))
    for lines in (old, new):  # sometimes the last line has no ending
        if lines and lines[-1][0] and draw(st.booleans()):  # an empty unended line is no line
            lines[-1] = (lines[-1][0], "")
    return old, new


def encode(lines: list[tuple[str, str]]) -> bytes:
    return "".join(text + end for text, end in lines).encode("utf-8")


SETTINGS = load_settings(None, noise={"generated_markers": []})


@hsettings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(file_pair(), st.integers(0, 3))
def test_hunks_reproduce_both_files(make_unified, pair, context):
    # make_unified is a pure function: sharing it across examples is safe.
    old, new = pair
    old_bytes, new_bytes = encode(old), encode(new)
    diff = make_unified(old_bytes, new_bytes, old_name=b"a/f.txt", new_name=b"b/f.txt", context=context)
    changes = ingest(diff, SETTINGS)
    if old_bytes == new_bytes:
        assert changes.files == ()
        return
    (fd,) = changes.files
    assert fd.encoding == "utf-8"
    old_text = [t for t, _ in old]
    new_text = [t for t, _ in new]

    rebuilt: list[str] = []
    next_old = 1  # first old line not yet copied
    plus = minus = 0
    for hunk in fd.hunks:
        for line in hunk.lines:
            assert "\r" not in line.text and "\n" not in line.text
            if line.kind in " -":
                assert old_text[line.old_no - 1] == line.text
            if line.kind in " +":
                assert new_text[line.new_no - 1] == line.text
            if line.kind == " ":
                assert line.old_no is not None and line.new_no is not None
            plus += line.kind == "+"
            minus += line.kind == "-"
        # Apply the hunk: copy untouched old lines, then the hunk's new side.
        first_old = hunk.old_start if hunk.old_len else hunk.old_start + 1
        rebuilt += old_text[next_old - 1 : first_old - 1]
        rebuilt += [line.text for line in hunk.lines if line.kind in " +"]
        next_old = first_old + hunk.old_len
        for line in hunk.lines:
            at_end_of_new = line.kind != "-" and line.new_no == len(new)
            at_end_of_old = line.kind != "+" and line.old_no == len(old)
            if line.no_eol:
                assert at_end_of_new or at_end_of_old
            if line.kind == "+" and at_end_of_new:
                assert line.no_eol == (new[-1][1] == "")
    rebuilt += old_text[next_old - 1 :]
    assert rebuilt == new_text
    assert (fd.added, fd.removed) == (plus, minus)
    # The newline verdict is about the file lines the hunks show (unended last lines aside).
    shown = {
        (old[line.old_no - 1] if line.kind == "-" else new[line.new_no - 1])[1]
        for hunk in fd.hunks for line in hunk.lines
    } - {""}
    expected = "lf" if "\r\n" not in shown else ("crlf" if shown == {"\r\n"} else "mixed")
    assert fd.newline == expected
