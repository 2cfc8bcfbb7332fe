#!/usr/bin/env python
"""`dualrag corpus build` measured: a real fetch from Debian's mirror (network; never run by tests).

    .venv/bin/python -m evaluation.bench.corpus_build [--language java,python,kotlin,sql] [--repeat 3] [--parse]

Each repeat builds every language in a fresh temporary folder (the source index fetched first,
timed on its own), then re-runs the build there (incremental: nothing to fetch). Prints per
language: packages, files, lines, the upstream tarballs' size, what was kept on disk, what was left
out, and the median seconds of the cold build and of the re-run. Baseline, in the same command:
`scripts/fetch_java_sources.sh` on the same three Java packages (a fresh cache per repeat), its
seconds and the Java lines it leaves, beside the Java build's. `--parse`: how long mining takes to
read and parse each language's corpus (`load_corpus` + the fragments it parses), once.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from evaluation import ROOT
from indexers.corpus import CURATED, PrivateApt, read_manifest

DUALRAG = [sys.executable, "-m", "dualrag"]


def timed(command: list[str], env: dict[str, str] | None = None) -> float:
    start = time.perf_counter()
    result = subprocess.run(command, capture_output=True, text=True, env=env, cwd=ROOT, check=False)
    if result.returncode != 0:
        raise SystemExit(f"failed ({result.returncode}): {' '.join(command)}\n{result.stderr[-2000:]}")
    return time.perf_counter() - start


def java_lines(folder: Path) -> int:
    total = 0
    for path in folder.rglob("*.java"):
        if ".git" not in path.parts and not any(p.startswith(".") for p in path.relative_to(folder).parts):
            text = path.read_bytes()
            total += text.count(b"\n") + (0 if not text or text.endswith(b"\n") else 1)
    return total


PARSE = """
import sys, time
from indexers.mining import load_corpus
start = time.perf_counter()
corpus = load_corpus(sys.argv[1], sys.argv[2], 10_000_000)
corpus.roots()
print(f"{corpus.lines} {time.perf_counter() - start:.1f}")
"""


def parse_time(folder: Path, language: str, timeout: float) -> str:
    """Mining's read and parse of one corpus, in a child process (a grammar that hangs is reported)."""
    try:
        result = subprocess.run([sys.executable, "-c", PARSE, str(folder), language], capture_output=True, text=True,
                                cwd=ROOT, timeout=timeout, check=True)
    except subprocess.TimeoutExpired:
        return f"mining reads and parses {language}: not finished after {timeout:.0f}s (a fragment the grammar hangs on)"
    lines, seconds = result.stdout.split()
    return f"mining reads and parses {language}: {int(lines):,} lines in {seconds}s"


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--language", default="java,python,kotlin,sql")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--parse", action="store_true", help="also time mining's read and parse of each corpus")
    ap.add_argument("--parse-timeout", type=float, default=180.0)
    ap.add_argument("--no-baseline", action="store_true")
    args = ap.parse_args()
    languages = args.language.split(",")
    index_s: list[float] = []
    cold: dict[str, list[float]] = {lang: [] for lang in languages}
    warm: list[float] = []
    baseline_s: list[float] = []
    baseline_lines = 0
    with tempfile.TemporaryDirectory(prefix="corpus-bench-") as tmp:
        for run in range(args.repeat):
            root = Path(tmp) / f"run{run}"
            start = time.perf_counter()
            PrivateApt(root / ".apt-bookworm").update()
            index_s.append(time.perf_counter() - start)
            for lang in languages:
                cold[lang].append(timed([*DUALRAG, "corpus", "build", "--language", lang, "--dir", str(root)]))
            warm.append(timed([*DUALRAG, "corpus", "build", "--language", ",".join(languages), "--dir", str(root)]))
            if not args.no_baseline and "java" in languages:
                cache = Path(tmp) / f"baseline{run}"
                packages = [pick.package for pick in CURATED["java"]]
                baseline_s.append(timed(["bash", "scripts/fetch_java_sources.sh", *packages],
                                        env={**os.environ, "DUALRAG_JAVA_SOURCES": str(cache)}))
                baseline_lines = java_lines(cache)
        manifest = read_manifest(Path(tmp) / "run0")
        assert manifest is not None
        print(f"Debian {manifest.suite} from {manifest.mirror}; {args.repeat} run(s), medians")
        print(f"source index (apt-get update, private lists): {statistics.median(index_s):.1f}s")
        print(f"{'language':<8} {'pkgs':>4} {'files':>7} {'lines':>9} {'download MB':>11} {'kept MB':>8} "
              f"{'cold s':>7}  left out")
        for lang in languages:
            entries = [e for e in manifest.packages if e.language == lang]
            skipped: dict[str, int] = {}
            for e in entries:
                for why, n in e.skipped.items():
                    skipped[why] = skipped.get(why, 0) + n
            print(f"{lang:<8} {len(entries):>4} {sum(e.files for e in entries):>7,} "
                  f"{sum(e.lines for e in entries):>9,} {sum(e.download_bytes for e in entries) / 1e6:>11.1f} "
                  f"{sum(e.bytes for e in entries) / 1e6:>8.1f} {statistics.median(cold[lang]):>7.1f}  "
                  f"{json.dumps(skipped) if skipped else '-'}")
            for e in entries:
                print(f"    {e.package:<30} {e.source} {e.version}: {e.lines:,} lines, "
                      f"{e.download_bytes / 1e6:.2f} MB tarball" + (f", only {', '.join(e.only)}" if e.only else ""))
        print(f"re-run, all present (incremental): {statistics.median(warm):.2f}s")
        if baseline_s:
            java = next(t for lang, t in manifest.languages.items() if lang == "java")
            new = statistics.median(cold["java"]) + statistics.median(index_s)
            old = statistics.median(baseline_s)
            print(f"baseline scripts/fetch_java_sources.sh, same 3 packages: {old:.1f}s, {baseline_lines:,} Java lines; "
                  f"corpus build java with its index: {new:.1f}s, {java.lines:,} lines (ratio {new / old:.2f})")
        if args.parse:
            for lang in languages:
                print(parse_time(Path(tmp) / "run0" / lang, lang, args.parse_timeout))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
