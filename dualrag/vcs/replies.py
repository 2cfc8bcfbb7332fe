"""What a human reply in a finding's thread means, and whether a comment breaks glass."""

from __future__ import annotations

import re

from dualrag.vcs.model import ThreadState

_WONT = re.compile(r"\b(won'?t|will not|wo not)\s*fix\b|\bwontfix\b|\bnot going to fix\b", re.I)
_ACK = re.compile(r"\b(acknowledged?|ack)\b", re.I)
_DISAGREE = re.compile(r"\b(i\s+)?disagree\b|\bfalse positive\b|\bnot (a|an) (issue|problem|bug)\b", re.I)


def classify_reply(text: str) -> ThreadState | None:
    """The state a reply asks for; None for chatter. Disagreement wins over the other words
    ("I disagree, won't fix" is an argument the coordinator must see)."""
    if _DISAGREE.search(text):
        return ThreadState.DISAGREED
    if _WONT.search(text):
        return ThreadState.WONT_FIX
    if _ACK.search(text):
        return ThreadState.ACKNOWLEDGED
    return None


def breaks_glass(text: str, phrase: str) -> bool:
    """Case-insensitive, whitespace-tolerant match of the break-glass phrase."""
    words = phrase.strip().split()
    if not words:
        return False
    return re.search(r"\b" + r"\s+".join(map(re.escape, words)) + r"\b", text, re.I) is not None
