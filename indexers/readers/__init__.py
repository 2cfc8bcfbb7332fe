"""Readers for rule documents: PDF, Word .docx, Markdown, HTML, plain text.

Every reader is a llama-index ``BaseReader`` producing llama-index ``Document`` objects, so any
LlamaHub reader can feed the rule segmenter too. Metadata on each Document:
``file_path``, ``file_name``, ``format`` (``markdown`` | ``text``) and, for paginated documents,
``page`` (1-based int), ``page_label`` and ``total_pages``.

Nothing here touches the network: the readers parse local files with pypdf, python-docx and
BeautifulSoup, and no llama-index tokenizer or NLTK resource is used (see ``offline``).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from llama_index.core.readers.base import BaseReader
from llama_index.core.schema import Document

from ._common import FORMAT_MARKDOWN, FORMAT_TEXT, PageCallback
from .docx import LEGACY_DOC_HINT, StructuredDocxReader
from .errors import DocumentError
from .html import StructuredHTMLReader
from .pdf import PagedPDFReader
from .text import TextFileReader

READERS: dict[str, type[BaseReader]] = {
    ".pdf": PagedPDFReader,
    ".docx": StructuredDocxReader,
    ".md": TextFileReader,
    ".markdown": TextFileReader,
    ".txt": TextFileReader,
    ".text": TextFileReader,
    ".html": StructuredHTMLReader,
    ".htm": StructuredHTMLReader,
    ".xhtml": StructuredHTMLReader,
}
SUPPORTED_SUFFIXES = tuple(sorted(READERS))

__all__ = [
    "FORMAT_MARKDOWN",
    "FORMAT_TEXT",
    "READERS",
    "SUPPORTED_SUFFIXES",
    "DocumentError",
    "PageCallback",
    "PagedPDFReader",
    "StructuredDocxReader",
    "StructuredHTMLReader",
    "TextFileReader",
    "iter_document",
    "read_document",
]


def reader_for(path: str | Path, on_page: PageCallback | None = None) -> BaseReader:
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix == ".doc":
        raise DocumentError(path, LEGACY_DOC_HINT)
    cls = READERS.get(suffix)
    if cls is None:
        raise DocumentError(
            path, f"unsupported file type {suffix or '(no extension)'!r}; supported: {', '.join(SUPPORTED_SUFFIXES)}"
        )
    if not path.exists():
        raise DocumentError(path, "no such file")
    if path.is_dir():
        raise DocumentError(path, "is a directory, not a document")
    return cls(on_page=on_page)  # type: ignore[call-arg]


def iter_document(path: str | Path, on_page: PageCallback | None = None) -> Iterator[Document]:
    """Stream the Documents of one file (one per page for PDF); raises ``DocumentError``."""
    reader = reader_for(path, on_page)
    if isinstance(reader, PagedPDFReader):
        yield from reader.lazy_load_data(Path(path))
    else:
        yield from reader.load_data(Path(path))


def read_document(path: str | Path, on_page: PageCallback | None = None) -> list[Document]:
    """All Documents of one file (one per page for PDF); raises ``DocumentError``."""
    return list(iter_document(path, on_page))
