"""Rule books shaped as teams write them: a heading per rule (Word), numbered sections (Markdown),
bold rule headings with codes in a PDF, oversized rules. One unit per rule, the document's own ids."""

from __future__ import annotations

import re
from pathlib import Path

from dualrag.units import RuleLevel
from indexers.readers import read_document
from indexers.rules import segment
from indexers.rules.segmenter import segment_with_reports

RULES = [
    ("QA01-J", "Do not compare strings with ==", ("Reference equality of two String objects says nothing about "
     "their characters; interned literals hide the bug in tests."), "if (name == other) {", "if (name.equals(other)) {"),
    ("QA02-J", "Close every stream you open", ("A leaked file handle survives until the finaliser runs, which may "
     "be never on a busy server."), "InputStream in = open(path);", "try (InputStream in = open(path)) {"),
    ("QA03-J", "Never catch Throwable", ("Catching Throwable also swallows OutOfMemoryError and thread death, "
     "leaving the process in an unknown state."), "catch (Throwable t) {}", "catch (IOException e) {"),
]


def flat(text: str) -> str:
    return re.sub(r"\s+", "", text)


def _word_rule_book(path: Path) -> Path:
    import docx

    d = docx.Document()
    d.add_heading("Chapter 1. Basics", level=1)
    d.add_paragraph("This chapter collects the rules every change must follow.")
    for code, title, prose, bad, good in RULES:
        d.add_heading(f"{code}. {title}", level=2)
        d.add_paragraph(prose)
        d.add_heading("Noncompliant Code Example", level=3)
        d.add_paragraph(bad)
        d.add_heading("Compliant Solution", level=3)
        d.add_paragraph(good)
    d.save(str(path))
    return path


def test_word_heading_per_rule_with_codes(tmp_path):
    units = segment(_word_rule_book(tmp_path / "book.docx"), "team")
    assert [u.rule_id for u in units] == [code for code, *_ in RULES]
    for unit, (_, title, prose, bad, good) in zip(units, RULES, strict=True):
        assert unit.title == title and flat(prose) in flat(unit.text)
        assert unit.bad_examples == [bad] and unit.good_examples == [good]
        assert unit.section == ["Chapter 1. Basics", f"{unit.rule_id}. {title}"]
    assert all("every change must follow" not in u.full_text() for u in units)  # a chapter's intro is no rule
    (_, report), = segment_with_reports(read_document(tmp_path / "book.docx"), "team")
    assert report.rule_headings == 3 and report.units == 3 and not report.warnings


NUMBERED_MD = """# 1 Safety

## 1.1 Equality

### 1.1.1 String comparison

Reference equality of two String objects says nothing about their characters.
Callers compare with `equals`.

**Bad:**

```java
if (name == other) {}
```

### 1.1.2 Floating point money

Binary floating point cannot hold most decimal fractions, so totals drift by cents.

## 1.2 Errors

### 1.2.1 Swallowed exceptions

An empty catch block hides the failure from everyone who could fix it.
It MUST log or rethrow.
"""


def test_markdown_numbered_sections_are_rules(tmp_path):
    md = tmp_path / "handbook.md"
    md.write_text(NUMBERED_MD, encoding="utf-8")
    units = segment(md, "team")
    assert [(u.rule_id, u.title) for u in units] == [
        ("handbook:1.1.1", "String comparison"), ("handbook:1.1.2", "Floating point money"),
        ("handbook:1.2.1", "Swallowed exceptions")]
    assert units[0].bad_examples == ["```java\nif (name == other) {}\n```"] or "name == other" in units[0].bad_examples[0]
    assert units[2].level is RuleLevel.MANDATORY  # its prose says MUST
    assert "Reference equality" in units[0].text and "Callers compare" in units[0].text


def _pdf_rule_book(path: Path, rules: list[tuple[str, str, str, str, str]], filler: int = 0) -> Path:
    from reportlab.lib.pagesizes import A4
    from reportlab.pdfgen import canvas

    c = canvas.Canvas(str(path), pagesize=A4)
    y = 800

    def line(text: str, font: str, size: int) -> None:
        nonlocal y
        if y < 60:
            c.setFont("Helvetica", 8)
            c.drawString(40, 30, f"Page {c.getPageNumber()}")
            c.showPage()
            y = 800
        c.setFont(font, size)
        c.drawString(40, y, text)
        y -= size + 6

    line("ACME Review Rules", "Helvetica-Bold", 18)
    for code, title, prose, bad, good in rules:
        line(f"{code}  {title}", "Helvetica-Bold", 11)
        for k in range(0, len(prose), 90):
            line(prose[k:k + 90], "Helvetica", 10)
        for _ in range(filler):
            line("More explanation of why this matters in production systems and reviews.", "Helvetica", 10)
        line("Noncompliant:", "Helvetica", 10)
        line(bad, "Courier", 9)
        line("Compliant:", "Helvetica", 10)
        line(good, "Courier", 9)
    c.save()
    return path


