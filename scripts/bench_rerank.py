"""Reranker throughput: PyTorch fp32 vs ONNX Runtime fp32 vs ONNX Runtime int8, 2 threads.

Builds a BERT-base-sized cross-encoder (hidden 768, 12 layers, 12 heads, the size of
bge-reranker-base's encoder) with random weights from a config -- nothing is downloaded --,
exports it through dualrag's own exporter, quantises it, and prints pairs/s (median of runs in
one process), the int8 / PyTorch ratio, top-10 agreement of int8 with fp32, and the
end-to-end time to rerank 50 candidates with a MiniLM-sized model (hidden 384, 6 layers)
through the dualrag reranker.

    .venv/bin/pip install torch==2.13.0 transformers onnx   # benchmark only (CPU torch from local disk)
    .venv/bin/python scripts/bench_rerank.py [--pairs 64] [--runs 3] [--threads 2] [--vocab 30522]
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

WORDS = (
    "null check value return string list map exception error logger transaction commit rollback database "
    "query select update delete index password token secret session cookie request response header json "
    "file stream close buffer thread lock synchronized volatile final static public private method class "
    "field constant naming interface abstract override equals hashcode collection iterator stream lambda "
    "order invoice payment amount currency customer account segment element message flow mapping schema "
    "must should never always avoid prefer use ensure validate sanitize escape encode decode parse format "
    "the a of to in for with when before after if else while try catch finally throw new return void int"
).split()


def build_tokenizer(path: Path, vocab_size: int):
    from tokenizers import Tokenizer, decoders, models, normalizers, pre_tokenizers, processors

    specials = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]
    letters = [chr(c) for c in range(97, 123)] + list("0123456789_.,;:()[]{}<>=+-*/!?'\"#@$%&|")
    pieces = specials + list(dict.fromkeys(WORDS)) + letters + ["##" + c for c in letters]
    rng = random.Random(0)
    while len(pieces) < vocab_size:  # filler subwords so the vocabulary has the real size
        pieces.append("##" + "".join(rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(rng.randint(2, 6))))
    vocab = {tok: i for i, tok in enumerate(dict.fromkeys(pieces))}
    tok = Tokenizer(models.WordPiece(vocab, unk_token="[UNK]"))
    tok.normalizer = normalizers.BertNormalizer(lowercase=True)
    tok.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
    tok.decoder = decoders.WordPiece()
    tok.add_special_tokens(specials)
    tok.post_processor = processors.TemplateProcessing(
        single="[CLS] $A [SEP]", pair="[CLS] $A [SEP] $B:1 [SEP]:1",
        special_tokens=[("[CLS]", vocab["[CLS]"]), ("[SEP]", vocab["[SEP]"])])
    tok.save(str(path))
    return len(vocab)


def make_checkpoint(folder: Path, *, hidden: int, layers: int, heads: int, vocab: int) -> None:
    """A Hugging Face checkpoint folder (config, weights, fast tokenizer) with random weights."""
    import torch
    from transformers import BertConfig, BertForSequenceClassification, PreTrainedTokenizerFast

    folder.mkdir(parents=True)
    vocab = build_tokenizer(folder / "tokenizer.json", vocab)
    torch.manual_seed(0)
    config = BertConfig(vocab_size=vocab, hidden_size=hidden, num_hidden_layers=layers, num_attention_heads=heads,
                        intermediate_size=4 * hidden, max_position_embeddings=512, num_labels=1)
    BertForSequenceClassification(config).eval().save_pretrained(folder)
    PreTrainedTokenizerFast(tokenizer_file=str(folder / "tokenizer.json"), unk_token="[UNK]", pad_token="[PAD]",
                            cls_token="[CLS]", sep_token="[SEP]", mask_token="[MASK]",
                            model_max_length=512,
                            model_input_names=["input_ids", "token_type_ids", "attention_mask"]).save_pretrained(folder)


def sentence(rng: random.Random, n_words: int) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(n_words))


def median_rate(fn, n_pairs: int, runs: int) -> float:
    fn()  # warm-up
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return n_pairs / statistics.median(times)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=64)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--batch", type=int, default=16)
    parser.add_argument("--vocab", type=int, default=30522, help="30522 (BERT) or 250002 (XLM-R)")
    parser.add_argument("--queries", type=int, default=5, help="queries of 50 candidates for the agreement check")
    args = parser.parse_args()
    try:
        import torch
        import transformers  # noqa: F401
        import onnx  # noqa: F401
    except ImportError as exc:
        print(f"note: the benchmark needs PyTorch, transformers and onnx ({exc.name} is missing):\n"
              "  .venv/bin/pip install torch==2.13.0 transformers onnx\nnothing measured.")
        return 0
    import numpy as np

    from dualrag.rerank import OnnxCrossEncoder, top_k_overlap
    from dualrag.rerank.export import export_reranker

    torch.set_num_threads(args.threads)
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
    rng = random.Random(42)
    # ~200-token pairs: a 30-word query and a ~170-word candidate
    pairs = [(sentence(rng, 30), sentence(rng, 170)) for _ in range(args.pairs)]
    with tempfile.TemporaryDirectory(prefix="bench-rerank-") as tmp:
        tmp = Path(tmp)
        t0 = time.perf_counter()
        make_checkpoint(tmp / "hf-base", hidden=768, layers=12, heads=12, vocab=args.vocab)
        result = export_reranker(tmp / "hf-base", tmp / "onnx-base", int8=True)
        print(f"BERT-base cross-encoder (hidden 768, 12 layers, vocab {args.vocab}), random weights; "
              f"built, exported and quantised in {time.perf_counter() - t0:.0f} s; "
              f"max |onnx - torch| logit = {result.max_abs_diff:.1e}")
        from transformers import AutoModelForSequenceClassification, AutoTokenizer

        model = AutoModelForSequenceClassification.from_pretrained(tmp / "hf-base", local_files_only=True).eval()
        tokenizer = AutoTokenizer.from_pretrained(tmp / "hf-base", local_files_only=True)
        fp32 = OnnxCrossEncoder(tmp / "onnx-base", threads=args.threads, batch_size=args.batch)
        int8 = OnnxCrossEncoder(tmp / "onnx-base", int8=True, threads=args.threads, batch_size=args.batch)
        lengths = [len(ids) for ids, _ in fp32.encode_pairs(pairs[0][0], [c for _, c in pairs])]
        print(f"{args.pairs} pairs of {int(np.mean(lengths))} tokens on average, batch {args.batch}, "
              f"{args.threads} threads, median of {args.runs} runs")

        def torch_run():
            with torch.inference_mode():
                for start in range(0, len(pairs), args.batch):
                    chunk = pairs[start : start + args.batch]
                    enc = tokenizer([q for q, _ in chunk], [c for _, c in chunk], padding=True, truncation=True,
                                    max_length=512, return_tensors="pt")
                    model(**enc)

        def onnx_run(reranker):
            # one query per pair, as the reranker batches a single query's candidates
            for start in range(0, len(pairs), args.batch):
                chunk = pairs[start : start + args.batch]
                reranker.score(chunk[0][0], [c for _, c in chunk])

        rates = {
            "PyTorch fp32": median_rate(torch_run, len(pairs), args.runs),
            "ONNX fp32": median_rate(lambda: onnx_run(fp32), len(pairs), args.runs),
            "ONNX int8": median_rate(lambda: onnx_run(int8), len(pairs), args.runs),
        }
        for name, rate in rates.items():
            print(f"  {name:<13} {rate:7.1f} pairs/s")
        ratio = rates["ONNX int8"] / rates["PyTorch fp32"]
        print(f"  int8 / PyTorch = {ratio:.2f}x (floor 3x: {'met' if ratio >= 3 else 'NOT met'}); "
              f"ONNX fp32 / PyTorch = {rates['ONNX fp32'] / rates['PyTorch fp32']:.2f}x")

        overlaps = []
        for _ in range(args.queries):
            query = sentence(rng, 25)
            candidates = [sentence(rng, rng.randint(20, 150)) for _ in range(50)]
            overlaps.append(top_k_overlap(fp32.score(query, candidates), int8.score(query, candidates), 10))
        mean_overlap = statistics.mean(overlaps)
        print(f"  top-10 overlap int8 vs fp32 over {args.queries} queries x 50 candidates: "
              f"mean {mean_overlap:.2f}, min {min(overlaps):.2f} (floor 0.9: {'met' if mean_overlap >= 0.9 else 'NOT met'})"
              " -- random weights give near-tied scores, so this is a pessimistic check")

        make_checkpoint(tmp / "hf-mini", hidden=384, layers=6, heads=12, vocab=args.vocab)
        export_reranker(tmp / "hf-mini", tmp / "onnx-mini", int8=True)
        query = sentence(rng, 40)
        candidates = [sentence(rng, rng.randint(40, 200)) for _ in range(50)]
        for label, flag in (("fp32", False), ("int8", True)):
            start = time.perf_counter()
            mini = OnnxCrossEncoder(tmp / "onnx-mini", int8=flag, threads=args.threads)
            load = time.perf_counter() - start
            times = []
            for _ in range(args.runs):
                start = time.perf_counter()
                mini.rerank(query, candidates, top_k=10)
                times.append(time.perf_counter() - start)
            print(f"MiniLM-sized (384 hidden, 6 layers) {label}: rerank 50 candidates end to end "
                  f"{statistics.median(times) * 1000:.0f} ms median (model load {load * 1000:.0f} ms, once)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
