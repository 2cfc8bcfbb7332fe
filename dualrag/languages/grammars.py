"""The one tree-sitter grammar loader: each grammar comes from its own wheel (`tree_sitter_java`,
`tree_sitter_xml`, `tree_sitter_python`, ...), is loaded on first use and kept for the process.
No grammar is ever downloaded or compiled at run time."""

from __future__ import annotations

import importlib
from functools import cache

from tree_sitter import Language, Parser

from dualrag.languages.pack import Grammar


@cache
def language(grammar: Grammar) -> Language:
    """Raises ImportError when the grammar's wheel is not installed (callers degrade)."""
    module = importlib.import_module(grammar.module)
    return Language(getattr(module, grammar.function)())


@cache
def parser(grammar: Grammar) -> Parser:
    return Parser(language(grammar))
