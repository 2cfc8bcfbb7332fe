"""Evaluations, benchmarks and the maintenance tools of the checkout, run as modules from the
repository root (evaluation/README.md is the map):

    .venv/bin/python -m evaluation.retrieval.rules --help

They import dualrag and indexers as installed, and each other as `evaluation....`; nothing shipped
imports them. `ROOT` is the checkout; `SHARED` is the evaluation data beside it (`../shared/eval`,
read through `evaluation.core.datasets`), which is not part of the repository.
"""

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"
