"""What mining tells about each rule: the detector kept, the candidates rejected before it, and the
lattice steps taken from it or turned down (`rules inspect` shows them; the store keeps the
detector's own summary in `MinedCheck`)."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from pathlib import Path

from dualrag.units import Detector

from .corpus_root import describe_corpus


@dataclass
class Rejected:
    kind: str
    pattern: str
    bits: float
    reason: str


@dataclass
class ClimbStep:
    """One step of the lattice tried from the kept candidate: `outcome` "kept", or why the more
    general candidate was turned down."""

    step: str
    kind: str
    pattern: str
    outcome: str


@dataclass
class RuleMining:
    rule_id: str
    status: str  # kept | none | written | disabled | prose | no-examples
    detector: Detector | None = None
    rejected: list[Rejected] = field(default_factory=list)
    note: str = ""
    violating: int = 0
    seconds: float = 0.0
    level: list[str] = field(default_factory=list)  # lattice steps taken, in order
    climb: list[ClimbStep] = field(default_factory=list)  # every step tried, taken or turned down
    forms: int = 0  # other forms of the mistake its detector also holds (`forms.py`)

    def to_dict(self) -> dict:
        out = asdict(self)
        out["detector"] = self.detector.model_dump(mode="json") if self.detector else None
        return out


@dataclass
class MiningReport:
    document: str
    rules: list[RuleMining] = field(default_factory=list)
    seconds: float = 0.0
    corpus: str | None = None
    corpus_lines: int | None = None
    language: str = "java"  # the corpus's

    @property
    def with_examples(self) -> int:
        return sum(1 for r in self.rules if r.violating)

    @property
    def kept(self) -> int:
        return sum(1 for r in self.rules if r.status == "kept")

    def by_id(self) -> dict[str, RuleMining]:
        return {r.rule_id: r for r in self.rules}

    def summary(self) -> str:
        corpus = (describe_corpus(Path(self.corpus), self.language, self.corpus_lines)
                  if self.corpus is not None and self.corpus_lines is not None
                  else "no clean corpus: that check was not run; `dualrag corpus build` makes one")
        written = sum(1 for r in self.rules if r.status == "written")
        extra = f", {written} hand-written kept" if written else ""
        general = sum(1 for r in self.rules if r.status == "kept" and r.level)
        climbed = f", {general} generalised past their examples' shape" if general else ""
        several = sum(1 for r in self.rules if r.status == "kept" and r.forms)
        forms = f", {several} in more than one form" if several else ""
        return (f"{self.document}: mined {self.kept} detector(s) for {self.with_examples} rule(s) with violating "
                f"examples{extra} ({corpus}){climbed}{forms}, {self.seconds:.1f}s")

    def to_dict(self) -> dict:
        return {"document": self.document, "seconds": round(self.seconds, 3), "corpus": self.corpus,
                "corpus_lines": self.corpus_lines, "with_examples": self.with_examples, "kept": self.kept,
                "rules": [r.to_dict() for r in self.rules]}
