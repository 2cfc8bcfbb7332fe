"""A rule book rendered as the documents teams write: Word (a Heading 1 per category, a Heading 2
"<id>: <title>" per rule, prose paragraphs), PDF (reportlab; bold category and rule heading lines,
wrapped body text, a running header and page footer, rules flowing over page breaks) and Markdown
(`#` category, `##` rule). Only the prose is rendered: the examples are the queries and never appear
in a document, except in the *examples edition* (`examples=True`), which shows every example of a
rule but its first violating one."""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path

from evaluation.books.library import REPOS, STRUCTURES, TITLES, load_book
from evaluation.books.pdf_flow import PdfFlow

_LATIN1_FIX = {"\u2192": "->", "\u2190": "<-", "\u2264": "<=", "\u2265": ">=", "\u2260": "!=", "\u2026": "...",
               "\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"', "\u2013": "-", "\u2014": "-",
               "\u00a0": " ", "\u2022": "-", "\u2212": "-", "\u00d7": "x"}


def plain(text: str) -> str:
    """A prose paragraph as the documents show it: no backticks or emphasis markers, ASCII-safe
    (the PDF's standard fonts)."""
    text = text.replace("`", "")
    text = re.sub(r"(?<![\w*])\*\*?(?=\S)(.+?)(?<=\S)\*\*?(?![\w*])", r"\1", text)
    text = re.sub(r"(?<!\w)__?(?=\S)(.+?)(?<=\S)__?(?!\w)", r"\1", text)
    text = "".join(_LATIN1_FIX.get(ch, ch) for ch in text)
    text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
    return " ".join(text.split())


MAX_HEADING_TITLE = 90  # a longer title (Error Prone's one-sentence summaries) goes under the heading


def rule_heading(rule: dict) -> str:
    """"<id>: <title>", or the id alone when the title is a long sentence (it then opens the body)."""
    title = plain(rule["title"])
    return plain(rule["id"]) if len(title) > MAX_HEADING_TITLE else f"{plain(rule['id'])}: {title}"


def rule_paragraphs(rule: dict) -> list[str]:
    return [p for p in (plain(p) for p in rule["prose"].split("\n\n")) if p]


def body_paragraphs(rule: dict) -> list[str]:
    """What a document shows under the rule heading: the level line, a long title, the prose."""
    title = plain(rule["title"])
    lead = [level_line(rule)] if level_line(rule) else []
    if len(title) > MAX_HEADING_TITLE:
        lead.append(f"Summary: {title}")
    return lead + rule_paragraphs(rule)


def shown_examples(rule: dict) -> list[tuple[str, str]]:
    """The examples the *examples edition* shows under a rule: (heading, code) for every violating
    example but the first (the first is the query, never in the document) and every compliant one."""
    heads = [("Noncompliant Code Example", code) for code in rule["violating"][1:]]
    return heads + [("Compliant Solution", code) for code in rule.get("compliant") or []]


def code_lines(code: str) -> list[str]:
    """An example's lines as the documents show them: ASCII-safe (the PDF's standard fonts), tabs as spaces."""
    text = "".join(_LATIN1_FIX.get(ch, ch) for ch in code.expandtabs(4))
    text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
    return [line.rstrip() for line in text.strip("\n").splitlines()]


def level_line(rule: dict) -> str | None:
    return f"Level: {rule['level']}" if rule.get("level") else None


def categories(rules: list[dict]) -> dict[str, list[dict]]:
    grouped: dict[str, list[dict]] = {}
    for rule in rules:
        grouped.setdefault(rule["category"], []).append(rule)
    return grouped


def intro(book: str, examples: bool = False) -> str:
    shown = ("each rule's code examples but its first violating one are included" if examples
             else "code examples are not included")
    return f"{TITLES[book]}. Rule descriptions from {REPOS[book]} (see SOURCE.md for the licence), rendered for evaluation; {shown}."


def write_docx(path: Path, book: str, rules: list[dict], examples: bool = False) -> None:
    import docx
    from docx.shared import Pt

    document = docx.Document()
    document.sections[0].header.paragraphs[0].text = TITLES[book]
    document.add_heading(TITLES[book], 0)
    document.add_paragraph(intro(book, examples))
    for category, members in categories(rules).items():
        document.add_heading(plain(category), 1)
        for rule in members:
            document.add_heading(rule_heading(rule), 2)
            for paragraph in body_paragraphs(rule):
                document.add_paragraph(paragraph)
            for head, code in shown_examples(rule) if examples else ():
                document.add_heading(head, 3)
                for line in code_lines(code):  # one paragraph a line, in a monospaced run, as editors paste code
                    run = document.add_paragraph().add_run(line)
                    run.font.name, run.font.size = "Courier New", Pt(9)
    document.save(str(path))


