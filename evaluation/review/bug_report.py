"""Aggregate the per-review records into the table `evaluation/review/bugs.py` prints, with the floors."""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from evaluation.core.report import floor, grid, mean

FLOOR_DISCRIMINATION = 0.30
FLOOR_TIMES_NAIVE = 3.0
FLOOR_TRIVIAL_PROMPT_TOKENS = 2_000
FLOOR_FINDINGS = 1.2


@dataclass(frozen=True)
class Summary:
    system: str
    pairs: int  # pairs with both sides reviewed
    flag_bug: float
    flag_fix: float
    findings: float  # per review
    prompt_tokens: float  # per review
    completion_tokens: float
    seconds: float
    model_seconds: float
    failures: int
    reviews: int
    trivial_prompt_tokens: float | None  # per review of a trivial-tier change

    @property
    def discrimination(self) -> float:
        return self.flag_bug - self.flag_fix


def summarise(records: Iterable[dict[str, Any]]) -> list[Summary]:
    by_system: dict[str, dict[str, dict[str, dict[str, Any]]]] = defaultdict(lambda: defaultdict(dict))
    for r in records:
        by_system[r["system"]][r["id"]][r["side"]] = r
    out = []
    for system, pairs in by_system.items():
        complete = [sides for sides in pairs.values() if "bug" in sides and "fix" in sides]
        reviews = [r for sides in complete for r in sides.values()]
        if not complete:
            continue
        trivial = [r["prompt_tokens"] for r in reviews if r.get("tier") == "trivial"]
        out.append(Summary(
            system=system, pairs=len(complete),
            flag_bug=mean(s["bug"]["flagged"] for s in complete),
            flag_fix=mean(s["fix"]["flagged"] for s in complete),
            findings=mean(len(r["findings"]) for r in reviews),
            prompt_tokens=mean(r["prompt_tokens"] for r in reviews),
            completion_tokens=mean(r["completion_tokens"] for r in reviews),
            seconds=mean(r["seconds"] for r in reviews),
            model_seconds=mean(r["model_seconds"] for r in reviews),
            failures=sum(1 for r in reviews if r.get("failure")), reviews=len(reviews),
            trivial_prompt_tokens=mean(trivial) if trivial else None,
        ))
    return sorted(out, key=lambda s: s.system)


def table(summaries: list[Summary]) -> str:
    head = ("system", "pairs", "flag bug", "flag fix", "discrim.", "findings/rev", "prompt tok/rev",
            "compl. tok/rev", "s/rev", "model s/rev", "failures")
    rows = [head] + [(
        s.system, str(s.pairs), f"{s.flag_bug:.2f}", f"{s.flag_fix:.2f}", f"{s.discrimination:+.2f}",
        f"{s.findings:.2f}", f"{s.prompt_tokens:,.0f}", f"{s.completion_tokens:,.0f}", f"{s.seconds:.1f}",
        f"{s.model_seconds:.1f}", f"{s.failures}/{s.reviews}",
    ) for s in summaries]
    return grid(rows)


def floors(summaries: list[Summary], system: str = "dualrag", baseline: str = "naive") -> list[str]:
    """One line per floor of issue 14 for `system`, with the figure and whether it holds."""
    by = {s.system: s for s in summaries}
    s, base = by.get(system), by.get(baseline)
    if s is None:
        return []
    lines = [floor(f"discrimination >= {FLOOR_DISCRIMINATION:+.2f}", f"{s.discrimination:+.2f}",
                    s.discrimination >= FLOOR_DISCRIMINATION)]
    if base is not None:
        wanted = FLOOR_TIMES_NAIVE * base.discrimination
        lines.append(floor(f"discrimination >= {FLOOR_TIMES_NAIVE:g}x naive ({wanted:+.2f})",
                            f"{s.discrimination:+.2f}", s.discrimination >= max(wanted, 0) and s.discrimination > 0))
    if s.trivial_prompt_tokens is not None:
        lines.append(floor(f"prompt tokens per trivial-tier review <= {FLOOR_TRIVIAL_PROMPT_TOKENS:,}",
                            f"{s.trivial_prompt_tokens:,.0f}", s.trivial_prompt_tokens <= FLOOR_TRIVIAL_PROMPT_TOKENS))
    lines.append(floor(f"findings per review <= {FLOOR_FINDINGS}", f"{s.findings:.2f}", s.findings <= FLOOR_FINDINGS))
    lines.append(floor("no review fails", f"{s.failures} failed", s.failures == 0))
    return lines


def _both_sides(records: Iterable[dict[str, Any]], targets: dict[tuple[str, str], frozenset],
                system: str) -> dict[str, dict[str, dict[str, Any]]]:
    """`system`'s records by pair id and side, for the pairs with both sides reviewed and known targets."""
    sides: dict[str, dict[str, dict[str, Any]]] = defaultdict(dict)
    for r in records:
        if r["system"] == system:
            sides[r["id"]][r["side"]] = r
    return {pid: s for pid, s in sides.items() if "bug" in s and "fix" in s and (pid, "bug") in targets}


