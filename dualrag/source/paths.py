"""Paths as a diff states them: unquote git's C-style quoting, drop a/ b/ prefixes, and
refuse the ones that could escape the repository. A path in a diff is data, never a
filename to open as given."""

from __future__ import annotations

import re

DEV_NULL = "/dev/null"
_PREFIX = re.compile(r"^[ab]/")
_ESCAPES = {"a": 7, "b": 8, "t": 9, "n": 10, "v": 11, "f": 12, "r": 13, '"': 34, "\\": 92}
_WINDOWS_DRIVE = re.compile(r"^[A-Za-z]:[\\/]")


def unquote(raw: str) -> str:
    """Undo git's quoting of unusual paths: "a/caf\\303\\251.txt" -> a/café.txt."""
    if not (len(raw) >= 2 and raw[0] == raw[-1] == '"'):
        return raw
    body, out, i = raw[1:-1], bytearray(), 0
    while i < len(body):
        ch = body[i]
        if ch != "\\" or i + 1 == len(body):
            out += ch.encode("utf-8", "surrogateescape")
            i += 1
        elif body[i + 1] in _ESCAPES:
            out.append(_ESCAPES[body[i + 1]])
            i += 2
        elif re.match(r"[0-7]{3}", body[i + 1 : i + 4]):
            out.append(int(body[i + 1 : i + 4], 8) & 0xFF)
            i += 4
        else:
            out += body[i + 1].encode("utf-8", "surrogateescape")
            i += 2
    try:
        return out.decode("utf-8")
    except UnicodeDecodeError:
        return out.decode("latin-1")


def clean(raw: str | None) -> str | None:
    """The repository-relative path of a diff header's file name, or None for /dev/null."""
    if raw is None:
        return None
    path = unquote(raw.strip())
    if path == DEV_NULL:
        return None
    return _PREFIX.sub("", path, count=1)


def unsafe_reason(path: str) -> str | None:
    """Why a path must never be opened inside the repository, or None when it is fine."""
    if not path:
        return "empty path"
    if "\x00" in path:
        return "path contains a NUL byte"
    if path.startswith(("/", "\\")) or _WINDOWS_DRIVE.match(path):
        return "absolute path"
    if ".." in re.split(r"[\\/]", path):
        return "path climbs out with '..'"
    return None
