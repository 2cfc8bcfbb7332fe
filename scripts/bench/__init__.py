"""Benchmarks: speed, memory, token counts and call counts, each printing its figures
(`.venv/bin/python -m scripts.bench.<name> --help`)."""
