"""The ONNX cross-encoder on fixture models: loading, pairs, truncation, batching, determinism."""

from __future__ import annotations

import shutil

import numpy as np
import pytest
from rerank_fixtures import build_cross_encoder

from dualrag.errors import UserError
from dualrag.rerank import (
    SKIPPED_REASON,
    ModelError,
    NullReranker,
    OnnxCrossEncoder,
    RerankConfig,
    Reranker,
    load_reranker,
    quantize,
    rank,
    top_k_overlap,
)

QUERY = "check the return value for null before use"
CANDS = [
    "always check a value for null before you dereference it",
    "database transactions must commit or rollback in a finally block",
    "never log a password or a token",
    "use a logger instead of print",
    "invoice amount and currency must be validated",
    "x",
    "close every file stream you open " * 5,
]


@pytest.fixture(scope="module")
def bert(bert_dir):
    return OnnxCrossEncoder(bert_dir, batch_size=3)


def test_loads_bert_style_with_token_type_ids(bert):
    assert set(bert.inputs) == {"input_ids", "attention_mask", "token_type_ids"}
    assert bert.max_length == 64 and bert.pad_id == 0 and bert.n_special == 3
    assert isinstance(bert, Reranker) and bert.available and bert.reason is None


def test_loads_roberta_style_without_token_type_ids(roberta_dir):
    ce = OnnxCrossEncoder(roberta_dir)
    assert set(ce.inputs) == {"input_ids", "attention_mask"}
    assert ce.pad_id == 1  # <pad>, not 0 (<s>): RoBERTa positions depend on it
    assert ce.max_length == 64  # 66 position embeddings minus RoBERTa's 2
    ids, types = ce.encode_pairs("null check", ["value"])[0]
    vocab = ce.tokenizer.get_vocab()
    assert ids.tolist() == [vocab[t] for t in ("<s>", "null", "check", "</s>", "</s>", "value", "</s>")]
    scores = ce.score(QUERY, CANDS)
    assert len(scores) == len(CANDS) and all(0 < s < 1 for s in scores)


def test_pair_uses_the_tokenizers_template_and_type_ids(bert):
    ids, types = bert.encode_pairs("null check", ["return value"])[0]
    vocab = bert.tokenizer.get_vocab()
    assert ids.tolist() == [vocab[t] for t in ("[CLS]", "null", "check", "[SEP]", "return", "value", "[SEP]")]
    assert types.tolist() == [0, 0, 0, 0, 1, 1, 1]


def test_candidate_is_truncated_first_and_query_keeps_its_words(bert):
    long_candidate = "null " * 500
    ids, types = bert.encode_pairs("check the value", [long_candidate])[0]
    assert len(ids) == bert.max_length
    words = bert.tokenizer.decode(ids.tolist()[: 5], skip_special_tokens=True)
    assert words == "check the value"
    assert int((types == 0).sum()) == 5  # [CLS] + 3 query tokens + [SEP]


def test_query_alone_over_budget_is_cut_to_half(bert):
    ids, types = bert.encode_pairs("null " * 200, ["check value"])[0]
    n_query = int((types == 0).sum()) - 2
    assert n_query == bert.query_budget == (64 - 3) // 2
    assert len(ids) == 2 + n_query + 1 + 2  # candidate still present


def test_characters_are_capped_before_tokenising(bert):
    huge = "a" * 100_000 + " null"
    ids, _ = bert.encode_pairs(huge, [huge])[0]
    assert len(ids) <= bert.max_length
    assert bert.char_cap == 8 * bert.max_length


def test_empty_candidates_and_single_string(bert):
    assert bert.score(QUERY, []) == []
    assert bert.rerank(QUERY, []) == []
    with pytest.raises(TypeError):
        bert.score(QUERY, "not a list")


def test_same_scores_whatever_the_batch(bert_dir):
    singles = OnnxCrossEncoder(bert_dir, batch_size=1).score(QUERY, CANDS)
    all_at_once = OnnxCrossEncoder(bert_dir, batch_size=64).score(QUERY, CANDS)
    mixed = OnnxCrossEncoder(bert_dir, batch_size=2).score(QUERY, CANDS[::-1] + ["filler " * 30] * 5)
    np.testing.assert_allclose(singles, all_at_once, atol=1e-5)
    np.testing.assert_allclose(singles[::-1], mixed[: len(CANDS)], atol=1e-5)


