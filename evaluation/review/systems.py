"""The two systems under test, each turning a diff into an `Outcome`.

- `DualRag`: the real CLI path, `dualrag review --diff-file X --llm M --format json` in a
  subprocess (store, config and model as a user would give them), read back from its JSON.
- `Naive`: one plain prompt (the bare diff and one paragraph of instruction) to the same model
  through the same LLM layer, so the structured-output handling (JSON mode, schema text, tolerant
  parse, `ReviewAnswer` validation) is dualrag's own: only the prompt differs.
- `DualRag(offline=True)` (opt-in, `dualrag-offline`): the same CLI with `--offline`, detectors
  only: what the review finds without a model.
- `RemovedChecks` (`removed_checks.py`, opt-in): no model, a reference for what the data's shape
  alone gives.

Severity is put on one scale for both: the review JSON's `info < minor < major < critical`; a
model's `warning` is `major` (`coordinator.map_severity`). *Warning or worse* = major/critical.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from dualrag.config import load_settings
from dualrag.llm import LLMError, LLMFactory, LLMRequest
from dualrag.review.coordinator import map_severity, normalise_category
from dualrag.review.prompt import ReviewAnswer
from evaluation.core.baselines import NAIVE_INSTRUCTION
from evaluation.core.datasets import rows

FLAGGING = frozenset({"major", "critical"})  # "warning or worse" on the review JSON's scale
WINDOW = 1  # a finding flags a side when it lies within this many lines of one of its targets



@dataclass
class Outcome:
    findings: list[dict[str, Any]] = field(default_factory=list)  # path, line, end_line, severity, title
    prompt_tokens: int = 0
    completion_tokens: int = 0
    calls: int = 0
    seconds: float = 0.0  # wall time of the whole review
    model_seconds: float = 0.0  # of which waiting on the model
    tier: str | None = None
    failure: str | None = None  # why the review did not complete (it then counts as unflagged)

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


def read(path: Path) -> list[dict[str, Any]]:
    """The reviews already in a results file, one a line (none when it does not exist yet): the
    harnesses append to it, so a stopped run resumes where it was."""
    return rows(path) if path.is_file() else []


def same_file(a: str, b: str) -> bool:
    a, b = _norm(a), _norm(b)
    return a == b or a.endswith("/" + b) or b.endswith("/" + a)


def _norm(path: str) -> str:
    p = path.strip().replace("\\", "/")
    for prefix in ("a/", "b/", "./", "/"):
        p = p.removeprefix(prefix)
    return p


def flagged(findings: list[dict[str, Any]], targets: frozenset[tuple[str, int]]) -> bool:
    """A warning-or-worse finding whose line range comes within WINDOW lines of a target."""
    for f in findings:
        if f.get("severity") not in FLAGGING:
            continue
        lo, hi = int(f["line"]), int(f.get("end_line") or f["line"])
        if any(same_file(f["path"], path) and lo - WINDOW <= line <= hi + WINDOW for path, line in targets):
            return True
    return False


def write_config(path: Path, *, store: Path, window: int, max_output: int, model: str, grammar: bool = False,
                 extra: str = "") -> Path:
    """The `.dualrag.toml` both systems read: the store, the model's capability entry (`grammar`:
    the server constrains JSON answers by the schema, as llama.cpp's does), and `extra` lines (a
    variant under test, e.g. `[review]` / `verify = "off"`)."""
    path.write_text(
        f'store = "{store}"\n\n'
        f'[llm.models."{model}"]\n'
        f"context_window = {window}\n"
        f"max_output_tokens = {max_output}\n"
        f"json_object_schema = {'true' if grammar else 'false'}\n"
        + (f"\n{extra.strip()}\n" if extra.strip() else ""),
        encoding="utf-8",
    )
    return path


class DualRag:
    name = "dualrag"

    def __init__(self, llm: str, config: Path, *, timeout_s: float = 1800.0, explain: Path | None = None,
                 offline: bool = False) -> None:
        self.llm = llm
        self.offline = offline
        self.config = config
        self.timeout_s = timeout_s
        self.explain = explain

    def run(self, diff: str, label: str = "") -> tuple[dict[str, Any] | None, float, str | None]:
        """(the review JSON, wall seconds, why it failed): the CLI on `diff`, as a user runs it."""
        with tempfile.TemporaryDirectory(prefix="eval-review-") as tmp:
            diff_file = Path(tmp) / "change.diff"
            diff_file.write_text(diff, encoding="utf-8")
            out = Path(tmp) / "review.json"
            model = ["--offline"] if self.offline else ["--llm", self.llm]
            cmd = [sys.executable, "-m", "dualrag", "review", "--diff-file", str(diff_file), *model,
                   "--config", str(self.config), "--format", "json", "--output", str(out)]
            if self.explain is not None:
                cmd += ["--explain", str(self.explain / label)]
            started = time.monotonic()
            # The walkthrough request is not part of the review being measured: its tokens would be
            # counted as the reviewers' (it is on by default; its own cost shows in every report).
            env = {**os.environ, "DUALRAG_REVIEW__WALKTHROUGH": "false"}
            try:
                proc = subprocess.run(cmd, capture_output=True, text=True, timeout=self.timeout_s, check=False,
                                      env=env)
            except subprocess.TimeoutExpired:
                return None, round(time.monotonic() - started, 1), f"no answer within {self.timeout_s:.0f}s"
            seconds = round(time.monotonic() - started, 1)
            if proc.returncode != 0 or not out.is_file():
                last = (proc.stderr.strip().splitlines() or ["(no stderr)"])[-1]
                return None, seconds, f"exit {proc.returncode}: {last[:200]}"
            return json.loads(out.read_text(encoding="utf-8")), seconds, None

    def review(self, diff: str, label: str = "") -> Outcome:
        review, seconds, failure = self.run(diff, label)
        if review is None:
            return Outcome(seconds=seconds, failure=failure)
        return Outcome(**outcome_fields(review, seconds))


def outcome_fields(review: dict[str, Any], seconds: float) -> dict[str, Any]:
    """What an `Outcome` keeps of a review JSON."""
    usage = review.get("usage") or {}
    bad = [f"{r['reviewer']}/{r['chunk']}: {r['outcome']}" for r in review.get("reviewers", [])
           if r.get("outcome") not in ("ok", "split", "skipped")]
    return {
        "findings": [{k: f.get(k) for k in ("path", "line", "end_line", "severity", "category", "title", "message",
                                            "source", "rule_id")}
                     for f in review.get("findings", [])],
        "prompt_tokens": int(usage.get("input_tokens", 0)), "completion_tokens": int(usage.get("output_tokens", 0)),
        "calls": int(usage.get("calls", 0)), "seconds": seconds,
        "model_seconds": round(float((review.get("timings") or {}).get("review", 0.0)) / 1000, 1),
        "tier": review.get("risk_tier"), "failure": "; ".join(bad) or None,
    }


class Naive:
    name = "naive"

    def __init__(self, llm: str, config: Path) -> None:
        settings = load_settings(config)
        llm_config = settings.llm.model_copy(update={"model": llm})
        self.client = LLMFactory(llm_config).client(llm)
        self.max_output_tokens = llm_config.max_output_tokens

    def review(self, diff: str, label: str = "") -> Outcome:
        request = LLMRequest.simple(NAIVE_INSTRUCTION, diff, schema=ReviewAnswer,
                                    max_output_tokens=self.max_output_tokens, tag="naive")
        started = time.monotonic()
        try:
            response = self.client.complete(request)
        except LLMError as exc:
            usage = exc.usage
            return Outcome(prompt_tokens=usage.input_tokens if usage else 0,
                           completion_tokens=usage.output_tokens if usage else 0, calls=1,
                           seconds=round(time.monotonic() - started, 1), failure=f"{type(exc).__name__}: {exc}"[:300])
        seconds = round(time.monotonic() - started, 1)
        answer = response.parsed
        assert isinstance(answer, ReviewAnswer)
        findings = []
        for f in answer.findings:
            category = normalise_category(f.category, "general")
            findings.append({"path": f.path, "line": f.line, "end_line": f.end_line,
                             "severity": map_severity(f.severity, category), "category": category,
                             "title": f.title, "message": f.message, "source": "llm"})
        return Outcome(findings=findings, prompt_tokens=response.usage.input_tokens,
                       completion_tokens=response.usage.output_tokens, calls=response.attempts,
                       seconds=seconds, model_seconds=seconds)

