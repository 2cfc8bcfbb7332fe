"""The bundled rules' vectors ship with the package: a fresh store takes them instead of embedding
the rules again, keyed by the embedder's identity and each text's hash (a miss is embedded)."""

from __future__ import annotations

import numpy as np
import pytest

from dualrag.embedding import get_embedder, precomputed
from dualrag.rulebook import load_bundled
from dualrag.store.qdrant import dense_text


class Counting:
    """An embedder that counts the texts it is asked to embed."""

    def __init__(self, name: str = "fake/counting", dim: int = 8):
        self.name, self.dim, self.asked = name, dim, []

    def embed_documents(self, texts):
        self.asked += list(texts)
        return np.stack([np.full(self.dim, len(t), dtype=np.float32) for t in texts]) if texts else \
            np.zeros((0, self.dim), np.float32)


def test_shipped_vectors_are_taken_and_misses_embedded(tmp_path):
    path = tmp_path / "v.npz"
    writer = Counting()
    assert precomputed.write(writer, ["alpha", "beta", "alpha"], path) == 2
    reader = Counting()
    vectors, taken = precomputed.embed_documents(reader, ["beta", "gamma!", "alpha"], path)
    assert taken == 2 and reader.asked == ["gamma!"]  # only the text the file does not hold
    assert vectors.tolist() == [[4.0] * 8, [6.0] * 8, [5.0] * 8]
    other = Counting(name="fake/other")  # another embedder: its own vectors, every one
    vectors, taken = precomputed.embed_documents(other, ["alpha"], path)
    assert taken == 0 and other.asked == ["alpha"]
    missing = Counting()
    assert precomputed.embed_documents(missing, ["alpha"], tmp_path / "none.npz")[1] == 0 and missing.asked == ["alpha"]


def test_the_shipped_file_covers_the_bundled_rules_of_the_default_embedder():
    embedder = get_embedder()
    table = precomputed._table(str(precomputed.default_path()))
    assert table is not None and table[0] == precomputed.identity(embedder)
    texts = [dense_text(u) for u in load_bundled()]
    stale = [u.rule_id for u, t in zip(load_bundled(), texts, strict=True) if precomputed.text_key(t) not in table[1]]
    assert not stale, f"bundled rules without a shipped vector: {stale} (run python -m evaluation.tools.embed_bundled_rules)"
    sample = texts[:3]  # and they are what the embedder computes
    shipped, taken = precomputed.embed_documents(embedder, sample)
    assert taken == 3
    # the same vectors up to the CPU's arithmetic: the quantised model's kernels differ by instruction
    # set (a few 1e-4 per component between two machines); another text or model is far below 0.999
    cosines = np.sum(shipped * embedder.embed_documents(sample), axis=1)
    assert np.all(cosines > 0.999), cosines


def test_a_fresh_store_indexes_the_bundled_rules_without_embedding_them(tmp_path, monkeypatch):
    from dualrag.config import load_settings
    from dualrag.embedding import Bm25Encoder
    from dualrag.retrieval.stage import index_bundled
    from dualrag.store import open_store

    settings = load_settings(None)
    embedder = get_embedder()  # the default one (the suite's settings use the hashing embedder)
    asked: list[str] = []
    real = type(embedder).embed_documents
    monkeypatch.setattr(type(embedder), "embed_documents", lambda self, texts: asked.extend(texts) or real(self, texts))
    with open_store(tmp_path / "store", settings.qdrant) as db:
        index_bundled(db, "bundled", embedder, Bm25Encoder(settings.embedding.bm25))
        assert db.count("bundled") == len(load_bundled())
    assert asked == []


@pytest.mark.parametrize("name", ["hash"])
def test_an_embedder_without_shipped_vectors_embeds_as_before(name):
    embedder = get_embedder(name)
    texts = [dense_text(u) for u in load_bundled()[:2]]
    vectors, taken = precomputed.embed_documents(embedder, texts)
    assert taken == 0 and np.allclose(vectors, embedder.embed_documents(texts))
