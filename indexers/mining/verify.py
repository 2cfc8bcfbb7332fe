"""Verification of a candidate detector, and the clean corpus it must stay quiet on.

A candidate is kept only when, run exactly as a review runs it (`dualrag.rulebook.detector_rows`:
a regex on each line, a query on the text parsed as one diff fragment), it

(a) fires on every violating example of its rule,
(b) fires on no compliant example of any rule of the document (the book),
(c) fires on at most `max_hits_per_10k` lines per 10,000 lines of a clean corpus, and
(d) fires on at most 5% of the other rules' violating examples (`ExamplePool`; an addition to the
    issue's three: the clean corpus is code of one kind, and a book about Android code taught
    `package test.pkg;` detectors that commons-lang never shows).

It must also name something (an API, a literal the rule names, a construct, keyword or operator
the rule's text names). Without a corpus (c) is not run; the candidate must then be specific on
its own: at least `min_bits` bits. That is reported with the detector (`MinedCheck.corpus_lines`
None). (c) and (d) are counted for many candidates at once (`corpus.py`), by the caller.

A rule may also bring `Variants`: more examples that only verify (see there).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from dualrag.rulebook import detector_rows, tree_rows
from dualrag.units import Detector

from .corpus import Corpus, ExamplePool, Fragments, load_corpus, may_fire
from .examples import raw_root

__all__ = ["NO_VARIANTS", "Corpus", "ExamplePool", "Variants", "Verdict", "load_corpus", "verify"]


@dataclass(frozen=True)
class Variants:
    """More examples of a rule that only verify (a model may write them at index time: other
    names, nesting, receivers): a candidate must fire on every violating variant and on no
    compliant one. They are never evidence: no candidate is made from them."""

    violating: tuple[str, ...] = ()
    compliant: tuple[str, ...] = ()
    # a model's variants: its compliant ones gate the lattice's steps only, so a wrong answer can
    # cost a detector generality, never the detector its examples verified (its violating ones are
    # not checked: an answer that is another mistake would cost the detector)
    climb_only: bool = False

    def __len__(self) -> int:
        return len(self.violating) + len(self.compliant)

    def for_step(self, step: str) -> Variants:
        """What a candidate made by lattice `step` ("" for one made from the examples) is checked on."""
        if not self.climb_only:
            return self
        return Variants(compliant=self.compliant) if step else NO_VARIANTS


NO_VARIANTS = Variants()


@dataclass
class Verdict:
    ok: bool
    reason: str = ""
    corpus_lines: int | None = None
    corpus_hits: int | None = None
    compliant_hit: str | None = None  # the compliant example it fired on


def verify(detector: Detector, language: str, violating: Sequence[str],
           compliant: Sequence[tuple[str, str]], *, corpus: Corpus | None, max_hits_per_10k: float,
           bits: float, named: bool, min_bits: float, required: Sequence[str] = (),
           corpus_later: bool = False, variants: Variants = NO_VARIANTS,
           compliant_index: Fragments | None = None) -> Verdict:
    """(a), (b), (c) above, and the rule's verification-only `variants`; `compliant`: (rule id,
    code) of every compliant example of the book. `corpus_later`: (c) is left to the caller
    (`Corpus.count`, many candidates at once). `compliant_index`: `compliant`'s code indexed once
    by the caller (a miner checks many candidates on it)."""
    for i, code in enumerate(violating, 1):
        if not _fires(detector, language, code):
            return Verdict(False, f"misses violating example {i} (as a diff fragment)")
    index = compliant_index if compliant_index is not None else Fragments(language, [c for _, c in compliant],
                                                                          examples=True)
    hit = index.first(detector)
    if hit is not None:
        rule_id, code = compliant[hit]
        return Verdict(False, f"fires on a compliant example of {rule_id}", compliant_hit=code)
    for i, code in enumerate(variants.violating, 1):
        if not _fires(detector, language, code):
            return Verdict(False, f"misses violating variant {i}")
    for i, code in enumerate(variants.compliant, 1):
        if _fires(detector, language, code):
            return Verdict(False, f"fires on compliant variant {i}", compliant_hit=code)
    if not named:
        return Verdict(False, "names nothing the rule is about (an API, a literal or construct its text names)")
    if corpus is None:
        if bits < min_bits:
            return Verdict(False, f"{bits:.1f} bits, below the {min_bits:g} a candidate needs without a clean corpus")
        return Verdict(True)
    if corpus_later:
        return Verdict(True)
    allowed = max_hits_per_10k * corpus.lines / 10_000
    hits = corpus.hits(detector, required, stop_after=int(allowed))
    if hits > allowed:
        return Verdict(False, f"{hits}+ clean-corpus hits in {corpus.lines:,} lines "
                              f"(limit {max_hits_per_10k:g} per 10k = {int(allowed)})", corpus.lines, hits)
    return Verdict(True, "", corpus.lines, hits)


def _fires(detector: Detector, language: str, code: str) -> bool:
    """As a review runs it on the code as one fragment (parsed once per example: `raw_root`)."""
    try:
        if detector.kind == "regex":
            return bool(detector_rows(detector, language, code))
        return may_fire(detector, language, code) and bool(tree_rows(detector, language, raw_root(language, code)))
    except Exception:  # noqa: BLE001 - a query this grammar refuses fires nowhere
        return False
