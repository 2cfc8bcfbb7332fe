"""Detectors mined from a rule book's own examples, verified before use (issues 27 and 42).

    from indexers.mining import MiningOptions, load_corpus, mine_book
    units, report = mine_book(units, MiningOptions(corpus=load_corpus("~/java-sources")))

Per rule with violating examples and no hand-written `detect`:

1. candidates — tree-sitter queries (`candidates.py`, `tree.py`: the least general pattern over
   node types and the names and literals that matter that every violating example has, at three
   levels of detail), what the rule's own words name first (`words.py`); when none survives,
   regexes over a normalised token stream (`tokens.py`);
2. verification (`verify.py`): a candidate is kept only when it fires on every violating example
   of the rule, on no compliant example of any rule in the document, on at most 5% of the other
   rules' violating examples, and at most `max_hits_per_10k` times per 10,000 lines of a clean
   corpus (without a corpus that check is not run, and only a candidate of at least `min_bits`
   bits is kept); it must name what the rule is about; `Variants` of a rule's examples, when
   given, only verify;
3. the first candidate that passes is the least general verified pattern; from it the miner
   climbs a lattice of more general candidates (`lattice.py`: no enclosing node, any place in a
   method, no sibling structure, any receiver of a named type, no names the rule does not name,
   no optional parts) and keeps the most general that still passes every check; a call keeps its
   argument shape (`shape`), a candidate no contrast tells from a compliant example may ask that
   the guard the rule names be absent around it (`absence`), and a pattern of names only may be
   held to a stricter corpus bar (`names_max_hits_per_10k`). The detector
   records how it was verified and its generality (`MinedCheck.level`, `turned_down`), the report
   every candidate and step tried with the reason it was rejected. `MiningOptions(generalise=False)`
   keeps the first verified pattern as it is (the miner before the lattice).

What a language's node types are to all this (literals, declarations, places, receivers, the words
rules use for its constructs) is its pack's `GrammarRoles`: mining runs on every pack with a grammar.

A rule with a hand-written `detect` keeps it; `[rules] disable` names rules never mined (and,
in reviews, whose detector never runs: `dualrag/checks/detectors.py`).
"""

from __future__ import annotations

import functools
import re
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from dualrag import languages
from dualrag.units import RuleUnit

from . import tokens as tok
from . import tree
from .corpus import Fragments
from .examples import code_of, parse_example, roles_of
from .forms import run_with_forms
from .miner import RuleMiner, run_miners
from .report import ClimbStep, MiningReport, Rejected, RuleMining
from .verify import NO_VARIANTS, Corpus, ExamplePool, Variants, load_corpus
from .words import RuleWords, rule_words

__all__ = ["Backgrounds", "ClimbStep", "Corpus", "ExamplePool", "MiningOptions", "MiningReport", "Rejected",
           "RuleMiner", "RuleMining", "Variants", "example_language", "load_corpus", "mine_book", "mine_rule",
           "options_from_config", "rule_words", "run_miners", "words_of"]


