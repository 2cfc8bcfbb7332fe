"""Where code sits in the embedder's space, so a code query can be read from there.

A small text embedder puts every piece of code in one narrow cone: two unrelated Java snippets
are closer to each other than either is to the rule it breaks, and a code query's nearest rules
are those whose prose reads most like code, whatever it does. Subtracting the mean of ordinary
code (as the embedder reads a query) leaves what sets this code apart, and that is what a rule's
prose speaks of: on three rule books nobody tuned for, a code query's dense recall@5 rose
0.70 -> 0.77, 0.64 -> 0.73, 0.58 -> 0.68 (evaluation/retrieval/centred.py; fused with the other channels,
evaluation/retrieval/rules.py and docs/evaluation/rule-retrieval.md).

The mean is computed ahead from real library code (evaluation/tools/code_centroid.py: windows of
Apache-licensed Java sources, never a rule book) and shipped per embedder and language, keyed by
the embedder's identity like the bundled rules' vectors: another embedder, or a language with no
mean, is simply read as it is.
"""

from __future__ import annotations

from functools import lru_cache
from importlib import resources
from pathlib import Path

import numpy as np

from .base import l2_normalise
from .precomputed import identity

FILE = "code_centroids.npz"


def default_path() -> Path:
    return Path(str(resources.files("dualrag.embedding").joinpath("vectors", FILE)))


@lru_cache(maxsize=4)
def _table(path: str) -> dict[str, np.ndarray]:
    """`identity|language` -> mean vector; empty when the file is missing or unreadable."""
    try:
        with np.load(path, allow_pickle=False) as data:
            keys = [str(k) for k in data["keys"]]
            vectors = np.asarray(data["vectors"], dtype=np.float32)
    except (OSError, KeyError, ValueError):
        return {}
    return dict(zip(keys, vectors, strict=True))


def code_centroid(embedder, language: str, path: Path | None = None) -> np.ndarray | None:
    """The shipped mean of `language` code as `embedder` reads a query, or None."""
    if not language:
        return None
    return _table(str(path or default_path())).get(f"{identity(embedder)}|{language}")


def centred(vector: np.ndarray, centroid: np.ndarray) -> np.ndarray:
    """`vector` read from the code centroid, unit length again (cosines stay cosines)."""
    return l2_normalise(np.asarray(vector, dtype=np.float32) - centroid)


def write(embedder, samples: dict[str, list[str]], path: Path) -> dict[str, int]:
    """Embed each language's samples as queries and add their means to the file at `path` (other
    embedders' and languages' entries kept). Returns how many samples each mean is over."""
    table = dict(_table(str(path)))
    counts = {}
    for language, texts in samples.items():
        vectors = np.stack([np.asarray(embedder.embed_query(t), dtype=np.float32) for t in texts])
        table[f"{identity(embedder)}|{language}"] = vectors.mean(axis=0)
        counts[language] = len(texts)
    path.parent.mkdir(parents=True, exist_ok=True)
    keys = sorted(table)
    with path.open("wb") as fh:
        np.savez_compressed(fh, keys=np.array(keys), vectors=np.stack([table[k] for k in keys]))
    _table.cache_clear()
    return counts
