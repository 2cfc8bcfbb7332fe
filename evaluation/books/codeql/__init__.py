"""Builder of the `codeql` rule book (CodeQL's Java query help and query tests)."""
