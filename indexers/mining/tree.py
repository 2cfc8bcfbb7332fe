"""Tree-sitter candidates: what every violating example's syntax tree has, as a query.

A node of an example is described by a set of *paths* below (and above) it: a child through a
field and of a type (`arguments: (argument_list)`), its grandchildren, the text of a child
whose text matters (`type: (type_identifier) = "BigDecimal"`, a method's name, a class-like
receiver, a literal the rule's own text names), a keyword or operator child (`"default"`,
`operator: "=="`), and the one or two nodes it sits in (`body: (block)` of a `finally_clause`).
Names the example declares (its variables, parameters, methods, classes) never count: the
example made them up.

For an anchor node type present in every violating example, the candidate is the least general
pattern that still covers them all: the paths of one example's node intersected with the
closest node of each other example. Each path is worth the information it carries in the book's
own examples (`Background`: a path under a node type that most such nodes have is worth little),
plus a bonus when the rule's text names it (`finally`, `BigDecimal`). The candidate keeps its
most informative paths, is rendered as a tree-sitter query with `@violation` on the anchor, and
is ranked by its bits: the most specific candidate first. When a candidate fires on a compliant
example of its own rule, it is specialised from the contrast: a path the compliant node lacks
is added back, a field the compliant node has and no violating one has is negated
(`!alternative`), a word the compliant node's text has and no violating node's has is excluded
(`#not-match? @violation "\\bdefault\\b"`).

With `shape` (`SHAPES`), an argument list's shape is a path too: how many arguments, and of which
kind where every example agrees (`_shared_shapes`); a kept call keeps its shape, rendered with
anchors (`(argument_list . (decimal_integer_literal) . (_) .)`: exactly two arguments).
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from dualrag.languages import GrammarRoles
from dualrag.rulebook import compile_query, detector_rows
from dualrag.scoped_query import declared_types
from dualrag.units import Detector, QueryScope

from .examples import Parsed, raw_root, text
from .tokens import Difference
from .words import RuleWords, rule_words

__all__ = ["Background", "Context", "TreeCandidate", "rule_words"]

_SKIP_TOKENS = frozenset({"(", ")", "{", "}", "[", "]", ";", ",", ".", "::", "@", "\"", "'", "`"})
_ROOTS = ("program", "source_file", "module", "ERROR")
# Parts of node type names every rule could be said to name: no evidence of relevance.
_GENERIC_WORDS = frozenset({
    "statement", "expression", "declaration", "clause", "literal", "identifier", "type", "list", "block", "body",
    "declarator", "argument", "arguments", "parameter", "parameters", "access", "invocation", "creation", "object",
    "method", "class", "field", "local", "variable", "formal", "unary", "binary", "update", "integral", "generic",
    "scoped", "simple", "modifiers", "modifier", "dimensions", "program", "name", "value", "string", "fragment",
    "decimal", "integer", "point", "floating", "element", "pair", "label", "group", "initializer", "constructor",
    "interface", "annotation", "marker", "array", "void", "boolean", "call", "attribute", "definition", "def",
    "expr", "primary", "navigation", "suffix", "function", "module", "source", "file", "line", "comment",
})
# Names examples use for "some method", "some object": they name no API.
PLACEHOLDERS = frozenset({"foo", "bar", "baz", "qux", "method", "method1", "method2", "dosomething", "doothers",
                          "obj", "object1", "xxx", "yyy", "sth", "something", "example", "demo", "test", "mymethod",
                          "myclass", "someobject", "somemethod", "condition", "statements", "statement"})
# How much a path's information leans on a prior when the book's counts are few.
PRIOR_WEIGHT = 4.0
PRIOR_TEXT = 0.02  # a given name under a given node type
PRIOR_STEP = 0.3  # a given child, keyword or place
PRIOR_TYPE = 0.02  # a given node type among all nodes
MAX_DEPTH = 3  # paths reach great-grandchildren
MIN_UP_BITS = 1.5  # where a node sits counts only when that says something
MAX_PATHS = 6  # the most informative paths a candidate keeps (their prefixes ride along)
MAX_SEEDS = 40  # anchor nodes of one type tried from the seed example
MIN_PATH_BITS = 0.4  # a path worth less says nothing (most nodes of its parent's type have it)
RULE_WORD_BONUS = 2.0
SHAPE_BITS = 1.0  # an argument list's shape: counted, never a reason to prefer a candidate
SHAPES = ("", "kinds", "count")  # no shape; how many arguments and of which kind; how many only

Step = tuple  # ("c", field, type, text | None) | ("k", field, token) | ("u", field, type) | ("t", text)
#  | ("s", kinds): the argument list above it has one argument per kind (None: of any kind)
Path = tuple  # tuple[Step, ...]


def literal_word(value: str) -> str:
    return value.strip("\"'").rstrip("lLfFdD").lower()


@dataclass
class Context:
    """What decides which texts matter: the names the example declares (and the types it declares
    them with), and the rule's words, read in the language's grammar (`words.roles`)."""

    declared: frozenset[str]
    words: RuleWords
    types: dict[str, set[str]] = field(default_factory=dict)  # declared name -> simple type names
    scoped: bool = True  # paths a scoped query needs (places at any depth, receivers' types) too
    shape: str = ""  # argument lists' shapes (`SHAPES`)

    @property
    def roles(self) -> GrammarRoles:
        return self.words.roles


def meaningful_text(node, parent, fld: str, ctx: Context) -> str | None:
    """The text of a leaf that names something the example did not make up, else None."""
    if node.named_child_count:
        return None
    value = text(node)
    if not value or len(value) > 80:
        return None
    roles = ctx.roles
    if node.type in roles.literals:  # a literal counts when the rule's text names it (365, not 1)
        word = literal_word(value)
        return value if word in ctx.words and len(word) >= 2 else None
    if node.type not in roles.identifiers:
        return None
    if value in ctx.declared or value.startswith("__") or value.lower() in PLACEHOLDERS or len(value) < 3:
        return None
    if parent is not None and any(p.type == "this" for p in parent.named_children) and fld != "name":
        return None  # this.data: the example's own field
    if value[:1].isupper() or node.type != "identifier":
        return value  # a type's name
    if parent is not None and "declaration" not in parent.type and "definition" not in parent.type and \
            (fld in roles.naming or f"{parent.type}#{_named_index(node)}" in roles.naming):
        return value
    return None


def _named_index(node) -> int:
    parent = node.parent
    return next((i for i, c in enumerate(parent.named_children) if c.id == node.id), -1) if parent is not None else -1


def receiver_types(node, parent, fld: str, ctx: Context) -> set[str]:
    """The types a call's receiver has (`GrammarRoles.receivers`): the types the example declares
    its name with, or the name itself when it is a type's (a static call)."""
    if parent is None or node.type not in ctx.roles.identifiers or node.named_child_count:
        return set()
    position = fld or f"#{_named_index(node)}"
    if (parent.type, position) not in ctx.roles.receivers:
        return set()
    value = text(node)
    if value in ctx.types:
        return set(ctx.types[value])
    if value not in ctx.declared and value[:1].isupper():
        return {value}
    return set()


