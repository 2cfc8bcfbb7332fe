"""What the segmenter understood of one document, for the person who indexes it.

`dualrag index rules` and `dualrag rules inspect` print one of these per document, so a rule
book that came apart wrongly (170 rule headings, 4 units) is seen at once, not at review time.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import asdict, dataclass, field

from dualrag.units import RuleUnit


@dataclass
class DocumentReport:
    file: str
    headings: int = 0  # headings seen in the document (any level)
    rule_headings: int = 0  # headings that read as a rule (a rule code, a numbered leaf, an imperative)
    units: int = 0
    levels: dict[str, int] = field(default_factory=dict)  # mandatory/recommended/reference/none -> count
    largest_tokens: int = 0  # estimated tokens of the largest unit
    largest_id: str = ""
    split: int = 0  # units that came from splitting an over-cap rule
    fallback: bool = False  # no rule structure found: paragraph groups under headings
    rule_set: bool = False  # our own rule-set Markdown (knowledge/README.md format), read as written
    detectors: int = 0  # units with a deterministic detector
    warnings: list[str] = field(default_factory=list)

    def summarise(self, units: list[RuleUnit], estimate) -> None:
        """Fill the unit counts from the units made (`estimate(text) -> tokens`), then warn."""
        self.units = len(units)
        self.detectors = sum(1 for u in units if u.detect is not None)
        self.levels = dict(Counter(str(u.level) if u.level else "none" for u in units))
        for unit in units:
            tokens = estimate(unit.full_text())
            if tokens > self.largest_tokens:
                self.largest_tokens, self.largest_id = tokens, unit.rule_id
        if self.fallback:
            self.warnings.append("no rule structure recognised (no rule headings, numbered items or level "
                                 "markers): indexed as paragraph groups under headings")
        if self.rule_headings >= 10 and self.units < self.rule_headings // 2:
            self.warnings.append(f"{self.rule_headings} rule headings but only {self.units} units: "
                                 "the document's structure was probably not understood")
        if self.units == 1 and self.headings > 3:
            self.warnings.append(f"{self.headings} headings became one unit")

    def summary(self) -> str:
        """One line: `rules.docx: 172 headings (170 rule headings) -> 170 rules (mandatory 120,
        recommended 50); largest ABC07-J 612 tokens; 3 split by the size cap`."""
        name = self.file
        if self.rule_set:
            head = "rule set"
        else:
            head = f"{self.headings} heading{'' if self.headings == 1 else 's'} ({self.rule_headings} rule headings)"
        levels = ", ".join(f"{level} {self.levels[level]}" for level in _LEVEL_ORDER if self.levels.get(level))
        parts = [f"{name}: {head} -> {self.units} rule{'' if self.units == 1 else 's'}"
                 + (f" ({levels})" if levels else "")]
        if self.detectors:
            parts.append(f"{self.detectors} with a detector")
        if self.largest_id:
            parts.append(f"largest {self.largest_id} {self.largest_tokens} tokens")
        if self.split:
            parts.append(f"{self.split} split by the size cap")
        if self.fallback:
            parts.append("no rule structure: paragraph groups")
        return "; ".join(parts)

    def lines(self) -> list[str]:
        """The summary, then one `warning: ...` line per warning."""
        return [self.summary(), *(f"warning: {self.file}: {w}" for w in self.warnings)]

    def to_dict(self) -> dict:
        return asdict(self)


_LEVEL_ORDER = ("mandatory", "recommended", "reference", "none")
