"""More general candidates than a verified one: the lattice a rule's detector climbs (issue 42).

Each step takes a candidate's paths and drops or weakens one kind of constraint; the miner keeps
a step when the more general candidate still passes every check, and records why when it does not
(`RuleMining.climb`). The steps:

- `descend`: the child that holds everything it names becomes the anchor (what enclosed it, the
  declaration a call's result was assigned to, is dropped; taken again while it passes);
- `anywhere`: the nodes it sits in (parent, grandparent) become a place it sits in at any depth
  (`GrammarRoles.places`: a call anywhere in a method, a return anywhere in a finally block);
- `context`: no enclosing node at all;
- `siblings`: only the paths that lead to what names the rule's matter (no sibling statements,
  no order among them, no structure that names nothing);
- `receiver`: a call on a type's name (`Arrays.fill`) becomes a call on any receiver of that type
  (a variable, field or parameter the fragment declares with it, or the type itself);
- `names`: names, receivers' types and literal values the rule's text does not name are dropped
  (the node's kind stays: a literal's kind, a call's shape);
- `values`: literal values are dropped even where the rule's prose names them (its `0.1` is often
  an instance of "a double", not the point: verification says which), never one it writes as
  code (`setWritable(true, false)`, "`0777`");
- `optional`: what a construct may do without: modifiers, annotations, argument lists
  (`GrammarRoles.optional`), unless the rule names them.

No step drops a kept call's argument shape (`MiningOptions.shape`, `tree.with_shapes`): what a
call was given is where its near miss differs (`interval(15, SECONDS)` and the same call with a
scheduler), and a book without compliant code cannot show which steps lose that.
"""

from __future__ import annotations

from collections.abc import Callable

from . import tree
from .words import RuleWords

Paths = dict  # tree.Path -> sibling position
Step = tuple  # (anchor type, paths, full paths)

ORDERS: dict[str, tuple[str, ...]] = {
    "context-first": ("descend", "anywhere", "context", "siblings", "receiver", "names", "values", "optional"),
    "names-first": ("receiver", "names", "values", "optional", "siblings", "descend", "anywhere", "context"),
}


def descend(cand: tree.TreeCandidate, words: RuleWords) -> Step | None:
    named = [p for p in cand.paths if p[0][0] in ("c", "k") and tree.names(cand.anchor, p, words)]
    if not named:
        return None
    bare = [_bare_all(p) for p in named]
    first = {p[0] for p in bare}
    if len(first) != 1 or min(len(p) for p in bare) < 2 or next(iter(first))[0] != "c":
        return None  # what it names is not all below one child that has more below it
    prefix = (next(iter(first)),)
    return prefix[0][2], _below(cand.paths, prefix), _below(cand.full, prefix)


def _below(paths: Paths, prefix: tree.Path) -> Paths:
    """The paths under the node at `prefix`, from that node (its own text as a `t` step)."""
    out: Paths = {}
    n = len(prefix)
    for p, i in paths.items():
        if p[0][0] not in ("c", "k") or _bare_all(p[:n]) != prefix:
            continue
        rest = p[n:]
        if rest:
            out[rest] = i
        elif p[-1][3] is not None:
            out[(("t", p[-1][3]),)] = 0
    out.update({p: i for p, i in paths.items() if p[0][0] == "a"})
    return out


def _bare_all(p: tree.Path) -> tree.Path:
    return tuple(("c", s[1], s[2], None) if s[0] == "c" else s for s in p)


def anywhere(cand: tree.TreeCandidate, words: RuleWords) -> Step | None:
    ups = [p for p in cand.paths if p[0][0] == "u"]
    if not ups:
        return None
    out = {p: i for p, i in cand.paths.items() if p[0][0] != "u"}
    if not any(p[0][0] == "a" for p in out):
        enclosing = {s[2] for p in ups for s in p}
        places = [p for p in cand.full if p[0][0] == "a" and p[0][1] in enclosing] or \
                 [p for p in cand.full if p[0][0] == "a"]
        if not places:
            return None
        out.update({p: 0 for p in places})
    return cand.anchor, out, cand.full


