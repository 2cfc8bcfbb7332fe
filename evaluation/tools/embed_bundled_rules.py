"""Write the bundled rules' vectors for the default embedder into the package
(dualrag/embedding/vectors/bundled_rules.npz), so a fresh store takes them instead of embedding
the rules on first use. Run it after editing knowledge/ (a rule it does not cover is embedded on
first use as before: a stale file is slower, never wrong).

    .venv/bin/python -m evaluation.tools.embed_bundled_rules [--check]
"""

from __future__ import annotations

import argparse
import sys
import time

from dualrag.embedding import get_embedder, precomputed
from dualrag.rulebook import load_bundled
from dualrag.store.qdrant import dense_text


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only say how many bundled rules the file covers")
    args = parser.parse_args()
    embedder = get_embedder()
    texts = [dense_text(u) for u in load_bundled()]
    path = precomputed.default_path()
    if args.check:
        table = precomputed._table(str(path))
        ident = table[0] if table else None
        covered = sum(precomputed.text_key(t) in table[1] for t in texts) if table else 0
        ok = ident == precomputed.identity(embedder) and covered == len(texts)
        print(f"{path}: {covered}/{len(texts)} bundled rules, embedder {ident} "
              f"({'current' if ok else 'stale: run python -m evaluation.tools.embed_bundled_rules'})")
        sys.exit(0 if ok else 1)
    start = time.perf_counter()
    n = precomputed.write(embedder, texts, path)
    print(f"{path}: {n} vectors of {precomputed.identity(embedder)} in {time.perf_counter() - start:.1f} s "
          f"({path.stat().st_size // 1024} KiB)")


if __name__ == "__main__":
    main()
