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
_HIGH_BYTE = re.compile(rb"[\x80-\xff]")
_GB2312_PAIR = re.compile(rb"[\xa1-\xf7][\xa1-\xfe]")


def _looks_chinese(data: bytes, text: str) -> bool:
    non_ascii = len(_NON_ASCII.findall(text))
    if not non_ascii or len(_CJK.findall(text)) < _MIN_CJK_SHARE * non_ascii:
        return False
    # Chinese text is nearly all GB2312 characters: both bytes in 0xA1-0xFE. Latin-1 text
    # that happens to decode pairs an accented letter with an ASCII one ("ö" + "l").
    high_bytes = len(_HIGH_BYTE.findall(data))
    return 2 * len(_GB2312_PAIR.findall(data)) >= _MIN_CJK_SHARE * high_bytes


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
        if _looks_chinese(data, text):
            return text, GB18030
    return data.decode(LATIN1), LATIN1
