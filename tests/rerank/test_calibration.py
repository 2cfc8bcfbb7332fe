"""Calibrated pruning thresholds: the choice, the file next to the model, the CLI and their use."""

from __future__ import annotations

import json
import math
import shutil

import pytest
from hypothesis import given
from hypothesis import strategies as st

from dualrag.cli import main
from dualrag.config import Settings
from dualrag.rerank import ModelError, NullReranker, OnnxCrossEncoder
from dualrag.rerank import calibration as cal

scores = st.lists(st.floats(0, 1, allow_nan=False), min_size=1, max_size=60)


@given(relevant=scores, irrelevant=scores, target=st.floats(0.5, 1.0))
def test_threshold_is_the_highest_that_keeps_the_target_recall(relevant, irrelevant, target):
    result = cal.choose_threshold(relevant, irrelevant, target_recall=target)
    kept = sum(s >= result.threshold for s in relevant) / len(relevant)
    assert kept >= target and math.isclose(result.recall, kept)
    # any higher relevant score as threshold would keep too few
    for s in relevant:
        if s > result.threshold:
            assert sum(x >= s for x in relevant) / len(relevant) < target
    assert math.isclose(result.pruned, sum(s < result.threshold for s in irrelevant) / len(irrelevant))


def test_threshold_needs_relevant_scores():
    with pytest.raises(ModelError):
        cal.choose_threshold([math.nan], [0.1])
    with pytest.raises(ValueError):
        cal.choose_threshold([0.5], [0.1], target_recall=0)


def test_save_load_forget_per_model_file(tmp_path):
    a = cal.choose_threshold([0.9, 0.8, 0.2], [0.1], target_recall=0.6, source="t", cases=3)
    b = cal.choose_threshold([0.7], [0.1], source="t", cases=1)
    cal.save(tmp_path, "model.onnx", a)
    cal.save(tmp_path, "model_int8.onnx", b)
    assert cal.load(tmp_path, "model.onnx") == a and cal.load(tmp_path, "model_int8.onnx") == b
    cal.forget(tmp_path, "model_int8.onnx")
    assert cal.load(tmp_path, "model_int8.onnx") is None and cal.load(tmp_path, "model.onnx") == a
    assert cal.load(tmp_path / "none", "model.onnx") is None


@pytest.mark.parametrize("content", ["{not json", "[1, 2]", '{"model.onnx": 3}', '{"model.onnx": {"x": 1}}',
                                     ('{"model.onnx": {"threshold": 7, "target_recall": 0.9, "recall": 1,'
                                      ' "pruned": 0, "cases": 1, "source": ""}}')])
def test_broken_calibration_file_is_a_model_error(tmp_path, content):
    (tmp_path / cal.CALIBRATION_FILE).write_text(content)
    with pytest.raises(ModelError, match="calibration.json"):
        cal.load(tmp_path, "model.onnx")


def test_read_cases_names_the_bad_line(tmp_path):
    path = tmp_path / "cases.jsonl"
    good = {"query": "q", "relevant": ["r"], "irrelevant": ["x", "y"]}
    path.write_text(json.dumps(good) + "\n\n" + json.dumps({"query": "q"}) + "\n")
    with pytest.raises(ModelError, match=r"cases.jsonl:3"):
        cal.read_cases(path)
    path.write_text(json.dumps(good | {"relevant": []}) + "\n")
    with pytest.raises(ModelError, match="at least one relevant"):
        cal.read_cases(path)
    path.write_text(json.dumps(good) + "\n")
    assert cal.read_cases(path) == [cal.LabelledCase("q", ("r",), ("x", "y"))]


def test_bundled_cases_pair_each_bad_example_with_its_own_rule():
    from dualrag.rulebook import load_bundled

    rules = {u.rule_id: u for u in load_bundled()}
    cases = cal.bundled_cases(n_irrelevant=20)
    assert len(cases) == sum(len(u.bad_examples) for u in rules.values())
    by_doc = {cal.rule_document(u): u for u in rules.values()}
    for case in cases:
        own = by_doc[case.relevant[0]]
        assert case.query in own.bad_examples
        peers = sum(1 for u in rules.values() if set(u.project_types) == set(own.project_types)) - 1
        assert len(case.irrelevant) == len(set(case.irrelevant)) == min(20, peers)  # as many as there are
        assert case.relevant[0] not in case.irrelevant
        assert all(set(by_doc[t].project_types) == set(own.project_types) for t in case.irrelevant)


