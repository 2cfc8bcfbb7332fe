"""How the injection check reads Chinese: a linear probe on the embedder's vectors.

The bundled embedder puts Chinese sentences close to each other whatever they say, so the margin
between nearest exemplars (`injection.py`) separates a Chinese instruction to the reviewer from an
ordinary Chinese comment poorly; a direction fitted on our Chinese exemplars
(`injection_examples_zh.py` and the Chinese lines of `injection_examples.py`) does
(evaluation/safety/injection_zh.py, docs/safety.md). The weights are fitted ahead
(evaluation/tools/chinese_probe.py) and shipped beside this module with a digest of the embedder and
the exemplars: fitting means embedding some 330 sentences (13-17 s on two busy cores), which a
review with one Chinese comment should not pay. If the digest does not match (exemplars edited,
another build of the embedder), the probe is fitted when first used instead.
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

import numpy as np

from dualrag.checks.injection_examples import ADDRESSED, ORDINARY
from dualrag.checks.injection_examples_zh import ADDRESSED_ZH, ORDINARY_ZH

CJK = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")
MIN_CJK = 4  # Chinese characters that make a span the probe's
# The logit a Chinese span must exceed, and the L2 penalty: evaluation/safety/injection_zh.py chose L2 0.01
# on either half and the limit as the 99.5th percentile of real Chinese comments (one group of
# repositories per half; 0.747 on all of them): held out, recall 0.94 (0.27 before), 0.7% of real
# comments, 6% of our ordinary sentences about reviews (docs/safety.md).
PROBE_LIMIT = 0.75
PROBE_L2 = 0.01
WEIGHTS = Path(__file__).with_name("chinese_probe.npz")


def chinese(text: str) -> bool:
    return len(CJK.findall(text)) >= MIN_CJK


def probe_exemplars() -> tuple[list[str], list[str]]:
    """(instructions, ordinary text) the probe is fitted on: every Chinese exemplar."""
    return ([t for t in (*ADDRESSED, *ADDRESSED_ZH) if chinese(t)],
            [t for t in (*ORDINARY, *ORDINARY_ZH) if chinese(t)])


def fit_probe(positive: np.ndarray, negative: np.ndarray, l2: float = PROBE_L2) -> np.ndarray:
    """Weights (bias last) of an L2-regularised logistic regression, by Newton's method: a few
    hundred 384-d vectors, a few milliseconds, the same weights every time."""
    x = np.vstack([positive, negative]).astype(np.float64)
    x = np.hstack([x, np.ones((len(x), 1))])
    y = np.r_[np.ones(len(positive)), np.zeros(len(negative))]
    w = np.zeros(x.shape[1])
    penalty = l2 * np.eye(x.shape[1])
    penalty[-1, -1] = 0.0  # the bias is not shrunk
    for _ in range(25):
        p = 1.0 / (1.0 + np.exp(-(x @ w)))
        step = np.linalg.solve(x.T @ (x * (p * (1 - p))[:, None]) + penalty, x.T @ (p - y) + penalty @ w)
        w -= step
        if np.abs(step).max() < 1e-8:
            break
    return w


def probe_logits(weights: np.ndarray, vectors: np.ndarray) -> np.ndarray:
    return vectors @ weights[:-1] + weights[-1]


def probe_digest(embedder) -> str:
    """What the shipped weights were fitted from: the embedder's identity, the penalty, the exemplars."""
    from dualrag.embedding.precomputed import identity

    positive, negative = probe_exemplars()
    text = "\n".join([identity(embedder), repr(PROBE_L2), *positive, "", *negative])
    return hashlib.sha256(text.encode()).hexdigest()


def probe_weights(embedder, path: Path = WEIGHTS) -> np.ndarray:
    """The shipped weights when they were fitted from these exemplars with this embedder, else fitted now."""
    try:
        with np.load(path, allow_pickle=False) as data:
            if str(data["digest"]) == probe_digest(embedder):
                return np.asarray(data["weights"], dtype=np.float64)
    except (OSError, KeyError, ValueError):
        pass
    return fitted(embedder)


def fitted(embedder) -> np.ndarray:
    positive, negative = probe_exemplars()
    return fit_probe(embedder.embed_documents(positive), embedder.embed_documents(negative))


def write_probe(embedder, path: Path = WEIGHTS) -> np.ndarray:
    """Fit the probe and ship its weights at `path` with their digest."""
    weights = fitted(embedder)
    with path.open("wb") as fh:
        np.savez_compressed(fh, weights=weights, digest=np.array(probe_digest(embedder)))
    return weights
