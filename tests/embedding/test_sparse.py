"""BM25 tokenisation and sparse vectors: identifiers split, Chinese segmented, stable indices."""

from __future__ import annotations

import subprocess
import sys
import zlib

import pytest

from dualrag.embedding import Bm25Config, Bm25Encoder, split_identifier
from dualrag.embedding.sparse import CHINESE_STOP_WORDS, ENGLISH_STOP_WORDS


@pytest.fixture(scope="module")
def enc():
    return Bm25Encoder()


@pytest.mark.parametrize(
    ("identifier", "words", "wholes"),
    [
        ("Executors.newFixedThreadPool", ["executors", "new", "fixed", "thread", "pool"],
         ["newfixedthreadpool", "executors.newfixedthreadpool"]),
        ("ThreadPoolExecutor", ["thread", "pool", "executor"], ["threadpoolexecutor"]),
        ("MAX_STOCK_COUNT", ["max", "stock", "count"], ["max_stock_count"]),
        ("parse_xml_file", ["parse", "xml", "file"], ["parse_xml_file"]),
        ("HTTPServerError", ["http", "server", "error"], ["httpservererror"]),
        ("getHTTPResponse2", ["get", "http", "response", "2"], ["gethttpresponse2"]),
    ],
)
def test_split_identifier(identifier, words, wholes):
    tokens = split_identifier(identifier)
    assert tokens[: len(words)] == words
    assert set(wholes) <= set(tokens)
    assert all(t == t.lower() for t in tokens)


def test_plain_word_is_not_repeated():
    assert split_identifier("pool") == ["pool"]
    assert split_identifier("Pool") == ["pool"]


def test_chinese_search_mode(enc):
    text = "中华人民共和国"
    tokens = enc.tokenize(text)
    # search mode: the long word and its dictionary sub-words, each a substring of the input
    assert "中华人民共和国" in tokens
    assert {"中华", "人民", "共和国"} <= set(tokens)
    assert all(t in text for t in tokens)


def test_mixed_text_and_stop_words(enc):
    text = "线程池不允许使用Executors.newFixedThreadPool去创建，而是通过ThreadPoolExecutor的方式。The pool is a resource"
    tokens = enc.tokenize(text)
    for word in ("executors", "fixed", "thread", "pool", "executor", "创建", "方式", "resource"):
        assert word in tokens
    assert not set(tokens) & (ENGLISH_STOP_WORDS | CHINESE_STOP_WORDS)
    assert "的" not in tokens and "the" not in tokens and "is" not in tokens
    assert all(t == t.lower() for t in tokens)
    assert "，" not in tokens and "。" not in tokens


def test_full_width_and_single_letters(enc):
    assert enc.tokenize("ＢｉｇＤｅｃｉｍａｌ（ｄｏｕｂｌｅ）") == ["big", "decimal", "bigdecimal", "double"]
    assert enc.tokenize("a b c x y") == []


def test_sparse_vectors(enc):
    doc = enc.encode_document("thread pool thread")
    assert doc.indices == sorted(doc.indices)
    assert set(doc.indices) == {zlib.crc32(b"thread"), zlib.crc32(b"pool")}
    weights = dict(zip(doc.indices, doc.values))
    tf2, tf1 = weights[zlib.crc32(b"thread")], weights[zlib.crc32(b"pool")]
    assert tf1 < tf2 < 2 * tf1  # saturation
    longer = dict(zip(*vars(enc.encode_document("pool " + "filler words " * 60)).values()))
    assert longer[zlib.crc32(b"pool")] < tf1  # length normalisation
    query = enc.encode_query("thread pool thread")
    assert query.indices == doc.indices and query.values == [1.0, 1.0]
    assert enc.encode_query("the of a").indices == []


def test_name_tracks_parameters():
    assert Bm25Encoder().name == Bm25Encoder(Bm25Config()).name
    assert Bm25Encoder(Bm25Config(k1=1.5)).name != Bm25Encoder().name
    assert Bm25Encoder(Bm25Config(extra_stop_words=["public"])).name != Bm25Encoder().name
    assert "public" not in Bm25Encoder(Bm25Config(extra_stop_words=["public"])).tokenize("public class")


def test_jieba_is_quiet():
    code = "from dualrag.embedding import Bm25Encoder; print(Bm25Encoder().tokenize('编程规约'))"
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    assert run.stderr == ""
    assert "编程" in run.stdout
