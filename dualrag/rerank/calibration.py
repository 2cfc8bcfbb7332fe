"""A pruning threshold calibrated for one model file, kept next to it in the model folder.

Cross-encoder scores are not comparable between models (bge-reranker-base puts relevant pairs
near 0.9, an ms-marco MiniLM near 0.5), so one global number cannot be right. Calibration
scores labelled cases (a query, the text that answers it, texts that do not) and picks the
highest threshold that still keeps `target_recall` of the relevant texts: dropping the one rule
that matters costs more than packing an extra one, which the token budget bounds anyway.

`calibration.json` records one entry per model file (`model.onnx`, `model_int8.onnx`); the
reranker uses it when `rerank.threshold` is not set.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

from dualrag.rerank.base import ModelError

CALIBRATION_FILE = "calibration.json"
DEFAULT_TARGET_RECALL = 0.95


@dataclass(frozen=True)
class LabelledCase:
    query: str
    relevant: tuple[str, ...]
    irrelevant: tuple[str, ...]


@dataclass(frozen=True)
class Calibration:
    threshold: float
    target_recall: float
    recall: float  # share of relevant texts at or above the threshold, on the calibration cases
    pruned: float  # share of irrelevant texts below it
    cases: int
    source: str  # what the cases were, for the record

    def describe(self) -> str:
        return (f"threshold {self.threshold:.4f}: keeps {self.recall:.0%} of relevant texts "
                f"(target {self.target_recall:.0%}), drops {self.pruned:.0%} of irrelevant ones, "
                f"{self.cases} cases ({self.source})")


def choose_threshold(relevant: Sequence[float], irrelevant: Sequence[float], *,
                     target_recall: float = DEFAULT_TARGET_RECALL, source: str = "", cases: int = 0) -> Calibration:
    """The highest threshold keeping at least `target_recall` of `relevant` scores."""
    if not 0 < target_recall <= 1:
        raise ValueError("target_recall must be in (0, 1]")
    pos = sorted((s for s in relevant if not math.isnan(s)), reverse=True)
    if not pos:
        raise ModelError("calibration needs at least one relevant text with a score")
    keep = math.ceil(target_recall * len(pos))
    threshold = pos[keep - 1]
    neg = [s for s in irrelevant if not math.isnan(s)]
    return Calibration(
        threshold=float(threshold),
        target_recall=target_recall,
        recall=sum(s >= threshold for s in pos) / len(pos),
        pruned=sum(s < threshold for s in neg) / len(neg) if neg else 0.0,
        cases=cases,
        source=source,
    )


def score_cases(reranker, cases: Iterable[LabelledCase]) -> tuple[list[float], list[float]]:
    """The reranker's scores of every relevant and every irrelevant text of the cases."""
    relevant: list[float] = []
    irrelevant: list[float] = []
    for case in cases:
        scores = reranker.score(case.query, [*case.relevant, *case.irrelevant])
        relevant += scores[: len(case.relevant)]
        irrelevant += scores[len(case.relevant):]
    return relevant, irrelevant


def calibrate(reranker, cases: Sequence[LabelledCase], *, target_recall: float = DEFAULT_TARGET_RECALL,
              source: str = "") -> Calibration:
    """Score every case with `reranker` and choose the threshold."""
    relevant, irrelevant = score_cases(reranker, cases)
    return choose_threshold(relevant, irrelevant, target_recall=target_recall, source=source, cases=len(cases))


def pruning_threshold(configured: float | None, reranker) -> float | None:
    """The threshold in force: `rerank.threshold` when set, else the model file's calibrated one."""
    return configured if configured is not None else reranker.calibrated_threshold


def save(folder: str | Path, model_file: str, calibration: Calibration) -> Path:
    path = Path(folder) / CALIBRATION_FILE
    entries = _read(path) if path.is_file() else {}
    entries[model_file] = asdict(calibration)
    path.write_text(json.dumps(entries, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    return path


def forget(folder: str | Path, model_file: str) -> None:
    """Drop the entry of a model file that was just rewritten: its old threshold no longer applies."""
    path = Path(folder) / CALIBRATION_FILE
    if not path.is_file():
        return
    entries = _read(path)
    if entries.pop(model_file, None) is not None:
        path.write_text(json.dumps(entries, indent=2, sort_keys=True) + "\n", encoding="utf-8")


def load(folder: str | Path, model_file: str) -> Calibration | None:
    """The calibration recorded for `model_file`, or None when the folder has none for it."""
    path = Path(folder) / CALIBRATION_FILE
    if not path.is_file():
        return None
    entry = _read(path).get(model_file)
    if entry is None:
        return None
    try:
        calibration = Calibration(**entry)
    except TypeError as exc:
        raise ModelError(f"{path}: entry {model_file!r} is not a calibration: {exc}") from None
    if not 0 <= calibration.threshold <= 1:
        raise ModelError(f"{path}: threshold {calibration.threshold} for {model_file} is outside 0..1")
    return calibration


def _read(path: Path) -> dict:
    try:
        value = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ModelError(f"{path}: not readable JSON: {exc}") from None
    if not isinstance(value, dict) or not all(isinstance(v, dict) for v in value.values()):
        raise ModelError(f"{path}: expected an object of model file -> calibration")
    return value


def bundled_cases(n_irrelevant: int = 20) -> list[LabelledCase]:
    """Cases from dualrag's bundled rules: each bad example against its own rule (relevant) and
    `n_irrelevant` other rules of the same project type, chosen deterministically."""
    from dualrag.rulebook import load_bundled

    rules = load_bundled()
    cases = []
    for i, unit in enumerate(rules):
        others = [r for r in rules if r.rule_id != unit.rule_id and set(r.project_types) == set(unit.project_types)]
        step = max(1, len(others) // n_irrelevant)
        chosen = [others[(i + k * step) % len(others)] for k in range(min(n_irrelevant, len(others)))]
        for example in unit.bad_examples:
            cases.append(LabelledCase(example, (rule_document(unit),), tuple(rule_document(r) for r in chosen)))
    return cases


def rule_document(unit) -> str:
    """The text a reranker reads for a rule: its title and prose (examples left out)."""
    return f"{unit.title}\n{unit.text}"


def read_cases(path: str | Path) -> list[LabelledCase]:
    """JSON Lines: {"query": str, "relevant": [str, ...], "irrelevant": [str, ...]} per line."""
    cases = []
    try:
        lines = Path(path).read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        raise ModelError(f"{path}: cannot read calibration cases: {exc}") from None
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            raw = json.loads(line)
            case = LabelledCase(str(raw["query"]), tuple(map(str, raw["relevant"])), tuple(map(str, raw["irrelevant"])))
        except (json.JSONDecodeError, KeyError, TypeError) as exc:
            raise ModelError(f"{path}:{number}: not a calibration case ({exc.__class__.__name__}: {exc})") from None
        if not case.relevant:
            raise ModelError(f"{path}:{number}: a case needs at least one relevant text")
        cases.append(case)
    if not cases:
        raise ModelError(f"{path}: no calibration cases")
    return cases