def run(capsys, *args):
    with pytest.raises(SystemExit) as exc:
        main(list(args))
    out, err = capsys.readouterr()
    return exc.value.code, out, err


def test_calibrate_cli_writes_the_threshold_the_reranker_then_uses(capsys, bert_dir, tmp_path):
    folder = tmp_path / "m"
    shutil.copytree(bert_dir, folder)
    assert OnnxCrossEncoder(folder).calibrated_threshold is None
    code, out, err = run(capsys, "models", "calibrate", str(folder), "--target-recall", "0.9")
    assert code == 0, err
    saved = cal.load(folder, "model.onnx")
    assert saved is not None and saved.recall >= 0.9 and saved.cases == len(cal.bundled_cases())
    assert f"threshold {saved.threshold:.4f}" in out
    reranker = OnnxCrossEncoder(folder)
    assert reranker.calibrated_threshold == saved.threshold
    # the threshold in force: configured wins, else the calibrated one, never for the null reranker
    assert cal.pruning_threshold(Settings().rerank.threshold, reranker) == saved.threshold
    assert cal.pruning_threshold(Settings(rerank={"threshold": 0.25}).rerank.threshold, reranker) == 0.25
    assert cal.pruning_threshold(0.0, reranker) == 0.0  # a configured 0 is a choice, not "unset"
    assert cal.pruning_threshold(None, NullReranker()) is None
    # int8 is a different model file: it has no calibration until calibrated itself
    code, _, err = run(capsys, "models", "quantize", str(folder), "--check", "0")
    assert code == 0, err
    assert OnnxCrossEncoder(folder, int8=True).calibrated_threshold is None
    code, _, err = run(capsys, "models", "calibrate", str(folder), "--int8")
    assert code == 0, err
    assert cal.load(folder, "model_int8.onnx") is not None
    # quantising again replaces model_int8.onnx, so its calibration is dropped; fp32's stays
    code, _, err = run(capsys, "models", "quantize", str(folder), "--check", "0")
    assert code == 0, err
    assert cal.load(folder, "model_int8.onnx") is None and cal.load(folder, "model.onnx") == saved


def test_calibrate_cli_bad_cases_file_is_one_line(capsys, bert_dir, tmp_path):
    bad = tmp_path / "cases.jsonl"
    bad.write_text("{oops\n")
    code, _, err = run(capsys, "models", "calibrate", str(bert_dir), "--cases", str(bad))
    assert code == 2 and "cases.jsonl:1" in err and "Traceback" not in err
    assert not (bert_dir / cal.CALIBRATION_FILE).exists()


def test_review_uses_the_calibrated_threshold_end_to_end(capsys, bert_dir, tmp_path, in_tmp):
    """`dualrag review --reranker DIR` with the fixture model: uncalibrated, then calibrated."""
    from pathlib import Path

    folder = tmp_path / "m"
    shutil.copytree(bert_dir, folder)
    diff = Path(__file__).resolve().parents[2] / "examples" / "partner-order-mr" / "change.diff"
    args = ["review", "--diff-file", str(diff), "--reranker", str(folder), "--offline", "--format", "json"]
    code, out, err = run(capsys, *args)
    assert code == 0, err
    report = json.loads(out)
    contexts = [c["context"] for c in report["chunks"] if c.get("context")]
    assert contexts and all(c["reranked"] and c["threshold"] is None for c in contexts)
    assert any("without a pruning threshold" in n for n in report["notes"])
    # calibrate with a target that forces pruning, then review again
    code, _, err = run(capsys, "models", "calibrate", str(folder), "--target-recall", "0.5")
    assert code == 0, err
    threshold = cal.load(folder, "model.onnx").threshold
    code, out, err = run(capsys, *args)
    assert code == 0, err
    report = json.loads(out)
    contexts = [c["context"] for c in report["chunks"] if c.get("context")]
    assert all(c["threshold"] == threshold for c in contexts)
    kept = [r["score"] for c in contexts for r in c["rules"] + c["code"]]
    assert all(s >= round(threshold, 4) - 1e-4 for s in kept)
    assert not any("without a pruning threshold" in n for n in report["notes"])
