"""Detectors mined from a rule book's own examples, verified before use (issue 27).

    from indexers.rules.mining import MiningOptions, load_corpus, mine_book
    units, report = mine_book(units, MiningOptions(corpus=load_corpus("~/java-sources")))

Per rule with violating examples and no hand-written `detect`:

1. candidates — tree-sitter queries (`tree.py`: the least general pattern over node types and
   the names and literals that matter that every violating example has, at three levels of
   detail), ordered by `order_key`: with a clean corpus what names the most of the rule first and
   of those the least specific (the corpus then says how general a detector may be), without one
   the most specific first; when none survives, regexes over a normalised token stream
   (`tokens.py`);
2. verification (`verify.py`): a candidate is kept only when it fires on every violating example
   of the rule, on no compliant example of any rule in the document, on at most 5% of the other
   rules' violating examples, and at most `max_hits_per_10k` times per 10,000 lines of a clean
   corpus (without a corpus that check is not run, and only a candidate of at least `min_bits`
   bits is kept); it must name what the rule is about (an API, a construct its text names);
3. the first candidate that passes becomes the rule's `detect`, with `mined` saying how it was
   verified; every candidate tried before it is reported with the reason it was rejected.

A rule with a hand-written `detect` keeps it; `[rules] disable` names rules never mined (and,
in reviews, whose detector never runs: `dualrag/checks/detectors.py`).
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field, replace

from dualrag import languages
from dualrag.units import Detector, MinedCheck, RuleUnit

from . import tokens as tok
from . import tree
from .examples import Parsed, code_of, declared_names, error_share, parse_example, raw_root, text
from .verify import Corpus, ExamplePool, load_corpus, verify

__all__ = ["Backgrounds", "Corpus", "MiningOptions", "MiningReport", "Rejected", "RuleMining", "load_corpus", "mine_book",
           "mine_rule", "options_from_config"]


@dataclass(frozen=True)
class MiningOptions:
    corpus: Corpus | None = None
    max_hits_per_10k: float = 1.0
    min_bits: float = 20.0  # without a corpus (the [rules] default; scripts/eval/mined_detectors.py sweeps it)
    language: str = "java"
    disabled: Callable[[str], bool] | None = None
    max_candidates: int = 12  # of each kind tried per rule
    prefer: str = "auto"  # specific | general | auto: general with a clean corpus, else specific
    max_book_share: float = 0.05  # (d): other rules' violating examples of the book a detector may fire on


def options_from_config(rules_config, *, corpus: Corpus | None = None) -> MiningOptions:
    """MiningOptions from a `[rules]` section; the corpus is read here unless given."""
    if corpus is None and rules_config.mining_corpus:
        corpus = load_corpus(rules_config.mining_corpus, rules_config.mining_language,
                             rules_config.mining_corpus_max_lines)
    return MiningOptions(corpus=corpus, max_hits_per_10k=rules_config.mining_max_hits_per_10k,
                         min_bits=rules_config.mining_min_bits, language=rules_config.mining_language,
                         disabled=rules_config.disabled)


@dataclass
class Rejected:
    kind: str
    pattern: str
    bits: float
    reason: str


@dataclass
class RuleMining:
    rule_id: str
    status: str  # kept | none | written | disabled | prose | no-examples
    detector: Detector | None = None
    rejected: list[Rejected] = field(default_factory=list)
    note: str = ""
    violating: int = 0
    seconds: float = 0.0

    def to_dict(self) -> dict:
        out = asdict(self)
        out["detector"] = self.detector.model_dump(mode="json") if self.detector else None
        return out


@dataclass
class MiningReport:
    document: str
    rules: list[RuleMining] = field(default_factory=list)
    seconds: float = 0.0
    corpus: str | None = None
    corpus_lines: int | None = None

    @property
    def with_examples(self) -> int:
        return sum(1 for r in self.rules if r.violating)

    @property
    def kept(self) -> int:
        return sum(1 for r in self.rules if r.status == "kept")

    def by_id(self) -> dict[str, RuleMining]:
        return {r.rule_id: r for r in self.rules}

    def summary(self) -> str:
        corpus = (f"clean corpus {self.corpus_lines:,} lines" if self.corpus_lines is not None
                  else "no clean corpus: that check was not run")
        written = sum(1 for r in self.rules if r.status == "written")
        extra = f", {written} hand-written kept" if written else ""
        return (f"{self.document}: mined {self.kept} detector(s) for {self.with_examples} rule(s) with violating "
                f"examples{extra} ({corpus}), {self.seconds:.1f}s")

    def to_dict(self) -> dict:
        return {"document": self.document, "seconds": round(self.seconds, 3), "corpus": self.corpus,
                "corpus_lines": self.corpus_lines, "with_examples": self.with_examples, "kept": self.kept,
                "rules": [r.to_dict() for r in self.rules]}


# ------------------------------------------------------------------------------------ book


_KEYWORDS = tok.JAVA_KEYWORDS
MAX_ERROR_SHARE = 0.25  # an example whose parse leaves more unplaced is not mined as a tree
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
        if parsed is not None:
            self.trees.setdefault(language, tree.Background()).add(parsed, tree.Context(declared, frozenset()), sign)
        for line in tok.code_lines(code):
            self.tokens.add(tok.normalise(line, declared, frozenset()), sign)


def mine_book(units: Sequence[RuleUnit], options: MiningOptions = MiningOptions(),
              document: str = "") -> tuple[list[RuleUnit], MiningReport]:
    """Every unit of one document (a book), with a mined `detect` where one was kept."""
    start = time.perf_counter()
    report = MiningReport(document=document or (units[0].source.file if units else ""),
                          corpus=options.corpus.folder if options.corpus else None,
                          corpus_lines=options.corpus.lines if options.corpus else None)
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
    for i, unit in enumerate(units):
        if not unit.bad_examples:
            continue
        language, bad, good = codes[i]
        if unit.detect is not None:
            results[i] = RuleMining(unit.rule_id, "written", note="a hand-written detector wins")
        elif options.disabled is not None and options.disabled(unit.rule_id):
            results[i] = RuleMining(unit.rule_id, "disabled", note="[rules] disable names it")
        else:
            miner = RuleMiner(unit.rule_id, tree.rule_words(unit.title, unit.text), language, bad, good, compliant,
                              bg, options)
            miners.append(miner)
            results[i] = miner.result
        results[i].violating = len(unit.bad_examples)
    pools: dict[str, ExamplePool] = {}
    for i, (language, bad, _) in codes.items():
        pool = pools.setdefault(language, ExamplePool(language, share=options.max_book_share))
        pool.examples += [(units[i].rule_id, c) for c in bad]
    run_miners(miners, options, pools)
    for i, unit in enumerate(units):
        result = results.get(i)
        if result is not None:
            report.rules.append(result)
            if result.detector is not None:
                unit = unit.model_copy(update={"detect": result.detector})
        out.append(unit)
    report.seconds = time.perf_counter() - start
    return out, report


# ------------------------------------------------------------------------------------ rule


def mine_rule(rule_id: str, words: frozenset[str], language: str, violating: Sequence[str], own_compliant: Sequence[str],
              book_compliant: Sequence[tuple[str, str]], bg: Backgrounds, options: MiningOptions,
              book_violating: Sequence[tuple[str, str]] = ()) -> RuleMining:
    """One rule: candidates from its violating examples' code (`violating`), specialised against
    its own compliant examples, verified against the book's (`book_compliant`: rule id, code),
    the other rules' violating examples (`book_violating`) and the corpus; the first that passes
    is kept."""
    miner = RuleMiner(rule_id, words, language, violating, own_compliant, book_compliant, bg, options)
    pool = ExamplePool(language, [(rid, c) for rid, c in book_violating if c], share=options.max_book_share)
    run_miners([miner], options, {language: pool})
    return miner.result


@dataclass
class _Candidate:
    kind: str
    pattern: str
    bits: float
    named: bool
    required: tuple[str, ...]
    tree: tree.TreeCandidate | None = None
    contrasted: int = 0  # how often it was specialised against another rule's compliant example

    def detector(self, language: str) -> Detector:
        return Detector(kind=self.kind, pattern=self.pattern, languages=[language])


class RuleMiner:
    """One rule's mining as a sequence of candidates, most preferred first: each is checked on
    the examples here (`next_candidate`); the clean-corpus check is made by the caller, for the
    candidates of many rules in one pass over the corpus (`decide`). Regex candidates are made
    only once every tree-sitter candidate has failed."""

    def __init__(self, rule_id: str, words: frozenset[str], language: str, violating: Sequence[str],
                 own_compliant: Sequence[str], book_compliant: Sequence[tuple[str, str]], bg: Backgrounds,
                 options: MiningOptions) -> None:
        self.result = RuleMining(rule_id, "none", violating=len(violating))
        self.words, self.language, self.violating = words, language, list(violating)
        self.own_compliant, self.book_compliant, self.bg, self.options = list(own_compliant), book_compliant, bg, options
        self.corpus = options.corpus if options.corpus is not None and options.corpus.language == language else None
        self.seconds = 0.0
        self._queue: list[_Candidate] = []
        self._stage = "tree"
        self._dropped: list[Rejected] = []
        self.tried = 0
        self.done = not violating
        if not violating:
            self.result.status, self.result.note = "prose", "its violating examples hold no code"

    def _fill(self) -> None:
        """Make the next stage's candidates when the queue runs dry."""
        while not self._queue and self._stage != "end":
            if self._stage == "tree":
                self._stage = "regex"
                if languages.grammar_of(self.language) is None:
                    continue
                prefer = self.options.prefer if self.options.prefer != "auto" else \
                    ("general" if self.corpus is not None else "specific")
                found = _tree_candidates(self.language, self.violating, self.own_compliant, self.words, self.bg,
                                         self.options.max_candidates, prefer)
                self._dropped += [Rejected("tree-sitter", c.pattern, round(c.bits, 1), why) for c, why in found if why]
                self._queue = [_Candidate("tree-sitter", c.pattern, c.bits, c.named, c.required_texts(), c)
                               for c, why in found if not why]
            else:
                self._stage = "end"
                declared = [p.declared if (p := parse_example(c, self.language)) is not None else frozenset()
                            for c in self.violating]
                self._queue = [_Candidate("regex", c.pattern, c.bits, True, c.required)
                               for c in tok.token_candidates(list(zip(self.violating, declared, strict=True)),
                                                             self.own_compliant, self.bg.tokens, self.words,
                                                             self.options.max_candidates)]
            self.tried += len(self._queue)

    def next_candidate(self) -> _Candidate | None:
        """The next candidate that holds on the examples (and, without a corpus, is specific
        enough: then it is kept here); None when done."""
        start = time.perf_counter()
        try:
            while not self.done:
                self._fill()
                if not self._queue:
                    self._finish()
                    return None
                cand = self._queue.pop(0)
                verdict = verify(cand.detector(self.language), self.language, self.violating, self.book_compliant,
                                 corpus=self.corpus, max_hits_per_10k=self.options.max_hits_per_10k, bits=cand.bits,
                                 named=cand.named, min_bits=self.options.min_bits, required=cand.required,
                                 corpus_later=True)
                if not verdict.ok:
                    self.result.rejected.append(Rejected(cand.kind, cand.pattern, round(cand.bits, 1), verdict.reason))
                    self._contrast(cand, verdict.compliant_hit)
                    continue
                return cand
            return None
        finally:
            self.seconds += time.perf_counter() - start

    def _contrast(self, cand: _Candidate, compliant: str | None) -> None:
        """A tree-sitter candidate that fired on another rule's compliant example is specialised
        against it (as against its own rule's) and tried next, at most twice over."""
        if compliant is None or cand.tree is None or cand.contrasted >= 2:
            return
        bg = self.bg.trees.get(self.language) or tree.Background()
        special, why = _specialise(cand.tree, self.language, self.violating, [compliant], self.words, bg)
        if special is None or why or special.pattern == cand.pattern:
            return
        if any(r.pattern == special.pattern for r in self.result.rejected) or \
                any(q.pattern == special.pattern for q in self._queue):
            return
        self._queue.insert(0, _Candidate("tree-sitter", special.pattern, special.bits, special.named,
                                         special.required_texts(), special, cand.contrasted + 1))

    def decide(self, cand: _Candidate, hits: int | None, book_hits: int, book_allowed: int) -> None:
        """Checks (d) and (c) of a candidate `next_candidate` gave: `book_hits` other rules'
        violating examples it fires on, `hits` clean-corpus lines (None: no corpus)."""
        if book_hits > book_allowed:
            self.result.rejected.append(Rejected(
                cand.kind, cand.pattern, round(cand.bits, 1),
                f"fires on {book_hits} violating examples of other rules of the book (limit {book_allowed}): "
                "what much of the book's code has, not what this rule forbids"))
            return
        corpus = self.corpus
        if corpus is None or hits is None:
            self._keep(cand, None, None)
            return
        allowed = self.options.max_hits_per_10k * corpus.lines / 10_000
        if hits > allowed:
            self.result.rejected.append(Rejected(
                cand.kind, cand.pattern, round(cand.bits, 1),
                f"{hits} clean-corpus hits in {corpus.lines:,} lines (limit {self.options.max_hits_per_10k:g} per 10k "
                f"= {int(allowed)})"))
            return
        self._keep(cand, corpus.lines, hits)

    def _keep(self, cand: _Candidate, lines: int | None, hits: int | None) -> None:
        self.result.status = "kept"
        self.result.detector = cand.detector(self.language).model_copy(update={"mined": MinedCheck(
            violating=len(self.violating), compliant=len(self.book_compliant), corpus_lines=lines, corpus_hits=hits,
            bits=round(cand.bits, 1), rejected=len(self.result.rejected))})
        self._finish()

    def _finish(self) -> None:
        if self.done:
            return
        self.done = True
        self.result.rejected += self._dropped
        if self.result.detector is None:
            self.result.note = ("no candidate passed verification" if self.tried else
                                "no candidate: the violating examples share nothing that names anything")


