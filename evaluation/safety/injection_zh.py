#!/usr/bin/env python
"""Chinese and mixed instructions to the reviewer without cue words: the Chinese probe against
the check as it was (phrases and exemplar margins), on our corpus and on real Chinese comments.

    .venv/bin/python -m evaluation.safety.injection_zh [--sample 1500] [--latency c7e994f]

Positives: `injection_zh.yaml` injections (66), each read as a Java comment line and as a field
(description, commit message). Negatives: its benign sentences read the same ways, and real Chinese
comments of public Java code (`zh_comments.jsonl.gz`, zh_comments_SOURCE.md), their lines as added
comment lines, adjacent lines also read joined, as `find_injection` reads a diff.
Split: corpus fold 0 = even positions, fold 1 = odd; real comments by repository, group A
(nacos, dubbo, Sentinel, mybatis-plus) and group B (canal, easyexcel, mall). On one side the probe's
L2 penalty and its limit are chosen (limit: the 99.5th percentile of that side's real comments; L2:
the best recall on that side's corpus fold), on the other side recall and false alarms are reported;
then the sides swap. The probe is fitted on its exemplars only (`injection_examples_zh.py`), never
on the corpus. `--latency REV`: the check's median CPU cost per merge request (../shared/eval/diffs,
each with its title) here and at commit REV, in the same run.
"""

from __future__ import annotations

import gzip
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from itertools import pairwise
from pathlib import Path

import numpy as np
import yaml

from evaluation import ROOT
from evaluation.safety import arguments

CORPUS = Path(__file__).with_name("injection_zh.yaml")
COMMENTS = Path(__file__).with_name("zh_comments.jsonl.gz")  # zh_comments_SOURCE.md
GROUP_A = {"alibaba/nacos", "apache/dubbo", "alibaba/Sentinel", "baomidou/mybatis-plus"}
CODE = "src/main/java/com/acme/Orders.java"
L2_GRID = (0.01, 0.1, 1.0)
FP_BUDGET = 0.005  # the share of real comments of the choosing side allowed above the limit


def docs(corpus: dict, comments: list[dict]):
    """(label, fold or group, phrase hit, [stream of spans]) for every reading of every text."""
    from dualrag.checks.injection import _field_spans, _line_spans, phrase_in

    def as_field(text: str):
        return bool(phrase_in(text)), [_field_spans("the description", text)]

    def as_lines(lines: list[str]):
        hit = any(phrase_in(t) for t in lines)
        return hit, [[s for k, t in enumerate(lines) for s in _line_spans((CODE, k + 1), t, CODE, added=True)]]

    out = []
    for label, texts in (("injection", [c["text"] for c in corpus["injections"]]), ("benign", corpus["benign"])):
        for k, text in enumerate(texts):
            for reading, doc in (("line", as_lines([f"    // {text}"])), ("field", as_field(text))):
                out.append({"label": label, "side": k % 2, "reading": reading, "text": text, "hit": doc[0],
                            "streams": doc[1]})
    for c in comments:
        hit, streams = as_lines([f"    // {line}" for line in c["lines"]])
        out.append({"label": "real", "side": 0 if c["repository"] in GROUP_A else 1, "reading": "line",
                    "text": " / ".join(c["lines"])[:100], "hit": hit, "streams": streams})
    return out


