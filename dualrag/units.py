"""Knowledge units: what the offline side writes into the store and retrieval reads back.

A rule is one unit — never a page of rules — so that a retrieved hit can be cited by id
and packed whole into a prompt.
"""

from __future__ import annotations

import hashlib
import json
import os
import uuid
from enum import StrEnum
from functools import lru_cache
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_serializer, model_validator

from dualrag.findings import Severity

# Point ids are uuid5 of a stable key (kb, document, rule id), so re-indexing the same unit
# overwrites it and the same rule id in two documents of a knowledge base never does.
_POINT_NAMESPACE = uuid.UUID("6f1b7f4e-3c55-5d0a-9a43-1d2c8a7e0b51")


@lru_cache(maxsize=1 << 16)
def _rule_point_id(kb: str, document: str, rule_id: str) -> str:
    # remembered: a search and the channel self-check ask it of every hit (~200k uuid5 for a 750-rule base)
    return str(uuid.uuid5(_POINT_NAMESPACE, f"rule:{kb}:{document}:{rule_id}"))


class RuleLevel(StrEnum):
    MANDATORY = "mandatory"  # 【强制】, MUST
    RECOMMENDED = "recommended"  # 【推荐】, SHOULD
    REFERENCE = "reference"  # 【参考】, MAY / informational


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


def document_key(path: str | os.PathLike[str], cwd: str | os.PathLike[str] | None = None) -> str:
    """The stable key of a rule document inside its knowledge base, the same from any working
    directory: the file's resolved path relative to the repository it sits in, under that
    repository's folder name (`team-handbook/docs/rules.docx`: a CI checkout at another place
    keeps its key), else its resolved absolute path.

    Bundled rules are keyed by their path under `knowledge/` (`java/sql.md`), which does not
    depend on where the package is installed."""
    base = Path(os.path.abspath(cwd if cwd is not None else os.getcwd()))
    resolved = Path(os.path.abspath(base / os.fspath(path))).resolve()
    root = next((d for d in resolved.parents if (d / ".git").exists()), None)
    if root is None:
        return resolved.as_posix()
    return f"{root.name}/{resolved.relative_to(root).as_posix()}" if root.name else resolved.as_posix()


def file_hash(path: str | os.PathLike[str]) -> str:
    """sha256 of a document's bytes: the same document under another key is found by it."""
    digest = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()[:32]


class RuleSource(_Frozen):
    kb: str = Field(description="knowledge base the rule was indexed into")
    file: str = Field(description="document path as given to the indexer, or the bundled file")
    document: str = Field("", description="stable key of the document in its knowledge base (`document_key`; "
                                          "bundled: the path under knowledge/); defaults to `file`")
    page: int | None = Field(None, description="1-based page for paginated documents")
    anchor: str | None = Field(None, description="heading slug, item number or line that locates the rule")

    @model_validator(mode="before")
    @classmethod
    def _document_defaults_to_file(cls, data: Any) -> Any:
        if isinstance(data, dict) and not data.get("document") and data.get("file"):
            data = {**data, "document": str(data["file"]).replace("\\", "/")}
        return data


class DetectorFix(_Frozen):
    """How a regex detector rewrites the line it flagged: `re.sub(pattern, replace, line)`. Only a
    rewrite of the actual line is offered as a fix, never the rule's generic good example."""

    pattern: str
    replace: str


class MinedCheck(_Frozen):
    """How a detector mined from a rule's own examples was verified before it was kept
    (`indexers/mining`): it matched every violating example of the rule, no compliant
    example of any rule in the document, and fired at most the allowed rate on a clean corpus
    (`corpus_lines` None: no corpus was configured, that check was not run)."""

    violating: int = Field(description="violating examples of the rule it matched (all of them)")
    compliant: int = Field(description="compliant examples of the document it was checked against (matched none)")
    corpus_lines: int | None = Field(None, description="lines of the clean corpus it ran on; None = not run")
    corpus_hits: int | None = Field(None, description="lines of the clean corpus it fired on")
    bits: float = Field(0.0, description="specificity: information of the pattern's parts, in bits")
    rejected: int = Field(0, description="more specific candidates that failed verification before it")
    other_violating: int = Field(0, description="violating examples of the document's other rules it was checked on "
                                                "(it may fire on a few: such code can break two rules)")
    variants: int = Field(0, description="verification-only variants of the rule's examples it was checked on")
    level: list[str] = Field(default_factory=list, description="the generalisations applied to the least general "
                                                                "pattern, in order (empty: the least general)")
    turned_down: dict[str, str] = Field(default_factory=dict, description="more general steps tried and why each "
                                                                          "failed verification")