def run_miners(miners: Sequence[RuleMiner], options: MiningOptions,
               pools: dict[str, ExamplePool] | None = None) -> None:
    """Every miner to the end. In rounds: each unfinished miner offers its next candidate that
    holds on the examples, and the round's candidates are counted together on the other rules'
    violating examples (`pools`, by language) and on the clean corpus (one pass of one combined
    query, not one pass per candidate)."""
    start = time.perf_counter()
    pools = pools or {}
    while True:
        offered = [(m, c) for m in miners if not m.done and (c := m.next_candidate()) is not None]
        if not offered:
            break
        groups: dict[tuple[str, int], list[tuple[RuleMiner, _Candidate]]] = {}
        for m, c in offered:
            groups.setdefault((m.language, id(m.corpus)), []).append((m, c))
        for (language, _), group in groups.items():
            detectors = [c.detector(m.language) for m, c in group]
            pool = pools.get(language)
            ids = [m.result.rule_id for m, _ in group]
            book = pool.count(detectors, ids) if pool is not None else [0] * len(group)
            allowed = [pool.allowed(rid) if pool is not None else 0 for rid in ids]
            corpus = group[0][0].corpus
            # only what passes (d) is counted on the corpus
            live = [k for k in range(len(group)) if book[k] <= allowed[k]]
            hits: list[int | None] = [None] * len(group)
            if corpus is not None and live:
                for k, n in zip(live, corpus.count([detectors[k] for k in live], [group[k][1].required for k in live]),
                                strict=True):
                    hits[k] = n
            for k, (m, c) in enumerate(group):
                m.decide(c, hits[k], book[k], allowed[k])
    share = (time.perf_counter() - start) / max(1, len(miners))
    for m in miners:
        m.result.seconds = round(m.seconds + share, 3)


