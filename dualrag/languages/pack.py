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
class Specialist:
    """A specialist reviewer a language brings: the change gets it when one of its files is in the
    pack's language (an EDI flow brings the EDI reviewer, a MyBatis mapper or a migration the SQL
    reviewer). `prompt` is the Markdown of its specialty: a template name under `dualrag/prompts/`
    (built-in packs) or an absolute path of a file the pack ships; None means `<name>.md` under
    `dualrag/prompts/`. `categories` are the finding categories it is the authority on;
    `tiers` the risk tiers it joins (a trivial change gets the one general reviewer)."""

    name: str
    title: str
    categories: tuple[str, ...]
    prompt: str | None = None
    tiers: tuple[str, ...] = ("lite", "full")
    cites_rules: bool = False


@dataclass(frozen=True)
class GrammarWords:
    """How the grammar names a snippet's constructs for rule queries (`retrieval/grammar_words.py`):
    node types every snippet shows (`common`, left out), nodes whose inside is a place rules speak of
    (`places`: "return in finally"), everyday shapes still named by their place (`placed`), and
    `wrap`, a template with `{code}` that makes a bare statement parse (rule examples often are)."""

    common: frozenset[str] = frozenset()
    places: frozenset[str] = frozenset()
    placed: frozenset[str] = frozenset()
    wrap: str = "{code}"


@dataclass(frozen=True)
class GrammarRoles:
    """What the node types of a pack's grammar are to detectors mined from a rule's examples
    (`indexers/mining`) and to the scoped queries they may become (`dualrag/scoped_query.py`).
    Every field is plain data so that a pack, not the miner, names its grammar's nodes.

    - `literals`: a literal's value is the example's, its kind may be the rule's;
      `comments`, `headers` (package and import lines: every file has them) are never anchors;
    - `declaring`: (node type, field of the name it declares; "" = its identifier children): names
      an example made up, whose text says nothing;
    - `typed`: (node type, where its type is, where its name is) for a declaration with a type
      (`List<String> names`, `names: List<String>`); a place is a `/`-path of fields or node types
      (`declarator/name`); a call on a name declared so has a receiver of that type;
    - `receivers`: (node type, field or `#0` for the first named child) where a call's receiver sits;
    - `places`: node types a piece of code may be said to be inside at any depth ("return in a
      finally block", "a call in a loop");
    - `optional`: node types a detector may do without (modifiers, annotations);
    - `functions`: what "the code around" a piece of code is, for a detector that asks for the
      absence of a guard (`QueryScope.absent`): the function it sits in;
    - `arguments`: argument lists, whose shape (how many arguments, of which kind) a mined detector
      keeps unless its examples disagree: `f(a, SECONDS)` is not `f(a, SECONDS, scheduler)`;
    - `constructs`: (node type or operator, words naming it in English and Chinese): what a rule's
      text names when it says 三目 or 强制转换;
    - `naming`: where a name's text names an API when the example did not declare it: a field
      (`name`, `type`) or `parent_type#i` for the i-th named child of a node without fields;
    - `keywords`: the language's reserved words; `identifiers`: node types of names;
      `wrappers`: (prefix, suffix) tried when a fragment does not parse alone."""

    literals: frozenset[str] = frozenset()
    comments: frozenset[str] = frozenset({"comment"})
    headers: frozenset[str] = frozenset()
    declaring: tuple[tuple[str, str], ...] = ()
    typed: tuple[tuple[str, str, str], ...] = ()
    receivers: tuple[tuple[str, str], ...] = ()
    places: frozenset[str] = frozenset()
    optional: frozenset[str] = frozenset()
    arguments: frozenset[str] = frozenset()
    functions: frozenset[str] = frozenset()
    constructs: tuple[tuple[str, tuple[str, ...]], ...] = ()
    naming: frozenset[str] = frozenset({"name"})
    keywords: frozenset[str] = frozenset()
    identifiers: frozenset[str] = frozenset({"identifier"})
    wrappers: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class SymbolReader:
    """How a pack feeds the code index and code context (`dualrag.languages.code_symbols`).

    `language` is the `CodeSymbol.language` of what it reads. `read(path, text, data)` returns
    either a `dualrag.parsing.symbol_model.SourceFile` (declarations with the references of each:
    Java, Kotlin and Python resolve them through imports and packages, across languages) or a list
    of `CodeSymbol` whose links are written in the document itself (EDI references, mapper
    statements, configuration keys). `locate(qualified)` names where a type (or module, or Kotlin
    package) of that name may be declared, as repository-relative path suffixes whose last part
    may hold `*` (`com/acme/Foo.java`, `com/acme/*.kt`): the checkout graph reads only those.
    `globs` are the git pathspecs of the files the checkout graph considers. `code`: its files hold
    calls that code context resolves and callers to find (False for documents whose links are
    written in them)."""

    language: str
    read: Callable[[str, str, bytes], Any]
    locate: Callable[[str], Sequence[str]] | None = None
    globs: tuple[str, ...] = ()
    code: bool = True


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
    (under `knowledge/`, or an absolute path a third-party pack ships); `reviewers` the specialist
    reviewers a change with a file of this language gets; `grammar_words` the grammar's construct
    names for rule queries; `roles` what its node types are to detectors mined from examples.

    Presentation: `fence` the info string of its code blocks; `member_kinds` what `members`
    yields, `containers` those that hold other members (the walkthrough lists a container only
    when none of its members changed), and `short_names` whether the walkthrough drops a member
    name's package (`OrderService.place`) or shows it whole (a configuration key, a statement).
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
    containers: tuple[str, ...] = ()
    short_names: bool = True
    reviewers: tuple[Specialist, ...] = ()
    grammar_words: GrammarWords | None = None
    roles: GrammarRoles | None = None

    def __post_init__(self) -> None:
        if not self.name or self.name != self.name.strip().lower():
            raise ValueError(f"language pack name must be lower case and not empty: {self.name!r}")
        bad = [e for e in (*self.extensions, *self.sniff_extensions) if not e.startswith(".")]
        if bad:
            raise ValueError(f"language pack {self.name}: extensions start with a dot: {bad}")


def bracket_nesting(text: str, limits: Any = None) -> str | None:
    """A `too_big` for brace languages: why a text nests too deeply to parse, else None. Imported
    late: the parsing package reads the registry, so it cannot be imported while packs load."""
    from dualrag.parsing.nesting import too_deep

    return too_deep(text)