def context(parsed: Parsed, words: RuleWords, scoped: bool = True, shape: str = "") -> Context:
    return Context(parsed.declared, words, declared_types(parsed.language, parsed.root) if scoped else {}, scoped,
                   shape)


def shape_of(node, ctx: Context) -> Step | None:
    """An argument list's shape step: one kind per argument (`count`: None for each)."""
    if not ctx.shape or node.type not in ctx.roles.arguments:
        return None
    kinds = [c.type for c in node.named_children if c.type not in ctx.roles.comments]
    return ("s", tuple(None if ctx.shape == "count" else k for k in kinds))


def _field(node, index: int) -> str:
    return node.field_name_for_child(index) or ""


def features(node, parsed: Parsed, ctx: Context) -> dict[Path, int]:
    """Every path of an anchor node, each with its position among its siblings (for the order
    the query lists them in): below it, the one or two nodes it sits in (`u`), and the places it
    sits in at any depth (`a`, `GrammarRoles.places`)."""
    out: dict[Path, int] = {}
    parent = node.parent
    if parent is not None:
        own = meaningful_text(node, parent, _field_of(node), ctx)
        if own is not None:
            out[(("t", own),)] = 0
    if (own_shape := shape_of(node, ctx)) is not None:
        out[(own_shape,)] = 0
    _below(node, (), 0, parsed, ctx, out)
    up: Path = ()
    current = node
    for _ in range(2):
        parent = current.parent
        if parent is None or parent.type in _ROOTS or not parsed.inside(parent):
            break
        up = up + (("u", _field_of(current), parent.type),)
        out[up] = 0
        current = parent
    for kind in places_around(node, parsed, ctx.roles) if ctx.scoped else ():
        out.setdefault((("a", kind),), 0)
    return out