def _raw_parsed(language: str, code: str) -> Parsed:
    root = raw_root(language, code)
    return Parsed(code, language, root, 0, 0, frozenset(declared_names(root)))


def order_key(cand: tree.TreeCandidate, prefer: str) -> tuple:
    """`specific`: the most specific candidate first (its bits). `general`: what names the most
    of the rule first, and of those the least specific (the clean corpus then decides how general
    a detector may be)."""
    if prefer == "general":
        return (-round(cand.relevance, 1), round(cand.bits, 3), cand.pattern)
    return (-round(cand.bits, 3), cand.pattern)


def _tree_candidates(language: str, violating: Sequence[str], own_compliant: Sequence[str], words: frozenset[str],
                     backgrounds: Backgrounds, limit: int, prefer: str = "specific") -> list[tuple[tree.TreeCandidate, str]]:
    """Tree-sitter candidates, most specific first, each with "" or why it was dropped before
    verification (does not compile, cannot be told from a compliant example of the rule)."""
    parsed = [parse_example(c, language) for c in violating]
    if any(p is None or error_share(p) > MAX_ERROR_SHARE for p in parsed):
        return []  # not code of this language (SQL, a config line, prose the clean-up kept)
    bg = backgrounds.trees.get(language) or tree.Background()
    per_example: list[dict[str, list[dict]]] = []
    for p in parsed:
        ctx = tree.Context(p.declared, words)
        by_type: dict[str, list[dict]] = {}
        for node in tree.anchors(p):
            feats = tree.features(node, p, ctx)
            if not feats and node.named_child_count == 0:
                continue
            by_type.setdefault(node.type, []).append(feats)
        per_example.append(by_type)
    common = set(per_example[0])
    for by_type in per_example[1:]:
        common &= set(by_type)
    found: dict[str, tree.TreeCandidate] = {}
    for anchor in sorted(common):
        seed_index = min(range(len(per_example)), key=lambda i: len(per_example[i][anchor]))
        others = [per_example[i][anchor] for i in range(len(per_example)) if i != seed_index]
        for seed in per_example[seed_index][anchor][:tree.MAX_SEEDS]:
            full = tree.generalise(anchor, seed, others, bg, words)
            if full is None:
                continue
            relevance = tree.relevance(anchor, tree.core(anchor, full, words), bg, words)
            for kept in tree.levels(anchor, full, bg, words):
                if not kept and not tree.type_related(anchor, words):
                    continue  # a bare node type says nothing of its own
                cand = tree.TreeCandidate(anchor, kept, full, tree.score(anchor, kept, bg, words), relevance,
                                          named=tree.is_named(anchor, kept, words))
                if not cand.named:
                    continue
                cand.pattern = tree.render(cand)
                if cand.pattern not in found or found[cand.pattern].bits < cand.bits:
                    found[cand.pattern] = cand
    ranked = sorted(found.values(), key=lambda c: order_key(c, prefer))[: limit * 3]
    out: list[tuple[tree.TreeCandidate, str]] = []
    for cand in ranked:
        error = tree.compiles(language, cand.pattern)
        if error:
            out.append((cand, f"query does not compile ({error})"))
            continue
        special, why = _specialise(cand, language, violating, own_compliant, words, bg)
        out.append((special or cand, why))
        if sum(1 for _, w in out if not w) >= limit:
            break
    return out