def by_source(records: Iterable[dict[str, Any]], targets: dict[tuple[str, str], frozenset], flagged,
              system: str = "dualrag") -> list[str]:
    """`system`'s flag rates counting only its model's findings, then only its detectors': what
    each part contributes (`targets[(pair id, side)]`, `flagged(findings, targets)`)."""
    complete = _both_sides(records, targets, system)
    if not complete:
        return []
    lines = []
    for source in ("llm", "detector"):
        rate = {side: mean(flagged([f for f in s[side]["findings"] if f.get("source") == source],
                                    targets[(pid, side)]) for pid, s in complete.items())
                for side in ("bug", "fix")}
        lines.append(f"  {system}, {source} findings only: flag bug {rate['bug']:.2f}, fix {rate['fix']:.2f}, "
                     f"discrimination {rate['bug'] - rate['fix']:+.2f}")
    return lines


def by_policy(records: Iterable[dict[str, Any]], targets: dict[tuple[str, str], frozenset],
              code: dict[tuple[str, str], dict[tuple[str, int], str]], flagged, system: str = "dualrag") -> list[str]:
    """`system`'s flag rates, whole and its model's findings alone, under each `[review] model_warnings`
    policy: the stored model findings (written under `keep`) recalibrated with the new-side code of their
    lines (`code[(pair id, side)]`, from the side's diff). Exact for a run made under `keep`: the policy
    only lowers a model finding's severity after everything else."""
    from dualrag.findings import Finding
    from dualrag.review.grounding import calibrated

    complete = _both_sides(records, targets, system)
    if not complete:
        return []

    def under(policy: str, found: list[dict[str, Any]], lines: dict[tuple[str, int], str]) -> list[dict[str, Any]]:
        out = []
        for f in found:
            if f.get("source") == "llm":
                end = int(f.get("end_line") or f["line"])
                text = [t for (path, n), t in lines.items() if path.endswith(f["path"]) and f["line"] <= n <= end]
                model = Finding(**{k: v for k, v in f.items() if v is not None})
                f = {**f, "severity": calibrated(model, text, policy).severity}
            out.append(f)
        return out

    lines = []
    for policy in ("keep", "grounded", "suggestion"):
        whole: dict[str, list[bool]] = {"bug": [], "fix": []}
        model: dict[str, list[bool]] = {"bug": [], "fix": []}
        for pid, s in complete.items():
            for side in ("bug", "fix"):
                found = under(policy, s[side]["findings"], code[(pid, side)])
                whole[side].append(flagged(found, targets[(pid, side)]))
                model[side].append(flagged([f for f in found if f.get("source") == "llm"], targets[(pid, side)]))
        wb, wf, mb, mf = (mean(x) for x in (whole["bug"], whole["fix"], model["bug"], model["fix"]))
        lines.append(f"  {system} with model_warnings = \"{policy}\": flag bug {wb:.2f}, fix {wf:.2f}, "
                     f"discrimination {wb - wf:+.2f}; model findings only {mb:.2f} / {mf:.2f}, {mb - mf:+.2f}")
    return lines


def without_reverse_check(records: Iterable[dict[str, Any]], targets: dict[tuple[str, str], frozenset], flagged,
                          explain: Path, system: str = "dualrag") -> str | None:
    """`system`'s flag rates had the reverse check been off: its detectors' findings plus every
    warning of the reviewers' first answers, read back from the `--explain` folder (the answers
    the reverse check then filtered). No line snapping: an estimate, printed as one."""
    sides: dict[str, dict[str, dict[str, Any]]] = defaultdict(dict)
    for r in records:
        if r["system"] == system:
            sides[r["id"]][r["side"]] = r
    rate: dict[str, list[bool]] = {"bug": [], "fix": []}
    for pid, both in sides.items():
        if "bug" not in both or "fix" not in both or not (explain / f"{pid}.bug").is_dir():
            continue
        for side in ("bug", "fix"):
            first = [{**f, "severity": "major" if f.get("severity") in ("warning", "critical") else "minor"}
                     for answer in sorted((explain / f"{pid}.{side}").glob("*.response.txt"))
                     if ".reverse." not in answer.name for f in _findings(answer)]
            detectors = [f for f in both[side]["findings"] if f.get("source") == "detector"]
            rate[side].append(flagged(detectors + first, targets[(pid, side)]))
    if not rate["bug"]:
        return None
    bug, fix = mean(rate["bug"]), mean(rate["fix"])
    return (f"  {system} without the reverse check (estimated from the first answers in --explain, "
            f"{len(rate['bug'])} pairs): flag bug {bug:.2f}, fix {fix:.2f}, discrimination {bug - fix:+.2f}")


def _findings(answer: Path) -> list[dict[str, Any]]:
    try:
        found = json.loads(answer.read_text(encoding="utf-8")).get("findings", [])
    except (ValueError, AttributeError, OSError):
        return []
    return [f for f in found if isinstance(f, dict) and "line" in f and "path" in f]
