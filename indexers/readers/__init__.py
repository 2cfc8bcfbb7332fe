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

from dualrag.config import LimitsConfig

from ._common import FORMAT_MARKDOWN, FORMAT_TEXT, PageCallback
from .caps import check_paragraphs, check_size, paragraphs_of
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


def reader_for(path: str | Path, on_page: PageCallback | None = None, limits: LimitsConfig | None = None) -> BaseReader:
    """The reader of `path`'s format, once the file passed the size caps of `limits`."""
    path = Path(path)
    limits = limits or LimitsConfig()
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
    check_size(path, limits)
    if cls in (PagedPDFReader, StructuredDocxReader):  # they count pages, unpacked size, paragraphs
        return cls(on_page=on_page, limits=limits)  # type: ignore[call-arg]
    return cls(on_page=on_page)  # type: ignore[call-arg]


def iter_document(path: str | Path, on_page: PageCallback | None = None,
                  limits: LimitsConfig | None = None) -> Iterator[Document]:
    """Stream the Documents of one file (one per page for PDF); raises ``DocumentError``,
    also when the file passes a cap of `limits` (pages and paragraphs are counted before the walk)."""
    limits = limits or LimitsConfig()
    reader = reader_for(path, on_page, limits)
    if isinstance(reader, PagedPDFReader):
        yield from reader.lazy_load_data(Path(path))
        return
    for doc in reader.load_data(Path(path)):
        check_paragraphs(Path(path), paragraphs_of(doc.text), limits)
        yield doc


def read_document(path: str | Path, on_page: PageCallback | None = None,
                  limits: LimitsConfig | None = None) -> list[Document]:
    """All Documents of one file (one per page for PDF); raises ``DocumentError``."""
    return list(iter_document(path, on_page, limits))
