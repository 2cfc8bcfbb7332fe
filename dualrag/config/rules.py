"""How indexed rules are weighed (section `[rules]`): the severity a rule's finding gets.

A rule file (the bundled rules, a team rule set) names its severity. A document names at most a
level (mandatory / recommended / reference, 强制 / 推荐 / 参考, MUST / SHOULD / MAY): the level
maps to a severity here, and a rule with no level gets the team's default — `major`, because a
written team rule is meant to be followed, and presenting it as minor told the model it was not.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from dualrag.config.section import Section

SeverityName = Literal["info", "minor", "major", "critical"]


class RulesConfig(Section):
    default_severity: SeverityName = Field(
        "major", description="severity of a document rule whose document gives no level")
    mandatory: SeverityName = Field("major", description="severity of a mandatory rule (强制, MUST, required)")
    recommended: SeverityName = Field("minor", description="severity of a recommended rule (推荐, SHOULD)")
    reference: SeverityName = Field("info", description="severity of a reference rule (参考, MAY, optional)")
    # Detectors mined from a document's own examples (indexers/mining), verified before use.
    mine: bool = Field(True, description="mine detectors from the violating/compliant examples of indexed rules "
                                         "(`index rules --no-mine` skips it for one run)")
    mining_corpus: str | None = Field(
        None, description="clean code a mined detector must stay quiet on (at most `mining_max_hits_per_10k` hits "
                          "per 10,000 lines): the folder of a `dualrag corpus build` (each language reads its own "
                          "subfolder) or a plain folder of code; unset: the default build "
                          "(`~/.cache/dualrag/corpus`) when one holds the language, else that check is not run and "
                          "only candidates of at least `mining_min_bits` bits that name an API, keyword or literal "
                          "are kept")
    mining_corpus_max_lines: int = Field(1_000_000, ge=1000, description="lines of the corpus read (files in "
                                                                         "path order)")
    mining_max_hits_per_10k: float = Field(1.0, ge=0, description="clean-corpus hits a mined detector may have "
                                                                  "per 10,000 lines")
    mining_min_bits: float = Field(20.0, ge=0, description="without a corpus: the specificity a mined candidate "
                                                           "needs (bits)")
    mining_language: str = Field("java", description="language of a document rule's examples when the rule "
                                                     "names none (a language pack with a grammar)")
    model_examples: bool = Field(True, description="with a configured model, `index rules` has it write a counter-"
                                 "example for each rule of a document that shows its own for fewer than 12 rules "
                                 "(dualrag/review/rule_example.py; "
                                 "one request per rule, kept while the rule's text is unchanged; "
                                 "`--no-model-examples` for one run); search reads them like the document's own")
    model_variants: bool = Field(False, description="with a configured model, mining has it write one more violating "
                                 "and one compliant near-miss variant of each rule's example; the compliant one must "
                                 "stay quiet under every step a mined detector climbs past its examples "
                                 "(dualrag/review/rule_variants.py; one request per rule, cached in "
                                 "~/.cache/dualrag/variants.json by the rule's text; `--model-variants` for one run)")
    disable: list[str] = Field(default_factory=list, description="rule ids (or globs, `team-rules:3.*`) whose "
                                                                 "detector never runs, mined or hand-written")

    def disabled(self, rule_id: str) -> bool:
        """Whether `[rules] disable` names this rule (an id or a glob)."""
        from fnmatch import fnmatchcase

        return any(rule_id == pattern or fnmatchcase(rule_id, pattern) for pattern in self.disable)

    def severity(self, explicit: str | None, level: str | None) -> SeverityName:
        """A rule's severity: its own when its file names one, else its level's, else the default."""
        if explicit:
            return explicit  # type: ignore[return-value]
        by_level = {"mandatory": self.mandatory, "recommended": self.recommended, "reference": self.reference}
        return by_level.get(str(level or ""), self.default_severity)
