"""One entry point for later stages: outline(language, text) -> Outline. Never raises on bad code:
syntax errors, oversized input and missing grammars become `Outline.error`.

What a language's members are comes from its pack (`dualrag.languages`): `members` parses, `too_big`
caps the shape parsed, `fragment_owner` / `hinted_member` read a hunk header."""

from __future__ import annotations

from dualrag.config import LimitsConfig
from dualrag.languages.registry import pack_for, parser
from dualrag.parsing._ts import first_error_line, parse
from dualrag.parsing.model import Member, Outline
from dualrag.parsing.nesting import MAX_CODE_DEPTH, too_deep

PARSEABLE = ("java", "xml")  # the first two packs with members; every pack with `members` is parsed
MAX_PARSE_CHARS = 4_000_000  # beyond this a file is reviewed by hunks; parse time and memory stay bounded
__all__ = ["MAX_CODE_DEPTH", "MAX_PARSE_CHARS", "PARSEABLE", "outline", "outline_fragment", "parseable"]


def parseable(language: str) -> bool:
    """Whether a language's pack finds members (else its files are cut at hunk boundaries)."""
    pack = pack_for(language)
    return pack is not None and pack.members is not None


def outline(language: str, text: str, *, fallback_type: str = "", limits: LimitsConfig | None = None) -> Outline:
    """Members of a whole file. `fallback_type` (the file's stem) names code outside any type;
    `limits` caps the XML shape parsed."""
    pack = pack_for(language)
    if pack is None or pack.members is None:
        return Outline(error=f"no structure parser for {language}")
    if len(text) > MAX_PARSE_CHARS:
        return Outline(error=f"not parsed: {len(text):,} characters is above {MAX_PARSE_CHARS:,}")
    if (too_big := _too_big(pack, text, limits)) is not None:
        return Outline(error=f"not parsed: {too_big}")
    try:
        members, _, root = pack.members(text, fallback_type=fallback_type)
    except ImportError as exc:  # grammar wheel missing: degrade, do not fail the review
        return Outline(error=f"grammar not installed: {exc.name}")
    if pack.strict and root is not None and root.has_error:
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
    pack = pack_for(language)
    if pack is None or pack.members is None or len(text) > MAX_PARSE_CHARS:
        return Outline(partial=True)
    too_big = _too_big(pack, text, limits) or (old_text is not None and _too_big(pack, old_text, limits))
    if too_big:
        return Outline(error=f"not parsed: {too_big}", partial=True)
    owner = pack.fragment_owner(hint or "", fallback_type) if pack.fragment_owner is not None else fallback_type
    try:
        members, broken, root = pack.members(text, fallback_type=owner)
    except ImportError as exc:
        return Outline(error=f"grammar not installed: {exc.name}", partial=True)
    last_row = text.count("\n")
    closed_broken = [n for n in broken if n.start_point.row > 0 and _closed(n)]
    if pack.strict and not closed_broken and old_text is not None and root is not None and root.has_error:
        old_root = parse(parser(language), old_text)
        if _error_count(root) > _error_count(old_root):
            return Outline(error=f"syntax error near line {first_error_line(root) + offset}: "
                                 "structure not trusted", partial=True)
    if closed_broken:
        return Outline(error=f"syntax error near line {closed_broken[0].start_point.row + offset + 1}: "
                             "structure not trusted", partial=True)
    shifted = [_shift(m, offset) for m in members]
    if pack.hinted_member is not None and hint:
        hinted = pack.hinted_member(hint, owner, offset, shifted, last_line=offset + last_row + 1)
        if hinted is not None:
            shifted.insert(0, hinted)
    return Outline(members=tuple(shifted), partial=True)


def _too_big(pack, text: str, limits: LimitsConfig | None) -> str | None:
    return pack.too_big(text, limits) if pack.too_big is not None else None


def _too_deep(text: str) -> str | None:
    return too_deep(text)


def _shift(m: Member, offset: int) -> Member:
    return Member(kind=m.kind, name=m.name, signature=m.signature, start=m.start + offset,
                  end=m.end + offset, cuts=tuple(c + offset for c in m.cuts), groups=m.groups)


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
