"""A diff from a file or standard input, read up to a size limit (a repository's diffs come from
`dualrag.source.git`)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import BinaryIO

from dualrag.errors import DiffError, SourceError


def read_diff_file(name: str, limit: int) -> bytes:
    """Read a diff file ('-' is standard input), refusing more than `limit` bytes."""
    if name == "-":
        return _read_limited(sys.stdin.buffer, limit, "standard input")
    path = Path(name)
    if path.is_dir():
        raise SourceError(f"diff file is a directory: {name}")
    try:
        with path.open("rb") as fh:
            return _read_limited(fh, limit, name)
    except FileNotFoundError:
        raise SourceError(f"diff file not found: {name}") from None
    except OSError as exc:
        raise SourceError(f"cannot read diff file {name}: {exc.strerror}") from None


def _read_limited(stream: BinaryIO, limit: int, where: str) -> bytes:
    data = stream.read(limit + 1)
    if len(data) > limit:
        raise DiffError(f"{where}: diff is larger than the limit of {limit / 1e6:g} MB (limits.max_diff_mb)")
    return data
