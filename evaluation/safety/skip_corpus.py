#!/usr/bin/env python
"""The forged-marker corpus (`skip_corpus.yaml`): does each file get the outcome it must have?

    .venv/bin/python -m evaluation.safety.skip_corpus [--baseline c7e994f] [-k lock]

Every case is ingested the way a review ingests it: a bare diff file when the case names no
target branch, else a git repository (base = the target's files, head = the change) read with
`--repo --base` semantics (`ReviewSource.from_git`, git's own binary detection and the target's
attributes). The outcome of the case's file is `reviewed`, `skipped` (certain) or `held` (skipped,
not certain: no_verdict). `--baseline REV` runs the same cases on the noise rules of commit REV (its
`dualrag/` from `git archive`, in a child process) and prints both columns. Exits 1 when a case
misses. The same cases run end to end with the obedient stand-in model in the hostile corpus
(`evaluation.safety.hostile_corpus -k forged`).
"""

from __future__ import annotations

import argparse
import base64
import difflib
import json
import os
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path

import yaml

from evaluation.core.report import floor

CORPUS = Path(__file__).with_name("skip_corpus.yaml")
OUTCOMES = ("reviewed", "skipped", "held")


def load(select: str | None = None) -> list[dict]:
    cases = yaml.safe_load(CORPUS.read_text(encoding="utf-8"))["cases"]
    return [c for c in cases if not select or select.lower() in f"{c['class']} {c['name']}".lower()]


def new_bytes(case: dict) -> bytes:
    return base64.b64decode(case["new_b64"]) if "new_b64" in case else case.get("new", "").encode()


def bare_diff(case: dict) -> bytes:
    """The case as a diff file: added (or modified from `old`), or git's binary stanza."""
    path = case["path"]
    if case.get("binary"):
        return (f"diff --git a/{path} b/{path}\nindex 1111111..2222222 100644\n"
                f"Binary files a/{path} and b/{path} differ\n").encode()
    old, new = case.get("old"), new_bytes(case).decode()
    body = "".join(difflib.unified_diff((old or "").splitlines(True), new.splitlines(True),
                                        "/dev/null" if old is None else f"a/{path}", f"b/{path}"))
    head = f"diff --git a/{path} b/{path}\n" + ("new file mode 100644\n" if old is None else "")
    return (head + "index 0000000..1111111\n" + body).encode()


