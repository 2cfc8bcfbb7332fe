"""Harnesses waiting to move to `evaluation/` (they import it: `evaluation.ROOT`, `evaluation.books`...)."""
