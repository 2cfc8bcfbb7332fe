"""Java: tree-sitter-java; types, methods, constructors, initialisers and lambdas are members
(`dualrag.parsing.java`), declarations and references feed the code index
(`dualrag.parsing.symbols`, with `@Value` / `@ConfigurationProperties` configuration links); the pack
hands its grammar's parser to both. Rules in `knowledge/java/`. A Java file makes a change a Java change."""

from __future__ import annotations

from dualrag.languages.java.grammar_words import JAVA_GRAMMAR_WORDS
from dualrag.languages.java.roles import JAVA_ROLES
from dualrag.languages.pack import Grammar, LanguagePack, SymbolReader, bracket_nesting

GRAMMAR = Grammar("java", "tree_sitter_java")


def _read(path: str, text: str, data: bytes):
    from dualrag.languages.grammars import parser
    from dualrag.parsing.symbols import java_file

    return java_file(text, parser(GRAMMAR))


def locate(qualified: str) -> list[str]:
    """com.acme.Outer.Inner -> com/acme/Outer/Inner.java, com/acme/Outer.java, ..."""
    parts = qualified.split(".")
    return ["/".join([*parts[:i], parts[i] + ".java"]) for i in range(len(parts) - 1, -1, -1)]


def _members(text: str, *, fallback_type: str = ""):
    from dualrag.languages.grammars import parser
    from dualrag.parsing.java import java_members

    return java_members(text, parser(GRAMMAR), fallback_type=fallback_type)


def _fragment_owner(hint: str, fallback_type: str) -> str:
    from dualrag.parsing.java import fragment_owner

    return fragment_owner(hint, fallback_type)


def _hinted_member(hint: str, owner: str, offset: int, members, last_line: int):
    from dualrag.parsing.java import hinted_member

    return hinted_member(hint, owner, offset, members, last_line)


PACK = LanguagePack(
    name="java",
    description="Java sources",
    extensions=(".java",),
    grammar=GRAMMAR,
    members=_members,
    too_big=bracket_nesting,
    fragment_owner=_fragment_owner,
    hinted_member=_hinted_member,
    symbols=SymbolReader(language="java", read=_read, locate=locate, globs=("*.java",)),
    concepts="java",
    project_type="java",
    priority=1,
    rules="java",
    fence="java",
    member_kinds=("class", "interface", "enum", "record", "annotation", "method", "constructor", "initializer",
                  "lambda"),
    containers=("class", "interface", "enum", "record", "annotation"),
    grammar_words=JAVA_GRAMMAR_WORDS,
    roles=JAVA_ROLES,
)
