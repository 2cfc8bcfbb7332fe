"""Markdown and plain text. A form feed (``\\f``) in a text file starts a new page.

llama-index's ``MarkdownReader`` splits at headers but keeps only the header text, not its
level, and ``FlatReader`` assumes UTF-8; this reader keeps the text as written (GB18030 and
Latin-1 fallbacks) and lets the segmenter read the headings.
"""

from __future__ import annotations

from pathlib import Path

from llama_index.core.readers.base import BaseReader
from llama_index.core.schema import Document

from ._common import FORMAT_MARKDOWN, FORMAT_TEXT, PageCallback, base_metadata, decode_text, ensure_text, read_bytes

MARKDOWN_SUFFIXES = {".md", ".markdown", ".mdown", ".mkd"}


class TextFileReader(BaseReader):
    def __init__(self, on_page: PageCallback | None = None) -> None:
        self.on_page = on_page

    def load_data(self, file: str | Path, extra_info: dict | None = None) -> list[Document]:  # type: ignore[override]
        path = Path(file)
        data = read_bytes(path)
        if b"\x00" in data[:4096]:
            from .errors import DocumentError

            raise DocumentError(path, "binary content, not a text document")
        text = decode_text(data).replace("\r\n", "\n").replace("\r", "\n")
        ensure_text(path, text)
        fmt = FORMAT_MARKDOWN if path.suffix.lower() in MARKDOWN_SUFFIXES else FORMAT_TEXT
        pages = text.split("\f") if fmt == FORMAT_TEXT and "\f" in text else [text]
        docs = []
        for number, page_text in enumerate(pages, start=1):
            meta = base_metadata(path, fmt, page=number if len(pages) > 1 else None,
                                 total=len(pages) if len(pages) > 1 else None)
            meta.update(extra_info or {})
            docs.append(Document(text=page_text, metadata=meta))
            if self.on_page is not None:
                self.on_page(number, len(pages))
        return docs