@dataclass(frozen=True)
class MiningOptions:
    corpus: Corpus | None = None
    max_hits_per_10k: float = 1.0
    min_bits: float = 20.0  # without a corpus (the [rules] default; evaluation/mining/detectors.py sweeps it)
    language: str = "java"
    disabled: Callable[[str], bool] | None = None
    max_candidates: int = 12  # of each kind tried per rule
    prefer: str = "auto"  # without generalise: specific | general | auto (general with a clean corpus)
    max_book_share: float = 0.05  # (d): other rules' violating examples of the book a detector may fire on
    generalise: bool = True  # climb the lattice from the verified pattern (False: keep it as it is)
    lattice: str = "context-first"  # the order of the lattice's steps (lattice.ORDERS)
    # with generalise: the climb starts from the most general verified candidate ("specific": the
    # most specific); with `absence` below, what the books chose leaving one book out (docs/mining.md)
    start: str = "general"
    # with generalise: what of an argument list's shape a candidate keeps, never dropped by a step
    # (`tree.SHAPES`: "" none, "kinds" how many arguments of which kind, "count" how many)
    shape: str = ""
    # with generalise: a candidate the contrast cannot otherwise tell from a compliant example may
    # ask for the absence of what guards it there (a null check, a `close`: `QueryScope.absent`)
    absence: bool = True
    # the clean-corpus bar of a candidate that asks for nothing but names (`TreeCandidate.names_only`);
    # None: `max_hits_per_10k`, as any other
    names_max_hits_per_10k: float | None = None
    # "pairs": a rule with three or more violating examples is also mined over each pair of them, the
    # detectors that pass kept as its detector's other forms (`forms.py`); "each": and each example
    # of a rule with two alone; "": one pattern over all
    forms: str = "pairs"
    # the clean corpus of a rule in another language than `corpus`'s, read when a rule first needs it
    other_corpora: Callable[[str], Corpus | None] | None = None
    # verification-only variants of a book's examples (rule id -> (violating, compliant) code), e.g.
    # a model's (dualrag/review/rule_variants.py); asked once per book, when it is mined
    variants_for: Callable[[Sequence[RuleUnit]], Mapping[str, tuple[Sequence[str], Sequence[str]]]] | None = None

    def corpus_for(self, language: str) -> Corpus | None:
        if self.corpus is not None and self.corpus.language == language:
            return self.corpus
        return self.other_corpora(language) if self.other_corpora is not None else None


def options_from_config(rules_config, *, corpus: Corpus | None = None) -> MiningOptions:
    """MiningOptions from a `[rules]` section. The clean corpus of `mining_language` is read here
    unless given, another language's when a rule in it is mined (`corpus_root`: a `dualrag corpus
    build` holds one folder per language). FileNotFoundError when `mining_corpus` names no folder."""
    from .corpus_root import clean_corpus_folder

    @functools.cache
    def read(language: str) -> Corpus | None:
        folder = clean_corpus_folder(rules_config, language)
        return None if folder is None else load_corpus(folder, language, rules_config.mining_corpus_max_lines)

    if corpus is None:
        corpus = read(rules_config.mining_language)
    return MiningOptions(corpus=corpus, max_hits_per_10k=rules_config.mining_max_hits_per_10k,
                         min_bits=rules_config.mining_min_bits, language=rules_config.mining_language,
                         disabled=rules_config.disabled, other_corpora=read)


# ------------------------------------------------------------------------------------ book


_FENCE_LANGUAGE = re.compile(r"^\s*(?:```+|~~~+)\s*([A-Za-z0-9_+-]+)")


def example_language(rule: RuleUnit, example: str, default: str) -> str:
    """The language a rule's example is in: its fence's tag, else the rule's first language
    with a grammar, else the default."""
    m = _FENCE_LANGUAGE.match(example)
    if m and languages.grammar_of(m.group(1).lower()) is not None:
        return m.group(1).lower()
    for language in rule.languages:
        if languages.grammar_of(language) is not None:
            return language
    return default


@dataclass
class Backgrounds:
    """What a book's examples look like on average (information weights for candidates)."""

    trees: dict[str, tree.Background] = field(default_factory=dict)
    tokens: tok.TokenBackground = field(default_factory=tok.TokenBackground)

    def add(self, code: str, language: str, sign: int = 1) -> None:
        """Count an example's code (`sign` -1: take it out again, for a held-out evaluation)."""
        parsed = parse_example(code, language)
        declared = parsed.declared if parsed is not None else frozenset()
        nothing = RuleWords(roles=roles_of(language))
        if parsed is not None:
            self.trees.setdefault(language, tree.Background()).add(parsed, tree.context(parsed, nothing), sign)
        for line in tok.code_lines(code):
            self.tokens.add(tok.normalise(line, declared, nothing, nothing.roles.keywords), sign)

    def without(self, examples: Sequence[tuple[str, str]]) -> Backgrounds:
        """These counts with some examples (code, language) taken out, read-only: what a held-out
        fold mines with, without copying the book's counts for every fold."""
        held = Backgrounds()
        for code, language in examples:
            held.add(code, language)
        return Backgrounds({lang: bg.without(held.trees.get(lang, tree.Background())) for lang, bg in self.trees.items()},
                           self.tokens.without(held.tokens))


