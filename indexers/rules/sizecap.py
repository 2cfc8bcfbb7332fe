"""The size cap: a rule unit above it is split at its paragraphs and examples, each part keeping
the rule's title and heading path (``R-12``, ``R-12/2``...), so no prompt gets a 5,000-token rule."""

from __future__ import annotations

from dualrag.units import RuleUnit

from .lexicon import CJK

DEFAULT_MAX_TOKENS = 1500

def estimate_tokens(text: str) -> int:
    """A cheap token estimate for the size cap and reports: a CJK character is about one token,
    else four characters."""
    cjk = len(CJK.findall(text))
    return cjk + (len(text) - cjk + 3) // 4

def split_oversized(unit: RuleUnit, cap: int) -> list[RuleUnit]:
    """A unit above the cap in parts at its paragraphs and examples; each part keeps the rule's
    title and heading path, the first keeps its id and later ones are `<id>/2`, `<id>/3`..."""
    if cap <= 0 or estimate_tokens(unit.full_text()) <= cap:
        return [unit]
    room = max(cap - estimate_tokens(unit.title) - 16, cap // 2)
    pieces: list[tuple[str, str]] = []
    for para in unit.text.split("\n"):
        pieces.extend(("text", chunk) for chunk in _cut(para, room))
    pieces += [("bad", chunk) for ex in unit.bad_examples for chunk in _cut(ex, room, "\n")]
    pieces += [("good", chunk) for ex in unit.good_examples for chunk in _cut(ex, room, "\n")]
    groups: list[list[tuple[str, str]]] = [[]]
    used = 0
    for kind, text in pieces:
        tokens = estimate_tokens(text) + 4
        if groups[-1] and used + tokens > room:
            groups.append([])
            used = 0
        groups[-1].append((kind, text))
        used += tokens
    parts = []
    for k, group in enumerate(groups, start=1):
        text = "\n".join(t for kind, t in group if kind == "text")
        parts.append(unit.model_copy(update={
            "rule_id": unit.rule_id if k == 1 else f"{unit.rule_id}/{k}",
            "text": text or unit.title,
            "bad_examples": [t for kind, t in group if kind == "bad"],
            "good_examples": [t for kind, t in group if kind == "good"],
        }))
    return parts

def _cut(text: str, room: int, sep: str = " ") -> list[str]:
    """`text` in pieces of at most `room` tokens, at `sep` (lines of code, words) where it occurs,
    else between characters."""
    if estimate_tokens(text) <= room:
        return [text]
    joiner = sep if sep and sep in text else ""
    words = text.split(joiner) if joiner else list(text)
    out, current = [], ""
    for word in words:
        candidate = current + joiner + word if current else word
        if current and estimate_tokens(candidate) > room:
            out.append(current)
            current = word
        else:
            current = candidate
    if current:
        out.append(current)
    return [piece for chunk in out
            for piece in (_cut(chunk, room, "") if joiner and estimate_tokens(chunk) > room else [chunk])]
