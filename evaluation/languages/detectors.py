"""The bundled detectors of each pack, and the symbol readers, on every file of the corpus (the whole
file as added lines): crashes (must be 0) and hits per 10,000 lines, by rule."""

from __future__ import annotations

import traceback
from collections import Counter, defaultdict

from dualrag.checks.detectors import applies, detect_hunks
from dualrag.diff.hunks import DiffLine, Hunk
from dualrag.languages.code_symbols import code_symbols, parse_source
from dualrag.rulebook import load_bundled
from dualrag.source.language import language_of
from evaluation.languages.corpus import PACK_LANGUAGES, Tree


def detectors(trees: list[Tree]) -> dict[str, Counter]:
    rules = [r for r in load_bundled() if r.detect is not None]
    out: dict[str, Counter] = defaultdict(Counter)
    for tree in trees:
        for f in sorted(tree.root.rglob("*")):
            if not f.is_file() or ".git" in f.parts:
                continue
            rel = str(f.relative_to(tree.root))
            try:
                text = f.read_text("utf-8")
            except (UnicodeDecodeError, OSError):
                continue
            language = language_of(rel, text)
            if language not in PACK_LANGUAGES:
                continue
            lines = text.split("\n")
            hunk = Hunk(0, 0, 1, len(lines), "", tuple(DiffLine("+", None, i + 1, t) for i, t in enumerate(lines)))
            selected = [r for r in rules if applies(r, language)]
            out[language]["files"] += 1
            out[language]["lines"] += len(lines)
            try:
                found = detect_hunks(rel, language, [hunk], selected)
            except Exception:  # noqa: BLE001 - the figure we want
                out[language]["crashes"] += 1
                traceback.print_exc()
                continue
            for finding in found:
                out[language][f"hit {finding.rule_id}"] += 1
                out[language]["hits"] += 1
    return out


def reader_crashes(trees: list[Tree]) -> Counter:
    """Symbol readers on every file (never raise by contract; a note is not a crash)."""
    out: Counter = Counter()
    for tree in trees:
        for f in tree.root.rglob("*"):
            if not f.is_file() or ".git" in f.parts:
                continue
            rel = str(f.relative_to(tree.root))
            try:
                pf = parse_source(rel, f.read_bytes())
                if pf.language:
                    code_symbols(pf, lambda q: False, repository="r")
                    out[f"{pf.language} files"] += 1
                    out[f"{pf.language} with a note"] += bool(pf.note)
            except Exception:  # noqa: BLE001
                out["crashes"] += 1
                traceback.print_exc()
    return out

