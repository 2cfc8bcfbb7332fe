"""Mined detectors, measured on code they were not mined from: the independent files of every rule
book (`independent/`). The harness itself, scripts/eval/mined_detectors.py, moves here once the
branches editing it have landed."""