def places_around(node, parsed: Parsed, roles: GrammarRoles) -> list[str]:
    """The place types a node sits in at any depth, inside the example, nearest first."""
    out: list[str] = []
    current = node.parent
    while current is not None and current.type not in _ROOTS and parsed.inside(current):
        if current.type in roles.places and current.type not in out:
            out.append(current.type)
        current = current.parent
    return out


def _field_of(node) -> str:
    parent = node.parent
    if parent is None:
        return ""
    for i, child in enumerate(parent.children):
        if child.id == node.id:
            return _field(parent, i)
    return ""


def _below(node, prefix: Path, depth: int, parsed: Parsed, ctx: Context, out: dict[Path, int]) -> None:
    for i, child in enumerate(node.children):
        if child.type in ctx.roles.comments or child.is_error or child.is_missing or child.type == "ERROR":
            continue
        fld = _field(node, i)
        if child.is_named:
            path = prefix + (("c", fld, child.type, None),)
            out.setdefault(path, i)
            if (shape := shape_of(child, ctx)) is not None:
                out.setdefault(path + (shape,), i)
            value = meaningful_text(child, node, fld, ctx)
            if value is not None:
                out.setdefault(prefix + (("c", fld, child.type, value),), i)
            for kind in receiver_types(child, node, fld, ctx) if ctx.scoped else ():
                out.setdefault(path + (("r", kind),), i)
            if depth + 1 < MAX_DEPTH:
                _below(child, path, depth + 1, parsed, ctx, out)
        elif child.type not in _SKIP_TOKENS and child.type.strip():
            out.setdefault(prefix + (("k", fld, child.type),), i)


def anchors(parsed: Parsed, roles: GrammarRoles) -> Iterable:
    """Nodes of an example a candidate may be anchored at: named, inside the example, not an
    error, not a comment, not the whole program."""
    stack = [parsed.root]
    while stack:
        node = stack.pop()
        if node.type in roles.headers:
            continue  # `package test.pkg;`, imports: every file of a project has them, none is a violation
        stack.extend(reversed(node.children))
        if not node.is_named or node.type in roles.comments or node.is_error or node.is_missing:
            continue
        if node.parent is None or not parsed.inside(node):
            continue
        yield node


# ------------------------------------------------------------------------------ background