def mine_book(units: Sequence[RuleUnit], options: MiningOptions = MiningOptions(), document: str = "",
              variants: Mapping[str, Variants] | None = None) -> tuple[list[RuleUnit], MiningReport]:
    """Every unit of one document (a book), with a mined `detect` where one was kept.
    `variants`: verification-only examples by rule id (never evidence for a candidate)."""
    start = time.perf_counter()
    if variants is None and options.variants_for is not None:
        variants = {rid: Variants(tuple(bad), tuple(good), climb_only=True)
                    for rid, (bad, good) in options.variants_for(units).items()}
    report = MiningReport(document=document or (units[0].source.file if units else ""),
                          corpus=options.corpus.folder if options.corpus else None,
                          corpus_lines=options.corpus.lines if options.corpus else None,
                          language=options.corpus.language if options.corpus else options.language)
    bg = Backgrounds()
    codes: dict[int, tuple[str, list[str], list[str]]] = {}
    compliant: list[tuple[str, str]] = []
    for i, unit in enumerate(units):
        if not unit.bad_examples and not unit.good_examples:
            continue
        language = example_language(unit, (unit.bad_examples or unit.good_examples)[0], options.language)
        bad = [c for c in (code_of(e) for e in unit.bad_examples) if c]
        good = [c for c in (code_of(e) for e in unit.good_examples) if c]
        codes[i] = (language, bad, good)
        compliant += [(unit.rule_id, c) for c in good]
        for c in bad + good:
            bg.add(c, language)
    out: list[RuleUnit] = []
    results: dict[int, RuleMining] = {}
    miners: list[RuleMiner] = []
    indexes: dict[str, Fragments] = {}  # the book's compliant code, indexed once per language
    for i, unit in enumerate(units):
        if not unit.bad_examples:
            continue
        language, bad, good = codes[i]
        if unit.detect is not None:
            results[i] = RuleMining(unit.rule_id, "written", note="a hand-written detector wins")
        elif options.disabled is not None and options.disabled(unit.rule_id):
            results[i] = RuleMining(unit.rule_id, "disabled", note="[rules] disable names it")
        else:
            index = indexes.setdefault(language, Fragments(language, [c for _, c in compliant], examples=True))
            miner = RuleMiner(unit.rule_id, words_of(unit, language, options), language, bad, good, compliant, bg,
                              options, (variants or {}).get(unit.rule_id, NO_VARIANTS), index)
            miners.append(miner)
            results[i] = miner.result
        results[i].violating = len(unit.bad_examples)
    pools: dict[str, ExamplePool] = {}
    for i, (language, bad, _) in codes.items():
        pool = pools.setdefault(language, ExamplePool(language, share=options.max_book_share))
        pool.examples += [(units[i].rule_id, c) for c in bad]
    run_with_forms(miners, options, pools)
    for i, unit in enumerate(units):
        result = results.get(i)
        if result is not None:
            report.rules.append(result)
            if result.detector is not None:
                unit = unit.model_copy(update={"detect": result.detector})
        out.append(unit)
    report.seconds = time.perf_counter() - start
    return out, report


def words_of(unit: RuleUnit, language: str, options: MiningOptions) -> RuleWords:
    """What a rule's title and text name (without `generalise`: its ASCII words, as before)."""
    return rule_words(unit.title, unit.text, language=language, constructs=options.generalise)


# ------------------------------------------------------------------------------------ rule


def mine_rule(rule_id: str, words: RuleWords, language: str, violating: Sequence[str], own_compliant: Sequence[str],
              book_compliant: Sequence[tuple[str, str]], bg: Backgrounds, options: MiningOptions,
              book_violating: Sequence[tuple[str, str]] = (), variants: Variants = NO_VARIANTS) -> RuleMining:
    """One rule: candidates from its violating examples' code (`violating`), specialised against
    its own compliant examples, verified against the book's (`book_compliant`: rule id, code),
    the other rules' violating examples (`book_violating`) and the corpus."""
    miner = RuleMiner(rule_id, words, language, violating, own_compliant, book_compliant, bg, options, variants)
    pool = ExamplePool(language, [(rid, c) for rid, c in book_violating if c], share=options.max_book_share)
    run_with_forms([miner], options, {language: pool})
    return miner.result
