"""A rule's tree-sitter candidates: for each anchor node type every violating example has, the
least general pattern over them (`tree.generalise`) at three levels of detail (`tree.levels`),
each made to miss the rule's own compliant examples by the contrast (`specialise`).

They are ordered by `order_key`: what the rule's own words name first (`tree.said`), then what
names anything, then the most specific (`specific`: a lattice then climbs from there) or the
least specific (`general`: the corpus decides how general a detector may be; the order the miner
had before the lattice, kept for the baseline).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from dualrag.scoped_query import words_around

from . import tree
from .examples import Parsed, declared_names, error_share, parse_example, raw_root, roles_of, text
from .words import RuleWords

MAX_ERROR_SHARE = 0.25  # an example whose parse leaves more unplaced is not mined as a tree
MAX_ABSENT = 2  # guards a candidate may ask to be absent


def order_key(cand: tree.TreeCandidate, prefer: str, said_first: bool = False) -> tuple:
    """`specific`: the most specific candidate first (its bits). `general`: what names the most
    of the rule first, and of those the least specific. `said_first`: before either, what the
    rule's own words name."""
    first = (-round(cand.said, 1),) if said_first else ()
    if prefer == "general":
        return (*first, -round(cand.relevance, 1), round(cand.bits, 3), cand.pattern)
    return (*first, -round(cand.bits, 3), cand.pattern)


def tree_candidates(language: str, violating: Sequence[str], words: RuleWords, bg: tree.Background, limit: int,
                    prefer: str = "specific", said_first: bool = False,
                    scoped: bool = True, shape: str = "") -> list[tree.TreeCandidate]:
    """Tree-sitter candidates in `order_key` order (at most `limit` of them), not yet compiled or
    told from the rule's compliant examples (`prepare` does that, for those the miner gets to).
    `scoped` False: plain queries only (no place at any depth, no receiver's type). `shape`: what of
    an argument list's shape the candidates keep (`tree.SHAPES`)."""
    parsed = [parse_example(c, language) for c in violating]
    if any(p is None or error_share(p) > MAX_ERROR_SHARE for p in parsed):
        return []  # not code of this language (SQL, a config line, prose the clean-up kept)
    per_example: list[dict[str, list[dict]]] = []
    for p in parsed:
        ctx = tree.context(p, words, scoped, shape)
        by_type: dict[str, list[dict]] = {}
        for node in tree.anchors(p, words.roles):
            feats = tree.features(node, p, ctx)
            if node.named_child_count == 0 and (not feats or (scoped and (("t",) not in {q[0][:1] for q in feats}))):
                continue  # a leaf says something by its own text only (with the lattice: never by where it sits)
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
                cand = tree.candidate(anchor, kept, full, bg, words, relevance=relevance, shape=shape)
                if not cand.named:
                    continue
                if cand.pattern not in found or found[cand.pattern].bits < cand.bits:
                    found[cand.pattern] = cand
    return sorted(found.values(), key=lambda c: order_key(c, prefer, said_first))[:limit]


def prepare(cand: tree.TreeCandidate, language: str, violating: Sequence[str], own_compliant: Sequence[str],
            words: RuleWords, bg: tree.Background, absence: bool = False) -> tuple[tree.TreeCandidate, str]:
    """A candidate compiled and made to miss the rule's own compliant examples, with "" or why it
    was dropped before verification (does not compile, cannot be told from a compliant example)."""
    error = tree.compiles(language, cand.pattern)
    if error:
        return cand, f"query does not compile ({error})"
    special, why = specialise(cand, language, violating, own_compliant, words, bg, absence=absence)
    return special or cand, why


def _raw_parsed(language: str, code: str) -> Parsed:
    root = raw_root(language, code)
    return Parsed(code, language, root, 0, 0, frozenset(declared_names(root, language)))


