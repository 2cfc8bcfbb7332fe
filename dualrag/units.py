"""Knowledge units: what the offline side writes into the store and retrieval reads back.

A rule is one unit — never a page of rules — so that a retrieved hit can be cited by id
and packed whole into a prompt.
"""

from __future__ import annotations

import hashlib
import json
import uuid
from enum import StrEnum
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

# Point ids are uuid5 of a stable key, so re-indexing the same unit overwrites it.
_POINT_NAMESPACE = uuid.UUID("6f1b7f4e-3c55-5d0a-9a43-1d2c8a7e0b51")


class RuleLevel(StrEnum):
    MANDATORY = "mandatory"  # 【强制】, MUST
    RECOMMENDED = "recommended"  # 【推荐】, SHOULD
    REFERENCE = "reference"  # 【参考】, MAY / informational


class Severity(StrEnum):
    INFO = "info"
    MINOR = "minor"
    MAJOR = "major"
    CRITICAL = "critical"


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class RuleSource(_Frozen):
    kb: str = Field(description="knowledge base the rule was indexed into")
    file: str = Field(description="document path as given to the indexer, or the bundled file")
    page: int | None = Field(None, description="1-based page for paginated documents")
    anchor: str | None = Field(None, description="heading slug, item number or line that locates the rule")


class Detector(_Frozen):
    """A deterministic check that finds clear violations without an LLM.

    `regex` patterns run on each changed line; `tree-sitter` queries run on the parsed new
    file and report captures named `@violation` that fall on changed lines.
    """

    kind: Literal["regex", "tree-sitter"]
    pattern: str
    languages: list[str] = Field(default_factory=list, description="file languages it applies to")
    message: str | None = None
    on: Literal["added", "removed"] = Field(
        "added", description="which changed lines a regex runs on; `removed` fires only if no added line matches too")


class RuleUnit(_Frozen):
    rule_id: str
    title: str
    text: str
    level: RuleLevel | None = None
    severity: Severity = Severity.MINOR
    section: list[str] = Field(default_factory=list, description="heading path, outermost first")
    project_types: list[str] = Field(default_factory=list, description="java, edi, generic; empty = any")
    languages: list[str] = Field(default_factory=list)
    domains: list[str] = Field(default_factory=list, description="business domains, e.g. wms, transport")
    tags: list[str] = Field(default_factory=list)
    bad_examples: list[str] = Field(default_factory=list)
    good_examples: list[str] = Field(default_factory=list)
    source: RuleSource
    detect: Detector | None = None

    @property
    def content_hash(self) -> str:
        """Changes whenever anything a reader or a prompt sees changes."""
        canonical = json.dumps(self.model_dump(mode="json"), sort_keys=True, ensure_ascii=False)
        return hashlib.sha256(canonical.encode("utf-8")).hexdigest()

    @property
    def point_id(self) -> str:
        return str(uuid.uuid5(_POINT_NAMESPACE, f"rule:{self.source.kb}:{self.rule_id}"))

    def full_text(self) -> str:
        """The rule as a prompt or a cross-encoder reads it: title, text, then examples."""
        parts = [self.title, self.text]
        parts += [f"Counter-example:\n{example}" for example in self.bad_examples]
        parts += [f"Example:\n{example}" for example in self.good_examples]
        return "\n\n".join(p for p in parts if p)
