"""One rule's mining as a sequence of candidates, and many rules' mining in rounds.

A `RuleMiner` offers one candidate at a time that holds on the examples (`next_candidate`); the
caller counts a round's candidates of every rule on the other rules' violating examples and on the
clean corpus at once (`run_miners`), and hands each its counts (`decide`). The first candidate that
passes is the rule's least general verified pattern; with `MiningOptions.generalise` the miner then
climbs the lattice from it (`lattice.py`), one step a round, keeping each step that still passes
and recording why each other was turned down; without, it is kept as it is (the miner before the
lattice). Regex candidates are made only once every tree-sitter candidate has failed, and do not
climb.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from dualrag import languages
from dualrag.units import Detector, MinedCheck

from . import lattice, tree
from . import tokens as tok
from .candidates import prepare, specialise, tree_candidates
from .corpus import Fragments
from .examples import parse_example
from .report import ClimbStep, Rejected, RuleMining
from .verify import NO_VARIANTS, ExamplePool, Variants, verify
from .words import RuleWords

if TYPE_CHECKING:
    from . import Backgrounds, MiningOptions


@dataclass
class Candidate:
    kind: str  # tree-sitter | regex
    detector: Detector
    bits: float
    named: bool
    required: tuple[str, ...]
    tree: tree.TreeCandidate | None = None
    contrasted: int = 0  # how often it was specialised against another rule's compliant example
    step: str = ""  # the lattice step that made it ("": a candidate of the search)
    hits: int | None = None  # clean-corpus hits, once counted

    @property
    def pattern(self) -> str:
        return self.detector.pattern


def _candidate(cand: tree.TreeCandidate, language: str, step: str = "", contrasted: int = 0) -> Candidate:
    return Candidate("tree-sitter", cand.detector(language), cand.bits, cand.named, cand.required_texts(), cand,
                     contrasted, step)


@dataclass
class _Climb:
    best: Candidate
    pending: list[str]
    failed: list[tuple[str, int]] = field(default_factory=list)  # (step, how many steps were taken then)
    passes: int = 1
    taken: int = 0
    tried: set[str] = field(default_factory=set)  # patterns (and scopes) tried, each once
    special: Candidate | None = None  # a turned-down step specialised against the compliant code it hit


class RuleMiner:
    def __init__(self, rule_id: str, words: RuleWords, language: str, violating: Sequence[str],
                 own_compliant: Sequence[str], book_compliant: Sequence[tuple[str, str]], bg: Backgrounds,
                 options: MiningOptions, variants: Variants = NO_VARIANTS,
                 compliant_index: Fragments | None = None) -> None:
        self.result = RuleMining(rule_id, "none", violating=len(violating))
        self.words, self.language, self.violating = words, language, list(violating)
        self.own_compliant, self.book_compliant, self.bg, self.options = list(own_compliant), book_compliant, bg, options
        self.variants = variants
        self.corpus = options.corpus_for(language)
        self.seconds = 0.0
        self.others = 0  # the other rules' violating examples (d) counts on, set by `run_miners`
        self._queue: list[Candidate] = []
        self._raw: list[tree.TreeCandidate] = []  # ranked tree-sitter candidates not yet prepared
        self._prepared = 0
        self._stage = "tree"
        self._dropped: list[Rejected] = []
        self._climb: _Climb | None = None
        self._compliant = compliant_index  # `book_compliant`'s code indexed (shared by a book's miners)
        self.tried = 0
        self.done = not violating
        if not violating:
            self.result.status, self.result.note = "prose", "its violating examples hold no code"

    def for_examples(self, violating: Sequence[str]) -> RuleMiner:
        """A miner of the same rule in the same book over some of its violating examples (another
        form of its mistake: `forms.py`); a model's variants verify only the whole rule's."""
        return RuleMiner(self.result.rule_id, self.words, self.language, violating, self.own_compliant,
                         self.book_compliant, self.bg, self.options, compliant_index=self._compliant)

    @property
    def _absence(self) -> bool:
        return self.options.generalise and self.options.absence

    @property
    def _trees(self) -> tree.Background:
        return self.bg.trees.get(self.language) or tree.Background()

    def _fill(self) -> None:
        """Make the next stage's candidates when the queue runs dry."""
        while not self._queue and self._stage != "end":
            if self._stage == "tree":
                self._stage = "regex"
                if languages.grammar_of(self.language) is None:
                    continue
                opts = self.options
                if opts.generalise:
                    prefer, said_first = opts.start, True
                else:
                    prefer = opts.prefer if opts.prefer != "auto" else \
                        ("general" if self.corpus is not None else "specific")
                    said_first = False
                self._raw = tree_candidates(self.language, self.violating, self.words, self._trees,
                                            opts.max_candidates * 3, prefer, said_first, scoped=opts.generalise,
                                            shape=opts.shape if opts.generalise else "")
                self._prepared = 0
                self._queue = self._next_raw()
            else:
                self._stage = "end"
                declared = [p.declared if (p := parse_example(c, self.language)) is not None else frozenset()
                            for c in self.violating]
                self._queue = [Candidate("regex", Detector(kind="regex", pattern=c.pattern, languages=[self.language]),
                                         c.bits, True, c.required)
                               for c in tok.token_candidates(list(zip(self.violating, declared, strict=True)),
                                                             self.own_compliant, self.bg.tokens, self.words,
                                                             self.options.max_candidates,
                                                             self.words.roles.keywords)]
            self.tried += len(self._queue)

    def next_candidate(self) -> Candidate | None:
        """The next candidate that holds on the examples (and, without a corpus, is specific
        enough); None when done."""
        start = time.perf_counter()
        try:
            while not self.done:
                cand = self._next_step() if self._climb is not None else self._next_search()
                if cand is None:
                    continue
                verdict = self._verify(cand)
                if verdict.ok:
                    return cand
                if cand.step:
                    self._turn_down(cand, verdict.reason)
                    self._contrast_step(cand, verdict.compliant_hit)
                else:
                    self.result.rejected.append(Rejected(cand.kind, cand.pattern, round(cand.bits, 1), verdict.reason))
                    self._contrast(cand, verdict.compliant_hit)
            return None
        finally:
            self.seconds += time.perf_counter() - start

    def _verify(self, cand: Candidate):
        if self._compliant is None:
            self._compliant = Fragments(self.language, [c for _, c in self.book_compliant], examples=True)
        return verify(cand.detector, self.language, self.violating, self.book_compliant, corpus=self.corpus,
                      max_hits_per_10k=self.options.max_hits_per_10k, bits=cand.bits, named=cand.named,
                      min_bits=self.options.min_bits, required=cand.required, corpus_later=True,
                      variants=self.variants.for_step(cand.step), compliant_index=self._compliant)

    def _next_raw(self) -> list[Candidate]:
        """The next of the ranked tree-sitter candidates that can be told from the rule's compliant
        examples (compiled and specialised only now: most rules keep one of their first)."""
        while self._raw and self._prepared < self.options.max_candidates:
            cand, why = prepare(self._raw.pop(0), self.language, self.violating, self.own_compliant, self.words,
                                self._trees, absence=self._absence)
            if why:
                self._dropped.append(Rejected("tree-sitter", cand.pattern, round(cand.bits, 1), why))
                continue
            self._prepared += 1
            return [_candidate(cand, self.language)]
        return []

    def _next_search(self) -> Candidate | None:
        if not self._queue and self._stage == "regex":
            self._queue = self._next_raw()
            self.tried += len(self._queue)
        self._fill()
        if not self._queue:
            self._finish()
            return None
        return self._queue.pop(0)

    def _next_step(self) -> Candidate | None:
        """The next lattice step's candidate from the best so far (None: that step changes nothing)."""
        climb = self._climb
        assert climb is not None and climb.best.tree is not None
        if climb.special is not None:
            special, climb.special = climb.special, None
            return special
        if not climb.pending:
            retry = [step for step, taken in climb.failed if taken < climb.taken]
            if retry and climb.passes == 1:  # a step taken since may let an earlier one pass
                climb.pending, climb.failed, climb.passes = retry, [], 2
            else:
                self._keep(climb.best)
                return None
        step = climb.pending.pop(0)
        general = lattice.climb(climb.best.tree, step, self._trees, self.words)
        if general is None:
            return None
        cand = _candidate(general, self.language, step)
        if general.said == 0 < climb.best.tree.said:
            self._turn_down(cand, "keeps nothing the rule's words name (only what its examples happened to contain)")
            return None
        key = f"{cand.pattern} {cand.detector.scope}"
        if key in climb.tried:
            climb.failed.append((step, climb.taken))
            return None
        climb.tried.add(key)
        error = tree.compiles(self.language, general.pattern)
        if error:
            self._turn_down(cand, f"query does not compile ({error})")
            return None
        return cand

    def _turn_down(self, cand: Candidate, reason: str) -> None:
        assert self._climb is not None
        self._climb.failed.append((cand.step.split("+")[0], self._climb.taken))
        self.result.climb.append(ClimbStep(cand.step, cand.detector.kind, cand.pattern, reason))

    def _contrast_step(self, cand: Candidate, compliant: str | None) -> None:
        """A lattice step that fired on a compliant example is tried once more, specialised
        against it (a path the step took away that tells them apart added back): general except
        where the book shows it must not be."""
        climb = self._climb
        if compliant is None or cand.tree is None or climb is None or cand.step.endswith("+contrast"):
            return
        assert climb.best.tree is not None
        # only what the step took away may come back: anything else is another shape of the
        # example, not a generalisation of the best so far
        special, why = specialise(cand.tree, self.language, self.violating, [compliant], self.words, self._trees,
                                  within=climb.best.tree.paths, absence=self._absence)
        if special is not None and not why and (special.pattern, special.scope()) != (cand.pattern, cand.detector.scope) and \
                not set(climb.best.tree.paths) <= set(special.paths):  # all of it back: no more general
            climb.special = _candidate(special, self.language, f"{cand.step}+contrast")

    def _contrast(self, cand: Candidate, compliant: str | None) -> None:
        """A tree-sitter candidate that fired on another rule's compliant example is specialised
        against it (as against its own rule's) and tried next, at most twice over."""
        if compliant is None or cand.tree is None or cand.contrasted >= 2:
            return
        special, why = specialise(cand.tree, self.language, self.violating, [compliant], self.words, self._trees,
                                  absence=self._absence)
        if special is None or why or special.scope() == cand.tree.scope() and special.pattern == cand.pattern:
            return
        if special.pattern != cand.pattern and any(r.pattern == special.pattern for r in self.result.rejected) or \
                any(q.pattern == special.pattern and q.detector.scope == special.scope() for q in self._queue):
            return
        self._queue.insert(0, _candidate(special, self.language, contrasted=cand.contrasted + 1))

    def decide(self, cand: Candidate, hits: int | None, book_hits: int, book_allowed: int) -> None:
        """Checks (d) and (c) of a candidate `next_candidate` gave: `book_hits` other rules'
        violating examples it fires on, `hits` clean-corpus lines (None: no corpus)."""
        reason = ""
        if book_hits > book_allowed:
            reason = (f"fires on more than {book_allowed} violating examples of other rules of the book: "
                      "what much of the book's code has, not what this rule forbids")
        elif self.corpus is not None and hits is not None:
            per_10k, which = self.options.max_hits_per_10k, ""
            if self.options.names_max_hits_per_10k is not None and cand.tree is not None and \
                    cand.tree.names_only(self._trees, self.words):
                per_10k, which = min(per_10k, self.options.names_max_hits_per_10k), " for a pattern of names only"
            allowed = per_10k * self.corpus.lines / 10_000
            if hits > allowed:
                reason = (f"{hits}+ clean-corpus hits in {self.corpus.lines:,} lines (limit{which} "
                          f"{per_10k:g} per 10k = {int(allowed)})")
        cand.hits = hits if self.corpus is not None else None
        if cand.step:
            if reason:
                self._turn_down(cand, reason)
            else:
                assert self._climb is not None
                self._climb.best = cand
                self._climb.taken += 1
                if cand.step == "descend":  # one level at a time, as far as it passes
                    self._climb.pending.insert(0, "descend")
                self.result.level.append(cand.step)
                self.result.climb.append(ClimbStep(cand.step, cand.detector.kind, cand.pattern, "kept"))
            return
        if reason:
            self.result.rejected.append(Rejected(cand.kind, cand.pattern, round(cand.bits, 1), reason))
        elif self.options.generalise and cand.tree is not None:
            self._climb = _Climb(cand, list(lattice.ORDERS[self.options.lattice]))
        else:
            self._keep(cand)

    def _keep(self, cand: Candidate) -> None:
        self.result.status = "kept"
        turned = {s.step: s.outcome for s in self.result.climb if s.outcome != "kept" and s.step not in self.result.level}
        self.result.detector = cand.detector.model_copy(update={"mined": MinedCheck(
            violating=len(self.violating), compliant=len(self.book_compliant),
            corpus_lines=self.corpus.lines if self.corpus is not None else None, corpus_hits=cand.hits,
            bits=round(cand.bits, 1), rejected=len(self.result.rejected), other_violating=self.others,
            variants=len(self.variants), level=list(self.result.level), turned_down=turned)})
        self._finish()

    def _finish(self) -> None:
        if self.done:
            return
        self.done = True
        self.result.rejected += self._dropped
        if self.result.detector is None:
            # candidates dropped before verification (no contrast with the rule's own compliant
            # examples) count as tried: the note must not say none was made
            self.result.note = ("no candidate passed verification" if self.tried or self.result.rejected else
                                "no candidate: the violating examples share nothing that names anything")