class QueryScope(_Frozen):
    """What a `scoped-query` detector's match must also meet beyond its tree-sitter query
    (`dualrag/scoped_query.py`): to sit inside a node of a type at any depth, to be called on a
    receiver of a type, to have no guard of these words around it."""

    inside: list[str] = Field(default_factory=list, description="node types, one of which must enclose the "
                                                                  "@violation capture at any depth")
    receiver_types: list[str] = Field(default_factory=list, description="the @receiver capture is a name declared "
                                      "in the fragment with one of these types, or one of these type names (a static "
                                      "call)")
    absent: list[str] = Field(default_factory=list, description="words (names, keywords) none of which the code "
                              "around the @violation capture holds outside comments: its enclosing function, "
                              "else the whole fragment (a null check, a close, a scheduler passed)")


class Detector(_Frozen):
    """A deterministic check that finds clear violations without an LLM.

    `regex` patterns run on each changed line; `tree-sitter` queries run on the parsed new
    file and report captures named `@violation` that fall on changed lines; a `scoped-query` is a
    tree-sitter query whose matches must also meet its `scope`. `mined`: the detector was mined
    from the rule's examples and verified (a hand-written one has None).
    """

    kind: Literal["regex", "tree-sitter", "scoped-query"]
    pattern: str
    languages: list[str] = Field(default_factory=list, description="file languages it applies to")
    message: str | None = None
    on: Literal["added", "removed", "dropped"] = Field(
        "added", description="which changed lines a regex runs on; `removed` fires only if no added line matches too; "
                             "`dropped` fires once per hunk that removes more matching lines than it adds")
    fix: DetectorFix | None = Field(None, description="regex, on added lines: the flagged line rewritten")
    paths: list[str] = Field(default_factory=list,
                             description="gitignore-style patterns the file's path must match (empty = any file)")
    mined: MinedCheck | None = Field(None, description="set when mined from the rule's examples (not hand-written)")
    scope: QueryScope | None = Field(None, description="scoped-query only: what a match must also meet")
    also: list[Detector] = Field(default_factory=list, description="more forms of the same violation (mined: each "
                                 "from some of the rule's violating examples, verified as a detector is); it fires "
                                 "where any of them or itself does")

    @model_validator(mode="after")
    def _scope_with_its_kind(self) -> Detector:
        if (self.kind == "scoped-query") != (self.scope is not None):
            raise ValueError("a scoped-query detector has a scope, and only it")
        if any(form.also for form in self.also):
            raise ValueError("a detector's other forms have no forms of their own")
        return self

    @property
    def forms(self) -> tuple[Detector, ...]:
        """Itself and its other forms: where any of them fires, the detector does."""
        return (self, *self.also)

    @model_serializer(mode="wrap")
    def _without_empty_paths(self, handler):
        # a detector without `paths` / `mined` / `scope` / `also` serialises (and hashes) as it did before the keys existed
        data = handler(self)
        if isinstance(data, dict):
            for key in ("paths", "mined", "scope", "also"):
                if not data.get(key):
                    data.pop(key, None)
        return data


class RuleUnit(_Frozen):
    rule_id: str
    title: str
    text: str
    level: RuleLevel | None = None
    severity: Severity | None = Field(None, description="set by rule files; None: a document rule, whose level "
                                                         "and the team's `[rules]` decide (`severity_of`)")
    section: list[str] = Field(default_factory=list, description="heading path, outermost first")
    project_types: list[str] = Field(default_factory=list, description="java, edi, generic; empty = any")
    languages: list[str] = Field(default_factory=list)
    domains: list[str] = Field(default_factory=list, description="business domains, e.g. wms, transport")
    tags: list[str] = Field(default_factory=list)
    bad_examples: list[str] = Field(default_factory=list)
    good_examples: list[str] = Field(default_factory=list)
    model_examples: list[str] = Field(default_factory=list, description="counter-examples a model wrote for a rule "
                                      "whose document shows none (dualrag/review/rule_example.py)")
    source: RuleSource
    detect: Detector | None = None

    @model_serializer(mode="wrap")
    def _without_model_examples(self, handler):
        # a unit no model wrote for serialises (and hashes) as it did before the key existed
        data = handler(self)
        if isinstance(data, dict) and not data.get("model_examples"):
            data.pop("model_examples", None)
        return data

    @property
    def content_hash(self) -> str:
        """Changes whenever anything a reader or a prompt sees changes."""
        canonical = json.dumps(self.model_dump(mode="json"), sort_keys=True, ensure_ascii=False)
        return hashlib.sha256(canonical.encode("utf-8")).hexdigest()

    @property
    def point_id(self) -> str:
        """Unique per (knowledge base, document, rule id): documents never overwrite each other."""
        return _rule_point_id(self.source.kb, self.source.document, self.rule_id)

    @property
    def counter_examples(self) -> list[str]:
        """What search reads as code that breaks the rule: the document's, then the model's."""
        return [*self.bad_examples, *self.model_examples]

    def full_text(self) -> str:
        """The rule as a prompt or a cross-encoder reads it: title, text, then examples."""
        # Segmented documents often take the title from the text's first sentence: no repeat.
        parts = [self.text] if self.text.startswith(self.title) else [self.title, self.text]
        parts += [f"Counter-example:\n{example}" for example in self.bad_examples]
        parts += [f"Counter-example (written by a model, not the document):\n{example}" for example in self.model_examples]
        parts += [f"Example:\n{example}" for example in self.good_examples]
        return "\n\n".join(p for p in parts if p)