def specialise(cand: tree.TreeCandidate, language: str, violating: Sequence[str], own_compliant: Sequence[str],
               words: RuleWords, bg: tree.Background,
               within: dict | None = None, absence: bool = False) -> tuple[tree.TreeCandidate | None, str]:
    """The candidate made to miss the rule's own compliant examples by the contrast: a path the
    compliant node lacks added back, a field only it has negated, a word only it has excluded.
    `within`: only paths of these (a more specific candidate's) may be added back, nothing else.
    `absence`: when none of that tells them apart, a word the code around the compliant match has
    and no violating example has becomes one its code around must not have (a null check, a
    `close`, a scheduler: `QueryScope.absent`)."""
    literals = roles_of(language).literals
    for _ in range(4):
        det = cand.detector(language)
        hit = next((i for i, c in enumerate(own_compliant) if tree.fires(language, det, c)), None)
        if hit is None:
            return cand, ""
        code = own_compliant[hit]
        comp_parsed = _raw_parsed(language, code)
        comp_nodes = tree.captured(language, cand.pattern, code)
        viol_nodes = [n for c in violating for n in tree.captured(language, cand.pattern, c)]
        comp_ctx = tree.context(comp_parsed, words, shape=cand.shape)
        comp_feats = [tree.features(n, comp_parsed, comp_ctx) for n in comp_nodes]
        missing = [p for p in cand.full if p not in cand.paths and all(p not in f for f in comp_feats)
                   and (within is None or p in within)]
        # a literal's kind tells them apart as well as its value does, and generalises
        missing = [p for p in missing if not (p[-1][0] == "c" and p[-1][3] is not None and p[-1][2] in literals
                                              and p[:-1] + (("c", p[-1][1], p[-1][2], None),) in missing)]
        nxt: tree.TreeCandidate | None = None
        if missing:
            best = max(missing, key=lambda p: (tree.path_bits(cand.anchor, p, bg, words), -len(p)))
            paths = dict(cand.paths)
            for k in range(1, len(best) + 1):
                paths.setdefault(best[:k], cand.full.get(best[:k], 0))
            nxt = tree.candidate(cand.anchor, paths, cand.full, bg, words, relevance=cand.relevance,
                                 negated=cand.negated_fields, excluded=cand.excluded_words, shape=cand.shape)
        elif within is not None:
            nxt = None
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
                               - set(tree.PLACEHOLDERS),
                               key=lambda w: (w.lower() not in words,
                                              not (w[:1].isupper() or w in words.roles.keywords), -len(w), w))
                extra = [w for w in extra if len(w) >= 3]
                if extra:
                    nxt = replace(cand, bits=cand.bits + 1.0, excluded_words=(*cand.excluded_words, extra[0]))
        if nxt is None and absence and len(cand.absent_words) < MAX_ABSENT:
            guard = _guard(comp_nodes, comp_parsed, violating, words, cand.absent_words)
            if guard is not None:
                nxt = replace(cand, bits=cand.bits + 1.0, absent_words=(*cand.absent_words, guard))
        if nxt is None:
            return None, f"cannot be told from compliant example {hit + 1} of the rule"
        nxt.pattern = tree.render(nxt)
        det = nxt.detector(language)
        if tree.compiles(language, nxt.pattern) or not all(tree.fires(language, det, c) for c in violating):
            return None, f"cannot be told from compliant example {hit + 1} of the rule"
        cand = nxt
    return None, "cannot be told from the rule's compliant examples"


def _guard(comp_nodes: Sequence, comp_parsed: Parsed, violating: Sequence[str], words: RuleWords,
           taken: Sequence[str]) -> str | None:
    """A word the code around the compliant match has and no violating example has anywhere, that
    the rule's text names or that is a keyword (`null`, `finally`): what guards it. Any other
    difference between two examples is as likely the example's own as the point."""
    roles = words.roles
    found = set().union(*(words_around(n, roles.functions) for n in comp_nodes)) if comp_nodes else set()
    for code in violating:
        found -= words_around(raw_root(comp_parsed.language, code), ())
    found -= comp_parsed.declared | set(tree.PLACEHOLDERS) | set(taken)
    ranked = sorted((w for w in found if len(w) >= 2 and (w.lower() in words or w in roles.keywords)),
                    key=lambda w: (w.lower() not in words, -len(w), w))
    return ranked[0] if ranked else None


def _fields(node) -> frozenset[str]:
    return frozenset(f for i in range(node.child_count) if (f := node.field_name_for_child(i)))


def _words(node) -> set[str]:
    return set(re.findall(r"[A-Za-z_$][\w$]*", re.sub(r"//.*|/\*.*?\*/", " ", text(node))))