@dataclass
class Background:
    """How often each path step occurs under each node type in a book's examples: a step most
    nodes of its parent type have carries no information."""

    types: Counter = field(default_factory=Counter)
    steps: Counter = field(default_factory=Counter)  # (parent type, step) -> nodes of that type with it
    total: int = 0

    def add(self, parsed: Parsed, ctx: Context, sign: int = 1) -> None:
        """Count an example's nodes (`sign` -1: take a counted example out again)."""
        for node in anchors(parsed, ctx.roles):
            self.types[node.type] += sign
            self.total += sign
            seen = set()
            for i, child in enumerate(node.children):
                if child.type in ctx.roles.comments or child.type == "ERROR":
                    continue
                fld = _field(node, i)
                if child.is_named:
                    seen.add(("c", fld, child.type, None))
                    value = meaningful_text(child, node, fld, ctx)
                    if value is not None:
                        seen.add(("c", fld, child.type, value))
                elif child.type not in _SKIP_TOKENS:
                    seen.add(("k", fld, child.type))
            parent = node.parent
            if parent is not None:
                seen.add(("u", _field_of(node), parent.type))
                own = meaningful_text(node, parent, _field_of(node), ctx)
                if own is not None:
                    seen.add(("t", own))
                seen.update(("r", kind) for kind in receiver_types(node, parent, _field_of(node), ctx))
            seen.update(("a", kind) for kind in places_around(node, parsed, ctx.roles))
            for step in seen:
                self.steps[(node.type, step)] += sign

    def without(self, other: Background) -> Background:
        """These counts with another background's taken out (read-only)."""
        return Background(Difference(self.types, other.types), Difference(self.steps, other.steps),  # type: ignore[arg-type]
                          self.total - other.total)

    def type_bits(self, node_type: str) -> float:
        return -math.log2((self.types[node_type] + PRIOR_WEIGHT * PRIOR_TYPE) / (self.total + PRIOR_WEIGHT))

    def step_bits(self, parent_type: str, step: Step) -> float:
        """-log2 P(step | a node of `parent_type`), the book's counts smoothed towards a prior
        (a name is rare, a structural child common): a small book's few examples, which are the
        rule's own, do not make their own names look common."""
        prior = PRIOR_TEXT if step[0] in ("t", "r") or (step[0] == "c" and step[3] is not None) else PRIOR_STEP
        n = self.steps[(parent_type, step)]
        return -math.log2((n + PRIOR_WEIGHT * prior) / (self.types[parent_type] + PRIOR_WEIGHT))


def _related(step: Step, words: RuleWords) -> bool:
    """Whether the rule's text names a step: its text, its node type (by the pack's vocabulary or
    the type's own name), its keyword or operator."""
    if step[0] == "c":
        if step[3] is not None:
            return step[3].lower() in words or literal_word(step[3]) in words
        return type_related(step[2], words)
    if step[0] == "k":
        return step[2] in words.operators or (step[2].isalpha() and step[2].lower() in words)
    if step[0] in ("u", "a"):
        return type_related(step[-1] if step[0] == "a" else step[2], words)
    return step[0] in ("t", "r") and step[1].lower() in words


def names_rule(value: str, words: RuleWords) -> bool:
    """Whether the rule's text names a text of the code (an API name, a literal's value)."""
    return value.lower() in words or literal_word(value) in words


def said_by_rule(path: Path, words: RuleWords) -> bool:
    """Whether the rule's text names a path's last step."""
    return _related(path[-1], words)


def path_bits(anchor_type: str, path: Path, bg: Background, words: RuleWords) -> float:
    """What a path adds: its last step's information given the node it hangs from (for a step
    up, given the node below it)."""
    last = path[-1]
    if last[0] == "s":
        return SHAPE_BITS
    if last[0] == "u":
        below = anchor_type if len(path) == 1 else path[-2][2]
        bits = bg.step_bits(below, last)
    else:
        parent_type = anchor_type
        for step in path[:-1]:
            if step[0] == "c":
                parent_type = step[2]
        bits = bg.step_bits(parent_type, last)
    return bits + (RULE_WORD_BONUS if _related(last, words) else 0.0)


def type_related(node_type: str, words: RuleWords) -> bool:
    return node_type in words.types or any(p in words for p in node_type.split("_") if p not in _GENERIC_WORDS)


# ------------------------------------------------------------------------------- candidates


