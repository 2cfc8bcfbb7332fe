"""BM25 sparse vectors for Qdrant: Chinese segmented, code identifiers split.

The same tokenizer reads documents and queries. A token's index is its CRC-32 (stable across
processes, platforms and Python versions, in Qdrant's u32 index space); a document's value is the
BM25 term-frequency part `tf·(k1+1) / (tf + k1·(1-b+b·len/avg_len))`, a query's value is 1 per
distinct token. The IDF part is Qdrant's: the sparse vector is declared with `modifier=IDF`.

    enc = Bm25Encoder()
    enc.tokenize("线程池不允许使用Executors.newFixedThreadPool创建")
    enc.encode_document(text) -> SparseVec(indices, values); enc.encode_query(text)
"""

from __future__ import annotations

import logging
import re
import threading
import unicodedata
import zlib
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from dualrag.config.embedding import Bm25Config

SPARSE_SCHEME = "bm25-crc32-v1"

# identifiers (dotted calls kept together), numbers glued to letters (2L, utf8), CJK runs
_TOKEN_RE = re.compile(
    r"[A-Za-z0-9_$]+(?:\.[A-Za-z_$][A-Za-z0-9_$]*)*"
    r"|[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0002ffff]+"
)
_CJK_RE = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0002ffff]")
# camelCase / PascalCase / acronyms / digits: HTTPServerError2 -> HTTP Server Error 2
_WORD_RE = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|\d+")

ENGLISH_STOP_WORDS = frozenset(
    """a an and are as at be been but by can could did do does for from had has have if in into is it its
    may might must not of on or our shall should so such than that the their them then there these they this
    those to was we were what when where which while who will with would you your""".split()
)
CHINESE_STOP_WORDS = frozenset(
    """的 了 是 在 和 与 或 及 等 中 对 为 也 就 都 而 被 把 这 那 之 其 个 一个 以 于 上 下 不是 如 如果 则 即
    并 且 但 还 又 可 能 会 要 将 从 到 由 向 给 让 使 我们 你 我 他 它 她 们 该 此 时 里 后 前 所 些 呢 吗 吧 啊""".split()
)

_jieba_lock = threading.Lock()
_jieba = None


def _segmenter():
    """jieba, initialised once per process, quietly, from the dictionary it ships (no network)."""
    global _jieba
    if _jieba is None:
        with _jieba_lock:
            if _jieba is None:
                import jieba

                jieba.setLogLevel(logging.WARNING)
                jieba.default_logger.setLevel(logging.WARNING)
                tokenizer = jieba.Tokenizer()
                tokenizer.initialize()  # reads jieba's bundled dict.txt (cache in the temp dir)
                _jieba = tokenizer
    return _jieba


def split_identifier(identifier: str) -> list[str]:
    """`Executors.newFixedThreadPool` -> executors, new, fixed, thread, pool, newfixedthreadpool,
    executors.newfixedthreadpool: the words, each compound part whole, and the whole identifier
    (all lower-cased, duplicates kept in order of first appearance)."""
    out: list[str] = []
    parts = identifier.split(".")
    for part in parts:
        words = [w for chunk in part.split("_") for w in _WORD_RE.findall(chunk)]
        out += [w.lower() for w in words]
        if len(words) > 1 or not words:
            out.append(part.lower().strip("_"))
    if len(parts) > 1:
        out.append(identifier.lower())
    return [t for t in dict.fromkeys(out) if t]


@dataclass(frozen=True)
class SparseVec:
    indices: list[int]
    values: list[float]

    def to_qdrant(self):
        from qdrant_client import models

        return models.SparseVector(indices=self.indices, values=self.values)


class Bm25Encoder:
    """Tokenizer + BM25 weighting. Thread-safe; jieba loads on first use."""

    def __init__(self, config: Bm25Config | None = None) -> None:
        self.config = config or Bm25Config()
        self.stop_words = ENGLISH_STOP_WORDS | CHINESE_STOP_WORDS | {w.lower() for w in self.config.extra_stop_words}

    @property
    def name(self) -> str:
        """Identifies the scheme and its parameters: part of the index manifest."""
        c = self.config
        extra = zlib.crc32("\n".join(sorted(c.extra_stop_words)).encode()) if c.extra_stop_words else 0
        return f"{SPARSE_SCHEME};k1={c.k1};b={c.b};avgdl={c.avg_doc_len};stop={extra:x}"

    def tokenize(self, text: str) -> list[str]:
        """Lower-cased terms in text order; identifiers expanded, Chinese in jieba search mode."""
        text = unicodedata.normalize("NFKC", text)
        tokens: list[str] = []
        for match in _TOKEN_RE.finditer(text):
            run = match.group()
            if _CJK_RE.match(run):
                tokens += _segmenter().cut_for_search(run)
            else:
                tokens += split_identifier(run)
        return [t for t in tokens if self._keep(t)]

    def _keep(self, token: str) -> bool:
        if token in self.stop_words:
            return False
        return len(token) > 1 or bool(_CJK_RE.match(token))

    @staticmethod
    def token_index(token: str) -> int:
        return zlib.crc32(token.encode("utf-8"))

    def _vector(self, weights: dict[int, float]) -> SparseVec:
        ordered = sorted(weights.items())
        return SparseVec([i for i, _ in ordered], [float(v) for _, v in ordered])

    def encode_document(self, text: str) -> SparseVec:
        tokens = self.tokenize(text)
        c = self.config
        norm = c.k1 * (1 - c.b + c.b * len(tokens) / c.avg_doc_len)
        weights: dict[int, float] = {}
        for token, tf in Counter(tokens).items():
            idx = self.token_index(token)
            weights[idx] = weights.get(idx, 0.0) + tf * (c.k1 + 1) / (tf + norm)
        return self._vector(weights)

    def encode_documents(self, texts: Iterable[str]) -> list[SparseVec]:
        return [self.encode_document(t) for t in texts]

    def encode_query(self, text: str) -> SparseVec:
        return self._vector({self.token_index(t): 1.0 for t in self.tokenize(text)})
