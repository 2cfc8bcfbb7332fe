"""Does a calibrated pruning threshold hold on rules the calibration never saw?

Takes the trained MiniLM cross-encoder of `trained.py` (built and cached on first
use) and the bundled-rule cases of `dualrag models calibrate` (a bad example against its rule and
20 others). On the rules held out of training, each case in turn is left out, a threshold is
calibrated on the others with `dualrag.rerank.calibration`, and applied to it: the share of
relevant rules kept (calibration promised the target) and of irrelevant ones dropped. For
contrast it also calibrates on the training rules, which the model has seen. Prints the
figures for model.onnx and model_int8.onnx.

    .venv/bin/pip install torch==2.13.0 && .venv/bin/pip install -e '.[bench]'   # benchmark only
    .venv/bin/python -m evaluation.rerank.calibration [--target-recall 0.95] [--model DIR]
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--target-recall", type=float, default=0.95)
    parser.add_argument("--model", type=Path, help="a trained ONNX folder (default: the cached rule reranker)")
    parser.add_argument("--epochs", type=int, default=5)
    args = parser.parse_args()
    from dualrag.rerank import OnnxCrossEncoder
    from dualrag.rerank.calibration import bundled_cases, calibrate, choose_threshold, score_cases
    from dualrag.rulebook import load_bundled
    from evaluation.core.heldout import left_out
    from evaluation.rerank.trained import cached, held_out

    folder = args.model or cached(args.epochs)[0]
    rule_of = {ex: u.rule_id for u in load_bundled() for ex in u.bad_examples}
    cases = bundled_cases()
    train = [c for c in cases if not held_out(rule_of[c.query])]
    test = [c for c in cases if held_out(rule_of[c.query])]
    print(f"{folder}: calibrate on {len(train)} training-rule cases, check on {len(test)} held-out ones "
          f"(each: 1 relevant rule, {len(cases[0].irrelevant)} irrelevant)")
    for label, int8 in (("fp32", False), ("int8", True)):
        reranker = OnnxCrossEncoder(folder, int8=int8)
        fitted = calibrate(reranker, train, target_recall=args.target_recall, source="training rules")
        scored = [score_cases(reranker, [case]) for case in test]
        relevant = [s for r, _ in scored for s in r]
        irrelevant = [s for _, i in scored for s in i]
        kept = sum(s >= fitted.threshold for s in relevant) / len(relevant)
        dropped = sum(s < fitted.threshold for s in irrelevant) / len(irrelevant)
        # leave one out over the held-out rules: calibrate on the others, apply to the one left out
        loo_kept, loo_dropped = [], []
        for (rel, irr), rest in left_out(scored):
            t = choose_threshold([s for r, _ in rest for s in r], [s for _, x in rest for s in x],
                                 target_recall=args.target_recall).threshold
            loo_kept += [s >= t for s in rel]
            loo_dropped.append(sum(s < t for s in irr) / len(irr))
        print(f"  {label}: calibrated on unseen rules (leave one out over the {len(test)} held-out ones): keeps "
              f"{statistics.mean(loo_kept):.0%} of relevant rules (target {args.target_recall:.0%}), drops "
              f"{statistics.mean(loo_dropped):.0%} of irrelevant ones")
        print(f"        calibrated on the training rules instead (threshold {fitted.threshold:.4f}): keeps "
              f"{kept:.0%} of held-out relevant rules, drops {dropped:.0%} -- rules the model was trained on "
              "score higher, so calibrate on cases the model has not seen")
    return 0


if __name__ == "__main__":
    sys.exit(main())
