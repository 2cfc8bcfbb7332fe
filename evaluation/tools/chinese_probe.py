"""Fit the injection check's Chinese probe on its exemplars and ship the weights in the package
(dualrag/checks/chinese_probe.npz; dualrag/checks/chinese_probe.py says why). Run it after editing
the exemplars (tests/review/test_injection_zh.py fails until then).

    .venv/bin/python -m evaluation.tools.chinese_probe
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from dualrag.checks.chinese_probe import WEIGHTS, probe_exemplars, write_probe
from dualrag.checks.injection import EMBEDDER
from dualrag.embedding import get_embedder


def main() -> None:
    argparse.ArgumentParser(description=__doc__.split("\n\n")[0]).parse_args()
    embedder = get_embedder(EMBEDDER)
    start = time.perf_counter()
    weights = write_probe(embedder)
    positive, negative = probe_exemplars()
    print(f"{WEIGHTS}: {len(positive)} instructions, {len(negative)} ordinary sentences, |w| "
          f"{np.linalg.norm(weights[:-1]):.2f}, bias {weights[-1]:+.2f} ({time.perf_counter() - start:.1f} s)")


if __name__ == "__main__":
    main()
