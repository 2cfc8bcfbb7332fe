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


class EndedParser:
    """A tree-sitter parser that never hands its grammar a text without a final newline.
    tree-sitter-kotlin 1.1.0 never returns on a text that ends in an annotation
    (`val x = 1\n@Foo`; a progress callback does not stop it), and a hunk, an example or a corpus
    window may end anywhere; a newline at the end moves no node. Everything else is the parser's."""

    __slots__ = ("_parser",)

    def __init__(self, lang: Language) -> None:
        self._parser = Parser(lang)

    def parse(self, source, *args, **kwargs):
        if isinstance(source, bytes | bytearray) and not source.endswith(b"\n"):
            source = bytes(source) + b"\n"
        return self._parser.parse(source, *args, **kwargs)

    def __getattr__(self, name: str):
        return getattr(self._parser, name)


@cache
def parser(grammar: Grammar) -> EndedParser:
    return EndedParser(language(grammar))
