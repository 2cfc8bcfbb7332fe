"""More than one form of the same mistake (issue 42, `MiningOptions.forms`).

A rule's violating examples often show its mistake in several forms (a `Random` built in a loop and
one built per call; a stream left open in a `try` and one returned). One pattern over all of them
keeps only what they share, often nothing that names anything, and a form the book shows once more
is then missed. With `forms = "pairs"` a rule with three or more violating examples is also mined
over each pair of them (at most `MAX_PAIRS`; `"each"` also mines each example of a rule that has
two alone), each pair's miner verifying its candidates exactly as
the rule's own does, on the book's compliant examples, the other rules' violating ones and the
clean corpus. The distinct detectors that pass become the rule's detector's other forms
(`Detector.also`), fewest corpus hits first, as long as the forms together stay within the rule's
clean-corpus and book budgets: the whole detector is held to the bars each candidate is. A rule
whose joint pattern failed gets a detector from its forms alone.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import TYPE_CHECKING

from dualrag.units import Detector

from .corpus import ExamplePool
from .miner import RuleMiner, run_miners

if TYPE_CHECKING:
    from . import MiningOptions

MAX_PAIRS = 10


def groups(violating: Sequence[str], options: MiningOptions) -> list[list[str]]:
    """The subsets of a rule's violating examples mined as forms of their own."""
    if options.forms == "each" and len(violating) == 2:
        return [[example] for example in violating]
    if options.forms not in ("pairs", "each") or len(violating) < 3:
        return []
    return [list(pair) for pair in itertools.islice(itertools.combinations(violating, 2), MAX_PAIRS)]


def run_with_forms(miners: Sequence[RuleMiner], options: MiningOptions,
                   pools: dict[str, ExamplePool] | None = None) -> None:
    """`run_miners` over `miners` and, in the same rounds, the miners of their rules' other forms;
    then each rule's detector gets the forms that fit its budgets."""
    forms = {main: [main.for_examples(group) for group in groups(main.violating, options)] for main in miners}
    run_miners([*miners, *(f for group in forms.values() for f in group)], options, pools)
    for main, group in forms.items():
        combine(main, group, (pools or {}).get(main.language))


def combine(main: RuleMiner, forms: Sequence[RuleMiner], pool: ExamplePool | None) -> None:
    """Give `main`'s detector the distinct detectors of `forms` that fit the rule's budgets."""
    found = [f.result.detector for f in forms if f.result.detector is not None]
    if not found:
        return
    result, rule_id = main.result, main.result.rule_id
    kept: list[Detector] = [result.detector] if result.detector is not None else []
    corpus_allowed = (main.options.max_hits_per_10k * main.corpus.lines / 10_000) if main.corpus is not None else None
    book_allowed = pool.allowed(rule_id) if pool is not None else None

    def book(d: Detector) -> int:
        return pool.count([d], [rule_id])[0] if pool is not None else 0

    hits = sum(_hits(d) for d in kept)
    shared = sum(book(d) for d in kept)
    keys = {_key(d) for d in kept}
    for d in sorted(found, key=lambda d: (_hits(d), -d.mined.bits if d.mined else 0.0)):
        if _key(d) in keys:
            continue
        more = book(d)
        over_corpus = corpus_allowed is not None and hits + _hits(d) > corpus_allowed
        over_book = book_allowed is not None and shared + more > book_allowed
        if over_corpus or over_book:
            continue
        kept.append(d)
        keys.add(_key(d))
        hits, shared = hits + _hits(d), shared + more
    if len(kept) == (result.detector is not None):  # no form added
        return
    if result.detector is None:
        result.status = "kept"
        result.note = f"no pattern holds on all {len(main.violating)} violating examples; kept as forms of some of them"
    result.forms = len(kept) - 1
    result.detector = kept[0].model_copy(update={"also": kept[1:]})


def _hits(d: Detector) -> int:
    return (d.mined.corpus_hits or 0) if d.mined is not None else 0


def _key(d: Detector) -> tuple[str, str, str]:
    return d.kind, d.pattern, str(d.scope)