# ---------------------------------------------------------------------------------------- code

MAX_SYMBOL_BODY = 4000  # characters of a member's text kept in the index (the rest is re-read when needed)


class CodeSymbol(_Frozen):
    """One declaration of a repository: a type, field, method, function or constructor (Java,
    Kotlin, Python), a flow, step, transform or mapping (EDI), a mapper statement (MyBatis) or a
    configuration key (Spring). One symbol is one point; its id is stable across commits.

    `calls` holds what the member invokes as `owner#name/argc`: `owner` is the qualified type when
    it was resolved (through imports, fields, parameters, locals), `~Type` for a type outside the
    repository, and empty when only the name is known. `commit` is the commit the symbol was last
    (re)written at; it is left out of the content hash so an unchanged symbol is never rewritten.
    """

    symbol_id: str = Field(description="stable key: path#qualified name (with parameter types = signature)")
    # class interface enum record annotation object module facade | field method function constructor |
    # edi-flow edi-step edi-transform edi-mapping | select insert update delete sql resultMap | config-key
    # config-section | file
    kind: str
    language: str = "java"  # the reader's: java kotlin python edi mybatis spring (a file symbol: any)
    name: str  # simple name (a constructor is named after its type)
    qualified_name: str  # com.acme.Foo.bar(int,String); EDI: flow id / flow id/step id / transform id
    owner: str = ""  # qualified enclosing type (Java) or document id (EDI)
    path: str
    start_line: int
    end_line: int
    signature: str = ""
    doc: str = ""
    body: str = Field("", description=f"the declaration's text, capped at {MAX_SYMBOL_BODY} characters")
    params: list[str] = Field(default_factory=list, description="parameter types as written")
    type: str = Field("", description="return type (methods) or field type, as written")
    static: bool = False
    supertypes: list[str] = Field(default_factory=list, description="types: qualified when resolved")
    calls: list[str] = Field(default_factory=list)
    call_names: list[str] = Field(default_factory=list, description="simple names it calls or constructs")
    field_refs: list[str] = Field(default_factory=list, description="owner#field it reads or writes")
    type_refs: list[str] = Field(default_factory=list, description="repository types it mentions, qualified")
    refs: list[str] = Field(default_factory=list, description=(
        "links written in the code: EDI dt:PATH flow:PATH partner:ID channel:ID; Java/Kotlin config:KEY "
        "config-prefix:PREFIX (@Value, @ConfigurationProperties); configuration keys config-key:KEY "
        "config-under:PREFIX; mapper statements sql:NS.ID result-map:NS.ID"))
    imports: list[str] = Field(default_factory=list)
    repository: str
    commit: str = ""
    blob: str = Field("", description="git blob hash of the file the symbol was read from")

    @property
    def arity(self) -> int:
        return len(self.params)

    @property
    def variadic(self) -> bool:
        return bool(self.params) and self.params[-1].endswith("...")

    @property
    def content_hash(self) -> str:
        canonical = json.dumps(self.model_dump(mode="json", exclude={"commit"}), sort_keys=True, ensure_ascii=False)
        return hashlib.sha256(canonical.encode("utf-8")).hexdigest()

    @property
    def point_id(self) -> str:
        return str(uuid.uuid5(_POINT_NAMESPACE, f"code:{self.repository}:{self.symbol_id}"))

    def search_text(self) -> str:
        """What BM25 (and an optional dense embedder) reads: names, signature, doc."""
        return "\n".join(p for p in (self.qualified_name, self.signature, self.doc) if p)

    def display_text(self) -> str:
        """What a prompt shows: where it is, its doc comment and its code."""
        head = f"// {self.path}:{self.start_line}-{self.end_line} {self.qualified_name}"
        doc = f"/** {self.doc} */" if self.doc and self.language in ("java", "kotlin") else ""
        return "\n".join(p for p in (head, doc, self.body or self.signature) if p)
