"""Marks models/ as the package data `dualrag._bundled.models` (setup.py): the manifest ships in the wheel; no code."""