@dataclass
class TreeCandidate:
    anchor: str
    paths: dict[Path, int]  # kept paths -> sibling position
    full: dict[Path, int]  # the least general generalisation before pruning
    bits: float
    relevance: float = 0.0  # bits of the paths that name what the rule is about
    negated_fields: tuple[str, ...] = ()
    excluded_words: tuple[str, ...] = ()
    absent_words: tuple[str, ...] = ()  # words the code around it must not hold (`QueryScope.absent`)
    pattern: str = ""
    shape: str = ""  # the argument lists' shapes it was made with (`SHAPES`)
    named: bool = False  # names an API, a keyword or a literal, or a construct the rule's text names
    said: float = 0.0  # bits of what it names that the rule's own words name (`said_bits`)

    def required_texts(self) -> tuple[str, ...]:
        """Texts a file must contain for the query to match (a fast pre-filter): the texts it
        compares with and the keywords it spells."""
        return tuple(sorted({s[3] for p in self.paths for s in p if s[0] == "c" and s[3]}
                            | {p[0][1] for p in self.paths if p[0][0] == "t"}
                            | {s[2] for p in self.paths for s in p if s[0] == "k" and s[2].isalpha()}))

    def names_only(self, bg: Background, words: RuleWords) -> bool:
        """Whether it asks for nothing but names (`Thread.sleep`, `Cloneable`): no structure worth
        a bit in the book's examples (every call has an argument list), no argument shape, no
        guard's absence — the kind of detector that fires wherever the name is, whatever the code
        does with it."""
        if self.absent_words:
            return False
        naming = [p for p in self.paths if p[-1][0] in ("t", "r") or (p[-1][0] == "c" and p[-1][3] is not None)]
        carried = {q[:k] for q in naming for k in range(1, len(q))} | {_bare(q) for q in naming}
        # a name on the node itself or on its children (a call's, an annotation's, its receiver's)
        return all(len(p) <= 2 for p in naming) and \
            all(p in carried or p in naming or path_bits(self.anchor, p, bg, words) < 1.0 for p in self.paths)

    def scope(self) -> QueryScope | None:
        """What a query cannot say: the place it sits in at any depth, its receiver's type."""
        inside = sorted({p[0][1] for p in self.paths if p[0][0] == "a"})[:1]
        receiver = _receiver(self.paths)
        types = sorted({p[-1][1] for p in self.paths if p[-1][0] == "r" and p[:-1] == receiver})
        absent = list(self.absent_words)
        return QueryScope(inside=inside, receiver_types=types, absent=absent) if inside or types or absent else None

    def detector(self, language: str) -> Detector:
        scope = self.scope()
        return Detector(kind="scoped-query" if scope else "tree-sitter", pattern=self.pattern, languages=[language],
                        scope=scope)


def candidate(anchor: str, paths: dict[Path, int], full: dict[Path, int], bg: Background, words: RuleWords, *,
              relevance: float = 0.0, negated: tuple[str, ...] = (), excluded: tuple[str, ...] = (),
              shape: str = "", absent: tuple[str, ...] = ()) -> TreeCandidate:
    """A candidate of these paths, scored and rendered (of the places it sits in, the most
    informative is kept: a scope asks for one; the shapes of its argument lists ride along)."""
    places = sorted((p for p in paths if p[0][0] == "a"), key=lambda p: (-path_bits(anchor, p, bg, words), repr(p)))
    paths = with_shapes({p: i for p, i in paths.items() if p[0][0] != "a" or p == places[0]}, full)
    cand = TreeCandidate(anchor, paths, full, score(anchor, paths, bg, words), relevance, negated, excluded,
                         absent_words=absent, shape=shape, named=is_named(anchor, paths, words), said=said_bits(anchor, paths, bg, words))
    cand.pattern = render(cand)
    return cand


def with_shapes(paths: dict[Path, int], full: dict[Path, int]) -> dict[Path, int]:
    """`paths` with the shape every example agrees on (in `full`) of the arguments of each call it
    keeps (the anchor's too): a step of the lattice never drops what a call was given."""
    out = dict(paths)
    for p, i in full.items():
        if p[-1][0] != "s" or p in out:
            continue
        call = p[:-2]
        if len(p) <= 2 or call in out:
            for k in range(1, len(p) + 1):
                out.setdefault(p[:k], full.get(p[:k], i))
    return out


def _receiver(paths: Iterable[Path]) -> Path | None:
    """The one node a candidate asks a receiver type of (the shallowest)."""
    return min((p[:-1] for p in paths if p[-1][0] == "r"), key=lambda q: (len(q), repr(q)), default=None)


