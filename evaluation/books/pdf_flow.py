"""A PDF drawn line by line as exported documents are, and the text a reader gets back out of each
rendering: what the public rule books (`render`) and the own rule-evaluation set
(evaluation/retrieval/make_rule_eval_set.py) share."""

from __future__ import annotations

from pathlib import Path


class PdfFlow:
    """Lines drawn top-down over A4 pages with a running header and a page footer.

    `keep_with` on a line is the height of what follows it that must share its page, so a rule
    heading never ends a page alone, while the rest of a rule flows freely over page breaks."""

    MARGIN_X, TOP, BOTTOM = 60.0, 770.0, 64.0

    def __init__(self, path: Path, title: str) -> None:
        from reportlab.lib.pagesizes import A4
        from reportlab.pdfgen.canvas import Canvas

        self.title = title
        self.width, self.height = A4
        self.text_width = self.width - 2 * self.MARGIN_X
        self.canvas = Canvas(str(path), pagesize=A4, invariant=1)  # the same bytes on every run
        self.canvas.setTitle(title)
        self.page = 0
        self.y = self.TOP
        self._start_page()

    def _start_page(self) -> None:
        if self.page:
            self._end_page()
        self.page += 1
        self.canvas.setFont("Helvetica", 8)
        self.canvas.drawString(self.MARGIN_X, self.height - 40, self.title)
        self.y = self.TOP

    def _end_page(self) -> None:
        """The footer goes last, as in most exported PDFs: extracted text has it after the body."""
        self.canvas.setFont("Helvetica", 8)
        self.canvas.drawCentredString(self.width / 2, 32, f"Page {self.page}")
        self.canvas.showPage()

    @staticmethod
    def leading(size: float) -> float:
        return round(size * 1.3, 1)

    def add(self, text: str, font: str, size: float, *, indent: float = 0, space_before: float = 0,
            keep_with: float = 0) -> None:
        lead = self.leading(size)
        if self.y - space_before - lead - keep_with < self.BOTTOM:
            self._start_page()
        elif self.y < self.TOP:
            self.y -= space_before
        self.y -= lead
        self.canvas.setFont(font, size)
        self.canvas.drawString(self.MARGIN_X + indent, self.y, text)

    def wrap(self, text: str, font: str, size: float) -> list[str]:
        from reportlab.lib.utils import simpleSplit

        return simpleSplit(text, font, size, self.text_width)

    def save(self) -> None:
        self._end_page()
        self.canvas.save()


def rendered_text(structure: str, path: Path) -> str:
    """The text a reader gets out of a rendering: pypdf for the PDF, python-docx paragraphs for Word."""
    if structure == "pdf":
        import pypdf

        return "\n".join(page.extract_text() or "" for page in pypdf.PdfReader(str(path)).pages)
    if structure == "docx":
        import docx

        return "\n".join(p.text for p in docx.Document(str(path)).paragraphs)
    return path.read_text(encoding="utf-8")