def _specialise(cand: tree.TreeCandidate, language: str, violating: Sequence[str], own_compliant: Sequence[str],
                words: frozenset[str], bg: tree.Background) -> tuple[tree.TreeCandidate | None, str]:
    """The candidate made to miss the rule's own compliant examples by the contrast: a path the
    compliant node lacks added back, a field only it has negated, a word only it has excluded."""
    for _ in range(4):
        hit = next((i for i, c in enumerate(own_compliant) if tree.fires(language, cand.pattern, c)), None)
        if hit is None:
            return cand, ""
        code = own_compliant[hit]
        comp_parsed = _raw_parsed(language, code)
        comp_nodes = tree.captured(language, cand.pattern, code)
        viol_nodes = [n for c in violating for n in tree.captured(language, cand.pattern, c)]
        comp_feats = [tree.features(n, comp_parsed, tree.Context(comp_parsed.declared, words)) for n in comp_nodes]
        missing = [p for p in cand.full if p not in cand.paths and all(p not in f for f in comp_feats)]
        # a literal's kind tells them apart as well as its value does, and generalises
        missing = [p for p in missing if not (p[-1][0] == "c" and p[-1][3] is not None and p[-1][2] in tree.LITERALS
                                              and p[:-1] + (("c", p[-1][1], p[-1][2], None),) in missing)]
        nxt: tree.TreeCandidate | None = None
        if missing:
            best = max(missing, key=lambda p: (tree.path_bits(cand.anchor, p, bg, words), -len(p)))
            paths = dict(cand.paths)
            for k in range(1, len(best) + 1):
                paths.setdefault(best[:k], cand.full.get(best[:k], 0))
            nxt = replace(cand, paths=paths, bits=tree.score(cand.anchor, paths, bg, words))
        else:
            viol_fields = {_fields(n) for n in viol_nodes}
            only = sorted(set().union(*(_fields(n) for n in comp_nodes)) - set().union(*viol_fields)) \
                if viol_fields else []
            if only:
                nxt = replace(cand, bits=cand.bits + 1.0, negated_fields=(*cand.negated_fields, only[0]))
            else:
                viol_words = set().union(*(_words(n) for n in viol_nodes)) if viol_nodes else set()
                # a word the compliant code made up (its own names) tells nothing about other code
                extra = sorted(set().union(*(_words(n) for n in comp_nodes)) - viol_words - comp_parsed.declared
                               - {w for w in viol_words} - set(tree.PLACEHOLDERS),
                               key=lambda w: (w.lower() not in words, not (w[:1].isupper() or w in _KEYWORDS),
                                              -len(w), w))
                extra = [w for w in extra if len(w) >= 3]
                if extra:
                    nxt = replace(cand, bits=cand.bits + 1.0, excluded_words=(*cand.excluded_words, extra[0]))
        if nxt is None:
            return None, f"cannot be told from compliant example {hit + 1} of the rule"
        nxt.pattern = tree.render(nxt)
        if tree.compiles(language, nxt.pattern) or not all(tree.fires(language, nxt.pattern, c) for c in violating):
            return None, f"cannot be told from compliant example {hit + 1} of the rule"
        cand = nxt
    return None, "cannot be told from the rule's compliant examples"


def _fields(node) -> frozenset[str]:
    return frozenset(f for i in range(node.child_count) if (f := node.field_name_for_child(i)))


def _words(node) -> set[str]:
    return set(re.findall(r"[A-Za-z_$][\w$]*", re.sub(r"//.*|/\*.*?\*/", " ", text(node))))
