"""The dual-RAG article's published token formula, kept as a baseline (not the default).

Rules from the article:
- a fixed 63-token overhead per request;
- an English word of 1-5 characters = 1 token, 6-10 = 2, 11 or more = 3;
- Chinese text = (characters + 1) // 2;
- the counts of the segments of mixed text are summed.

Choices where the article is silent (ours):
- a "word" is a maximal run of letters other than CJK ideographs (so accented Latin, Cyrillic and kana
  runs use the word buckets too); `snake_case` is two words plus one punctuation token;
- Chinese is each maximal run of CJK ideographs (U+3400-4DBF, U+4E00-9FFF, U+F900-FAFF), so a
  single ideograph between two English words costs (1 + 1) // 2 = 1;
- a run of digits is bucketed like a word by its length (`2024` = 1, `3.14159265` = 1 + 1 + 2);
- every other non-whitespace character (ASCII or CJK punctuation, symbols, emoji) = 1 token;
- whitespace (spaces, tabs, CR, LF) is free.

`count()` is for a whole request and includes the 63 tokens; `count_content()` omits them and is what
chunk-level comparisons (evaluation/bench/tokens.py) use.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

REQUEST_OVERHEAD = 63

_CJK = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
_WORD = re.compile(rf"[^\W\d_{_CJK}]+")
_LONG_WORD = {
    6: re.compile(rf"[^\W\d_{_CJK}]{{6,}}"),
    11: re.compile(rf"[^\W\d_{_CJK}]{{11,}}"),
}
_DIGITS = re.compile(r"\d+")
_LONG_DIGITS = {6: re.compile(r"\d{6,}"), 11: re.compile(r"\d{11,}")}
_CHINESE = re.compile(rf"[{_CJK}]+")
_OTHER = re.compile(
    rf"[^\w\s{_CJK}]|_"
)  # punctuation, symbols, underscore: one token each


def _bucketed(
    run: re.Pattern[str], longer: dict[int, re.Pattern[str]], text: str
) -> int:
    # 1 token per run, +1 for each run of >= 6 chars, +1 more for >= 11: greedy matching consumes a
    # whole run, so each long run is matched exactly once by each `longer` pattern.
    return sum(len(p.findall(text)) for p in (run, *longer.values()))


class FormulaEstimator:
    """Article baseline: word-length buckets, (chars + 1) // 2 for Chinese, +63 per request."""

    name = "formula"

    def count_content(self, text: str) -> int:
        """Tokens for `text` alone, without the per-request overhead."""
        chinese = sum((len(run) + 1) // 2 for run in _CHINESE.findall(text))
        words = _bucketed(_WORD, _LONG_WORD, text)
        digits = _bucketed(_DIGITS, _LONG_DIGITS, text)
        return chinese + words + digits + len(_OTHER.findall(text))

    def count(self, text: str) -> int:
        """Tokens for a request whose content is `text` (includes the 63-token overhead)."""
        return REQUEST_OVERHEAD + self.count_content(text)

    def count_many(self, texts: Iterable[str]) -> list[int]:
        return [self.count(t) for t in texts]
