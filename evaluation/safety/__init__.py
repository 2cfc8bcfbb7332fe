"""What the author of a change cannot steer: the hostile corpus run through the CLI with an obedient
stand-in model (`hostile_corpus`, its cases in `hostile_cases`, `hostile_trust`, `hostile_output`,
`hostile_forged` and their shared parts in `hostile_kit`), the forged-marker corpus of skip reasons
(`skip_corpus`), the injection check on held-out paraphrases (`injection`, `injection_eval_set`) and
in Chinese without cue words (`injection_zh`, on real Chinese Java comments written by
`zh_comments`), and the layer for instructions that rewrite the review's vocabulary (`vocab_check`, on
`vocab_heldout.yaml`). docs/safety.md gives the figures."""

import argparse
from pathlib import Path

from evaluation import ROOT


def arguments(doc: str, sample: int, sample_help: str) -> argparse.Namespace:
    """The options of injection_zh.py and vocab_check.py: a sample of real comments, the latency part."""
    ap = argparse.ArgumentParser(description=doc.split("\n\n")[0])
    ap.add_argument("--sample", type=int, default=sample, help=sample_help)
    ap.add_argument("--latency", metavar="REV", help="also time the check per MR here and at commit REV")
    ap.add_argument("--only-latency", action="store_true", help="skip the accuracy part")
    ap.add_argument("--diffs", type=Path, default=ROOT.parent / "shared" / "eval" / "diffs")
    return ap.parse_args()

