"""Measurement and maintenance scripts of the checkout, run as modules from the repository root:

    .venv/bin/python -m scripts.eval.rules --help

They import dualrag (and indexers) as installed, and each other as `scripts.eval...` /
`scripts.tools...`. `ROOT` is the checkout; `SHARED` is the evaluation data beside it
(`../shared/eval`), which is not part of the repository.
"""

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"