def context(cand: tree.TreeCandidate, words: RuleWords) -> Step | None:
    out = {p: i for p, i in cand.paths.items() if p[0][0] not in ("u", "a")}
    return (cand.anchor, out, cand.full) if len(out) < len(cand.paths) else None


def siblings(cand: tree.TreeCandidate, words: RuleWords) -> Step | None:
    below = {p: i for p, i in cand.paths.items() if p[0][0] not in ("u", "a")}
    kept = tree.core(cand.anchor, below, words)
    if not kept and not tree.type_related(cand.anchor, words):
        return None
    out = {**kept, **{p: i for p, i in cand.paths.items() if p[0][0] in ("u", "a")}}
    return (cand.anchor, out, cand.full) if len(out) < len(cand.paths) else None


def receiver(cand: tree.TreeCandidate, words: RuleWords) -> Step | None:
    typed = {p[:-1] for p in cand.paths if p[-1][0] == "r"}
    out = {p: i for p, i in cand.paths.items()
           if not (p[-1][0] == "c" and p[-1][3] is not None and _bare(p) in typed)}
    if len(out) == len(cand.paths):
        return None
    for node in typed:
        out.setdefault(node, cand.paths.get(node, 0))
    return cand.anchor, out, cand.full


def names(cand: tree.TreeCandidate, words: RuleWords) -> Step | None:
    out: Paths = {}
    changed = False
    for p, i in cand.paths.items():
        last = p[-1]
        text = last[1] if last[0] in ("t", "r") else last[3] if last[0] == "c" else None
        if text is None or tree.names_rule(text, words):
            out[p] = i
            continue
        changed = True
        if last[0] == "c":
            out.setdefault(_bare(p), i)
    return (cand.anchor, out, cand.full) if changed else None


def values(cand: tree.TreeCandidate, words: RuleWords) -> Step | None:
    literals = words.roles.literals
    out: Paths = {}
    for p, i in cand.paths.items():
        last = p[-1]
        if last[0] == "c" and last[3] is not None and last[2] in literals and not _written(last[3], words):
            out.setdefault(_bare(p), i)
        elif last[0] == "t" and cand.anchor in literals and not _written(last[1], words):
            continue
        else:
            out[p] = i
    return (cand.anchor, out, cand.full) if out != cand.paths else None


def _written(value: str, words: RuleWords) -> bool:
    """Whether the rule's text writes a literal's value as code."""
    return tree.literal_word(value) in words.code


def optional(cand: tree.TreeCandidate, words: RuleWords) -> Step | None:
    skip = words.roles.optional
    out = {p: i for p, i in cand.paths.items()
           if not any(s[0] == "c" and s[2] in skip for s in p) or tree.said_by_rule(p, words)}
    # a prefix a kept path leads through stays
    for p in list(out):
        for k in range(1, len(p)):
            out.setdefault(p[:k], cand.paths.get(p[:k], 0))
    return (cand.anchor, out, cand.full) if len(out) < len(cand.paths) else None


STEPS: dict[str, Callable[[tree.TreeCandidate, RuleWords], Step | None]] = {
    "descend": descend, "anywhere": anywhere, "context": context, "siblings": siblings, "receiver": receiver, "names": names,
    "values": values, "optional": optional,
}


def climb(cand: tree.TreeCandidate, step: str, bg: tree.Background, words: RuleWords) -> tree.TreeCandidate | None:
    """The candidate one step more general, or None when the step changes nothing."""
    found = STEPS[step](cand, words)
    if found is None:
        return None
    anchor, paths, full = found
    if anchor == cand.anchor and paths == cand.paths:
        return None
    relevance = tree.relevance(anchor, tree.core(anchor, full, words), bg, words)
    out = tree.candidate(anchor, paths, full, bg, words, relevance=relevance,
                         negated=cand.negated_fields if anchor == cand.anchor else (), excluded=cand.excluded_words,
                         shape=cand.shape, absent=cand.absent_words)
    if not out.named or (out.pattern == cand.pattern and out.scope() == cand.scope()):
        return None
    return out


def _bare(p: tree.Path) -> tree.Path:
    return p[:-1] + (("c", p[-1][1], p[-1][2], None),)
