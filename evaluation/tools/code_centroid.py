"""Write the mean of ordinary code, as the default embedder reads a rule query, into the package
(dualrag/embedding/vectors/code_centroids.npz; dualrag/embedding/centroid.py says why).

    scripts/fetch_java_sources.sh libcommons-lang3-java libcommons-io-java libcommons-collections4-java
    .venv/bin/python -m evaluation.tools.code_centroid [--files 300] [--seed 1]

The sample is library code, never a rule book or an evaluation case: windows of 5, 10 or 20 lines
(what a changed method or hunk looks like) from a seeded sample of the Java files in the cache of
scripts/fetch_java_sources.sh (Apache-2.0 sources from Debian's archive), each read as the plain dense
channel reads a change (`code_windows`). Only the mean ships, no text.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

from dualrag.embedding import centroid, get_embedder
from dualrag.retrieval.query import code_windows
from evaluation.core.datasets import JAVA_SOURCES as SOURCES

SKIP = 20  # lines: a file's licence header and imports say nothing about its code


def java_windows(root: Path, files: int, seed: int) -> list[str]:
    paths = sorted(root.rglob("*.java"))
    rng = random.Random(seed)
    rng.shuffle(paths)
    windows = []
    for path in paths[:files]:
        lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
        if len(lines) < 2 * SKIP:
            continue
        start, size = rng.randrange(SKIP, len(lines) - 15), rng.choice((5, 10, 20))
        read = code_windows("\n".join(lines[start:start + size]))
        if read:
            windows.append(read[0])
    return windows


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--files", type=int, default=300, help="Java files sampled (one window each)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", type=Path, default=centroid.default_path())
    args = ap.parse_args()
    if not SOURCES.is_dir():
        print(f"no Java sources in {SOURCES}: run scripts/fetch_java_sources.sh first", file=sys.stderr)
        return 2
    embedder = get_embedder()
    start = time.perf_counter()
    counts = centroid.write(embedder, {"java": java_windows(SOURCES, args.files, args.seed)}, args.out)
    print(f"{args.out}: means of {counts} windows for {centroid.identity(embedder)} "
          f"in {time.perf_counter() - start:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
