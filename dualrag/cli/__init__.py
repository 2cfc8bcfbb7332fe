"""The `dualrag` command line: one module per area (`review`, `knowledge`, `index_code`, `models`,
`vcs`), the options and settings loader they share (`options`), the group and entry point (`main`)."""

from dualrag.cli.main import cli, main

__all__ = ["cli", "main"]
