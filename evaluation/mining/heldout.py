"""Held out: for each rule with two or more violating examples, its examples are split into
min(n, folds) folds (its compliant examples round-robin with them); per fold a detector is mined
from the other folds — the book's background without the held-out examples, the book's other
compliant examples still in verification — and run, as a review runs it, on the held-out violating
examples (a hit is a true positive, a miss a false negative; a fold with no detector misses them
all) and on the negatives: the rule's held-out compliant examples and, when the book has them,
its independent compliant files of that rule (a hit is a false positive). Those files count in the
printed precision but never in what a choice is made by (`HeldOut.score`: the book's own examples).

Every fold of every rule of a book is mined in one batch (`run_with_forms`), so the corpus is counted
for all of them at once, as indexing a book does.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from dualrag.rulebook import detector_rows
from indexers.mining import Backgrounds, ExamplePool, MiningOptions, RuleMiner, words_of
from indexers.mining.examples import code_of
from indexers.mining.forms import run_with_forms

from .books import Book


@dataclass
class HeldOut:
    rules: int = 0
    folds: int = 0
    with_detector: int = 0
    tp: int = 0
    fn: int = 0
    fp: int = 0
    tn: int = 0
    fp_independent: int = 0  # of `fp`: on the independent compliant files (never a choice's evidence)
    tn_independent: int = 0
    other_fires: int = 0  # fold detectors firing on other rules' violating examples (informational)
    other_runs: int = 0
    levels: dict[str, int] = field(default_factory=dict)  # lattice steps taken by the fold detectors
    # the misses and false positives on the book's own examples (never the independent files'):
    # (rule id, "no detector" | "missed" | "false positive", the fold's pattern or why it has none,
    # the example's code)
    failures: list[tuple[str, str, str, str]] = field(default_factory=list, repr=False)

    def blocks(self) -> Counter:
        """What the failures on the book's own examples come to: misses of folds without a
        detector by why their best candidate was turned down, misses of folds with one, and false
        positives by whether the pattern asks for names only."""
        out: Counter = Counter()
        for _, kind, detail, _ in self.failures:
            out[f"{kind}: {_reason(detail)}" if kind == "no detector" else kind] += 1
        return out

    @property
    def precision(self) -> float | None:
        return self.tp / (self.tp + self.fp) if self.tp + self.fp else None

    @property
    def recall(self) -> float | None:
        return self.tp / (self.tp + self.fn) if self.tp + self.fn else None

    @property
    def precision_own(self) -> float | None:
        """Precision on the book's own examples only (the independent files left out)."""
        fp = self.fp - self.fp_independent
        return self.tp / (self.tp + fp) if self.tp + fp else None

    def score(self) -> float:
        """What a choice is made by: recall where precision on the book's own examples holds the
        floor (0.90), else 0."""
        p, r = self.precision_own, self.recall
        return 0.0 if r is None or (p is not None and p < 0.90) else r


def _why_none(miner: RuleMiner) -> str:
    """Why a fold has no detector: what turned its best-ranked candidate down, else the note."""
    rejected = miner.result.rejected
    return rejected[0].reason if rejected else miner.result.note or "no candidate"


def _reason(text: str) -> str:
    """A rejection's reason without its numbers and rule ids (so alike reasons count together)."""
    text = re.sub(r"\d[\d,.]*\+?", "N", text)
    text = re.sub(r"(compliant example of|example) \S+", r"\1 X", text)
    return re.sub(r"\(.*\)", "", text).strip()


def fires(detector, language: str, code: str) -> bool:
    try:
        return bool(detector_rows(detector, language, code))
    except Exception:  # noqa: BLE001 - a query this grammar refuses fires nowhere
        return False


def held_out(book: Book, options: MiningOptions, folds_cap: int = 5,
             negatives: Mapping[str, Sequence[str]] | None = None) -> HeldOut:
    """`negatives`: more compliant code per rule id (the independent compliant files)."""
    units = [u for u in book.units if u.bad_examples or u.good_examples]
    language = {u.rule_id: (u.languages[0] if u.languages else options.language) for u in units}
    codes = {u.rule_id: ([c for c in map(code_of, u.bad_examples) if c], [c for c in map(code_of, u.good_examples) if c])
             for u in units}
    background = Backgrounds()
    for rid, (bad, good) in codes.items():
        for c in bad + good:
            background.add(c, language[rid])
    book_compliant = [(rid, c) for rid, (_, good) in codes.items() for c in good]
    pools: dict[str, ExamplePool] = {}
    for rid, (bad, _) in codes.items():
        pool = pools.setdefault(language[rid], ExamplePool(language[rid], share=options.max_book_share))
        pool.examples += [(rid, c) for c in bad]
    out = HeldOut()
    runs: list[tuple[RuleMiner, list[str], list[str], list[str], str]] = []
    for unit in units:
        bad, good = codes[unit.rule_id]
        if len(bad) < 2:
            continue
        out.rules += 1
        folds = min(len(bad), folds_cap)
        for f in range(folds):
            test_bad = [c for j, c in enumerate(bad) if j % folds == f]
            test_good = [c for j, c in enumerate(good) if j % folds == f]
            train_bad = [c for j, c in enumerate(bad) if j % folds != f]
            train_good = [c for j, c in enumerate(good) if j % folds != f]
            lang = language[unit.rule_id]
            bg = background.without([(c, lang) for c in test_bad + test_good])
            compliant = [(rid, c) for rid, c in book_compliant if rid != unit.rule_id] + \
                        [(unit.rule_id, c) for c in train_good]
            miner = RuleMiner(unit.rule_id, words_of(unit, lang, options), lang, train_bad, train_good, compliant, bg,
                              options)
            runs.append((miner, test_bad, test_good, list((negatives or {}).get(unit.rule_id, ())), lang))
    run_with_forms([m for m, *_ in runs], options, pools)
    for miner, test_bad, test_good, independent, lang in runs:
        out.folds += 1
        det = miner.result.detector
        out.with_detector += det is not None
        for step in miner.result.level:
            out.levels[step] = out.levels.get(step, 0) + 1
        for c in test_bad:
            hit = det is not None and fires(det, lang, c)
            out.tp += hit
            out.fn += not hit
            if not hit:
                out.failures.append((miner.result.rule_id, "missed" if det is not None else "no detector",
                                     det.pattern if det is not None else _why_none(miner), c))
        for k, c in enumerate(test_good + independent):
            hit = det is not None and fires(det, lang, c)
            out.fp += hit
            out.tn += not hit
            if k >= len(test_good):
                out.fp_independent += hit
                out.tn_independent += not hit
            elif hit:
                out.failures.append((miner.result.rule_id, "false positive", det.pattern, c))
        if det is not None:
            out.other_runs += pools[lang].others(miner.result.rule_id)
            out.other_fires += pools[lang].count([det], [miner.result.rule_id])[0]
    return out