def generalise(anchor_type: str, seed: dict[Path, int], others: Sequence[list[dict[Path, int]]],
               bg: Background, words: RuleWords) -> dict[Path, int] | None:
    """The seed's paths intersected with, per other example, its closest node of the type."""
    common = dict(seed)
    for nodes in others:
        best, best_bits = None, -1.0
        for feats in nodes:
            shared = {p: i for p, i in common.items() if p in feats}
            shared.update(_shared_shapes(common, feats))
            bits = sum(path_bits(anchor_type, p, bg, words) for p in shared)
            if bits > best_bits:
                best, best_bits = shared, bits
        if best is None:
            return None
        common = best
    return common


def _shared_shapes(common: dict[Path, int], feats: dict[Path, int]) -> dict[Path, int]:
    """Shapes of the same argument list with as many arguments in both: the kinds they agree on
    (None where they differ)."""
    theirs = {p[:-1]: p[-1][1] for p in feats if p[-1][0] == "s"}
    out: dict[Path, int] = {}
    for p, i in common.items():
        if p[-1][0] != "s" or p in feats:
            continue
        other = theirs.get(p[:-1])
        if other is not None and len(other) == len(p[-1][1]):
            out[p[:-1] + (("s", tuple(a if a == b else None for a, b in zip(p[-1][1], other, strict=True))),)] = i
    return out


def prune(anchor_type: str, paths: dict[Path, int], bg: Background, words: RuleWords,
          limit: int = MAX_PATHS) -> dict[Path, int]:
    """The `limit` most informative paths (worth at least MIN_PATH_BITS), with their prefixes.
    A path through a child with a text replaces the same path through the bare child."""
    scored = []
    for p in paths:
        if p[-1][0] == "s":
            continue  # shapes ride along with their argument list (`with_shapes`)
        bits = path_bits(anchor_type, p, bg, words)
        if bits >= (MIN_UP_BITS if p[-1][0] == "u" else MIN_PATH_BITS):
            scored.append((bits, len(p), p))
    scored.sort(key=lambda t: (-t[0], t[1], repr(t[2])))
    kept: dict[Path, int] = {}
    for _, _, p in scored:
        if len([q for q in kept if not _is_prefix_only(q, kept)]) >= limit:
            break
        for k in range(1, len(p) + 1):
            prefix = p[:k]
            kept.setdefault(prefix, paths.get(prefix, 0))
    return kept


def core(anchor_type: str, paths: dict[Path, int], words: RuleWords) -> dict[Path, int]:
    """The paths that name what the rule is about: a text (an API name, a literal the rule
    names) or a construct, keyword or operator the rule's text names; with their prefixes."""
    kept: dict[Path, int] = {}
    for p in paths:
        if names(anchor_type, p, words):
            for k in range(1, len(p) + 1):
                kept.setdefault(p[:k], paths.get(p[:k], 0))
    return kept


def names(anchor_type: str, path: Path, words: RuleWords) -> bool:
    """Whether a path's last step names what the rule is about: an API name, or a construct,
    keyword or operator the rule's text names. A literal's value never does (the rule's `0.1` is
    an example of a double, not the point)."""
    last = path[-1]
    literals = words.roles.literals
    if last[0] == "t":
        return anchor_type not in literals
    if last[0] == "r":
        return True
    if last[0] == "c":
        if last[2] in literals:
            return False
        return last[3] is not None or _related(last, words)
    return _related(last, words)


def said_bits(anchor_type: str, paths: Iterable[Path], bg: Background, words: RuleWords) -> float:
    """Bits of what a candidate names that the rule's own words name (its anchor type, texts,
    constructs, keywords, operators): a pattern that names only what its example happened to
    contain has none."""
    total = RULE_WORD_BONUS if type_related(anchor_type, words) else 0.0
    return total + sum(path_bits(anchor_type, p, bg, words) for p in paths if _related(p[-1], words))