def run_miners(miners: Sequence[RuleMiner], options: MiningOptions,
               pools: dict[str, ExamplePool] | None = None) -> None:
    """Every miner to the end. In rounds: each unfinished miner offers its next candidate that
    holds on the examples, and the round's candidates are counted on the other rules' violating
    examples (`pools`, by language) and on the clean corpus (`corpus.py`: each only where it can
    match, each stopping past its limit)."""
    start = time.perf_counter()
    pools = pools or {}
    for m in miners:
        pool = pools.get(m.language)
        m.others = pool.others(m.result.rule_id) if pool is not None else 0
    while True:
        offered = [(m, c) for m in miners if not m.done and (c := m.next_candidate()) is not None]
        if not offered:
            break
        for m, c in offered:
            pool = pools.get(m.language)
            rid = m.result.rule_id
            book = pool.count([c.detector], [rid])[0] if pool is not None else 0
            allowed = pool.allowed(rid) if pool is not None else 0
            hits = None
            if m.corpus is not None and book <= allowed:  # only what passes (d) is counted on the corpus
                limit = int(options.max_hits_per_10k * m.corpus.lines / 10_000)
                hits = m.corpus.hits(c.detector, c.required if c.kind == "regex" else (), stop_after=limit)
            m.decide(c, hits, book, allowed)
    share = (time.perf_counter() - start) / max(1, len(miners))
    for m in miners:
        m.result.seconds = round(m.seconds + share, 3)
