"""Vectors of the bundled rules computed ahead (evaluation/tools/embed_bundled_rules.py) and shipped as
package data, so a fresh store takes them instead of embedding 80-odd rules on first use (the
better part of a first review's time on 2 cores).

Keyed by the embedder's identity (its name, dimension and engine version) and by the SHA-256 of
each text exactly as it is embedded: a rule whose text changed since the file was written, or
another embedder, simply misses and is embedded as before. Nothing here is ever wrong, only
sometimes absent.
"""

from __future__ import annotations

import hashlib
from functools import lru_cache
from importlib import metadata, resources
from pathlib import Path

import numpy as np

FILE = "bundled_rules.npz"


def identity(embedder) -> str:
    """What must match for a stored vector to be this embedder's: name, dimension, engine version."""
    name = str(getattr(embedder, "name", type(embedder).__name__))
    engine = name.split("/", 1)[0] if "/" in name else ""
    return f"{name}|{getattr(embedder, 'dim', '?')}|{_version(engine)}"


@lru_cache(maxsize=16)
def _version(engine: str) -> str:
    try:
        return metadata.version(engine) if engine else ""
    except metadata.PackageNotFoundError:
        return ""


def text_key(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def default_path() -> Path:
    return Path(str(resources.files("dualrag.embedding").joinpath("vectors", FILE)))


@lru_cache(maxsize=4)
def _table(path: str) -> tuple[str, dict[str, int], np.ndarray] | None:
    try:
        with np.load(path, allow_pickle=False) as data:
            ident = str(data["identity"])
            keys = [str(k) for k in data["keys"]]
            vectors = np.asarray(data["vectors"], dtype=np.float32)
    except (OSError, KeyError, ValueError):
        return None
    return ident, {k: i for i, k in enumerate(keys)}, vectors


def embed_documents(embedder, texts: list[str], path: Path | None = None) -> tuple[np.ndarray, int]:
    """`embedder.embed_documents(texts)`, taking the vectors shipped for this embedder where a text
    has one. Returns the vectors and how many came from the shipped file."""
    table = _table(str(path or default_path()))
    if table is None or not texts or table[0] != identity(embedder):
        return np.asarray(embedder.embed_documents(texts), dtype=np.float32), 0
    _, index, vectors = table
    rows = [index.get(text_key(t)) for t in texts]
    missing = [i for i, row in enumerate(rows) if row is None]
    out = np.zeros((len(texts), vectors.shape[1]), dtype=np.float32)
    for i, row in enumerate(rows):
        if row is not None:
            out[i] = vectors[row]
    if missing:
        out[missing] = np.asarray(embedder.embed_documents([texts[i] for i in missing]), dtype=np.float32)
    return out, len(texts) - len(missing)


def write(embedder, texts: list[str], path: Path) -> int:
    """Embed `texts` with `embedder` and write them as the shipped table. Returns how many."""
    unique = list(dict.fromkeys(texts))
    vectors = np.asarray(embedder.embed_documents(unique), dtype=np.float32)
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as fh:
        np.savez_compressed(fh, identity=np.array(identity(embedder)),
                            keys=np.array([text_key(t) for t in unique]), vectors=vectors)
    _table.cache_clear()
    return len(unique)
