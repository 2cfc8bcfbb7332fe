"""The team knowledge base the rule-check reviews read: a rule book rendered as Markdown (prose
only, `evaluation.books.render`) and indexed with the real CLI, and the map from the book's rule
ids to the ids the indexer gave its units.

The indexer numbers a Markdown rule by its place in the document (`errorprone:1.7`); its title is
the document's heading `"<book id>: <title>"` (or the book id alone when the title is a long
sentence), so the map is made by the heading's text before the first colon.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from evaluation.books import WRITERS, load_book, render

KB = "team"


def stored_units(store: Path) -> list:
    """The units of the team knowledge base (none when the store or the knowledge base is new)."""
    if not store.exists():
        return []
    from dualrag.store import open_store

    with open_store(str(store)) as rules:
        return rules.units(KB) if rules.exists(KB) else []


def render_with_examples(book: str, workdir: Path) -> Path:
    """The book's *examples edition* as Markdown with both sides of every pair held out: each rule's
    first violating example (as the edition always does) and its first compliant one are not in it,
    so neither file a pair adds is shown by the document it is checked against."""
    rules = [{**rule, "compliant": (rule.get("compliant") or [])[1:]} for rule in load_book(book)]
    workdir.mkdir(parents=True, exist_ok=True)
    path = workdir / f"{book}-examples-held-out.md"
    WRITERS["md"](path, book, rules, True)
    return path


def ensure_indexed(book: str, config: Path, store: Path, workdir: Path, *, reindex: bool = False,
                   cwd: Path, examples: bool = False) -> tuple[list, str]:
    """Index `book` (rendered as Markdown under `workdir`; `examples`: `render_with_examples`) into
    the team knowledge base of `store` with `dualrag index rules`, unless it already holds rules (or
    `reindex`); (units, what was done)."""
    units = [] if reindex else stored_units(store)
    if units:
        return units, f"reused knowledge base {KB!r} in {store} ({len(units)} rules)"
    document = render_with_examples(book, workdir) if examples else render(book, "md", workdir)
    cmd = [sys.executable, "-m", "dualrag", "index", "rules", os.path.relpath(document, cwd), "--kb", KB,
           "--config", str(config)]
    proc = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, check=False)
    if proc.returncode != 0:
        raise SystemExit(f"indexing failed ({' '.join(cmd)}):\n{proc.stderr.strip()[-2000:]}")
    # the rules dualrag ships, as the first review would index them: not inside a measured review
    subprocess.run([sys.executable, "-m", "dualrag", "index", "rules", "--bundled", "--config", str(config)],
                   cwd=cwd, capture_output=True, text=True, check=False)
    units = stored_units(store)
    return units, f"indexed {os.path.relpath(document, cwd)} into {KB!r} of {store} ({len(units)} rules): {' '.join(cmd[1:])}"


def rule_map(units: list, book_ids: list[str]) -> tuple[dict[str, str], list[str]]:
    """Book rule id -> stored rule id, matched by the unit title's text before the first colon;
    and the book ids that matched no unit or more than one."""
    by_heading: dict[str, list[str]] = {}
    for unit in units:
        by_heading.setdefault(unit.title.split(":", 1)[0].strip(), []).append(unit.rule_id)
    mapping = {b: by_heading[b][0] for b in book_ids if len(by_heading.get(b, [])) == 1}
    return mapping, [b for b in book_ids if b not in mapping]