def test_padding_does_not_change_the_score_roberta(roberta_dir):
    ce = OnnxCrossEncoder(roberta_dir, batch_size=8)
    alone = ce.score(QUERY, ["x"])[0]
    with_long = ce.score(QUERY, ["x", "database transaction commit " * 10])[0]
    assert alone == pytest.approx(with_long, abs=1e-5)


def test_batches_are_sorted_by_length(bert_dir, monkeypatch):
    ce = OnnxCrossEncoder(bert_dir, batch_size=2)
    widths = []
    original = ce._run
    monkeypatch.setattr(ce, "_run", lambda batch: (widths.append([len(i) for i, _ in batch]), original(batch))[1])
    ce.score(QUERY, ["a " * 20, "b", "c " * 5, "d " * 19])
    flat = [n for w in widths for n in w]
    assert flat == sorted(flat) and len(widths) == 2  # the two long pairs share a batch


def test_sigmoid_of_single_logit(bert):
    logits = bert.logits(QUERY, CANDS[:3])
    assert bert.score(QUERY, CANDS[:3]) == pytest.approx(list(1 / (1 + np.exp(-logits.astype(float)))), abs=1e-7)


def test_two_logit_head_is_softmax_of_positive_class(two_logit_dir):
    ce = OnnxCrossEncoder(two_logit_dir)
    assert ce.n_logits == 2
    pairs = ce.encode_pairs(QUERY, CANDS[:2])
    raw = ce.session.run(None, {"input_ids": pairs[0][0][None], "attention_mask": np.ones((1, len(pairs[0][0])), np.int64),
                                "token_type_ids": pairs[0][1][None].astype(np.int64)})[0][0]
    softmax = np.exp(raw) / np.exp(raw).sum()
    assert ce.score(QUERY, CANDS[:1])[0] == pytest.approx(float(softmax[1]), abs=1e-6)


def test_rerank_sorts_cuts_and_thresholds(bert):
    scores = bert.score(QUERY, CANDS)
    ranked = bert.rerank(QUERY, CANDS)
    assert [s for _, s in ranked] == sorted(scores, reverse=True)
    assert bert.rerank(QUERY, CANDS, top_k=2) == ranked[:2]
    cut = sorted(scores)[3]
    assert all(s >= cut for _, s in bert.rerank(QUERY, CANDS, threshold=cut))
    assert len(bert.rerank(QUERY, CANDS, threshold=cut)) == 4


def test_rank_ties_and_nan():
    assert rank([0.5, 0.9, 0.5, float("nan")]) [:3] == [(1, 0.9), (0, 0.5), (2, 0.5)]
    assert rank([0.1, float("nan")], threshold=0.0) == [(0, 0.1)]


def test_five_thousand_candidates_are_batched(bert_dir):
    ce = OnnxCrossEncoder(bert_dir, batch_size=64)
    cands = [f"rule {i} null check value " * (1 + i % 7) for i in range(5000)]
    scores = ce.score(QUERY, cands)
    assert len(scores) == 5000
    assert scores[7] == pytest.approx(ce.score(QUERY, [cands[7]])[0], abs=1e-5)


def test_null_reranker_keeps_fallback_order():
    null = NullReranker()
    assert not null.available and null.reason == SKIPPED_REASON
    assert null.rerank("q", ["a", "b", "c"], fallback_scores=[0.1, 0.3, 0.2], top_k=2) == [(1, 0.3), (2, 0.2)]
    assert null.rerank("q", ["a", "b"]) == [(0, 0.0), (1, 0.0)]
    assert null.rerank("q", []) == []


def test_load_reranker_from_config(bert_dir):
    assert isinstance(load_reranker(RerankConfig()), NullReranker)
    ce = load_reranker(RerankConfig(model_dir=bert_dir, threads=1, batch_size=4))
    assert isinstance(ce, OnnxCrossEncoder) and ce.batch_size == 4
    assert load_reranker(RerankConfig(), model_dir=bert_dir).available
    assert OnnxCrossEncoder.from_config(RerankConfig(model_dir=bert_dir, max_length=32)).max_length == 32


