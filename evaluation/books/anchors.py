"""Where a rule is in a rendered document: its anchor (the first whitespace-free characters of its
prose, as many as make it unique in the book), and whether segmenting the rendering gives each rule
one unit of its own (`python -m evaluation.books check` prints it per book and structure)."""

from __future__ import annotations

from pathlib import Path

from evaluation.books.library import load_book
from evaluation.books.pdf_flow import rendered_text
from evaluation.books.render import body_paragraphs, rule_heading, rule_paragraphs
from evaluation.core.scoring import squash

ANCHOR_CHARS = 32


def anchors(rules: list[dict], minimum: int = ANCHOR_CHARS) -> dict[str, str]:
    """Rule id -> its anchor: the first whitespace-free characters of its rendered prose, at least
    `minimum`, extended until the anchor occurs once in the whole book (headings, summaries and
    prose of all rules). A rule whose whole prose also occurs in another rule's text (PMD copies
    InstantiableUtilityClass's criteria into ClassNamingConventions) is anchored on its heading."""
    book = "".join(squash(rule_heading(r)) + "".join(squash(p) for p in body_paragraphs(r)) for r in rules)
    result = {}
    for rule in rules:
        prose = squash(" ".join(rule_paragraphs(rule)))
        n = minimum
        while n < len(prose) and book.count(prose[:n]) > 1:
            n += 8
        result[rule["id"]] = prose[:n] if book.count(prose[:n]) == 1 else squash(rule_heading(rule))
    return result


def segmentation(book: str, structure: str, path: Path, show: int = 0) -> dict:
    """Segment a rendering with the project's segmenter; rules, units, unit-per-rule share."""
    from indexers.rules import segment

    rules = load_book(book)
    anchor = anchors(rules)
    units = segment(path, book)
    texts = [squash(u.full_text()) for u in units]
    document = squash(rendered_text(structure, path))
    missing = [r["id"] for r in rules if document.count(anchor[r["id"]]) != 1]
    clean, failures = 0, {}
    for rule in rules:
        holders = [i for i, t in enumerate(texts) if anchor[rule["id"]] in t]
        if len(holders) != 1:
            failures[rule["id"]] = f"anchor in {len(holders)} units"
            continue
        others = [r["id"] for r in rules if r is not rule and anchor[r["id"]] in texts[holders[0]]]
        if others:
            failures[rule["id"]] = f"unit {units[holders[0]].rule_id} also holds {', '.join(others[:3])}"
        else:
            clean += 1
    if show:
        print(f"--- {book}/{structure}: first {show} units")
        for unit in units[:show]:
            print(f"  {unit.rule_id} | {unit.title[:60]!r} | {unit.text[:70]!r}")
        print(f"--- {book}/{structure}: {len(failures)} failures (first {show})")
        for rid, why in list(failures.items())[:show]:
            print(f"  {rid}: {why}")
    return {"rules": len(rules), "units": len(units), "unit_per_rule": clean / len(rules) if rules else 0.0,
            "anchors_not_once_in_text": len(missing)}

