"""The books mining is measured on, and where everything it reads lives (one constant each, so a
move of `scripts/` is one edit here).

- `dev`: the dev guideline PDF, segmented as `index rules` segments it (its 反例/正例 are the examples);
- every `evaluation/books/<book>/rules.jsonl`: `violating` and `compliant` are the
  examples, `language` (default java) the language of each rule's code.
"""

from __future__ import annotations

import json
import os
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from dualrag.config.rules import RulesConfig
from dualrag.units import RuleSource, RuleUnit
from evaluation import ROOT, SHARED
from indexers.mining.corpus_root import clean_corpus_folder

EVAL = SHARED / "eval"
DEV_PDF = EVAL / "kb" / "java-manual-huangshan.pdf"
P3C = EVAL / "p3c" / "dev.jsonl"
BUGS = EVAL / "bugs" / "dev.jsonl"
RULE_BOOKS = ROOT / "evaluation" / "books"
# The clean corpora: what `dualrag corpus build` put in ~/.cache/dualrag/corpus (as `index rules`
# finds it), or a folder named by DUALRAG_<LANGUAGE>_SOURCES.
CORPORA = {language: Path(os.environ[f"DUALRAG_{language.upper()}_SOURCES"])
           if os.environ.get(f"DUALRAG_{language.upper()}_SOURCES") else clean_corpus_folder(RulesConfig(), language)
           for language in ("java", "python")}
JAVA_CORPUS = CORPORA["java"]


def book_names() -> list[str]:
    """dev, then every rule book with a rules.jsonl, in name order."""
    found = sorted(p.parent.name for p in RULE_BOOKS.glob("*/rules.jsonl"))
    return ["dev", *found]


@dataclass(frozen=True)
class Book:
    name: str
    units: tuple[RuleUnit, ...]

    @property
    def language(self) -> str:
        """The language most of its rules' code is in."""
        counts = Counter(u.languages[0] if u.languages else "java" for u in self.units)
        return counts.most_common(1)[0][0] if counts else "java"


def load(name: str) -> Book:
    if name == "dev":
        from indexers.rules import segment_with_report

        return Book(name, tuple(segment_with_report(DEV_PDF, "eval")[0]))
    path = RULE_BOOKS / name / "rules.jsonl"
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    return Book(name, tuple(
        RuleUnit(rule_id=r["id"], title=r["title"], text=r.get("prose") or r["title"],
                 bad_examples=list(r.get("violating") or []), good_examples=list(r.get("compliant") or []),
                 source=RuleSource(kb="eval", file=f"{name}/rules.jsonl"), languages=[r.get("language") or "java"])
        for r in rows))


def book_units(name: str) -> list[RuleUnit]:
    """The rules of a book as `index rules` would make them (the dev guideline's segmenter ids)."""
    return list(load(name).units)
