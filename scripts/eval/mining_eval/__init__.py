"""Parts of `scripts/eval/mined_detectors.py` (issue 42): the books, the held-out folds, the
independent files, the bug pairs, the leave-one-book-out choices and the printed report."""
