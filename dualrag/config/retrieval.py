"""Typed configuration of retrieval and context assembly (section `[retrieval]`), and of the
cross-encoder that reranks what retrieval found (section `[rerank]`)."""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import Field

from dualrag.config.section import Section

# The bundled rules' floor, calibrated by evaluation/retrieval/calibrate_rule_floor.py on the dev guideline with
# the channels of its time (construct names on). With this round's channels it keeps 0.9 rules a
# chunk of the Defects4J diffs (8 without a floor): a strict filter on our generic rules. Team
# bases get their own floor (`rule_floors`) or none.
RULE_FLOOR = 0.117


class RuleChannels(Section):
    """Readings of the code searched on top of the plain two (the code to the dense embedder and to
    BM25, always at full weight). Each is on by default only when it raised recall on rule books it
    was not designed on, left out in turn (evaluation/retrieval/rules.py; figures in docs/evaluation/rule-retrieval.md).

    A team knowledge base with at least 12 rules that carry counter-examples chooses its own setting
    of every key but `centred` and `model_query` on them, leave-one-out, and is read without `centred`
    (dualrag/retrieval/self_check.py, when indexed; `kb stats` shows it). A key set here always wins
    over that choice; the others are the base's.
    The bundled rules keep this setting, read without `centred` unless it is set here (their rules
    show code: retrieval/stage.py). The learned fusion reads the plain two, the code words and the
    centred channel; a base searched without one of them is fused by reciprocal ranks, and so (with
    `fusion = "auto"`) is a query that carries the model's answer."""

    constructs: bool = Field(False, description="common names of the constructs the code shows (concepts.py), "
                                                "to the dense embedder and BM25")
    code_words: bool = Field(True, description="a BM25 bag of called APIs, types and identifier words")
    grammar: bool = Field(False, description="the grammar's names for the code's constructs "
                                             "('return statement in finally clause'), to the dense embedder and BM25")
    examples: bool = Field(False, description="rank the rules whose own counter-examples show the same constructs")
    centred: bool = Field(True, description="the code once more to the dense embedder, read from the mean of ordinary "
                                            "code in its language (embedding/centroid.py): what sets it apart")
    model_query: bool = Field(True, description="with a model: one short request per chunk asks which rules the "
                                                 "added code could break; its answer is one more query")
    relevance_weight: float = Field(0.5, ge=0, description="how much a rule's relevance separates near-ties in "
                                                          "the fused order (reciprocal-rank fusion only)")
    fusion: Literal["auto", "rrf", "learned"] = Field(
        "auto", description="how the channels are combined: reciprocal ranks, or weights fitted on rule books "
                            "(retrieval/learned_fusion.py) where every channel they read is searched and weights ship "
                            "for the embedder, otherwise reciprocal ranks; auto: the weights for a query without the "
                            "model's answer, reciprocal ranks for one with it (they were fitted without it, and "
                            "ranked below reciprocal ranks with it on every book left out)")

    def learned_for(self, model_answer: bool) -> bool:
        """Whether a query (carrying the model's answer or not) is fused by the learned weights."""
        return self.fusion == "learned" or (self.fusion == "auto" and not (model_answer and self.model_query))


class RetrievalConfig(Section):
    enabled: bool = Field(True, description="retrieve rules and code for each chunk")
    kbs: list[str] = Field(default_factory=list, description="knowledge bases to search; empty = all in the store")
    bundled_kb: str = Field("bundled", description="knowledge base the bundled knowledge/ rules go into")
    index_bundled: bool = Field(True, description="index the bundled rules on first use (and when they change)")
    candidates: int = Field(20, ge=1, le=500, description="rule candidates per chunk before reranking")
    max_query_windows: int = Field(
        16, ge=1, description="pieces of changed code embedded as rule queries per review, shared by its chunks "
                              "(at most 4 per chunk): bounds retrieval time on changes cut into many chunks")
    max_rules: int = Field(8, ge=0, le=100, description="rules kept in a chunk's context")
    rule_floor: float = Field(
        RULE_FLOOR, ge=0,
        description="the bundled rules' floor: without a reranker, bundled rules whose retrieval relevance "
                    "(dense margin + BM25 margin / 100 over the channel's tail) is under this are left out of the "
                    "context; 0 keeps every candidate up to max_rules (evaluation/retrieval/calibrate_rule_floor.py). With a "
                    "reranker, its calibrated threshold applies instead",
    )
    channels: RuleChannels = Field(default_factory=RuleChannels)
    bundled_fill: bool = Field(True, description="with a team knowledge base indexed, the bundled rules only fill "
                                                 "the places its rules leave (False: ranked together)")
    rule_floors: dict[str, float] = Field(
        default_factory=dict, description="relevance floor per knowledge base (evaluation/retrieval/calibrate_rule_floor.py "
                                          "calibrates one from a base's own cases); a team base without one is "
                                          "ranked only, never floored")
    max_code: int = Field(8, ge=0, le=100, description="code items kept in a chunk's context")
    context_tokens: int = Field(12_000, ge=0, description="at most this many tokens of rules and code per chunk")
    domains: dict[str, list[str]] = Field(
        default_factory=lambda: {
            "wms": ["warehouse", "inventory", "stock", "picking", "putaway", "wms", "库存", "仓库"],
            "transport": ["shipment", "carrier", "freight", "tracking", "transport", "tms", "运输", "承运"],
            "orders": ["order", "purchase", "po", "订单"],
            "invoicing": ["invoice", "billing", "payment", "发票", "付款"],
        },
        description="business domain -> keywords in paths or identifiers that mark it",
    )


class RerankConfig(Section):
    """Where the local cross-encoder lives and how to run it. Nothing is downloaded at run time.

    `model_dir` is a folder with `model.onnx` + `tokenizer.json` (+ `config.json`,
    `tokenizer_config.json`, `special_tokens_map.json`), e.g. made by
    `dualrag models export-reranker`. Without it reranking is skipped and the fused retrieval
    score orders the candidates.
    """

    model_dir: Path | None = Field(None, description="ONNX cross-encoder folder (None = reranking skipped)")
    int8: bool = Field(False, description="use model_int8.onnx (dynamic int8 quantisation) from the folder")
    threads: int = Field(2, ge=1, le=256, description="ONNX Runtime intra-op threads")
    # 8: int8 runs faster in small batches than in 16 or 32 (evaluation/rerank/throughput.py prints the sweep)
    batch_size: int = Field(8, ge=1, le=1024, description="pairs per forward pass (pairs are batched by length)")
    max_length: int | None = Field(
        None, ge=16, le=8192, description="tokens per (query, candidate) pair (None = the model's, at most 512)"
    )
    threshold: float | None = Field(
        None, ge=0, le=1, description="drop candidates whose score (0..1) is below this (None = keep all)"
    )
