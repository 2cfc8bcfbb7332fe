"""Marks knowledge/ as the package data `dualrag._bundled.knowledge` (setup.py); no code."""
