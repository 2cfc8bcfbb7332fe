"""What a language pack is: everything dualrag knows about one file language, in one object.

A pack is plain data plus a few hooks; every hook is optional, and a missing one means "this
language has no such thing" (no grammar: no tree-sitter detectors; no `members`: chunks are cut
at hunk boundaries; no `project_type`: the language does not decide the change's type).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

# (members in source order, member nodes that hold a syntax error, root node or None)
MemberParse = tuple[tuple[Any, ...], list[Any], Any]


@dataclass(frozen=True)
class Grammar:
    """A tree-sitter grammar from its own wheel: `module.function()` returns the language
    pointer (`tree_sitter_java.language`, `tree_sitter_xml.language_xml`). Packs that share
    a grammar (EDI flows, MyBatis mappers and plain XML) name the same `name`."""

    name: str
    module: str
    function: str = "language"


@dataclass(frozen=True)
class SymbolReader:
    """How a pack feeds the code index and code context (`dualrag.parsing.code_symbols`).

    `language` is the `CodeSymbol.language` of what it reads. `read(path, text, data)` returns
    either a `dualrag.parsing.symbol_model.SourceFile` (declarations with the references of each:
    Java, Kotlin and Python resolve them through imports and packages, across languages) or a list
    of `CodeSymbol` whose links are written in the document itself (EDI references, mapper
    statements, configuration keys). `locate(qualified)` names where a type (or module, or Kotlin
    package) of that name may be declared, as repository-relative path suffixes whose last part
    may hold `*` (`com/acme/Foo.java`, `com/acme/*.kt`): the checkout graph reads only those.
    `globs` are the git pathspecs of the files the checkout graph considers."""

    language: str
    read: Callable[[str, str, bytes], Any]
    locate: Callable[[str], Sequence[str]] | None = None
    globs: tuple[str, ...] = ()


@dataclass(frozen=True)
class LanguagePack:
    """One file language (`FileDiff.language`), e.g. `java`, `edi-flow`, `python`.

    Recognition: `filenames` (exact lower-case names or globs such as `application*.yml`) win
    over `extensions` (`.py`); `sniff(path, text)` reads content for files whose extension is in
    `sniff_extensions` (a MyBatis mapper is an `.xml` file that says `<mapper namespace=`);
    `shebangs` name interpreters for files without an extension (`#!/usr/bin/env python3`).

    Structure: `grammar` for tree-sitter detectors, syntax checks of suggestions and `members`;
    `members(text, fallback_type=)` -> (members, broken member nodes, root) for chunking (the
    `dualrag.parsing.Member` kinds and cut points); `too_big(text, limits)` says why a text is
    not parsed (nesting caps); `strict` packs distrust a whole file with a syntax error (its
    members are dropped, the file is cut at hunks); `fragment_owner(hint, fallback)` and
    `hinted_member(...)` use a hunk header to name the member a diff fragment starts in.

    Meaning: `symbols` is the code index's reader (a `SymbolReader`; None: not indexed);
    `concepts` the construct vocabulary of rule queries (a built-in table's name, or
    (name, regex, terms) triples); `project_type` what the language makes a change ("edi", "java"
    or None) and `priority` which wins (EDI 2 over Java 1); `rules` the folder of its bundled rules
    (under `knowledge/`, or an absolute path a third-party pack ships).
    """

    name: str
    description: str = ""
    extensions: tuple[str, ...] = ()
    filenames: tuple[str, ...] = ()
    shebangs: tuple[str, ...] = ()
    sniff: Callable[[str, str], bool] | None = None
    sniff_extensions: tuple[str, ...] = ()
    grammar: Grammar | None = None
    members: Callable[..., MemberParse] | None = None
    too_big: Callable[[str, Any], str | None] | None = None
    strict: bool = True
    fragment_owner: Callable[[str, str], str] | None = None
    hinted_member: Callable[..., Any] | None = None
    symbols: SymbolReader | None = None
    concepts: str | Sequence[tuple[str, str, str]] | None = None
    project_type: str | None = None
    priority: int = 0
    rules: str | None = None
    fence: str | None = None
    member_kinds: tuple[str, ...] = field(default=())  # what `members` yields, for docs and the walkthrough

    def __post_init__(self) -> None:
        if not self.name or self.name != self.name.strip().lower():
            raise ValueError(f"language pack name must be lower case and not empty: {self.name!r}")
        bad = [e for e in (*self.extensions, *self.sniff_extensions) if not e.startswith(".")]
        if bad:
            raise ValueError(f"language pack {self.name}: extensions start with a dot: {bad}")
