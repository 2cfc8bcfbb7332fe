"""The neutraliser: control, escape and bidirectional characters shown, never run."""

from __future__ import annotations

from pydantic import BaseModel

from dualrag.source.text import has_controls, neutralise, neutralise_all


def test_escapes_become_visible_and_layout_stays():
    text = "a\x1b[2Jb\x07\x9b31m\u202eevil\u2066x\ty\nz"
    assert neutralise(text) == "a\\x1b[2Jb\\x07\\x9b31m\\u202eevil\\u2066x\ty\nz"
    assert not has_controls(neutralise(text))


def test_a_lone_carriage_return_is_shown_a_crlf_line_end_is_not():
    assert neutralise("safe\rEVIL") == "safe\\x0dEVIL"
    assert neutralise("one\r\ntwo\x1b") == "one\ntwo\\x1b"
    assert not has_controls("one\r\ntwo") and has_controls("one\rtwo")


def test_clean_text_is_returned_as_is():
    text = "plain text, 中文, émoji 🙂\n"
    assert neutralise(text) is text


class Inner(BaseModel):
    title: str
    tags: list[str]


class Outer(BaseModel):
    path: str
    items: tuple[Inner, ...]
    extra: dict[str, str]
    count: int = 0


def test_every_string_of_a_model_is_neutralised_and_the_original_kept():
    dirty = Outer(path="a\x1b.py", items=(Inner(title="t\x07", tags=["ok", "\u202e"]),), extra={"k\x1b": "v"})
    clean = neutralise_all(dirty)
    assert clean.path == "a\\x1b.py" and clean.items[0].title == "t\\x07"
    assert clean.items[0].tags == ["ok", "\\u202e"] and clean.extra == {"k\\x1b": "v"}
    assert dirty.path == "a\x1b.py"  # copied, not changed in place
    tidy = Outer(path="a.py", items=(Inner(title="t", tags=[]),), extra={})
    assert neutralise_all(tidy) is tidy
