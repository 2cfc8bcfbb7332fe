"""What the dev guideline's mined detectors do on the team's own evaluation data: the p3c cases
linked to its items (informational) and the 40 dev bug pairs, offline detectors as a review runs
them (the discrimination floor: the detectors must not cost the bundled ones their +0.40)."""

from __future__ import annotations

import json
import re
from collections import Counter

from dualrag.units import RuleUnit

from .books import BUGS, P3C
from .heldout import fires


def p3c_cases(units: list[RuleUnit]) -> dict:
    """Violation cases caught and clean cases flagged by the mined detectors of their items."""
    if not P3C.is_file():
        return {}
    rows = [json.loads(line) for line in P3C.read_text(encoding="utf-8").splitlines() if line.strip()]
    flat = {u.rule_id: re.sub(r"\s+", "", u.title + u.text + "".join(u.bad_examples + u.good_examples)) for u in units}
    out: Counter = Counter()
    for row in rows:
        unit = next((u for u in units if row["anchor"] in flat[u.rule_id]), None)
        det = unit.detect if unit is not None and unit.detect is not None and unit.detect.mined else None
        key = "violation" if row["label"] == "violation" else "clean"
        out[f"{key}_rows"] += 1
        if det is not None:
            out[f"{key}_with_detector"] += 1
            out[f"{key}_fired"] += fires(det, "java", row["code"])
    return dict(out)


def bug_pairs(extra: dict[str, list[RuleUnit]], limit: int = 40, seed: int = 14) -> dict:
    """Offline discrimination (flag rate on the bug side minus the fix side) of the bundled
    detectors alone and with each set of mined ones."""
    if not BUGS.is_file():
        return {}
    from dualrag.checks.detectors import bundled_rules, run_detectors
    from dualrag.config import Settings
    from dualrag.diff import ingest
    from evaluation.review.bug_pairs import load_pairs, sample
    from evaluation.review.systems import flagged

    pairs = sample(load_pairs(BUGS), limit, seed)
    settings = Settings()
    base = list(bundled_rules().detectors)
    out = {}
    for name, rules in {"bundled": base, **{n: base + units for n, units in extra.items()}}.items():
        flags: Counter = Counter()
        mined = 0
        for pair in pairs:
            for side in ("bug", "fix"):
                findings = run_detectors(ingest(pair.diff(side).encode("utf-8"), settings), rules)
                mined += sum(1 for f in findings if "[mined check:" in f.message)
                flags[side] += flagged([f.model_dump() for f in findings], pair.targets(side))
        out[name] = {"bug": flags["bug"] / len(pairs), "fix": flags["fix"] / len(pairs),
                     "discrimination": (flags["bug"] - flags["fix"]) / len(pairs), "mined_findings": mined}
    return out
