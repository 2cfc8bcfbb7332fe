"""SOURCE.md of a rule book: where it came from (repository, commit, paths, licence), how its fields
and example labels were made (the `NOTES` of the book's builder), its counts, and how to rebuild it."""

from __future__ import annotations

from collections import Counter

from evaluation.books.library import BOOK_DIR, REPOS, TITLES
from evaluation.books.snapshot import Snapshot


def write_source_md(book: str, snapshot: Snapshot, rules: list[dict], stats: dict, total: int, *,
                    notes: dict[str, str], language: str, fewer: str) -> None:
    """SOURCE.md of a book: `notes` say how it was made (paths, licence, fields, classification),
    `total` how many rules the source had, `fewer` why fewer were kept."""
    violating = sum(len(r["violating"]) for r in rules)
    compliant = sum(len(r["compliant"]) for r in rules)
    cats = Counter(r["category"] for r in rules)
    lines = [
        f"# {TITLES[book]} (`{book}`)",
        "",
        f"- Repository: https://github.com/{REPOS[book]}",
        f"- Commit: `{snapshot.commit}`",
        f"- Paths: {notes['paths']}",
        f"- Licence: {notes['licence']}",
        ("- Use: the projects' own documentation, used as evaluation data under their licences; it is not "
         "shipped in the dualrag package."),
        "",
        "## Fields",
        "",
        notes["fields"],
        "",
        "## How examples were classified",
        "",
        notes["classification"],
        "",
        "## Counts",
        "",
        f"- Rules with a violating {language} example: {total}; kept: {len(rules)}"
        + (f" ({fewer})" if total > len(rules) else ""),
        f"- Violating examples: {violating}; compliant examples: {compliant}",
        f"- Rules with at least one compliant example: {sum(bool(r['compliant']) for r in rules)}",
        "- Categories: " + ", ".join(f"{c} {n}" for c, n in sorted(cats.items())),
        "- Build figures: " + ", ".join(f"{k} {v}" for k, v in sorted(stats.items())),
        "",
        "## Rebuild",
        "",
        f"    .venv/bin/python -m evaluation.books.{book}.build PATH   # bare git dir or checkout",
        f"    .venv/bin/python -m evaluation.books render --books {book} --out DIR",
        f"    .venv/bin/python -m evaluation.books check --books {book}",
        "",
    ]
    (BOOK_DIR / book / "SOURCE.md").write_text("\n".join(lines), encoding="utf-8")

