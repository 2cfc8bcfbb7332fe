"""The `androidlint` rule book: rules.jsonl and SOURCE.md, built by `build.py` from a snapshot of its source."""
