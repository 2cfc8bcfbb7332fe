"""PDF text layer, one llama-index Document per page, headings marked from fonts and the outline.

llama-index's own ``PDFReader`` builds the whole list at once, retries a broken file three
times (tenacity) and has no progress hook; this reader keeps its metadata contract
(``page_label``, ``file_name``) and adds ``page`` (1-based int), progress, clear errors, and
``#`` marks on heading lines (``metadata["headings"] == "marked"``) found by ``pdf_headings``.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from pathlib import Path

from llama_index.core.readers.base import BaseReader
from llama_index.core.schema import Document

from dualrag.config import LimitsConfig

from ._common import FORMAT_TEXT, PageCallback, base_metadata
from .caps import check_pages
from .errors import DocumentError
from .pdf_headings import StyledLine, mark_headings, outline_titles, styled_page

OCR_HINT = "it looks scanned (no text layer); run OCR first, e.g. `ocrmypdf in.pdf out.pdf`, and index the result"


def _open(path: Path):
    import pypdf
    from pypdf.errors import PyPdfError

    try:
        with path.open("rb") as fh:
            head = fh.read(1024)
    except FileNotFoundError:
        raise DocumentError(path, "no such file") from None
    except OSError as exc:
        raise DocumentError(path, f"cannot open: {exc.strerror or exc}") from None
    if not head.strip():
        raise DocumentError(path, "the file is empty")
    if b"%PDF-" not in head:
        raise DocumentError(path, "not a PDF (no %PDF header); is the extension wrong?")
    # pypdf logs recoverable damage as warnings; the reader reports what matters itself.
    logging.getLogger("pypdf").setLevel(logging.ERROR)
    try:
        reader = pypdf.PdfReader(str(path), strict=False)
        if reader.is_encrypted:
            try:
                ok = reader.decrypt("")  # owner-password-only PDFs open with an empty user password
            except Exception as exc:  # noqa: BLE001 - pypdf raises DependencyError, NotImplementedError...
                raise DocumentError(path, f"the PDF is encrypted and cannot be opened ({exc})") from None
            if not ok:
                raise DocumentError(
                    path,
                    "the PDF is encrypted with a password; save an unencrypted copy "
                    "(e.g. `qpdf --password=PW --decrypt in.pdf out.pdf`) and index that",
                )
        total = len(reader.pages)
    except DocumentError:
        raise
    except (PyPdfError, ValueError, KeyError, TypeError, AttributeError, OSError, RecursionError) as exc:
        raise DocumentError(path, f"corrupt or truncated PDF: {exc or type(exc).__name__}") from None
    if total == 0:
        raise DocumentError(path, "corrupt or truncated PDF: no pages found")
    return reader, total


class PagedPDFReader(BaseReader):
    """Read the text layer of a PDF page by page (``lazy_load_data`` streams)."""

    def __init__(self, on_page: PageCallback | None = None, limits: LimitsConfig | None = None) -> None:
        self.on_page = on_page
        self.limits = limits or LimitsConfig()

    def lazy_load_data(self, file: str | Path, extra_info: dict | None = None) -> Iterator[Document]:  # type: ignore[override]
        path = Path(file)
        reader, total = _open(path)
        check_pages(path, total, self.limits)  # before any page is read
        labels: list[str] | None
        try:
            labels = list(reader.page_labels)
        except Exception:  # noqa: BLE001 - broken /PageLabels tree: fall back to numbers
            labels = None
        pages: list[tuple[str, list[StyledLine]]] = []
        for index in range(total):
            try:
                pages.append(styled_page(reader.pages[index]))
            except RecursionError:
                pages.append(("", []))
            except Exception as exc:  # noqa: BLE001 - one damaged page must not lose the document
                if index == 0 and total == 1:
                    raise DocumentError(path, f"corrupt or truncated PDF: {exc or type(exc).__name__}") from None
                pages.append(("", []))
            if self.on_page is not None:
                self.on_page(index + 1, total)
        if not any(text.strip() for text, _ in pages):
            raise DocumentError(path, OCR_HINT)
        # Headings by font, decided over the whole document (the body style is the commonest one)
        marked = mark_headings(pages, outline_titles(reader))
        for index, text in enumerate(marked):
            meta = base_metadata(path, FORMAT_TEXT, page=index + 1, total=total)
            if labels and index < len(labels):
                meta["page_label"] = labels[index]
            if any(line.startswith("#") for line in text.split("\n")):
                meta["headings"] = "marked"
            meta.update(extra_info or {})
            yield Document(text=text, metadata=meta)

    def load_data(self, file: str | Path, extra_info: dict | None = None) -> list[Document]:  # type: ignore[override]
        return list(self.lazy_load_data(file, extra_info))