def write_markdown(path: Path, book: str, rules: list[dict], examples: bool = False) -> None:
    out = [f"**{TITLES[book]}**", "", intro(book, examples), ""]
    for category, members in categories(rules).items():
        out += [f"# {plain(category)}", ""]
        for rule in members:
            out += [f"## {rule_heading(rule)}", ""]
            for paragraph in body_paragraphs(rule):
                out += [paragraph, ""]
            for head, code in shown_examples(rule) if examples else ():
                out += [f"### {head}", "", f"```{rule.get('language', 'java')}", *code_lines(code), "```", ""]
    path.write_text("\n".join(out), encoding="utf-8")


_ITEM_LIKE = re.compile(r"^\s*(?:\d{1,4}\s*[.．、)）]|[(（]\s*\d{1,3}\s*[)）])")


class _PdfFlow(PdfFlow):
    """The shared flow, with paragraphs that never wrap into a line opening like a numbered item."""

    def paragraph(self, text: str, font: str = "Helvetica", size: float = 10, space_before: float = 4) -> None:
        from reportlab.lib.utils import simpleSplit

        lines = simpleSplit(text, font, size, self.text_width)
        for i in range(1, len(lines)):
            # a wrapped line must not open like a numbered item ("10. Additionally"): take the
            # previous line's last word along, as a typesetter would
            if _ITEM_LIKE.match(lines[i]) and " " in lines[i - 1]:
                head, last = lines[i - 1].rsplit(" ", 1)
                lines[i - 1], lines[i] = head, f"{last} {lines[i]}"
        for i, line in enumerate(lines):
            self.add(line, font, size, space_before=space_before if i == 0 else 0)


def write_pdf(path: Path, book: str, rules: list[dict], examples: bool = False) -> None:
    from reportlab.lib.utils import simpleSplit

    flow = _PdfFlow(path, TITLES[book])
    flow.add(TITLES[book], "Helvetica-Bold", 18)
    flow.paragraph(intro(book, examples))
    body = flow.leading(10)
    for category, members in categories(rules).items():
        flow.add(plain(category), "Helvetica-Bold", 14, space_before=18, keep_with=flow.leading(12) + 3 * body + 14)
        for rule in members:
            heading = simpleSplit(rule_heading(rule), "Helvetica-Bold", 12, flow.text_width)
            for i, line in enumerate(heading):
                flow.add(line, "Helvetica-Bold", 12, space_before=12 if i == 0 else 0,
                         keep_with=(len(heading) - 1 - i) * flow.leading(12) + 3 * body + 4)
            for i, paragraph in enumerate(body_paragraphs(rule)):
                flow.paragraph(paragraph, space_before=0 if i == 0 else 4)
            for head, code in shown_examples(rule) if examples else ():
                flow.add(head, "Helvetica-Bold", 10, space_before=6, keep_with=2 * flow.leading(9))
                for line in code_lines(code):
                    indent = 5.4 * (len(line) - len(line.lstrip()))  # Courier 9 pt: 5.4 pt a character
                    for part in simpleSplit(line.strip(), "Courier", 9, flow.text_width - indent) or [""]:
                        flow.add(part, "Courier", 9, indent=indent)
    flow.save()


WRITERS = {"docx": write_docx, "md": write_markdown, "pdf": write_pdf}


def render(book: str, structure: str, out_dir: str | Path, *, examples: bool = False) -> Path:
    """Write book `book` in `structure` ("docx", "md" or "pdf") as out_dir/<book>.<ext>; the path.
    Prose only: no example of any rule is in the document. `examples`: the *examples edition*, the
    shape of a standard that shows code under each rule (`shown_examples`: every example but each
    rule's first violating one, which stays a query), as out_dir/<book>-examples.<ext>."""
    if structure not in WRITERS:
        raise ValueError(f"unknown structure {structure!r}; choose from {', '.join(WRITERS)}")
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    path = out / f"{book}{'-examples' if examples else ''}.{STRUCTURES[structure]}"
    WRITERS[structure](path, book, load_book(book), examples)
    return path
