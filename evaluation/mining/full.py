"""A whole book mined as `index rules` mines it: coverage of the rules with violating examples,
what the kept detectors do on the clean corpus, the generality they reached, the time it took."""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass, field

from dualrag.units import RuleUnit
from indexers.mining import MiningOptions, MiningReport, mine_book

from .books import Book


@dataclass
class Full:
    units: list[RuleUnit]  # the units with a kept mined detector
    report: MiningReport
    seconds: float
    rates: list[float] = field(default_factory=list)  # clean-corpus hits per 10k lines, per kept detector
    levels: Counter = field(default_factory=Counter)  # lattice steps taken by the kept detectors

    @property
    def with_examples(self) -> int:
        return self.report.with_examples

    @property
    def kept(self) -> int:
        return len(self.units)

    @property
    def coverage(self) -> float:
        return self.kept / self.with_examples if self.with_examples else 0.0

    @property
    def checked(self) -> bool:
        """Whether the book was mined with a clean-corpus check (the rates mean something)."""
        return self.report.corpus is not None

    @property
    def noisiest(self) -> float:
        return max(self.rates, default=0.0)

    @property
    def together(self) -> float:
        return sum(self.rates)

    def detectors(self) -> dict:
        return {u.rule_id: u.detect for u in self.units}


def full(book: Book, options: MiningOptions) -> Full:
    start = time.perf_counter()
    mined, report = mine_book(list(book.units), options, document=book.name)
    seconds = time.perf_counter() - start
    kept = [u for u in mined if u.detect is not None and u.detect.mined is not None]
    rates = [u.detect.mined.corpus_hits * 10_000 / u.detect.mined.corpus_lines for u in kept
             if u.detect.mined.corpus_lines]
    levels: Counter = Counter(step for u in kept for step in u.detect.mined.level)
    levels["(none)"] = sum(1 for u in kept if not u.detect.mined.level)
    return Full(kept, report, seconds, rates, levels)
