#!/usr/bin/env python
"""The check of text that rewrites the review's own vocabulary (`dualrag/checks/vocabulary.py`):
recall and false alarms, each beside the injection check as it is without it (main, 792780b).

    .venv/bin/python -m evaluation.safety.vocab_check [--sample 0] [--latency 792780b [--only-latency]] [--diffs DIR]

Every document goes through `find_injection` as a review does (a diff ingested, a description),
twice: with the vocabulary layer switched off (the baseline) and on; "alone" is the layer by itself.
- held out (`vocab_heldout.yaml`, written before the check and never used to design it): its
  instructions and benign texts each as an added comment line, a string literal and the
  description; benign lines of code (`code: true`) as themselves;
- design (`vocab_design.yaml`, on which the words were chosen): the same readings, not held out;
- real Chinese comments of Java code (`zh_comments.jsonl.gz`, read as injection_zh.py reads them:
  a comment's lines as added comment lines of one file);
- English ordinary text of injection_eval_set.py (comment line and description) and the added prose
  lines of ../shared/eval/diffs (as injection.py reads them), one document per line.
`--latency REV`: the injection check's median CPU milliseconds per merge request on the diffs (each
with a title), here with the layer on and off, and at commit REV, in the same run.
"""

from __future__ import annotations

import contextlib
import gzip
import json
import random
import statistics
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import yaml

from dualrag.checks.injection import MeaningCheck
from evaluation.safety import arguments

HERE = Path(__file__).parent
HELD_OUT, DESIGN = HERE / "vocab_heldout.yaml", HERE / "vocab_design.yaml"
COMMENTS = HERE / "zh_comments.jsonl.gz"  # zh_comments_SOURCE.md
CODE = "src/main/java/com/acme/Orders.java"


@dataclass
class Doc:
    group: str  # the row it counts in
    text: str
    lines: list[str] = field(default_factory=list)  # added lines of CODE (or of `path`)
    description: str | None = None
    path: str = CODE
    flagged: dict[str, bool] = field(default_factory=dict)  # "off", "on", "alone"


def readings(group: str, text: str, *, code: bool = False) -> list[Doc]:
    """A text as an added comment line, a string literal and the description (a line of code as itself)."""
    if code:
        return [Doc(f"{group}, line of code", text, [f"    {text}"])]
    literal = text.replace("\\", "\\\\").replace('"', '\\"')
    return [Doc(f"{group}, comment line", text, [f"    // {text}"]),
            Doc(f"{group}, string literal", text, [f'    static final String NOTE = "{literal}";']),
            Doc(f"{group}, description", text, description=text)]


def corpus_docs(path: Path, name: str) -> list[Doc]:
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    out = [d for x in data["injections"] for d in readings(f"{name} instructions ({x['lang']})", x["text"])]
    return out + [d for x in data["benign"] for d in readings(f"{name} benign", x["text"], code=x.get("code", False))]


def real_docs(sample: int, diffs: Path) -> list[Doc]:
    from evaluation.safety.injection import diff_prose
    from evaluation.safety.injection_eval_set import ORDINARY

    comments = [json.loads(line) for line in gzip.decompress(COMMENTS.read_bytes()).decode().splitlines()]
    if sample:
        random.Random(43).shuffle(comments)
        comments = comments[:sample]
    out = [Doc("real Chinese Java comments", " / ".join(c["lines"]), [f"    // {ln}" for ln in c["lines"]])
           for c in comments]
    out += [d for t in ORDINARY for d in readings("English ordinary (injection_eval_set)", t)[::2]]
    prose = diff_prose(diffs) if diffs.is_dir() else []
    return out + [Doc("English prose lines of real diffs", t, [t], path=p) for t, p in prose]


class CachedMeaning(MeaningCheck):
    """The injection check's meaning layers with every embedding kept: each document is read twice."""

    def __init__(self) -> None:
        self.cache: dict[str, np.ndarray] = {}

    def vectors(self, texts):
        missing = [t for t in dict.fromkeys(texts) if t not in self.cache]
        if missing:
            self.cache.update(zip(missing, super().vectors(missing)))
        return np.array([self.cache[t] for t in texts]) if texts else np.zeros((0, 1))


@contextlib.contextmanager
def layer_off() -> Iterator[None]:
    """The injection check as on main: the vocabulary layer answers nothing."""
    from dualrag.checks import injection

    kept = injection.rewrite_among
    injection.rewrite_among = lambda texts: None
    try:
        yield
    finally:
        injection.rewrite_among = kept


def changes_of(doc: Doc, settings):
    from dualrag.diff import ingest
    from evaluation.safety.hostile_kit import added_file_diff

    return ingest(added_file_diff(doc.path, "\n".join(doc.lines or ["class Orders {}"])), settings)


