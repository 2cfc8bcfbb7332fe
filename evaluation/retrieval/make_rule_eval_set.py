#!/usr/bin/env python3
"""Render our own Java review rules as three rule books with the structures teams actually use.

    .venv/bin/python -m evaluation.retrieval.make_rule_eval_set [--out DIR]

Writes into DIR (default ~/.cache/dualrag/rule-eval-set; the documents are not committed):

- rules-word.docx: a Heading 1 per chapter, a Heading 2 "<CODE>. <title>" per rule, prose
  paragraphs, "Noncompliant:"/"Compliant:" labels with the code one monospace paragraph per line;
- rules-numbered.md: "# 1 Chapter", "## 1.1 Topic", "### 1.1.1 <title>" per rule (the section
  number is the rule's only id), prose, "**Bad:**"/"**Good:**" fenced java blocks;
- rules-bold.pdf: running header and "Page N" footer, bold chapter titles, a bold 11pt
  "<CODE>  <title>" line per rule, wrapped 10pt prose and Courier example lines, rules flowing
  over page breaks;
- manifest.json: per rule its code, title, chapter, anchor and expected id per structure.

An anchor is the first 32 whitespace-free characters of the rule's first paragraph; the generator
refuses to write a set in which an anchor is not unique or is not found exactly once in every
rendering's extracted text, so the evaluation can never score against a broken anchor.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from evaluation.books.pdf_flow import PdfFlow, rendered_text
from evaluation.core.scoring import squash
from evaluation.retrieval.rule_eval_set import CHAPTERS, INTRO, TITLE, Chapter, Rule

DEFAULT_OUT = Path.home() / ".cache" / "dualrag" / "rule-eval-set"
DOCUMENTS = {"docx": "rules-word.docx", "md": "rules-numbered.md", "pdf": "rules-bold.pdf"}
ANCHOR_CHARS = 32
MAX_CODE_COLUMNS = 84  # what fits the PDF's Courier 9pt text width without wrapping


def all_rules(chapters: tuple[Chapter, ...] = CHAPTERS) -> list[Rule]:
    return [rule for chapter in chapters for rule in chapter.rules]


def anchor_of(rule: Rule) -> str:
    return squash(rule.paragraphs[0])[:ANCHOR_CHARS]


def _source_text(rule: Rule) -> str:
    return "\n".join([rule.code, rule.title, rule.prose, rule.bad or "", rule.good or ""])


def check_rules(chapters: tuple[Chapter, ...] = CHAPTERS) -> None:
    """Raise ValueError if the data could render ambiguously: duplicate codes, shared anchors,
    non-ASCII text (the PDF's standard fonts) or example lines too wide for the PDF."""
    rules = all_rules(chapters)
    problems = []
    codes = [r.code for r in rules]
    problems += [f"duplicate code {c}" for c in sorted({c for c in codes if codes.count(c) > 1})]
    sources = [squash(_source_text(r)) for r in rules]
    for rule in rules:
        anchor = anchor_of(rule)
        owners = [r.code for r, text in zip(rules, sources, strict=True) if anchor in text]
        if owners != [rule.code]:
            problems.append(f"{rule.code}: anchor {anchor!r} occurs in {owners}")
        if not _source_text(rule).isascii():
            problems.append(f"{rule.code}: non-ASCII text")
        wide = [line for code in (rule.bad, rule.good) if code for line in code.splitlines()
                if len(line) > MAX_CODE_COLUMNS]
        problems += [f"{rule.code}: example line wider than {MAX_CODE_COLUMNS}: {line!r}" for line in wide]
    if problems:
        raise ValueError("rule data is inconsistent:\n  " + "\n  ".join(problems))


def _topics(chapter: Chapter) -> dict[str, list[Rule]]:
    """The chapter's rules grouped by topic, topics in order of first appearance."""
    groups: dict[str, list[Rule]] = {}
    for rule in chapter.rules:
        groups.setdefault(rule.topic, []).append(rule)
    return groups


def section_numbers(chapters: tuple[Chapter, ...] = CHAPTERS) -> dict[str, str]:
    """The Markdown rendering's id of each rule: chapter.topic.rule, e.g. 3.2.1."""
    numbers = {}
    for c, chapter in enumerate(chapters, 1):
        for t, rules in enumerate(_topics(chapter).values(), 1):
            for r, rule in enumerate(rules, 1):
                numbers[rule.code] = f"{c}.{t}.{r}"
    return numbers


# ------------------------------------------------------------------------------------- Word


def write_docx(path: Path, chapters: tuple[Chapter, ...]) -> None:
    import docx
    from docx.enum.style import WD_STYLE_TYPE
    from docx.shared import Pt

    document = docx.Document()
    code_style = document.styles.add_style("Code", WD_STYLE_TYPE.PARAGRAPH)
    code_style.base_style = document.styles["Normal"]
    code_style.font.name = "Courier New"
    code_style.font.size = Pt(9)
    code_style.paragraph_format.space_after = Pt(0)
    document.sections[0].header.paragraphs[0].text = TITLE

    document.add_heading(TITLE, 0)
    document.add_paragraph(INTRO)
    for chapter in chapters:
        document.add_heading(chapter.title, 1)
        for rule in chapter.rules:
            document.add_heading(f"{rule.code}. {rule.title}", 2)
            document.add_paragraph(f"Level: {rule.level}")
            for paragraph in rule.paragraphs:
                document.add_paragraph(paragraph)
            for label, code in (("Noncompliant:", rule.bad), ("Compliant:", rule.good)):
                if code:
                    document.add_paragraph().add_run(label).bold = True
                    for line in code.splitlines():
                        document.add_paragraph(line, style="Code")
    document.save(str(path))


# --------------------------------------------------------------------------------- Markdown


def write_markdown(path: Path, chapters: tuple[Chapter, ...]) -> None:
    numbers = section_numbers(chapters)
    out = [f"**{TITLE}**", "", INTRO, ""]
    for c, chapter in enumerate(chapters, 1):
        out += [f"# {c} {chapter.title}", ""]
        for t, (topic, rules) in enumerate(_topics(chapter).items(), 1):
            out += [f"## {c}.{t} {topic}", ""]
            for rule in rules:
                out += [f"### {numbers[rule.code]} {rule.title}", "", f"Level: {rule.level}", ""]
                for paragraph in rule.paragraphs:
                    out += [paragraph, ""]
                for label, code in (("**Bad:**", rule.bad), ("**Good:**", rule.good)):
                    if code:
                        out += [label, "", "```java", code, "```", ""]
    path.write_text("\n".join(out), encoding="utf-8")


# -------------------------------------------------------------------------------------- PDF


def _pdf_rule(flow: PdfFlow, rule: Rule) -> tuple[int, int]:
    """Draw one rule; its first and last page."""
    body = flow.leading(10)
    flow.add(f"{rule.code}  {rule.title}", "Helvetica-Bold", 11, space_before=10, keep_with=3 * body + 4)
    first = flow.page
    flow.add(f"Level: {rule.level}", "Helvetica", 10)
    for paragraph in rule.paragraphs:
        for i, line in enumerate(flow.wrap(paragraph, "Helvetica", 10)):
            flow.add(line, "Helvetica", 10, space_before=4 if i == 0 else 0)
    for label, code in (("Noncompliant:", rule.bad), ("Compliant:", rule.good)):
        if code:
            flow.add(label, "Helvetica-Bold", 10, space_before=4, keep_with=flow.leading(9))
            for line in code.splitlines():
                flow.add(line, "Courier", 9, indent=14)
    return first, flow.page


def write_pdf(path: Path, chapters: tuple[Chapter, ...]) -> dict[str, tuple[int, int]]:
    """Write the PDF; the first and last page of every rule (some rules straddle a break)."""
    flow = PdfFlow(path, TITLE)
    flow.add(TITLE, "Helvetica-Bold", 18)
    for line in flow.wrap(INTRO, "Helvetica", 10):
        flow.add(line, "Helvetica", 10)
    pages = {}
    rule_start = flow.leading(11) + 10 + 3 * flow.leading(10) + 4
    for c, chapter in enumerate(chapters, 1):
        flow.add(f"{c} {chapter.title}", "Helvetica-Bold", 14, space_before=18, keep_with=rule_start)
        for rule in chapter.rules:
            pages[rule.code] = _pdf_rule(flow, rule)
    flow.save()
    return pages


# ------------------------------------------------------------------------- checks, manifest


def anchor_problems(structure: str, path: Path, rules: list[Rule]) -> list[str]:
    """Anchors that do not occur exactly once in the rendering's extracted, whitespace-free text."""
    text = squash(rendered_text(structure, path))
    return [f"{structure}: {r.code} anchor {anchor_of(r)!r} occurs {text.count(anchor_of(r))} times"
            for r in rules if text.count(anchor_of(r)) != 1]


def generate(out: Path, chapters: tuple[Chapter, ...] = CHAPTERS) -> dict:
    """Write the three renderings and manifest.json into `out`; the manifest."""
    check_rules(chapters)
    out.mkdir(parents=True, exist_ok=True)
    paths = {structure: out / name for structure, name in DOCUMENTS.items()}
    write_docx(paths["docx"], chapters)
    write_markdown(paths["md"], chapters)
    pdf_pages = write_pdf(paths["pdf"], chapters)

    rules = all_rules(chapters)
    problems = [p for structure, path in paths.items() for p in anchor_problems(structure, path, rules)]
    if problems:
        raise ValueError("anchors do not survive rendering:\n  " + "\n  ".join(problems))

    numbers = section_numbers(chapters)
    manifest = {
        "title": TITLE,
        "documents": DOCUMENTS,
        "rules": [
            {
                "code": rule.code,
                "title": rule.title,
                "level": rule.level,
                "chapter": chapter.title,
                "topic": rule.topic,
                "anchor": anchor_of(rule),
                "ids": {"docx": rule.code, "md": numbers[rule.code], "pdf": rule.code},
                "pdf_pages": list(pdf_pages[rule.code]),
            }
            for chapter in chapters
            for rule in chapter.rules
        ],
    }
    (out / "manifest.json").write_text(json.dumps(manifest, indent=2) + "\n", encoding="utf-8")
    return manifest


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help=f"output directory (default {DEFAULT_OUT})")
    args = parser.parse_args()
    manifest = generate(args.out)
    straddling = sum(1 for r in manifest["rules"] if r["pdf_pages"][0] != r["pdf_pages"][1])
    print(f"{len(manifest['rules'])} rules in {len(CHAPTERS)} chapters written to {args.out} "
          f"({', '.join(DOCUMENTS.values())}, manifest.json); {straddling} rules straddle a PDF page break")
    return 0


if __name__ == "__main__":
    sys.exit(main())
