"""The mean of ordinary code ships per embedder and language; a code query read from it keeps what
sets the code apart (dualrag/embedding/centroid.py)."""

from __future__ import annotations

import numpy as np

from dualrag.embedding import centroid, get_embedder


class Fixed:
    """An embedder whose query vector is given per text."""

    def __init__(self, vectors: dict[str, list[float]], name: str = "fake/fixed"):
        self.name, self.dim, self.vectors = name, 3, vectors

    def embed_query(self, text: str) -> np.ndarray:
        return np.asarray(self.vectors[text], dtype=np.float32)


def test_means_are_kept_per_embedder_and_language_and_others_read_as_they_are(tmp_path):
    path = tmp_path / "c.npz"
    one = Fixed({"a": [1, 0, 0], "b": [0, 1, 0]})
    assert centroid.write(one, {"java": ["a", "b"]}, path) == {"java": 2}
    other = Fixed({"c": [0, 0, 4]}, name="fake/other")
    centroid.write(other, {"java": ["c"], "python": ["c"]}, path)  # added beside the first, not over it
    assert np.allclose(centroid.code_centroid(one, "java", path), [0.5, 0.5, 0])
    assert np.allclose(centroid.code_centroid(other, "python", path), [0, 0, 4])
    assert centroid.code_centroid(one, "python", path) is None  # no mean for this language
    assert centroid.code_centroid(one, "", path) is None
    assert centroid.code_centroid(Fixed({}, name="fake/new"), "java", path) is None  # another embedder
    assert centroid.code_centroid(one, "java", tmp_path / "missing.npz") is None


def test_a_centred_query_is_unit_length_and_loses_what_all_code_shares():
    mean = np.array([0.9, 0.1, 0.0], dtype=np.float32)
    query = np.array([0.9, 0.1, 0.3], dtype=np.float32)
    read = centroid.centred(query, mean)
    assert np.isclose(np.linalg.norm(read), 1.0) and np.allclose(read, [0, 0, 1])


def test_the_default_embedder_has_a_shipped_java_mean_that_separates_code_from_prose():
    embedder = get_embedder()
    mean = centroid.code_centroid(embedder, "java")
    assert mean is not None, "no shipped Java mean for the default embedder: run python -m evaluation.tools.code_centroid"
    code = ["int total = 0;\nfor (Item item : items) {\ntotal += item.price();\n}",
            "if (map.containsKey(key)) {\nreturn map.get(key);\n}"]
    prose = "The rules of this team are written in English sentences about naming and locks."
    to_code = [float(embedder.embed_query(c) @ mean) / float(np.linalg.norm(mean)) for c in code]
    to_prose = float(embedder.embed_query(prose) @ mean) / float(np.linalg.norm(mean))
    assert min(to_code) > to_prose  # it is where code sits, not a point in general
