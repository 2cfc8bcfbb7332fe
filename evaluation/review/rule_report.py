"""The per-system figures of the rule-application pairs, their table and the issue's floors.

A side is *flagged* when a finding of severity major or critical is on its added file; the pair's
rule is *hit* when a finding on the violating side (any severity) has the stored rule id of the
pair's rule (`kb_rule` of the record). Prompt tokens are the uncached ones (`prompt_tokens` −
`cache_read_tokens`); the cached ones are shown beside them.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from evaluation.core.report import floor, grid, mean
from evaluation.review.systems import FLAGGING, same_file

FLOOR_HIT = 0.50
FLOOR_DISCRIMINATION = 0.30
FLOOR_TIMES_NAIVE = 2.0
FLOOR_CALLS = 4
FLOOR_PROMPT_TOKENS = 4_000
FLOOR_PAIRS = 30


def flagged(record: dict[str, Any]) -> bool:
    return any(f.get("severity") in FLAGGING and same_file(f.get("path") or "", record["path"])
               for f in record["findings"])


def cites(record: dict[str, Any]) -> bool:
    return bool(record.get("kb_rule")) and any(f.get("rule_id") == record["kb_rule"] for f in record["findings"])


def uncached(record: dict[str, Any]) -> int:
    return max(0, int(record["prompt_tokens"]) - int(record.get("cache_read_tokens") or 0))


@dataclass(frozen=True)
class Summary:
    system: str
    pairs: int
    flag_violating: float
    flag_compliant: float
    hit: float  # violating side cites the pair's rule
    cited_compliant: float  # compliant side cites it: a false citation
    findings: float
    prompt_tokens: float  # uncached, per review
    cached_tokens: float
    calls: float
    max_calls: int
    max_prompt_tokens: int
    seconds: float
    failures: int
    reviews: int
    by_kind: dict[str, tuple[float, float, float]]  # kind -> (calls, uncached prompt tokens, cached) per review

    @property
    def discrimination(self) -> float:
        return self.flag_violating - self.flag_compliant


def summarise(records: Iterable[dict[str, Any]], pair_ids: set[str]) -> list[Summary]:
    by_system: dict[str, dict[str, dict[str, dict]]] = defaultdict(lambda: defaultdict(dict))
    for r in records:
        if r["pair"] in pair_ids:
            by_system[r["system"]][r["pair"]][r["side"]] = r
    out = []
    for system, pairs in by_system.items():
        complete = [s for s in pairs.values() if "violating" in s and "compliant" in s]
        if not complete:
            continue
        reviews = [r for s in complete for r in s.values()]
        kinds = sorted({k for r in reviews for k in (r.get("by_kind") or {})})
        out.append(Summary(
            system=system, pairs=len(complete),
            flag_violating=mean(flagged(s["violating"]) for s in complete),
            flag_compliant=mean(flagged(s["compliant"]) for s in complete),
            hit=mean(cites(s["violating"]) for s in complete),
            cited_compliant=mean(cites(s["compliant"]) for s in complete),
            findings=mean(len(r["findings"]) for r in reviews),
            prompt_tokens=mean(uncached(r) for r in reviews),
            cached_tokens=mean(int(r.get("cache_read_tokens") or 0) for r in reviews),
            calls=mean(r["calls"] for r in reviews), max_calls=max(r["calls"] for r in reviews),
            max_prompt_tokens=max(uncached(r) for r in reviews),
            seconds=mean(r["seconds"] for r in reviews),
            failures=sum(1 for r in reviews if r.get("failure")), reviews=len(reviews),
            by_kind={k: _kind(reviews, k) for k in kinds},
        ))
    order = ["dualrag", "dualrag-norc", "naive", "offline"]
    return sorted(out, key=lambda s: (order.index(s.system) if s.system in order else len(order), s.system))


def _kind(reviews: list[dict], kind: str) -> tuple[float, float, float]:
    used = [(r.get("by_kind") or {}).get(kind) or {} for r in reviews]
    return (mean(int(u.get("calls") or 0) for u in used),
            mean(max(0, int(u.get("input_tokens") or 0) - int(u.get("cache_read_tokens") or 0)) for u in used),
            mean(int(u.get("cache_read_tokens") or 0) for u in used))


def table(summaries: list[Summary]) -> str:
    head = ("system", "pairs", "flag viol.", "flag compl.", "discrim.", "rule hit", "cited compl.", "findings/rev",
            "prompt tok/rev", "cached tok/rev", "calls/rev", "s/rev", "failures")
    rows = [head] + [(
        s.system, str(s.pairs), f"{s.flag_violating:.2f}", f"{s.flag_compliant:.2f}", f"{s.discrimination:+.2f}",
        f"{s.hit:.2f}", f"{s.cited_compliant:.2f}", f"{s.findings:.2f}", f"{s.prompt_tokens:,.0f}",
        f"{s.cached_tokens:,.0f}", f"{s.calls:.2f}", f"{s.seconds:.1f}", f"{s.failures}/{s.reviews}",
    ) for s in summaries]
    return grid(rows)


def kind_table(summaries: list[Summary]) -> str | None:
    """Usage by kind of call (review JSON `usage.by_kind`), for the systems that report it."""
    rows = [("system", "kind", "calls/rev", "prompt tok/rev", "cached tok/rev", "cached share")]
    for s in summaries:
        for kind, (calls, prompt, cached) in s.by_kind.items():
            share = cached / (prompt + cached) if prompt + cached else 0.0
            rows.append((s.system, kind, f"{calls:.2f}", f"{prompt:,.0f}", f"{cached:,.0f}", f"{share:.0%}"))
    return grid(rows) if len(rows) > 1 else None


def floors(summaries: list[Summary], system: str = "dualrag", baseline: str = "naive") -> list[str]:
    """One line per floor of issue 25 for `system`, with the figure and PASS/FAIL."""
    by = {s.system: s for s in summaries}
    s, base = by.get(system), by.get(baseline)
    if s is None:
        return []
    lines = [floor(f"rule hit on the violating side >= {FLOOR_HIT:.2f}", f"{s.hit:.2f}", s.hit >= FLOOR_HIT),
             floor(f"discrimination >= {FLOOR_DISCRIMINATION:+.2f}", f"{s.discrimination:+.2f}",
                    s.discrimination >= FLOOR_DISCRIMINATION - 1e-9)]
    if base is not None:
        wanted = FLOOR_TIMES_NAIVE * base.discrimination
        lines.append(floor(f"discrimination >= {FLOOR_TIMES_NAIVE:g}x naive's ({FLOOR_TIMES_NAIVE:g} x "
                            f"{base.discrimination:+.2f} = {wanted:+.2f})", f"{s.discrimination:+.2f}",
                            s.discrimination > 0 and s.discrimination >= max(wanted, 0) - 1e-9))
    else:
        lines.append("  discrimination >= 2x naive's: not measured (no naive reviews)")
    lines += [
        floor(f"LLM calls per review <= {FLOOR_CALLS} (mean)", f"{s.calls:.2f} (max {s.max_calls})",
               s.calls <= FLOOR_CALLS),
        floor(f"prompt tokens per review <= {FLOOR_PROMPT_TOKENS:,} (mean, cached prefix excluded)",
               f"{s.prompt_tokens:,.0f} (max {s.max_prompt_tokens:,}; cached {s.cached_tokens:,.0f})",
               s.prompt_tokens <= FLOOR_PROMPT_TOKENS),
        floor("no review fails", f"{s.failures} failed", s.failures == 0),
    ]
    if s.pairs < FLOOR_PAIRS:
        lines.append(f"  (the floors are for >= {FLOOR_PAIRS} pairs in one run; this has {s.pairs})")
    return lines



GROUNDING_NOTE = "(kept as a suggestion:"  # dualrag/review/grounding.py appends it to a warning it lowers

PARTS: dict[str, Any] = {
    "rule checks": lambda f: f.get("source") == "llm" and bool(f.get("rule_id")),
    "model's own": lambda f: f.get("source") == "llm" and not f.get("rule_id"),
    "detectors": lambda f: f.get("source") == "detector",
}


def _ungrounded(f: dict[str, Any]) -> dict[str, Any]:
    """The finding as the model wrote it, before the grounding check lowered it to a suggestion."""
    return {**f, "severity": "major"} if GROUNDING_NOTE in (f.get("message") or "") else f


def parts(records: Iterable[dict[str, Any]], pair_ids: set[str], system: str = "dualrag") -> str | None:
    """What each part of `system` flags on its own, on the same pairs: its rule checks, the model's
    own findings (also as written, before `[review] model_warnings = "grounded"`), its detectors."""
    sides: dict[str, dict[str, dict]] = defaultdict(dict)
    for r in records:
        if r["system"] == system and r["pair"] in pair_ids:
            sides[r["pair"]][r["side"]] = r
    complete = [s for s in sides.values() if "violating" in s and "compliant" in s]
    if not complete:
        return None
    variants = [(name, keep, lambda f: f) for name, keep in PARTS.items()]
    variants.insert(2, ("model's own, as written (model_warnings = keep)", PARTS["model's own"], _ungrounded))
    rows = [("part of " + system, "flag viol.", "flag compl.", "discrim.")]
    for name, keep, view in variants:
        def flags(record: dict[str, Any], keep=keep, view=view) -> bool:
            return flagged({**record, "findings": [view(f) for f in record["findings"] if keep(f)]})
        v = mean(flags(s["violating"]) for s in complete)
        c = mean(flags(s["compliant"]) for s in complete)
        rows.append((name, f"{v:.2f}", f"{c:.2f}", f"{v - c:+.2f}"))
    return grid(rows)