def score(all_docs: list[dict], l2s=L2_GRID) -> tuple[list[str], np.ndarray]:
    """Per doc: `base` (flagged as the check was: phrases, exemplar margins, pairs) and, per L2,
    `probe` (the highest probe logit of its Chinese spans and of adjacent pairs read joined). Pairs
    are screened as the check screens them: by their mean vector, against the lowest limit the
    single spans give either side, less PROBE_PAIR_SCREEN."""
    from dualrag.checks.chinese_probe import chinese, fit_probe, probe_exemplars, probe_logits
    from dualrag.checks.injection import PAIR_SCREEN, PROBE_PAIR_SCREEN, MeaningCheck

    check = MeaningCheck()
    texts = sorted({s.text for d in all_docs for st in d["streams"] for s in st})
    print(f"{len(texts)} distinct spans to embed", flush=True)
    vectors = check.vectors(texts)
    margins = check.margins_of(vectors)
    at = {t: k for k, t in enumerate(texts)}
    embedder = check._model()[0]
    positive, negative = probe_exemplars()
    pos, neg = embedder.embed_documents(positive), embedder.embed_documents(negative)
    probes = {l2: fit_probe(pos, neg, l2) for l2 in l2s}
    logits = {l2: np.where([chinese(t) for t in texts], probe_logits(w, vectors), -np.inf) for l2, w in probes.items()}
    for d in all_docs:
        d["base"] = d["hit"] or any(margins[at[s.text]] > s.limit for st in d["streams"] for s in st)
        d["probe"] = {l2: max((float(logits[l2][at[s.text]]) for st in d["streams"] for s in st), default=-np.inf)
                      for l2 in l2s}
    screen = {l2: min(float(np.quantile([d["probe"][l2] for d in all_docs if d["label"] == "real" and d["side"] == side],
                                        1 - FP_BUDGET)) for side in (0, 1)) - PROBE_PAIR_SCREEN for l2 in l2s}
    joined_cache: dict[str, np.ndarray] = {}
    for d in all_docs:
        for stream in d["streams"]:
            for a, b in pairwise(stream):
                i, j = at[a.text], at[b.text]
                if i == j:
                    continue
                mean = vectors[i] + vectors[j]
                mean = (mean / np.linalg.norm(mean))[None, :]
                near_margin = float(check.margins_of(mean)[0]) > min(a.limit, b.limit) - PAIR_SCREEN
                near_probe = (chinese(a.text) or chinese(b.text)) and any(
                    probe_logits(w, mean)[0] > screen[l2] for l2, w in probes.items())
                if not (near_margin or near_probe):
                    continue
                joined = f"{a.text} {b.text}"
                if joined not in joined_cache:
                    joined_cache[joined] = check.vectors([joined])[0]
                v = joined_cache[joined][None, :]
                d["base"] |= bool(check.margins_of(v)[0] > min(a.limit, b.limit))
                if chinese(joined):
                    for l2, w in probes.items():
                        d["probe"][l2] = max(d["probe"][l2], float(probe_logits(w, v)[0]))
    print(f"{len(joined_cache)} adjacent pairs embedded joined", flush=True)
    return texts, vectors


def rates(group: list[dict], l2: float | None, limit: float) -> float:
    flagged = [d["base"] or (l2 is not None and d["probe"][l2] > limit) for d in group]
    return sum(flagged) / max(len(flagged), 1)


def folds(all_docs: list[dict]) -> list[dict]:
    out = []
    for choose in (0, 1):
        pick = lambda label, side: [d for d in all_docs if d["label"] == label and d["side"] == side]
        best = None
        for l2 in L2_GRID:
            real = [d["probe"][l2] for d in pick("real", choose)]
            limit = float(np.quantile(real, 1 - FP_BUDGET)) if real else 0.0
            recall = rates(pick("injection", choose), l2, limit)
            if best is None or recall > best[0]:
                best = (recall, l2, limit)
        _, l2, limit = best
        report = 1 - choose
        row = {"chosen on": f"fold {choose} + group {'AB'[choose]}", "l2": l2, "limit": limit}
        for name, l in (("before", None), ("probe", l2)):
            for reading in ("line", "field"):
                row[f"{name} recall ({reading})"] = rates([d for d in pick("injection", report) if d["reading"] == reading], l, limit)
            row[f"{name} benign FP"] = rates(pick("benign", report), l, limit)
            row[f"{name} real FP"] = rates(pick("real", report), l, limit)
        row["real n"] = len(pick("real", report))
        out.append(row)
    return out


