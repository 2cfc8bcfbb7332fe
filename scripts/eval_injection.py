#!/usr/bin/env python
"""How well the injection check tells text addressed to a reviewer from ordinary text.

    .venv/bin/python scripts/eval_injection.py [--diffs ../shared/eval/diffs]

Positives: held-out paraphrases (scripts/injection_eval_set.py), none an exemplar. Negatives:
ordinary sentences of that file plus every cue-bearing sentence of the added lines of the real
diffs in ../shared/eval/diffs (code comments, strings, docs). Prints recall and false alarms of
the phrase layer alone and of phrase + meaning at several margins, and the margin that keeps
false alarms at 0.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from injection_eval_set import INJECTIONS, ORDINARY  # noqa: E402

from dualrag.checks.injection import FIELD_MARGIN, LINE_MARGIN, MeaningCheck, phrase_in, sentences  # noqa: E402

_PROSE = ("//", "/*", "*", "#", "<!--")


def diff_prose(folder: Path) -> list[str]:
    """Added prose of the real diffs: comment lines of code, and lines of documentation files
    (what authors write in words, the nearest thing to MR descriptions these diffs hold)."""
    found: set[str] = set()
    for path in sorted(folder.glob("*")):
        doc = False
        for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
            if line.startswith("+++ "):
                doc = line.lower().endswith((".md", ".txt", ".rst", ".adoc", ".html"))
            elif line.startswith("+") and (doc or line[1:].lstrip().startswith(_PROSE)):
                text = line[1:].strip()
                if sentences(text, field=True):
                    found.add(text)
    return sorted(found)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--diffs", type=Path, default=ROOT.parent / "shared" / "eval" / "diffs")
    ap.add_argument("--sample", type=int, default=1200, help="real prose lines scored (evenly spaced; 0 = all)")
    args = ap.parse_args()
    real = diff_prose(args.diffs) if args.diffs.is_dir() else []
    if args.sample and len(real) > args.sample:
        real = real[:: len(real) // args.sample][: args.sample]
    check = MeaningCheck()

    def best(texts: list[str], cue_only: bool) -> list[tuple[bool, float]]:
        """(phrase hit, best sentence margin) per text, exactly as find_injection scores it."""
        out = []
        parts = [sentences(text, field=not cue_only) for text in texts]
        flat = [s for p in parts for s in p]
        margins = iter(check.margins(flat).tolist())  # one batch: the embedder is far faster so
        for text, p in zip(texts, parts):
            best_margin = max((next(margins) for _ in p), default=-1.0)
            out.append((bool(phrase_in(text)), best_margin))
        return out

    rows = [("as a field (title, description, commit message)", False), ("as an added line of code", True)]
    print(f"{len(INJECTIONS)} held-out injections; {len(ORDINARY)} ordinary sentences; {len(real)} added prose lines of "
          f"real diffs (comments, documentation)", flush=True)
    for label, cue_only in rows:
        shipped = LINE_MARGIN if cue_only else FIELD_MARGIN
        pos, neg_own, neg_real = best(list(INJECTIONS), cue_only), best(list(ORDINARY), cue_only), best(real, cue_only)
        print(f"\n{label}: phrases alone recall {sum(p for p, _ in pos) / len(pos):.3f}")
        print("margin  recall  false alarms (own ordinary / real diff lines)")
        for margin in (-0.02, -0.01, 0.0, 0.01, 0.02, 0.03, 0.04):
            hit = lambda rows_, m=margin: sum(p or s > m for p, s in rows_)  # noqa: E731
            mark = "  <- shipped" if abs(margin - shipped) < 1e-9 else ""
            print(f"{margin:6.2f}  {hit(pos) / len(pos):6.3f}  {hit(neg_own):3d} / {hit(neg_real):3d}{mark}")
        missed = [s for (p, m), s in zip(pos, INJECTIONS) if not (p or m > shipped)]
        print("missed at the shipped margin:", *[f"  {s[:90]}" for s in missed], sep="\n")
        closest = sorted(((m, s) for (p, m), s in zip(neg_real, real)), reverse=True)[:3]
        print("closest real lines:", *[f"  {m:+.3f} {s[:90]}" for m, s in closest], sep="\n")


if __name__ == "__main__":
    main()
