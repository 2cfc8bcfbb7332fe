"""A rule's examples as code: prose taken off, parsed in the grammar of the language's pack.

Documents mix code and prose in their examples (`在 main 参数中，使用 String args[] 来定义。`,
`接口方法定义 public abstract void commit();`): a line keeps only its code; a line that is prose
through and through is dropped, and an example left with no code is prose (nothing to mine).

A fragment that does not parse as a unit is wrapped (the pack's `GrammarRoles.wrappers`; Java:
into a class, then into a method of a class) and the parse with the fewest errors is kept for mining. Verification never uses the
wrapped text: it runs a candidate exactly as a review would, on the example as a diff fragment.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache

from dualrag import languages
from dualrag.languages import GrammarRoles

# CJK ideographs, kana, hangul, full-width forms and CJK punctuation: the prose of a document.
_PROSE_CHAR = "\u3000-\u303f\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uff00-\uffef\u2018-\u201f\u2026"
_PROSE = re.compile(f"[{_PROSE_CHAR}]")
_PROSE_RUN = re.compile(f"[{_PROSE_CHAR}]+(?:[\\s0-9]*[{_PROSE_CHAR}]+)*")
_CODE_PUNCT = re.compile(r"[;{}()=\[\]<>]|\.\w")
_NAME_LIST = re.compile(r"^\s*[^\s/;{}=]+(?:(?:\s+/\s*|\s*/\s+|\s*[、，]\s*)[^\s/;{}=]+)+\s*[。.]?\s*$")
_NUMBERED = re.compile(r"^\s*(?:\(\d+\)|（\d+）|\d+[）)、])")

_NO_ROLES = GrammarRoles()
_NAME = "identifier"  # what every tree-sitter grammar calls a value's name (a type's name may differ)


def roles_of(language: str) -> GrammarRoles:
    """What the node types of a language's grammar are to mining (its pack's `roles`; none: an
    empty table, so mining still runs on the grammar alone)."""
    pack = languages.pack_for(language)
    return pack.roles if pack is not None and pack.roles is not None else _NO_ROLES


def code_of(example: str) -> str:
    """The code of an example: fences and prose lines dropped, prose around code on a line cut
    off (prose inside brackets or quotes, `if (删除的条件) {`, stays: it is a placeholder); "" when
    the example is prose only."""
    out: list[str] = []
    for raw in example.splitlines():
        line = raw.rstrip()
        stripped = line.strip()
        if stripped.startswith(("```", "~~~")):
            continue
        if _NAME_LIST.match(line):  # `UserDo / HTMLDto / XMLService`: names, not code
            continue
        if _PROSE.search(line) and not stripped.startswith(("//", "/*", "*")):
            if _NUMBERED.match(line):
                continue
            kept = _code_parts(line)
            out.extend(kept)
            continue
        out.append(line)
    text = "\n".join(out).strip("\n")
    return text if re.search(r"[A-Za-z_]\w*", text) else ""


def _code_parts(line: str) -> list[str]:
    """A line with prose: whole when every prose run sits inside brackets, quotes or a trailing
    comment, else the pieces between the prose runs that read as code."""
    runs = list(_PROSE_RUN.finditer(line))
    if all(_enclosed(line, m.start()) for m in runs):
        return [line]
    pieces, last = [], 0
    for m in runs:
        pieces.append(line[last:m.start()])
        last = m.end()
    pieces.append(line[last:])
    return [p.strip() for p in pieces if _CODE_PUNCT.search(p) and re.search(r"[A-Za-z_]\w*", p)]


def _enclosed(line: str, at: int) -> bool:
    before = line[:at]
    if "//" in before or before.count('"') % 2 == 1:
        return True
    depth = sum(before.count(c) for c in "({[") - sum(before.count(c) for c in ")}]")
    return depth > 0


@dataclass
class Parsed:
    """One example: its code, the parse used for mining (`root`, maybe wrapped: the example
    starts at byte `offset` of it), the names it declares and its error count."""

    code: str
    language: str
    root: object
    offset: int
    errors: int
    declared: frozenset[str] = field(default_factory=frozenset)

    def inside(self, node) -> bool:
        """Whether a node lies in the example itself (not in the wrapper around it)."""
        return node.start_byte >= self.offset and node.end_byte <= self.offset + len(self.code.encode("utf-8"))


@lru_cache(maxsize=8192)
def parse_example(code: str, language: str) -> Parsed | None:
    """The best parse of an example's code, or None when the language has no grammar (cached:
    callers never change it)."""
    if not code.strip() or languages.grammar_of(language) is None:
        return None
    best: Parsed | None = None
    for prefix, suffix in (("", ""), *roles_of(language).wrappers):
        root = languages.parser(language).parse((prefix + code + suffix).encode("utf-8")).root_node
        errors = count_errors(root)
        if best is None or errors < best.errors:
            best = Parsed(code, language, root, len(prefix.encode("utf-8")), errors)
        if errors == 0:
            break
    assert best is not None
    best.declared = frozenset(declared_names(best.root, language))
    return best


def walk(node):
    """Every node below `node` (itself included), depth first, in source order."""
    stack = [node]
    while stack:
        current = stack.pop()
        yield current
        stack.extend(reversed(current.children))


def error_share(parsed: Parsed) -> float:
    """The share of an example's bytes the parser could not place (inside ERROR nodes)."""
    if not parsed.root.has_error:
        return 0.0
    bad = 0
    stack = [parsed.root]
    while stack:
        node = stack.pop()
        if node.is_error:
            bad += node.end_byte - node.start_byte
            continue
        if node.has_error:
            stack.extend(node.children)
    return bad / max(1, len(parsed.code.encode("utf-8")))


def count_errors(root) -> int:
    if not root.has_error:
        return 0
    return sum(1 for n in walk(root) if n.is_error or n.is_missing)


def declared_names(root, language: str) -> set[str]:
    """The names an example declares (its pack's `GrammarRoles.declaring`): it made them up."""
    declaring = dict(roles_of(language).declaring)
    names: set[str] = set()
    for node in walk(root):
        key = declaring.get(node.type)
        if key is None:
            continue
        if not key:
            targets = [c for c in node.named_children if c.type == _NAME]
        else:
            child = node.child_by_field_name(key)
            targets = [child] if child is not None else []
            if child is not None and child.type != _NAME:
                targets = [c for c in walk(child) if c.type == _NAME]
        names.update(text(t) for t in targets if t is not None)
    return names


def text(node) -> str:
    return node.text.decode("utf-8", "replace") if node.text is not None else ""


@lru_cache(maxsize=4096)
def raw_root(language: str, code: str):
    """The example parsed as a review parses a diff fragment (no wrapper)."""
    return languages.parser(language).parse(code.encode("utf-8", "replace")).root_node
