"""Per-file text encoding: UTF-8, then GB18030, then Latin-1 — and we record which.

Chinese comments in legacy Java sources are often GB18030/GBK. GB18030 accepts many
byte sequences that are really Latin-1 text (an accented letter followed by an ASCII
letter forms a valid pair), so a GB18030 reading is kept only when its non-ASCII
characters are overwhelmingly CJK; otherwise Latin-1, which never fails, keeps the
bytes one-to-one.
"""

from __future__ import annotations

import re

UTF8 = "utf-8"
GB18030 = "gb18030"
LATIN1 = "latin-1"

_NON_ASCII = re.compile(r"[^\x00-\x7f]")
# CJK ideographs (incl. extension A), CJK punctuation, kana, full-width forms.
_CJK = re.compile(r"[\u3000-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uff00-\uffef]")
_MIN_CJK_SHARE = 0.9


def decode(data: bytes) -> tuple[str, str]:
    """Return (text, encoding name). Never raises: Latin-1 is the last resort."""
    try:
        return data.decode(UTF8), UTF8
    except UnicodeDecodeError:
        pass
    try:
        text = data.decode(GB18030)
    except UnicodeDecodeError:
        pass
    else:
        non_ascii = len(_NON_ASCII.findall(text))
        if non_ascii and len(_CJK.findall(text)) >= _MIN_CJK_SHARE * non_ascii:
            return text, GB18030
    return data.decode(LATIN1), LATIN1
