"""Build small cross-encoder folders at test time: the real signature, weights that mean nothing.

The ONNX graph is embedding lookup (+ token-type embedding) -> dense + tanh -> mean pool over
the attention mask -> linear -> 1 or 2 logits. The tokenizer is a WordPiece `tokenizer.json`
with a BERT (`[CLS] A [SEP] B [SEP]`, type ids 0/1) or XLM-R style (`<s> A </s></s> B </s>`)
post-processor.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

WORDS = (
    "the a an of to in on for with by from and or not is are be was null check value return "
    "string int long list map set get put add remove public private static final class void new "
    "if else while try catch throw exception error log logger debug info warn thread lock sync "
    "database query sql select insert update delete where table index transaction commit rollback "
    "user password token secret auth login session cookie http request response header json xml "
    "file path stream close open read write buffer size length count time date format parse "
    "rule must should never always use avoid prefer naming constant variable method field edi "
    "flow segment element message order invoice payment amount currency customer account id key"
).split()


def _vocab(style: str) -> dict[str, int]:
    specials = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"] if style == "bert" else ["<s>", "<pad>", "</s>", "<unk>"]
    pieces = list(dict.fromkeys(WORDS))
    letters = [chr(c) for c in range(ord("a"), ord("z") + 1)] + list("0123456789_.,;:()[]{}<>=+-*/!?'\"#@$%&|")
    pieces += letters + ["##" + c for c in letters]
    return {tok: i for i, tok in enumerate(specials + pieces)}


def build_tokenizer(path: Path, style: str = "bert"):
    from tokenizers import Tokenizer, decoders, models, normalizers, pre_tokenizers, processors

    vocab = _vocab(style)
    unk = "[UNK]" if style == "bert" else "<unk>"
    tok = Tokenizer(models.WordPiece(vocab, unk_token=unk, max_input_chars_per_word=100))
    tok.normalizer = normalizers.BertNormalizer(lowercase=True)
    tok.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
    tok.decoder = decoders.WordPiece()
    tok.add_special_tokens([t for t in vocab if t.startswith(("[", "<")) and t.endswith(("]", ">")) and len(t) > 2])
    if style == "bert":
        tok.post_processor = processors.TemplateProcessing(
            single="[CLS] $A [SEP]", pair="[CLS] $A [SEP] $B:1 [SEP]:1",
            special_tokens=[("[CLS]", vocab["[CLS]"]), ("[SEP]", vocab["[SEP]"])],
        )
    else:
        tok.post_processor = processors.TemplateProcessing(
            single="<s> $A </s>", pair="<s> $A </s> </s> $B </s>",
            special_tokens=[("<s>", vocab["<s>"]), ("</s>", vocab["</s>"])],
        )
    tok.save(str(path))
    return tok, vocab


def build_graph(path: Path, *, vocab_size: int, hidden: int = 32, token_type_ids: bool = True, n_logits: int = 1,
                seed: int = 0, extra_input: str | None = None, output_shape: list | None = None) -> None:
    import onnx
    from onnx import TensorProto, helper, numpy_helper

    rng = np.random.default_rng(seed)
    f32 = lambda *shape: rng.normal(0, 0.5, size=shape).astype(np.float32)  # noqa: E731
    inits = [
        numpy_helper.from_array(f32(vocab_size, hidden), "word_emb"),
        numpy_helper.from_array(f32(hidden, hidden), "w1"),
        numpy_helper.from_array(f32(hidden), "b1"),
        numpy_helper.from_array(f32(hidden, n_logits), "w2"),
        numpy_helper.from_array(f32(n_logits), "b2"),
        numpy_helper.from_array(np.array([1], dtype=np.int64), "axis1"),
        numpy_helper.from_array(np.array([-1], dtype=np.int64), "axis_last"),
    ]
    seq = lambda name: helper.make_tensor_value_info(name, TensorProto.INT64, ["batch", "sequence"])  # noqa: E731
    inputs = [seq("input_ids"), seq("attention_mask")]
    nodes = [helper.make_node("Gather", ["word_emb", "input_ids"], ["emb0"])]
    emb = "emb0"
    if token_type_ids:
        inputs.append(seq("token_type_ids"))
        inits.append(numpy_helper.from_array(f32(2, hidden), "type_emb"))
        nodes += [helper.make_node("Gather", ["type_emb", "token_type_ids"], ["temb"]),
                  helper.make_node("Add", ["emb0", "temb"], ["emb1"])]
        emb = "emb1"
    if extra_input:
        inputs.append(seq(extra_input))
    nodes += [
        helper.make_node("MatMul", [emb, "w1"], ["h0"]),
        helper.make_node("Add", ["h0", "b1"], ["h1"]),
        helper.make_node("Tanh", ["h1"], ["h"]),
        helper.make_node("Cast", ["attention_mask"], ["maskf"], to=TensorProto.FLOAT),
        helper.make_node("Unsqueeze", ["maskf", "axis_last"], ["mask3"]),
        helper.make_node("Mul", ["h", "mask3"], ["hm"]),
        helper.make_node("ReduceSum", ["hm", "axis1"], ["summed"], keepdims=0),
        helper.make_node("ReduceSum", ["mask3", "axis1"], ["count"], keepdims=0),
        helper.make_node("Div", ["summed", "count"], ["pooled"]),
        helper.make_node("MatMul", ["pooled", "w2"], ["z"]),
        helper.make_node("Add", ["z", "b2"], ["logits"]),
    ]
    out_shape = output_shape if output_shape is not None else ["batch", n_logits]
    graph = helper.make_graph(nodes, "tiny_cross_encoder", inputs,
                              [helper.make_tensor_value_info("logits", TensorProto.FLOAT, out_shape)], inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], producer_name="dualrag-tests")
    model.ir_version = 8
    onnx.checker.check_model(model)
    onnx.save(model, str(path))


def build_cross_encoder(folder: Path, *, style: str = "bert", token_type_ids: bool | None = None, n_logits: int = 1,
                        max_length: int = 64, seed: int = 0, **graph_options) -> Path:
    """A complete model folder: model.onnx, tokenizer.json, config.json, tokenizer_config.json."""
    folder.mkdir(parents=True, exist_ok=True)
    if token_type_ids is None:
        token_type_ids = style == "bert"
    _, vocab = build_tokenizer(folder / "tokenizer.json", style)
    build_graph(folder / "model.onnx", vocab_size=len(vocab), token_type_ids=token_type_ids, n_logits=n_logits,
                seed=seed, **graph_options)
    config = {"model_type": "bert" if style == "bert" else "xlm-roberta",
              "max_position_embeddings": max_length if style == "bert" else max_length + 2,
              "type_vocab_size": 2 if style == "bert" else 1, "hidden_size": 32, "num_attention_heads": 4}
    (folder / "config.json").write_text(json.dumps(config), encoding="utf-8")
    pad = "[PAD]" if style == "bert" else "<pad>"
    (folder / "tokenizer_config.json").write_text(
        json.dumps({"model_max_length": max_length, "pad_token": pad}), encoding="utf-8")
    return folder