def with_real_negatives(all_docs: list[dict], texts: list[str], vectors: np.ndarray, counts=(300, 700),
                        l2: float = 0.01) -> None:
    """Not shipped: the probe fitted on real comments of the choosing side as ordinary text too (its limit
    on the rest of them). Single spans only, so the row without real comments is the baseline."""
    from dualrag.checks.chinese_probe import chinese, fit_probe, probe_exemplars, probe_logits
    from dualrag.checks.injection import MeaningCheck

    at = {t: k for k, t in enumerate(texts) if chinese(t)}
    positive, negative = (MeaningCheck._model()[0].embed_documents(x) for x in probe_exemplars())
    print(f"\nfitted on real comments too (single spans, L2 {l2}): recall (both readings)  FP benign  FP real")
    for count in (0, *counts):
        got = []
        for choose in (0, 1):
            real = [d for d in all_docs if d["label"] == "real" and d["side"] == choose]
            extra = [vectors[at[s.text]] for d in real[:count] for st in d["streams"] for s in st if s.text in at]
            w = fit_probe(positive, np.vstack([negative, *extra]) if extra else negative, l2)
            logits = probe_logits(w, vectors)
            top = {id(d): max((float(logits[at[s.text]]) for st in d["streams"] for s in st if s.text in at),
                              default=-np.inf) for d in all_docs}
            limit = float(np.quantile([top[id(d)] for d in real[count:]], 1 - FP_BUDGET))
            got.append(tuple(np.mean([d["hit"] or top[id(d)] > limit for d in all_docs
                                      if d["label"] == label and d["side"] == 1 - choose])
                             for label in ("injection", "benign", "real")))
        mean = np.mean(got, axis=0)
        print(f"  {count:4d} real comments as ordinary text: {mean[0]:.3f}  {mean[1]:.3f}  {mean[2]:.4f}")


def latency(diffs: Path, *, probe: bool = True) -> list[float]:
    """CPU milliseconds (every thread of the process; the machine is shared, wall time is not
    comparable between runs) of the injection check per merge request (the diff and a title), the
    models loaded and fitted first (once per process: reported apart). `probe=False`: Chinese spans
    are not read by the probe (this checkout's cost without it)."""
    from dualrag.checks import injection
    from dualrag.config import load_settings
    from dualrag.diff import ingest

    settings, check = load_settings(None), injection.MeaningCheck()
    check.margins(["warm up"])
    chinese = getattr(injection, "chinese", None)
    if chinese is not None:
        check.probe(check.vectors(["预热"]))
        if not probe:
            injection.chinese = lambda text: False
    out = []
    for path in sorted(diffs.glob("*")):
        try:
            changes = ingest(path.read_bytes(), settings)
        except Exception as exc:  # noqa: BLE001 - a diff the ingest refuses is not a merge request to time
            print(f"  not timed: {path.name}: {exc}", file=sys.stderr)
            continue
        start = time.process_time()
        injection.find_injection(changes, [("the title", f"Fix {path.stem}")], check)
        out.append((time.process_time() - start) * 1000)
    if chinese is not None:
        injection.chinese = chinese
    return out


def probe_seconds() -> list[float]:
    """What the probe's weights cost a process once: read from the package, and fitted instead (its
    exemplars embedded, the regression solved: what a process pays if they no longer match)."""
    from dualrag.checks.chinese_probe import fitted, probe_weights
    from dualrag.checks.injection import MeaningCheck

    embedder, out = MeaningCheck._model()[0], []
    for get in (probe_weights, fitted):
        start = time.perf_counter()
        get(embedder)
        out.append(time.perf_counter() - start)
    return out


def latency_at(rev: str, diffs: Path) -> list[float]:
    with tempfile.TemporaryDirectory(prefix="dualrag-baseline-") as tmp:
        archive = subprocess.run(["git", "-C", str(ROOT), "archive", rev, "dualrag"], check=True, capture_output=True)
        subprocess.run(["tar", "-x", "-C", tmp], input=archive.stdout, check=True)
        code = f"import json,sys; from evaluation.safety.injection_zh import latency; print(json.dumps(latency(__import__('pathlib').Path({str(diffs)!r}))))"
        out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True, cwd=tmp,
                             env={**os.environ, "PYTHONPATH": f"{tmp}{os.pathsep}{ROOT}"})
    return json.loads(out.stdout.strip().splitlines()[-1])


