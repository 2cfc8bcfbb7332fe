"""Caps on rule documents (`[limits]`), checked before a parser touches the bytes where the format
allows it: the file's size, a `.docx`'s unpacked size and packing ratio (a 154 KB zip of 100 MB
of paragraphs otherwise ran for 15 minutes at 2.5 GB), a PDF's pages, a document's paragraphs.
Indexing is all or nothing, so a cap is a DocumentError: named, nothing written, exit 2."""

from __future__ import annotations

import signal
import threading
import time
import zipfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from dualrag.config import LimitsConfig

from .errors import DocumentError

_RATIO_FROM = 1_000_000  # small parts compress by any ratio legitimately (an empty styles table)


def check_size(path: Path, limits: LimitsConfig) -> None:
    try:
        size = path.stat().st_size
    except OSError:
        return  # the reader reports a missing or unreadable file in its own words
    if size > limits.max_document_mb * 1e6:
        raise DocumentError(path, f"{size / 1e6:.1f} MB is above the limit of {limits.max_document_mb:g} MB "
                                  "(limits.max_document_mb)")


def check_zip(path: Path, limits: LimitsConfig) -> None:
    """Sizes from the zip's central directory, before anything is unpacked. zipfile never
    unpacks a member past the size the directory declares, so these figures bound the work."""
    try:
        with zipfile.ZipFile(path) as archive:
            members = archive.infolist()
    except (zipfile.BadZipFile, OSError, ValueError):
        return  # not a zip: the reader says so
    for m in members:  # a bomb is named as one before its size is
        if m.file_size > _RATIO_FROM and m.file_size > limits.max_zip_ratio * max(m.compress_size, 1):
            raise DocumentError(path, f"{m.filename} unpacks {m.file_size / max(m.compress_size, 1):.0f} times "
                                      f"its packed size (limits.max_zip_ratio = {limits.max_zip_ratio:g}): "
                                      "refused as a possible zip bomb")
    total = sum(m.file_size for m in members)
    if total > limits.max_document_mb * 1e6:
        raise DocumentError(path, f"unpacks to {total / 1e6:.0f} MB, above the limit of "
                                  f"{limits.max_document_mb:g} MB (limits.max_document_mb)")


def check_pages(path: Path, pages: int, limits: LimitsConfig) -> None:
    if pages > limits.max_pdf_pages:
        raise DocumentError(path, f"{pages:,} pages, above the limit of {limits.max_pdf_pages:,} "
                                  "(limits.max_pdf_pages)")


def check_paragraphs(path: Path, paragraphs: int, limits: LimitsConfig) -> None:
    if paragraphs > limits.max_paragraphs:
        raise DocumentError(path, f"more than {limits.max_paragraphs:,} paragraphs ({paragraphs:,}; "
                                  "limits.max_paragraphs)")


def check_cells(path: Path, cells: int, limits: LimitsConfig) -> None:
    if cells > limits.max_table_cells:
        raise DocumentError(path, f"{cells:,} table cells, above the limit of {limits.max_table_cells:,} "
                                  "(limits.max_table_cells)")


@contextmanager
def time_budget(path: Path, limits: LimitsConfig) -> Iterator[None]:
    """Stop reading one document after `limits.max_document_seconds` (a DocumentError, exit 2).
    A timer signal interrupts pure-Python parsing (pypdf, the segmenter); off the main thread, or
    where there is no SIGALRM, the time is checked once the document is read."""
    seconds = limits.max_document_seconds
    started = time.monotonic()
    usable = hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread()

    def stop(_signum: int, _frame: object) -> None:
        raise DocumentError(path, f"reading took more than {seconds:g} s (limits.max_document_seconds)")

    previous = signal.signal(signal.SIGALRM, stop) if usable else None
    if usable:
        signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        if usable:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, previous)
    if time.monotonic() - started > seconds:
        stop(0, None)


def paragraphs_of(text: str) -> int:
    """Blocks separated by a blank line: what the segmenter walks."""
    return text.count("\n\n") + 1 if text.strip() else 0
