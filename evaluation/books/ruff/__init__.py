"""Builder of the `ruff` rule book (ruff's rule docs and test fixtures)."""
