"""Text from a change shown to people: control characters made visible.

A diff line, a path, a model's title can carry terminal escape sequences (`ESC[2J` clears the
screen, OSC 8 forges links, a lone CR overwrites what was printed) or bidirectional overrides
that make code read differently from how it runs (Trojan Source). Publishers show them as
`\\x1b`, `\\u202e`...; newlines and tabs stay. JSON keeps the raw text: its encoder escapes C0
characters itself and a consumer needs the exact bytes.
"""

from __future__ import annotations

import re
from typing import Any, TypeVar

from pydantic import BaseModel

# C0 except tab and newline, DEL, C1 (0x9b is a one-byte CSI), bidirectional embeddings,
# overrides and isolates, the line and paragraph separators; and what no screen shows: the
# zero-width space, invisible operators (U+2060-2064), a BOM inside text and Unicode tag
# characters (they spell text a model reads and a report would hide). ZWJ/ZWNJ stay: scripts
# and emoji need them.
_CONTROL_CHARS = [c for c in range(0x20) if c not in (0x09, 0x0A)] + list(range(0x7F, 0xA0)) + [
    *range(0x202A, 0x202F), *range(0x2066, 0x206A), 0x200E, 0x200F, 0x061C, 0x2028, 0x2029,
    0x200B, *range(0x2060, 0x2065), 0xFEFF, *range(0xE0000, 0xE0080),
]
_TABLE = {c: (f"\\x{c:02x}" if c < 0x100 else f"\\u{c:04x}" if c < 0x10000 else f"\\U{c:08x}")
          for c in _CONTROL_CHARS}
_LINE_TABLE = {0x0A: "\\n", 0x09: "\\t"}
CONTROL = re.compile("[" + "".join(re.escape(chr(c)) for c in _CONTROL_CHARS) + "]")
# CRLF is a line ending, not a trick; only a CR that does not end a line is shown.
_CRLF = re.compile(r"\r(?=\n)")

T = TypeVar("T")


def neutralise(text: str) -> str:
    """`text` with every control, escape and bidirectional character shown as a backslash escape."""
    if not CONTROL.search(text):
        return text  # the common case costs one scan
    return _CRLF.sub("", text).translate(_TABLE)


def one_line(text: str) -> str:
    """`neutralise`, and newlines and tabs shown as escapes too: for a value printed inside one
    line (a path in a table row, a name in a message), which a newline would split into a forged
    row."""
    return neutralise(text).translate(_LINE_TABLE) if text else text


def has_controls(text: str) -> bool:
    """Whether `text` holds a character `neutralise` would rewrite (a CRLF line ending does not count)."""
    return CONTROL.search(_CRLF.sub("", text) if "\r" in text else text) is not None


def neutralise_all(value: T) -> T:
    """`neutralise` every string inside a value: pydantic models (copied, never changed in place),
    lists, tuples and dicts (keys too)."""
    return _clean(value)


def _clean(value: Any) -> Any:
    if isinstance(value, str):
        return neutralise(value)
    if isinstance(value, BaseModel):
        update = {}
        for name in type(value).model_fields:
            old = getattr(value, name)
            new = _clean(old)
            if new is not old:
                update[name] = new
        return value.model_copy(update=update) if update else value
    if isinstance(value, (list, tuple)):
        items = [_clean(v) for v in value]
        if all(a is b for a, b in zip(items, value, strict=True)):
            return value
        return type(value)(items) if not hasattr(value, "_fields") else type(value)(*items)
    if isinstance(value, dict):
        items = {_clean(k): _clean(v) for k, v in value.items()}
        same = len(items) == len(value) and all(k in value and v is value[k] for k, v in items.items())
        return value if same else items
    return value
