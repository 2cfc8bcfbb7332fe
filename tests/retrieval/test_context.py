"""Context assembly: rerank (or keep fused order), prune under the threshold, pack whole items."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from dualrag.rerank import NullReranker, OnnxCrossEncoder
from dualrag.retrieval.context import Candidate, ContextCode, ContextRule, assemble
from dualrag.units import RuleSource, RuleUnit


def _rule(rule_id: str, text: str) -> RuleUnit:
    return RuleUnit(rule_id=rule_id, title=rule_id, text=text, source=RuleSource(kb="t", file="t.md"))


def _candidates(texts: dict[str, tuple[str, float]]) -> list[Candidate]:
    out = []
    for rule_id, (text, fused) in texts.items():
        unit = _rule(rule_id, text)
        out.append(Candidate("rule", unit.full_text(), fused,
                             lambda s, t, u=unit: ContextRule.of(u, s, t)))
    return out


def words(text: str) -> int:
    return len(text.split())


def test_without_a_model_the_fused_order_is_kept_and_the_report_says_so():
    cands = _candidates({"R1": ("one two", 0.1), "R2": ("three four", 0.9), "R3": ("five", 0.5)})
    ctx = assemble("c1", "q", cands, reranker=NullReranker(), count_tokens=words, budget=100,
                   threshold=None, caps={"rule": 10})
    assert [r.rule_id for r in ctx.rules] == ["R2", "R3", "R1"]
    assert not ctx.reranked and ctx.notes and "reranking skipped" in ctx.notes[0]
    # a threshold is calibrated for cross-encoder scores: fused scores are never cut by it
    ctx = assemble("c1", "q", cands, reranker=NullReranker(), count_tokens=words, budget=100,
                   threshold=0.95, caps={"rule": 10})
    assert len(ctx.rules) == 3 and ctx.threshold is None


def test_packing_never_cuts_an_item_and_fills_with_smaller_ones():
    cands = _candidates({"BIG": ("w " * 50, 0.9), "SMALL": ("w " * 5, 0.5), "MID": ("w " * 20, 0.4)})
    sizes = {c.text: words(c.text) for c in cands}
    ctx = assemble("c1", "q", cands, reranker=NullReranker(), count_tokens=words, budget=30,
                   threshold=None, caps={"rule": 10})
    kept = [r.rule_id for r in ctx.rules]
    assert "BIG" not in kept and kept == ["SMALL", "MID"]
    assert ctx.used == sum(r.tokens for r in ctx.rules) <= 30
    assert all(r.tokens == sizes[r.text] for r in ctx.rules)
    assert ctx.dropped == 1


def test_caps_apply_per_kind():
    cands = _candidates({f"R{i}": (f"rule {i}", 1 - i / 10) for i in range(5)})
    code = Candidate("code", "int x;", 0.95, lambda s, t: ContextCode("definition", "A.x", "A.java", 1, 1,
                                                                        "int x;", s, t))
    ctx = assemble("c1", "q", [*cands, code], reranker=NullReranker(), count_tokens=words, budget=1000,
                   threshold=None, caps={"rule": 2, "code": 1})
    assert [r.rule_id for r in ctx.rules] == ["R0", "R1"]
    assert [c.symbol for c in ctx.code] == ["A.x"]


def test_empty_candidates():
    ctx = assemble("c1", "q", [], reranker=NullReranker(), count_tokens=words, budget=10, threshold=None,
                   caps={"rule": 3})
    assert ctx.rules == () and ctx.used == 0


@pytest.fixture(scope="module")
def cross_encoder(tmp_path_factory) -> OnnxCrossEncoder:
    path = Path(__file__).resolve().parent.parent / "rerank" / "rerank_fixtures.py"
    spec = importlib.util.spec_from_file_location("rerank_fixtures_for_context", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return OnnxCrossEncoder(module.build_cross_encoder(tmp_path_factory.mktemp("ce") / "bert"))


def test_with_a_model_the_cross_encoder_order_and_threshold_decide(cross_encoder):
    texts = {f"R{i}": (f"rule text number {i} about locks and pools", 1.0 - i / 10) for i in range(6)}
    cands = _candidates(texts)
    query = "new ThreadPoolExecutor"
    scores = cross_encoder.score(query, [c.text for c in cands])
    threshold = sorted(scores)[2]  # keeps the best half or so
    ctx = assemble("c1", query, cands, reranker=cross_encoder, count_tokens=words, budget=1000,
                   threshold=threshold, caps={"rule": 10})
    expected = [f"R{i}" for i, s in sorted(enumerate(scores), key=lambda p: (-p[1], p[0])) if s >= threshold]
    assert ctx.reranked and ctx.threshold == threshold
    assert ctx.dropped == len(cands) - len(expected) > 0
    assert [r.rule_id for r in ctx.rules] == expected
    assert all(r.score >= round(threshold, 4) - 1e-4 for r in ctx.rules)