def score(docs: list[Doc]) -> None:
    from dualrag.checks.injection import _field_spans, _line_spans, find_injection, rewrite_in
    from dualrag.config import load_settings

    settings, meaning = load_settings(None), CachedMeaning()
    changes = [changes_of(d, settings) for d in docs]
    # every span once, in one batch of similar lengths (what find_injection would embed piecemeal)
    texts = {s.text for d in docs for k, ln in enumerate(d.lines) for s in _line_spans((d.path, k + 1), ln, d.path, added=True)}
    texts |= {s.text for d in docs if d.description for s in _field_spans("the description", d.description)}
    print(f"{len(docs)} documents, {len(texts)} distinct spans to embed", flush=True)
    meaning.vectors(sorted(texts))
    for doc, change in zip(docs, changes):
        fields = [("the description", doc.description)]
        with layer_off():
            doc.flagged["off"] = bool(find_injection(change, fields, meaning)[1])
        doc.flagged["on"] = bool(find_injection(change, fields, meaning)[1])
        doc.flagged["alone"] = any(rewrite_in(t) for t in [doc.description] if t) or any(
            rewrite_in(ln, doc.path) for ln in doc.lines)


def table(docs: list[Doc]) -> None:
    groups = list(dict.fromkeys(d.group for d in docs))
    print(f"\n{'':58s} {'n':>5s}  {'alone':>6s}  {'main (off)':>10s}  {'main + layer':>12s}  extra")
    for g in groups:
        rows = [d for d in docs if d.group == g]
        rate = {k: sum(d.flagged[k] for d in rows) / len(rows) for k in ("alone", "off", "on")}
        extra = sum(d.flagged["on"] and not d.flagged["off"] for d in rows)
        kind = "recall" if "instructions" in g else "flagged"
        print(f"{g + ' (' + kind + ')':58s} {len(rows):5d}  {rate['alone']:6.3f}  {rate['off']:10.3f}  "
              f"{rate['on']:12.3f}  {extra:5d}")
    for name in ("held out", "design"):
        pos = [d for d in docs if d.group.startswith(name) and "instructions" in d.group]
        neg = [d for d in docs if d.group.startswith(name) and "benign" in d.group]
        if pos:
            r = {k: np.mean([d.flagged[k] for d in pos]) for k in ("alone", "off", "on")}
            f = {k: np.mean([d.flagged[k] for d in neg]) for k in ("alone", "off", "on")}
            print(f"{name}, every reading: recall {r['on']:.3f} (main {r['off']:.3f}, layer alone {r['alone']:.3f}); "
                  f"benign flagged {f['on']:.3f} (main {f['off']:.3f}, layer alone {f['alone']:.3f})")
    real = [d for d in docs if d.group.startswith("real Chinese")]
    if real:
        extra = sum(d.flagged["on"] and not d.flagged["off"] for d in real)
        print(f"real Chinese comments: extra false alarms {extra} of {len(real)} ({extra / len(real):.2%}); "
              f"main {np.mean([d.flagged['off'] for d in real]):.2%}, with the layer "
              f"{np.mean([d.flagged['on'] for d in real]):.2%}")
    print("\nmissed held-out instructions (main + layer), by reading:")
    for d in docs:
        if d.group.startswith("held out instructions") and not d.flagged["on"]:
            print(f"  [{d.group.split(', ')[-1]}] {d.text}")
    print("held-out benign and real texts the layer flags (first 25):")
    for d in [d for d in docs if "instructions" not in d.group and d.flagged["alone"]][:25]:
        print(f"  [{d.group}] {d.text[:100]}")


def latency(diffs: Path, rev: str) -> None:
    from evaluation.safety.injection_zh import latency as per_mr
    from evaluation.safety.injection_zh import latency_at

    on = per_mr(diffs)
    with layer_off():
        off = per_mr(diffs)
    before = latency_at(rev, diffs)
    m_on, m_off, m_before = (statistics.median(x) for x in (on, off, before))
    print(f"\ninjection check per merge request ({len(on)} diffs of {diffs.name}, models loaded, CPU): median "
          f"{m_on:.0f} ms with the layer, {m_off:.0f} ms without it, {m_before:.0f} ms at {rev} "
          f"(ratios {m_on / m_off:.3f} and {m_on / m_before:.3f})")
    from dualrag.checks.injection import layers, rewrite_among
    from dualrag.checks.text_spans import spans, words_of_line

    # what find_injection adds: the layer on the spans it cuts anyway (added and context lines)
    lines = [[s for layer in layers(ln[1:]) for s in spans(words_of_line(layer, CODE))]
             for p in sorted(diffs.glob("*")) for ln in p.read_text(errors="replace").splitlines()
             if ln.startswith(("+", " ")) and not ln.startswith("+++")]
    start = time.process_time()
    for line_spans in lines:
        rewrite_among(line_spans)
    cost = time.process_time() - start
    print(f"the layer on the spans of every added and context line of those diffs ({len(lines):,} lines): "
          f"{cost * 1000:.0f} ms CPU, {cost / max(len(lines), 1) * 1e6:.1f} µs a line")


def main() -> None:
    args = arguments(__doc__, 0, "real Chinese comments read (0 = all)")
    if not args.only_latency:
        docs = corpus_docs(HELD_OUT, "held out") + corpus_docs(DESIGN, "design") + real_docs(args.sample, args.diffs)
        score(docs)
        table(docs)
    if args.latency:
        latency(args.diffs, args.latency)


if __name__ == "__main__":
    main()