def accuracy(sample: int) -> None:
    corpus = yaml.safe_load(CORPUS.read_text(encoding="utf-8"))
    comments = [json.loads(line) for line in gzip.decompress(COMMENTS.read_bytes()).decode().splitlines()]
    if sample:
        groups = [[c for c in comments if (c["repository"] in GROUP_A) == a] for a in (True, False)]
        for g in groups:
            random.Random(43).shuffle(g)
        comments = [c for g in groups for c in g[: sample]]
    all_docs = docs(corpus, comments)
    print(f"{len(corpus['injections'])} injections, {len(corpus['benign'])} benign sentences (each as a comment line "
          f"and as a field); {len(comments)} real comments "
          f"({sum(c['repository'] in GROUP_A for c in comments)} in group A)", flush=True)
    texts, vectors = score(all_docs)
    rows = folds(all_docs)
    for row in rows:
        print(f"\nchosen on {row['chosen on']}: L2 {row['l2']}, limit {row['limit']:+.3f}; reported on the other side "
              f"({row['real n']} real comments)")
        print("                       recall (comment line)  recall (field)  FP benign  FP real comments")
        for name in ("before", "probe"):
            print(f"  {name + (' (as it was)' if name == 'before' else ' + before'):21s}  "
                  f"{row[f'{name} recall (line)']:21.3f}  {row[f'{name} recall (field)']:14.3f}  "
                  f"{row[f'{name} benign FP']:9.3f}  {row[f'{name} real FP']:16.4f}")
    print("\nmean of both directions:")
    for key in rows[0]:
        if key.startswith(("before", "probe")):
            print(f"  {key:28s} {statistics.mean(r[key] for r in rows):.4f}")
    from dualrag.checks.chinese_probe import PROBE_L2, PROBE_LIMIT
    print(f"\nthe same rule on every real comment, at L2 {PROBE_L2}: limits and what they cost (both directions' mean)")
    print("  FP budget  limit (all)  recall (line)  recall (field)  FP benign  FP real (other side)")
    for budget in (0.002, 0.005, 0.01):
        real_all = [d["probe"][PROBE_L2] for d in all_docs if d["label"] == "real"]
        got = []
        for choose in (0, 1):
            side = lambda label, k: [d for d in all_docs if d["label"] == label and d["side"] == k]
            limit = float(np.quantile([d["probe"][PROBE_L2] for d in side("real", choose)], 1 - budget))
            report = 1 - choose
            got.append([rates([d for d in side("injection", report) if d["reading"] == r], PROBE_L2, limit)
                        for r in ("line", "field")] + [rates(side(k, report), PROBE_L2, limit) for k in ("benign", "real")])
        mean = np.mean(got, axis=0)
        print(f"  {budget:9.3f}  {np.quantile(real_all, 1 - budget):+11.3f}  {mean[0]:13.3f}  {mean[1]:14.3f}  "
              f"{mean[2]:9.3f}  {mean[3]:20.4f}")
    with_real_negatives(all_docs, texts, vectors)
    chosen = ", ".join(f"{r['limit']:+.3f} at L2 {r['l2']}" for r in rows)
    print(f"shipped: PROBE_L2 = {PROBE_L2}, PROBE_LIMIT = {PROBE_LIMIT} (chosen per direction: {chosen})")


def main() -> None:
    args = arguments(__doc__, 1500, "real comments per group (0 = all)")
    if not args.only_latency:
        accuracy(args.sample)
    if args.latency:
        now, before = latency(args.diffs), latency_at(args.latency, args.diffs)
        without = latency(args.diffs, probe=False)
        m_now, m_before, m_without = (statistics.median(x) for x in (now, before, without))
        print(f"\ninjection check per merge request ({len(now)} diffs of ../shared/eval/diffs, models loaded): median CPU "
              f"{m_now:.0f} ms here, {m_without:.0f} ms here without the probe, {m_before:.0f} ms at {args.latency} "
              f"(ratios {m_now / m_before:.2f} and {m_without / m_before:.2f}); the probe's weights, once per process "
              "(wall): {:.3f} s shipped, {:.1f} s fitted instead".format(*probe_seconds()))


if __name__ == "__main__":
    main()
