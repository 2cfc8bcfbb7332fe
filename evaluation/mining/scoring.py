"""Independent files: code the book never showed (`evaluation/mining/independent/<book>/cases.jsonl` and
its `files/`, written by someone else, never given to the miner, never used to choose anything),
scored as the issue's shared formats say:

- every mined detector of the book runs on every file as a review runs it (the whole file as
  added lines);
- recall: violating files on which the detector of the file's rule fires within 2 lines of a
  labelled line, over violating files;
- precision: TP / (TP + FP), an FP being the file's-rule detector firing on a compliant file of
  that rule, or on its violating file only away from the labelled lines;
- cross-fires (informational): other rules' detectors firing on a file.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from dualrag.rulebook import detector_rows
from dualrag.units import Detector
from evaluation.mining.independent import IndependentCase, cases_path, load_cases

NEAR = 2  # lines from a labelled line a hit may be


@dataclass
class Independent:
    violating: int = 0
    compliant: int = 0
    tp: int = 0
    fp: int = 0
    fp_away: int = 0  # of `fp`: on a violating file, only away from its labelled lines
    cross: int = 0

    @property
    def recall(self) -> float:
        return self.tp / self.violating if self.violating else 0.0

    @property
    def precision(self) -> float | None:
        return self.tp / (self.tp + self.fp) if self.tp + self.fp else None


def cases(book: str) -> list[IndependentCase] | None:
    """The book's independent cases, or None when it has none yet."""
    return load_cases(book) if cases_path(book).is_file() else None


def compliant_code(book: str) -> dict[str, list[str]]:
    """The independent compliant files of each rule (held-out precision counts them as negatives,
    never as a choice's evidence)."""
    out: dict[str, list[str]] = {}
    for case in cases(book) or ():
        if not case.violating:
            out.setdefault(case.rule, []).append(case.text)
    return out


def _rows(detector: Detector, language: str, text: str) -> list[int]:
    try:
        return [r + 1 for r in detector_rows(detector, language, text)]
    except Exception:  # noqa: BLE001 - a query this grammar refuses fires nowhere
        return []


def score(book: str, detectors: Mapping[str, Detector]) -> Independent | None:
    found = cases(book)
    if found is None:
        return None
    out = Independent()
    for case in found:
        own = detectors.get(case.rule)
        hits = _rows(own, case.language, case.text) if own is not None else []
        if case.violating:
            out.violating += 1
            near = any(abs(h - line) <= NEAR for h in hits for line in case.lines)
            out.tp += near
            out.fp += bool(hits) and not near
            out.fp_away += bool(hits) and not near
        else:
            out.compliant += 1
            out.fp += bool(hits)
        out.cross += sum(1 for rid, det in detectors.items()
                         if rid != case.rule and _rows(det, case.language, case.text))
    return out
