"""A small typed filter for rule search, translated to a Qdrant `models.Filter`.

Empty lists in a rule mean "applies to all": a rule with no `project_types` matches every
project type, a rule with no `languages` every language (`IsEmptyCondition` in a `should`).
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field
from qdrant_client import models


class RuleFilter(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    project_type: str | None = Field(None, description="java, edi, generic; rules without project_types match too")
    languages: list[str] = Field(default_factory=list, description="any of; rules without languages match too")
    domains: list[str] = Field(default_factory=list, description="any of; rules without domains match too")
    levels: list[str] = Field(default_factory=list, description="mandatory / recommended / reference")
    rule_ids: list[str] = Field(default_factory=list)
    source_file: str | None = None
    document: str | None = Field(None, description="document key (RuleSource.document)")
    has_detector: bool = Field(False, description="only rules with a deterministic detector")

    def to_qdrant(self) -> models.Filter | None:
        must: list[models.Condition] = []
        if self.project_type:
            must.append(_any_or_unset("project_types", [self.project_type]))
        if self.languages:
            must.append(_any_or_unset("languages", self.languages))
        if self.domains:
            must.append(_any_or_unset("domains", self.domains))
        if self.levels:
            must.append(models.FieldCondition(key="level", match=models.MatchAny(any=list(self.levels))))
        if self.rule_ids:
            must.append(models.FieldCondition(key="rule_id", match=models.MatchAny(any=list(self.rule_ids))))
        if self.source_file:
            must.append(models.FieldCondition(key="source_file", match=models.MatchValue(value=self.source_file)))
        if self.document:
            must.append(models.FieldCondition(key="document", match=models.MatchValue(value=self.document)))
        must_not: list[models.Condition] = []
        if self.has_detector:
            must_not.append(models.IsEmptyCondition(is_empty=models.PayloadField(key="detect")))
        return models.Filter(must=must or None, must_not=must_not or None) if must or must_not else None


def _any_or_unset(key: str, values: list[str]) -> models.Filter:
    return models.Filter(
        should=[
            models.IsEmptyCondition(is_empty=models.PayloadField(key=key)),
            models.FieldCondition(key=key, match=models.MatchAny(any=list(values))),
        ]
    )