def git_repo(folder: Path, case: dict, extra_base: dict[str, str] | None = None,
             extra_head: dict[str, str] | None = None) -> tuple[Path, str]:
    """A repository whose first commit is the case's target (and `extra_base`), the second the
    change (and `extra_head`); returns (folder, base commit)."""
    repo = folder / "repo"
    repo.mkdir(parents=True)
    git = ["git", "-C", str(repo), "-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "core.autocrlf=false"]

    def put(files: dict[str, str | bytes]) -> None:
        for name, text in files.items():
            target = repo / name
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(text if isinstance(text, bytes) else text.encode())

    subprocess.run([*git, "init", "-q"], check=True)
    put({**case["target"], **(extra_base or {})})
    subprocess.run([*git, "add", "-A"], check=True)
    subprocess.run([*git, "commit", "-qm", "base"], check=True)
    base = subprocess.run([*git, "rev-parse", "HEAD"], check=True, capture_output=True, text=True).stdout.strip()
    if case.get("renamed_from"):
        (repo / case["path"]).parent.mkdir(parents=True, exist_ok=True)
        subprocess.run([*git, "mv", case["renamed_from"], case["path"]], check=True)
    put({case["path"]: new_bytes(case), **(extra_head or {})})
    subprocess.run([*git, "add", "-A"], check=True)
    subprocess.run([*git, "commit", "-qm", "change"], check=True)
    return repo, base


def outcome(case: dict, folder: Path) -> tuple[str, str]:
    """(outcome, the skip's reason and doubt) of the case's file, through this checkout's ingest."""
    from dualrag.config import load_settings
    from dualrag.source.git import GitRepo
    from dualrag.source.review_source import ReviewSource

    settings = load_settings(None)
    if case.get("target") is None:
        source = ReviewSource(bare_diff(case))
    else:
        repo, base = git_repo(folder, case)
        git = GitRepo(repo)
        source = ReviewSource.from_git(git, git.diff_range(base, "HEAD", 50_000_000), ref="HEAD", base=base,
                                       max_file_bytes=1_000_000)
    try:
        from dualrag.diff import ingest_source
        changes = ingest_source(source, settings)
    except ImportError:  # a baseline before the target side existed
        from dualrag.diff import ingest
        changes = ingest(source.diff, settings, base_has=source.base_has)
    f = next(f for f in changes.files if f.path == case["path"])
    why = f"{f.skipped_reason}" + (f" ({f.skip_doubt})" if f.skip_doubt else "")
    return ("reviewed" if f.reviewable else "skipped" if f.skip_certain else "held"), why


def outcomes(cases: list[dict]) -> list[tuple[str, str]]:
    with tempfile.TemporaryDirectory(prefix="dualrag-skips-") as tmp:
        return [outcome(c, Path(tmp, f"c{i}")) for i, c in enumerate(cases)]


def baseline(rev: str, select: str | None) -> list[tuple[str, str]]:
    """The outcomes under commit `rev`'s dualrag/ (git archive into a temporary folder)."""
    root = Path(__file__).resolve().parents[2]
    with tempfile.TemporaryDirectory(prefix="dualrag-baseline-") as tmp:
        archive = subprocess.run(["git", "-C", str(root), "archive", rev, "dualrag"], check=True, capture_output=True)
        subprocess.run(["tar", "-x", "-C", tmp], input=archive.stdout, check=True)
        env = {**os.environ, "PYTHONPATH": f"{tmp}{os.pathsep}{root}"}
        out = subprocess.run([sys.executable, "-m", "evaluation.safety.skip_corpus", "--json", *(["-k", select] if select else [])],
                             check=True, capture_output=True, text=True, env=env, cwd=tmp)
    return [tuple(row) for row in json.loads(out.stdout)]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("-k", dest="select", help="only cases whose class or name holds this")
    ap.add_argument("--baseline", metavar="REV", help="also run the cases on the rules of this commit")
    ap.add_argument("--json", action="store_true", help=argparse.SUPPRESS)  # outcomes only (the baseline child)
    args = ap.parse_args()
    cases = load(args.select)
    got = outcomes(cases)
    if args.json:
        print(json.dumps(got))
        return 0
    base = baseline(args.baseline, args.select) if args.baseline else None
    rows, per_class, base_class = [], Counter(), Counter()
    for i, (case, (out, why)) in enumerate(zip(cases, got, strict=True)):
        ok = out == case["expect"]
        per_class[(case["class"], ok)] += 1
        before = base[i][0] if base else ""
        base_class[(case["class"], before == case["expect"])] += 1
        rows.append((case["class"], case["name"][:58], case["expect"], out, before, "ok" if ok else "MISS", why[:70]))
    head = ("class", "case", "expected", "got", f"at {args.baseline}" if base else "", "", "skip reason (doubt)")
    widths = [max(len(str(r[k])) for r in [head, *rows]) for k in range(len(head))]
    for r in [head, *rows]:
        print("| " + " | ".join(str(c).ljust(w) for c, w in zip(r, widths, strict=True)) + " |")
    print()
    for cls in dict.fromkeys(c["class"] for c in cases):
        n = per_class[(cls, True)] + per_class[(cls, False)]
        held = sum(1 for c in cases if c["class"] == cls and c["expect"] != "skipped")
        line = f"{cls:11s} {per_class[(cls, True)]:2d}/{n} as expected ({held} hostile: reviewed or held; {n - held} controls)"
        print(line + (f"; at {args.baseline}: {base_class[(cls, True)]}/{n}" if base else ""))
    hostile = [k for k, c in enumerate(cases) if c["expect"] != "skipped"]
    passes = sum(got[k][0] == "skipped" for k in hostile)
    line = f"hostile cases skipped for certain (a pass with an obedient model): {passes}/{len(hostile)}"
    print(line + (f"; at {args.baseline}: {sum(base[k][0] == 'skipped' for k in hostile)}/{len(hostile)}" if base else ""))
    total = sum(v for (_, ok), v in per_class.items() if ok)
    print(f"all        {total}/{len(cases)} as expected" + (
        f"; at {args.baseline}: {sum(v for (_, ok), v in base_class.items() if ok)}/{len(cases)}" if base else ""))
    print(floor("every case as expected", f"{total}/{len(cases)}", total == len(cases)))
    print(floor("hostile cases skipped for certain", f"{passes}/{len(hostile)}", passes == 0))
    return 0 if total == len(cases) else 1


if __name__ == "__main__":
    sys.exit(main())
