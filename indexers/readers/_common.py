"""Small helpers shared by the readers: decoding, metadata, progress."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from .errors import DocumentError

#: ``on_page(done, total)``: called after each page (or once for unpaginated formats).
PageCallback = Callable[[int, int], None]

#: Metadata keys every reader sets on its llama-index Documents.
#: ``format`` is ``markdown`` (headings as ``#``, lists, ``|`` table rows, blank lines between
#: blocks) or ``text`` (lines as laid out: PDF pages, plain text); ``page`` is 1-based or None.
FORMAT_MARKDOWN = "markdown"
FORMAT_TEXT = "text"


def decode_text(data: bytes) -> str:
    """UTF-8 (with or without BOM), then GB18030, then Latin-1 (never fails)."""
    for encoding in ("utf-8-sig", "gb18030"):
        try:
            return data.decode(encoding)
        except UnicodeDecodeError:
            continue
    return data.decode("latin-1")


def read_bytes(path: Path) -> bytes:
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise DocumentError(path, "no such file") from None
    except IsADirectoryError:
        raise DocumentError(path, "is a directory, not a document") from None
    except OSError as exc:
        raise DocumentError(path, f"cannot open: {exc.strerror or exc}") from None
    if not data.strip():
        raise DocumentError(path, "the file is empty")
    return data


def base_metadata(path: Path, fmt: str, page: int | None = None, total: int | None = None) -> dict:
    meta: dict = {"file_path": str(path), "file_name": path.name, "format": fmt}
    if page is not None:
        meta["page"] = page
        meta["page_label"] = str(page)
    if total is not None:
        meta["total_pages"] = total
    return meta


def ensure_text(path: Path, text: str, what: str = "document") -> None:
    if not text.strip():
        raise DocumentError(path, f"the {what} contains no text")