def levels(anchor_type: str, lgg: dict[Path, int], bg: Background, words: RuleWords) -> list[dict[Path, int]]:
    """Candidates of one anchor from general to specific: what the rule names (the core), the
    core and the two most informative other paths, the most informative paths (MAX_PATHS)."""
    base = core(anchor_type, lgg, words)
    rest = {p: i for p, i in lgg.items() if p not in base}
    mid = dict(base)
    for p in prune(anchor_type, rest, bg, words, limit=2):
        mid.setdefault(p, lgg.get(p, 0))
    full = prune(anchor_type, lgg, bg, words)
    for p in base:
        full.setdefault(p, lgg.get(p, 0))
    out: list[dict[Path, int]] = []
    for paths in (base, mid, full):
        if paths not in out:
            out.append(paths)
    return out


def _is_prefix_only(p: Path, kept: dict[Path, int]) -> bool:
    return any(len(q) > len(p) and q[:len(p)] == p for q in kept)


def score(anchor_type: str, paths: dict[Path, int], bg: Background, words: RuleWords) -> float:
    """Bits of a candidate: its anchor type's rarity and each path's information (a bare child
    that also has a texted twin is counted once)."""
    total = bg.type_bits(anchor_type) + (RULE_WORD_BONUS if type_related(anchor_type, words) else 0.0)
    for p in paths:
        last = p[-1]
        if last[0] == "c" and last[3] is None and p[:-1] + (("c", last[1], last[2], "?"),) in _texted(paths):
            continue
        total += path_bits(anchor_type, p, bg, words)
    return total


def relevance(anchor_type: str, core_paths: dict[Path, int], bg: Background, words: RuleWords) -> float:
    """Bits of what a candidate names of the rule: its core paths, and its anchor type when the
    rule's text names that construct (not how rare the anchor type is)."""
    total = RULE_WORD_BONUS if type_related(anchor_type, words) else 0.0
    for p in core_paths:
        if names(anchor_type, p, words):
            total += path_bits(anchor_type, p, bg, words)
    return total


def _texted(paths: dict[Path, int]) -> set[Path]:
    return {p[:-1] + (("c", p[-1][1], p[-1][2], "?"),) for p in paths if p[-1][0] == "c" and p[-1][3] is not None}


def is_named(anchor_type: str, paths: Iterable[Path], words: RuleWords) -> bool:
    """A candidate that names something: a text (an API name, a literal the rule names), a
    keyword or operator, or a construct whose name the rule's text uses."""
    if type_related(anchor_type, words):
        return True
    for p in paths:
        last = p[-1]
        if last[0] in ("t", "r") or (last[0] == "c" and last[3] is not None) or _related(last, words):
            return True
    return False


# -------------------------------------------------------------------------------- rendering


def _quote(value: str) -> str:
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


@dataclass
class _PNode:
    type: str
    fld: str = ""
    text: str | None = None
    order: int = 0
    children: list = field(default_factory=list)  # _PNode or ("k", field, token, order)
    receiver: bool = False
    shape: tuple | None = None  # an argument list's kinds, anchored (None: any arguments)


