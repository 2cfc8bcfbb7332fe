"""Small rule documents generated per test: PDF (reportlab, CJK via a built-in CID font), .docx
(python-docx), Markdown, HTML, text. Nothing is read from outside the test's tmp dir."""

from __future__ import annotations

from pathlib import Path

import pytest


def make_pdf(path: Path, pages: list[list[str]], *, blank_pages: int = 0) -> Path:
    """One PDF page per list of lines (drawn top-down, CJK-capable); `blank_pages` pages of graphics only."""
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.cidfonts import UnicodeCIDFont
    from reportlab.pdfgen import canvas

    pdfmetrics.registerFont(UnicodeCIDFont("STSong-Light"))
    c = canvas.Canvas(str(path))
    for lines in pages:
        c.setFont("STSong-Light", 9)
        y = 800
        for line in lines:
            c.drawString(40, y, line)
            y -= 13
        c.showPage()
    for _ in range(blank_pages):
        c.rect(50, 50, 400, 600, fill=1)  # a "scanned image": no text layer
        c.showPage()
    c.save()
    return path


@pytest.fixture
def pdf_factory(tmp_path: Path):
    def build(pages: list[list[str]], name: str = "doc.pdf", **kw) -> Path:
        return make_pdf(tmp_path / name, pages, **kw)

    return build
