"""Text as a reader (or a model) takes it, before any check reads it.

What the eye does not see must not hide words from a check: NFKC folds full-width and other
compatibility forms; format characters (zero-width, U+2063 INVISIBLE SEPARATOR, bidi controls,
soft hyphen) are dropped; Unicode tag characters (U+E0000-E007F, invisible everywhere) are
decoded into the ASCII they spell, since a model reads them; Cyrillic and Greek look-alikes
inside Latin words are mapped to Latin (our own small table, not the full Unicode confusables).
"""

from __future__ import annotations

import re
import unicodedata

# Bidirectional controls that reorder what is displayed (Trojan Source, CVE-2021-42574).
BIDI_OVERRIDES = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
BIDI_MARKS = frozenset("\u200e\u200f\u061c")
BIDI_CONTROLS = BIDI_OVERRIDES | BIDI_MARKS
_TAGS = re.compile("[\U000e0000-\U000e007f]+")
_FLAG = "\U0001f3f4"  # black flag: tag characters after it spell a subdivision flag (an emoji), not text

# Look-alikes a reader takes for Latin letters (lowercase and capitals).
_CONFUSABLE = str.maketrans({
    # Cyrillic
    "а": "a", "в": "b", "е": "e", "к": "k", "м": "m", "н": "h", "о": "o", "р": "p", "с": "c", "т": "t", "у": "y",
    "х": "x", "ѕ": "s", "і": "i", "ј": "j", "һ": "h", "ԁ": "d", "ԛ": "q", "ԝ": "w", "ɡ": "g", "ӏ": "l", "ү": "y",
    "А": "A", "В": "B", "Е": "E", "К": "K", "М": "M", "Н": "H", "О": "O", "Р": "P", "С": "C", "Т": "T", "У": "Y",
    "Х": "X", "Ѕ": "S", "І": "I", "Ј": "J", "Һ": "H", "Ԛ": "Q", "Ԝ": "W", "Ӏ": "I",
    # Greek
    "α": "a", "ο": "o", "ρ": "p", "ι": "i", "κ": "k", "ν": "v", "υ": "u", "χ": "x", "ε": "e", "τ": "t", "γ": "y",
    "Α": "A", "Β": "B", "Ε": "E", "Ζ": "Z", "Η": "H", "Ι": "I", "Κ": "K", "Μ": "M", "Ν": "N", "Ο": "O", "Ρ": "P",
    "Τ": "T", "Υ": "Y", "Χ": "X",
    # Latin look-alikes NFKC keeps
    "ı": "i", "ȷ": "j", "ɑ": "a", "ᴠ": "v", "ꓲ": "I",
})
_CONFUSABLE_CHARS = frozenset(chr(c) for c in _CONFUSABLE)
_WORD = re.compile(r"[^\W\d_]+")


def hidden_tag_text(text: str) -> list[str]:
    """The ASCII spelled by runs of Unicode tag characters (invisible on every screen)."""
    out = []
    for m in _TAGS.finditer(text):
        if text[max(0, m.start() - 1):m.start()] == _FLAG:
            continue
        spelled = "".join(chr(ord(c) - 0xE0000) for c in m.group() if 0xE0020 <= ord(c) <= 0xE007E)
        if spelled.strip():
            out.append(spelled)
    return out


def strip_invisible(text: str) -> str:
    """Format characters (Unicode category Cf: zero-width, invisible operators, bidi controls,
    tags) removed."""
    if text.isascii():
        return text
    return "".join(c for c in text if unicodedata.category(c) != "Cf")


def fold_confusables(text: str) -> str:
    """Look-alike letters mapped to Latin in words that mix them with Latin letters, or are made
    of look-alikes only (real Russian or Greek words almost always hold a letter with no Latin
    twin, and are left alone)."""
    if text.isascii():
        return text

    def fold(m: re.Match[str]) -> str:
        word = m.group()
        odd = sum(c in _CONFUSABLE_CHARS for c in word)
        if not odd:
            return word
        latin = sum(c.isascii() for c in word)
        return word.translate(_CONFUSABLE) if latin or odd == len(word) else word
    return _WORD.sub(fold, text)


def normalise(text: str) -> str:
    """NFKC, invisible characters removed, tag text spelled out, look-alikes folded."""
    spelled = hidden_tag_text(text) if not text.isascii() else []
    plain = fold_confusables(unicodedata.normalize("NFKC", strip_invisible(text)))
    return plain if not spelled else plain + " " + " ".join(spelled)