def test_top_k_overlap():
    assert top_k_overlap([1, 2, 3, 4], [1, 2, 3, 4], 2) == 1.0
    assert top_k_overlap([4, 3, 2, 1], [1, 2, 3, 4], 2) == 0.0
    assert top_k_overlap([], [], 10) == 1.0


def test_int8_ranking_agrees_with_fp32(bert_dir, tmp_path):
    out = quantize(bert_dir, tmp_path / "q")
    assert out.name == "model_int8.onnx" and (tmp_path / "q" / "tokenizer.json").is_file()
    fp32 = OnnxCrossEncoder(bert_dir)
    int8 = OnnxCrossEncoder(tmp_path / "q", int8=True)
    cands = [" ".join(CANDS[(i * j) % len(CANDS)].split()[: 3 + j]) + f" {i}" for i in range(10) for j in range(5)]
    a, b = fp32.score(QUERY, cands), int8.score(QUERY, cands)
    assert top_k_overlap(a, b, 10) >= 0.9
    assert np.max(np.abs(np.array(a) - np.array(b))) < 0.05


# ------------------------------------------------------------------------------------------ bad input


def _copy(src, dst, drop=()):
    shutil.copytree(src, dst)
    for name in drop:
        (dst / name).unlink()
    return dst


def test_missing_folder_and_files(bert_dir, tmp_path):
    with pytest.raises(ModelError, match="model folder not found"):
        OnnxCrossEncoder(tmp_path / "nope")
    with pytest.raises(ModelError, match="no model.onnx"):
        OnnxCrossEncoder(_copy(bert_dir, tmp_path / "a", ["model.onnx"]))
    with pytest.raises(ModelError, match="no tokenizer.json"):
        OnnxCrossEncoder(_copy(bert_dir, tmp_path / "b", ["tokenizer.json"]))
    with pytest.raises(ModelError, match="no model_int8.onnx .*dualrag models quantize"):
        OnnxCrossEncoder(bert_dir, int8=True)
    assert issubclass(ModelError, UserError)


@pytest.mark.parametrize("name, junk, message", [
    ("model.onnx", b"\x00garbage", "not a loadable ONNX model"),
    ("tokenizer.json", b"{not json", "not a loadable tokenizer"),
    ("config.json", b"[1,", "not readable JSON"),
])
def test_corrupt_files(bert_dir, tmp_path, name, junk, message):
    folder = _copy(bert_dir, tmp_path / "c")
    (folder / name).write_bytes(junk)
    with pytest.raises(ModelError, match=message):
        OnnxCrossEncoder(folder)


def test_truncated_model_file(bert_dir, tmp_path):
    folder = _copy(bert_dir, tmp_path / "t")
    data = (folder / "model.onnx").read_bytes()
    (folder / "model.onnx").write_bytes(data[: len(data) // 2])
    with pytest.raises(ModelError, match="model.onnx"):
        OnnxCrossEncoder(folder)


def test_unexpected_inputs_and_outputs(tmp_path):
    with pytest.raises(ModelError, match="unexpected model input.*pixel_values"):
        OnnxCrossEncoder(build_cross_encoder(tmp_path / "extra", extra_input="pixel_values"))
    with pytest.raises(ModelError, match=r"shape \['batch', 3\]"):
        OnnxCrossEncoder(build_cross_encoder(tmp_path / "three", n_logits=3))


def test_bert_tokenizer_with_model_lacking_token_type_ids(tmp_path):
    ce = OnnxCrossEncoder(build_cross_encoder(tmp_path / "nott", style="bert", token_type_ids=False))
    assert "token_type_ids" not in ce.inputs
    assert len(ce.score(QUERY, CANDS)) == len(CANDS)


def test_max_length_above_the_model_limit(bert_dir):
    with pytest.raises(ModelError, match="exceeds the model's limit of 64"):
        OnnxCrossEncoder(bert_dir, max_length=128)


def test_token_ids_beyond_the_models_vocabulary_fail_cleanly(tmp_path):
    folder = build_cross_encoder(tmp_path / "small-vocab", token_type_ids=True)
    from rerank_fixtures import build_graph
    build_graph(folder / "model.onnx", vocab_size=10)  # ids above 9 are out of range
    ce = OnnxCrossEncoder(folder)
    with pytest.raises(ModelError, match="inference failed"):
        ce.score(QUERY, ["zebra invoice payment"])
