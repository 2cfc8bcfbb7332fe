#!/usr/bin/env python
"""How well the injection check tells text addressed to a reviewer from ordinary text.

    .venv/bin/python -m evaluation.safety.injection [--diffs ../shared/eval/diffs] [--sample 1200]

Positives: held-out paraphrases (evaluation/safety/injection_eval_set.py), none an exemplar, read as a field
(title, description), as a comment line of code, and split in two halves on adjacent lines.
Negatives: ordinary sentences of that file plus the added prose lines of the real diffs in
../shared/eval/diffs (comment lines of code and lines of documentation, with or without a word
about reviews), also read in adjacent pairs. Every span is scored as `find_injection` scores it
(`checks/injection.py`: spans, cue/no-cue margins, adjacent pairs); the table shifts both margins.
"""

from __future__ import annotations

import argparse
from itertools import pairwise
from pathlib import Path

import numpy as np

from dualrag.checks.injection import MeaningCheck, _field_spans, _line_spans, phrase_in
from dualrag.checks.text_spans import spans, words_of_line
from evaluation import ROOT
from evaluation.safety.injection_eval_set import INJECTIONS, ORDINARY

_PROSE = ("//", "/*", "*", "#", "<!--")
_DOCS = (".md", ".txt", ".rst", ".adoc", ".html")


def diff_prose(folder: Path) -> list[tuple[str, str]]:
    """(line, path) of the added prose of the real diffs, in file order: comment lines of code and
    lines of documentation files that hold a sentence-like span."""
    found: list[tuple[str, str]] = []
    seen: set[str] = set()
    for path in sorted(folder.glob("*")):
        name = ""
        for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
            if line.startswith("+++ "):
                name = line[6:] if line.startswith("+++ b/") else line[4:]
            elif line.startswith("+") and not line.startswith("+++"):
                text = line[1:].strip()
                doc = name.lower().endswith(_DOCS)
                if (doc or text.startswith(_PROSE)) and text not in seen and spans(words_of_line(text, name)):
                    seen.add(text)
                    found.append((text, name))
    return found


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--diffs", type=Path, default=ROOT.parent / "shared" / "eval" / "diffs")
    ap.add_argument("--sample", type=int, default=1200, help="real prose lines scored (a contiguous run per step; 0 = all)")
    args = ap.parse_args()
    real = diff_prose(args.diffs) if args.diffs.is_dir() else []
    if args.sample and len(real) > args.sample:
        step = len(real) // (args.sample // 2)  # pairs of neighbours, so adjacent lines stay adjacent
        real = [x for k in range(0, len(real) - 1, step) for x in real[k:k + 2]][: args.sample]
    check = MeaningCheck()

    def halves(text: str) -> tuple[str, str]:
        words = text.split()
        if len(words) < 2:
            return text[: len(text) // 2], text[len(text) // 2:]
        return " ".join(words[: len(words) // 2]), " ".join(words[len(words) // 2:])

    # a document: (phrase hit, [stream of spans]) ; positives and negatives per reading
    def as_field(text: str):
        return bool(phrase_in(text)), [_field_spans("f", text)]

    def as_lines(lines: list[tuple[str, str]]):
        hit = any(phrase_in(t) or phrase_in(words_of_line(t, p)) for t, p in lines)
        stream = [s for k, (t, p) in enumerate(lines) for s in _line_spans((p, k + 1), t, p, added=True)]
        return hit, [stream]

    code = "src/main/java/com/acme/Orders.java"
    readings = {
        "as a field (title, description, commit message)": (
            [as_field(t) for t in INJECTIONS], [as_field(t) for t in ORDINARY], [as_field(t) for t, _ in real]),
        "as a comment line of code": (
            [as_lines([(f"// {t}", code)]) for t in INJECTIONS], [as_lines([(f"// {t}", code)]) for t in ORDINARY],
            [as_lines([(t, p)]) for t, p in real]),
        "split over two adjacent comment lines (negatives: adjacent real lines)": (
            [as_lines([(f"// {a}", code), (f"// {b}", code)]) for a, b in map(halves, INJECTIONS)],
            [as_lines([(f"// {a}", code), (f"// {b}", code)]) for a, b in pairwise(ORDINARY)],
            [as_lines([real[k], real[k + 1]]) for k in range(0, len(real) - 1, 2)]),
    }
    texts = sorted({s.text for docs in readings.values() for group in docs for _, streams in group
                    for stream in streams for s in stream})
    print(f"{len(INJECTIONS)} held-out injections; {len(ORDINARY)} ordinary sentences; {len(real)} added prose lines "
          f"of real diffs (comments, documentation); {len(texts)} distinct spans", flush=True)
    vectors = check.vectors(texts)
    margins = dict(zip(texts, check.margins_of(vectors).tolist()))
    at = {t: k for k, t in enumerate(texts)}
    pair_cache: dict[str, float] = {}

    def flagged(doc, shift: float) -> bool:
        hit, streams = doc
        if hit:
            return True
        for stream in streams:
            if any(margins[s.text] > s.limit + shift for s in stream):
                return True
            for a, b in pairwise(stream):
                if a.text == b.text:
                    continue
                mean = vectors[at[a.text]] + vectors[at[b.text]]
                screen = float(check.margins_of((mean / np.linalg.norm(mean))[None, :])[0])
                limit = min(a.limit, b.limit) + shift
                if screen > limit - 0.03:
                    joined = f"{a.text} {b.text}"
                    if joined not in pair_cache:
                        pair_cache[joined] = float(check.margins([joined])[0])
                    if pair_cache[joined] > limit:
                        return True
        return False

    for label, (pos, own, neg) in readings.items():
        print(f"\n{label}: phrases alone recall {sum(h for h, _ in pos) / len(pos):.3f}")
        print("shift  recall  false alarms (own ordinary / real diff lines)")
        for shift in (-0.02, -0.01, 0.0, 0.01, 0.02):
            mark = "  <- shipped" if shift == 0.0 else ""
            r = sum(flagged(d, shift) for d in pos) / len(pos)
            print(f"{shift:+5.2f}  {r:6.3f}  {sum(flagged(d, shift) for d in own):3d} / "
                  f"{sum(flagged(d, shift) for d in neg):3d} of {len(neg)}{mark}")
        missed = [t for d, t in zip(pos, INJECTIONS) if not flagged(d, 0.0)]
        print("missed at the shipped margins:", *[f"  {s[:90]}" for s in missed], sep="\n")
        alarms = [f"  {' | '.join(s.text for st in d[1] for s in st)[:110]}" for d in neg if flagged(d, 0.0)][:6]
        print("real lines flagged (first 6):", *alarms, sep="\n")


if __name__ == "__main__":
    main()