def render(cand: TreeCandidate) -> str:
    """The candidate as a tree-sitter query with `@violation` on the anchor (and `@receiver` on
    the node its scope asks the type of; the places it sits in are the scope's)."""
    root = _PNode(cand.anchor, shape=next((p[0][1] for p in cand.paths if p[0][0] == "s"), None))
    ups = sorted((p for p in cand.paths if p[0][0] == "u"), key=len)
    own_text = next((p[0][1] for p in cand.paths if p[0][0] == "t"), None)
    down = [p for p in cand.paths if p[0][0] == "c" or p[0][0] == "k"]
    receiver = _receiver(cand.paths)
    nodes: dict[Path, _PNode] = {(): root}
    texted = {p[:-1] + (("c", p[-1][1], p[-1][2], None),): p for p in down if p[-1][0] == "c" and p[-1][3]}
    for p in sorted(down, key=len):
        parent = nodes.get(_bare(p[:-1]))
        if parent is None:
            continue
        last = p[-1]
        if last[0] == "s":
            parent.shape = last[1]
            continue
        if last[0] == "r":
            if p[:-1] == receiver:
                parent.receiver = True
            continue
        if last[0] == "k":
            parent.children.append(("k", last[1], last[2], cand.paths[p]))
            continue
        bare = _bare(p)
        if last[3] is None and p in texted:
            continue  # the texted twin stands for it
        if bare in nodes and last[3] is not None and nodes[bare].text is None:
            nodes[bare].text = last[3]
            continue
        node = _PNode(last[2], last[1], last[3], cand.paths[p])
        parent.children.append(node)
        nodes.setdefault(bare, node)
    captures: list[tuple[str, str]] = []
    body = _render_node(root, captures, cand.negated_fields, anchor=True)
    if own_text is not None:
        captures.append(("violation", own_text))
    for step in (ups[-1] if ups else ()):  # the node it sits in, then that node's parent
        body = f"({step[2]} {step[1] + ': ' if step[1] else ''}{body})"
    preds = [f"(#{'match' if name.startswith('s') else 'eq'}? @{name} {_quote(value)})" for name, value in captures]
    preds += [f"(#not-match? @violation {_quote(_word_rx(word))})" for word in cand.excluded_words]
    return f"({body} {' '.join(preds)})" if preds else body


def _word_rx(word: str) -> str:
    return r"\b" + re.escape(word) + r"\b" if re.match(r"\w", word) else re.escape(word)


def _bare(p: Path) -> Path:
    return tuple(("c", s[1], s[2], None) if s[0] == "c" else s for s in p)


def _render_node(node: _PNode, captures: list, negated: Sequence[str] = (), anchor: bool = False) -> str:
    parts = [node.type] + [f"!{f}" for f in negated]
    slots = _slots(node)
    if slots:  # its arguments, one per slot, first to last
        parts.append(". " + " . ".join(s if isinstance(s, str) else _render_node(s, captures) for s in slots) + " .")
    for child in sorted(node.children, key=lambda c: c[3] if isinstance(c, tuple) else c.order) \
            if slots is None else ():
        if isinstance(child, tuple):
            parts.append(f"{child[1] + ': ' if child[1] else ''}{_quote(child[2])}")
        else:
            parts.append(f"{child.fld + ': ' if child.fld else ''}{_render_node(child, captures)}")
    rendered = "(" + " ".join(parts) + ")"
    if slots == []:
        name = f"s{len(captures)}"
        captures.append((name, r"^\(\s*\)$"))  # no argument at all
        rendered += f" @{name}"
    if node.text is not None:
        name = f"c{len(captures)}"
        captures.append((name, node.text))
        rendered += f" @{name}"
    if node.receiver:
        rendered += " @receiver"
    if anchor:
        rendered += " @violation"
    return rendered


def _slots(node: _PNode) -> list | None:
    """An argument list's arguments in order when its shape can be rendered: a kept argument at
    its place (`( a , b )`: the i-th argument is child 2i+1), any other as its kind (`(_)`: any)."""
    if node.shape is None or any(isinstance(c, tuple) for c in node.children):
        return None
    slots: list = [f"({k})" if k else "(_)" for k in node.shape]
    for child in node.children:
        at = (child.order - 1) // 2
        if not (0 <= at < len(slots) and isinstance(slots[at], str) and node.shape[at] in (None, child.type)):
            return None  # not where the shape says: no anchors
        slots[at] = child
    return slots


def compiles(language: str, pattern: str) -> str | None:
    """None when the query compiles, else why not."""
    try:
        compile_query(language, pattern)
    except Exception as exc:  # noqa: BLE001 - tree_sitter raises QueryError / NameError variants
        return f"{type(exc).__name__}: {str(exc).splitlines()[0][:120] if str(exc) else ''}"
    return None


def fires(language: str, detector: Detector, code: str) -> bool:
    return bool(detector_rows(detector, language, code))


def captured(language: str, pattern: str, code: str) -> list:
    """The @violation nodes of a query in an example parsed as a diff fragment."""
    from tree_sitter import QueryCursor

    return QueryCursor(compile_query(language, pattern)).captures(raw_root(language, code)).get("violation", [])
