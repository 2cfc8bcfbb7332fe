"""One entry point for later stages: outline(language, text) -> Outline. Never raises on bad code:
syntax errors, oversized input and missing grammars become `Outline.error`."""

from __future__ import annotations

import re

from dualrag.config import LimitsConfig
from dualrag.parsing._ts import first_error_line
from dualrag.parsing.model import Member, Outline

PARSEABLE = ("java", "xml")
MAX_PARSE_CHARS = 4_000_000  # beyond this a file is reviewed by hunks; parse time and memory stay bounded
# tree-sitter's query cursor costs nesting depth squared: 3,000 nested lambdas 0.3 s, 12,000 5 s.
MAX_CODE_DEPTH = 5_000
_BRACKETS = re.compile(r"[{}()]")
_HINT_METHOD = re.compile(
    r"(?:^|\s)(?P<name>[A-Za-z_$][\w$]*)\s*\((?P<params>[^()]*)\)\s*(?:throws\s+[\w.,\s]+)?\{?\s*$"
)
_HINT_TYPE = re.compile(r"\b(class|interface|enum|record)\s+(?P<name>[A-Za-z_$][\w$]*)")
_NOT_METHODS = {"if", "for", "while", "switch", "catch", "synchronized", "return", "new", "try"}


def outline(language: str, text: str, *, fallback_type: str = "", limits: LimitsConfig | None = None) -> Outline:
    """Members of a whole file. `fallback_type` (the file's stem) names code outside any type;
    `limits` caps the XML shape parsed."""
    if language not in PARSEABLE:
        return Outline(error=f"no structure parser for {language}")
    if len(text) > MAX_PARSE_CHARS:
        return Outline(error=f"not parsed: {len(text):,} characters is above {MAX_PARSE_CHARS:,}")
    if (too_big := _too_big(language, text, limits)) is not None:
        return Outline(error=f"not parsed: {too_big}")
    try:
        if language == "java":
            from dualrag.parsing.java import java_members

            members, _, root = java_members(text, fallback_type=fallback_type)
        else:
            from dualrag.parsing.xml import xml_members

            members, root = xml_members(text)
    except ImportError as exc:  # grammar wheel missing: degrade, do not fail the review
        return Outline(error=f"grammar not installed: {exc.name}")
    if root.has_error:
        row = first_error_line(root)
        return Outline(error=f"syntax error near line {row}: structure not trusted")
    return Outline(members=members)


def outline_fragment(language: str, text: str, *, offset: int, hint: str, fallback_type: str = "",
                     old_text: str | None = None, limits: LimitsConfig | None = None) -> Outline:
    """Members seen in one hunk's new-side text (context + added lines), shifted by `offset` lines.

    Fragments start and end mid-declaration, so parse errors at their edges are expected. The
    change broke the code when a member that opens and closes inside the fragment still holds an
    error, or when the new side has more errors than the old side (`old_text`: context + removed
    lines), whose edges are the same. The hunk header (`hint`) names the member the fragment
    starts in.
    """
    if language not in PARSEABLE or len(text) > MAX_PARSE_CHARS:
        return Outline(partial=True)
    too_big = _too_big(language, text, limits) or (old_text is not None and _too_big(language, old_text, limits))
    if too_big:
        return Outline(error=f"not parsed: {too_big}", partial=True)
    try:
        if language == "java":
            from dualrag.parsing.java import java_members

            hint_type = _HINT_TYPE.search(hint or "")
            owner = hint_type.group("name") if hint_type else fallback_type
            members, broken, root = java_members(text, fallback_type=owner)
        else:
            from dualrag.parsing.xml import xml_members

            members, root = xml_members(text)
            broken = []
    except ImportError as exc:
        return Outline(error=f"grammar not installed: {exc.name}", partial=True)
    last_row = text.count("\n")
    closed_broken = [n for n in broken if n.start_point.row > 0 and _closed(n)]
    if not closed_broken and old_text is not None and root.has_error:
        from dualrag.parsing._ts import parse

        old_root = parse(language, old_text)
        if _error_count(root) > _error_count(old_root):
            closed_broken = [root]
            return Outline(error=f"syntax error near line {first_error_line(root) + offset}: "
                                 "structure not trusted", partial=True)
    if closed_broken:
        return Outline(error=f"syntax error near line {closed_broken[0].start_point.row + offset + 1}: "
                             "structure not trusted", partial=True)
    shifted = [_shift(m, offset) for m in members]
    hinted = _hinted_member(language, hint, owner if language == "java" else "", offset, shifted,
                            last_line=offset + last_row + 1)
    if hinted is not None:
        shifted.insert(0, hinted)
    return Outline(members=tuple(shifted), partial=True)


def _too_big(language: str, text: str, limits: LimitsConfig | None) -> str | None:
    if language == "java":
        return _too_deep(text)
    if language != "xml":
        return None
    from dualrag.parsing.xml import xml_shape

    limits = limits or LimitsConfig()
    return xml_shape(text, max_depth=limits.max_xml_depth, max_elements=limits.max_xml_elements)


def _too_deep(text: str) -> str | None:
    """Bracket nesting past MAX_CODE_DEPTH (brackets in strings and comments counted too: a cap,
    not a parse)."""
    depth = deepest = 0
    for m in _BRACKETS.finditer(text):
        depth += 1 if m.group() in "{(" else -1
        deepest = max(deepest, depth)
        if deepest > MAX_CODE_DEPTH:
            return f"brackets nest deeper than {MAX_CODE_DEPTH:,}"
    return None


def _shift(m: Member, offset: int) -> Member:
    return Member(kind=m.kind, name=m.name, signature=m.signature, start=m.start + offset,
                  end=m.end + offset, cuts=tuple(c + offset for c in m.cuts), groups=m.groups)


def _hinted_member(language: str, hint: str, owner: str, offset: int, members: list[Member],
                   last_line: int) -> Member | None:
    """The method a fragment starts inside, named by the hunk header, up to the first member
    the fragment declares itself."""
    if language != "java" or not hint:
        return None
    match = _HINT_METHOD.search(hint)
    if not match or match.group("name") in _NOT_METHODS:
        return None
    first = offset + 1
    declared = [m for m in members if m.groups and m.start >= first]
    end = (declared[0].start - 1) if declared else last_line
    if end < first:
        return None
    params = [p.strip().rsplit(" ", 1)[0].replace(" ", "") for p in match.group("params").split(",") if p.strip()]
    name = f"{owner}.{match.group('name')}({','.join(params)})" if owner else f"{match.group('name')}({','.join(params)})"
    return Member(kind="method", name=name, signature=" ".join(hint.split()).rstrip("{ ").strip(),
                  start=first, end=end, cuts=())


def _closed(node) -> bool:
    """The declaration's own closing brace is in the text (not inserted by error recovery)."""
    while node.child_count:
        node = node.children[-1]
    return node.type == "}" and not node.is_missing


def _error_count(root, cap: int = 10_000) -> int:
    """ERROR and MISSING nodes, visiting only subtrees that hold errors (bounded by `cap`)."""
    count, stack = 0, [root]
    while stack and count < cap:
        node = stack.pop()
        if node.type == "ERROR" or node.is_missing:
            count += 1
        stack.extend(c for c in node.children if c.has_error or c.is_missing)
    return count