def test_pdf_bold_rule_headings_become_units(tmp_path):
    path = _pdf_rule_book(tmp_path / "rules.pdf", RULES, filler=30)  # rules straddle page breaks
    docs = read_document(path)
    assert docs[0].metadata.get("headings") == "marked" or docs[1].metadata.get("headings") == "marked"
    units = segment(path, "team")
    assert [u.rule_id for u in units] == [code for code, *_ in RULES]
    for unit, (_, title, prose, bad, good) in zip(units, RULES, strict=True):
        assert unit.title == title and flat(prose) in flat(unit.text)
        assert flat(bad) in flat("".join(unit.bad_examples)) and flat(good) in flat("".join(unit.good_examples))
    assert units[1].source.page is not None and units[2].source.page > units[0].source.page


def test_oversized_rule_is_split_under_the_cap(tmp_path):
    md = tmp_path / "big.md"
    long_para = " ".join(f"Sentence {i} explains one more reason to close the stream." for i in range(120))
    md.write_text(f"# Rules\n\n## R-1 Close streams\n\n{long_para}\n\n{long_para}\n\n## R-2 Log once\n\nShort.\n",
                  encoding="utf-8")
    (units, report), = segment_with_reports(read_document(md), "team", max_tokens=400)
    parts = [u for u in units if u.rule_id.startswith("R-1")]
    assert len(parts) >= 3 and parts[0].rule_id == "R-1" and parts[1].rule_id == "R-1/2"
    assert all(u.title == "Close streams" and u.section[-1] == "R-1 Close streams" for u in parts)
    assert report.split == 1 and report.largest_tokens <= 400
    assert flat("".join(u.text for u in parts)) == flat(long_para + long_para)  # nothing lost, nothing repeated
    assert units[-1].rule_id == "R-2" and units[-1].text == "Short."


def test_a_lone_code_like_heading_is_not_a_rule_code(tmp_path):
    md = tmp_path / "notes.md"
    md.write_text("# Encoding\n\n## UTF-8 everywhere\n\nFiles are read as UTF-8.\n\n## Logging\n\nLog once.\n",
                  encoding="utf-8")
    ids = [u.rule_id for u in segment(md, "team")]
    assert ids == ["notes:1.1", "notes:1.2"]


def test_report_warns_when_rule_headings_collapse():
    from indexers.rules.report import DocumentReport

    report = DocumentReport(file="x.docx", headings=172, rule_headings=170)
    report.summarise([], len)
    assert any("170 rule headings but only 0 units" in w for w in report.warnings)


def test_a_table_of_rules_is_one_unit_per_row(tmp_path):
    md = tmp_path / "table.md"
    md.write_text("# Security rules\n\n| Code | Rule | Level |\n|---|---|---|\n"
                  "| SEC-01 | Build SQL with bind parameters. Never concatenate input. | MUST |\n"
                  "| SEC-02 | Keep secrets out of logs. | SHOULD |\n", encoding="utf-8")
    units = segment(md, "team")
    assert [(u.rule_id, u.title, u.level) for u in units] == [
        ("SEC-01", "Build SQL with bind parameters.", RuleLevel.MANDATORY),
        ("SEC-02", "Keep secrets out of logs.", RuleLevel.RECOMMENDED)]
    assert "Never concatenate input." in units[0].text


NAMED_MD = """# Correctness

## StringReferenceEquality

Comparing two strings with `==` compares references, not characters.

### Noncompliant Code Example

```java
if (name == other) {}
```

### Compliant Solution

```java
if (name.equals(other)) {}
```

## SwallowedInterrupt

Catching InterruptedException and doing nothing loses the interrupt.

### Noncompliant Code Example

```java
catch (InterruptedException e) {}
```
"""


def test_example_headings_under_a_bare_rule_name_are_its_examples(tmp_path):
    """A rule headed by its name alone (no code, number or imperative) reads as a leaf section; the
    example headings under it are that rule's examples, not sections of their own."""
    md = tmp_path / "checks.md"
    md.write_text(NAMED_MD, encoding="utf-8")
    units = segment(md, "team")
    assert [u.title for u in units] == ["StringReferenceEquality", "SwallowedInterrupt"]
    first, second = units
    assert "name == other" in first.bad_examples[0] and "name.equals(other)" in first.good_examples[0]
    assert "compares references" in first.text and "name ==" not in first.text
    assert "InterruptedException e" in second.bad_examples[0] and not second.good_examples
