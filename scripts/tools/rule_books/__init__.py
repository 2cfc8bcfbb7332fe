"""The public rule books (one folder each: rules.jsonl + SOURCE.md). `pmd`, `errorprone` and
`androidlint` are built by `scripts.tools.build_rule_books`; newer books keep their builder beside
their data (`<book>/build.py`) and share `snippets` for cutting examples out of test files."""
