"""The centred reading alone: dense recall of code against rule prose, as the embedder reads it and
read from the shipped mean of ordinary code (dualrag/embedding/centroid.py).

    .venv/bin/python -m evaluation.retrieval.centred [--books pmd,errorprone,androidlint]

Per book (evaluation/books/<name>/rules.jsonl): each rule's title and prose is a document
(embedded as a passage, cut where the store's dense text is), each rule's first violating example a
query (read as the plain dense channel reads a change, `code_windows`); a hit is the query's own
rule. Printed per book, recall@1 / @5 over all its rules with an example:
- **plain**: the query vector as the embedder gives it;
- **centred**: minus the shipped mean of ordinary Java (library code, evaluation/tools/code_centroid.py);
- **books' mean**: minus the mean of the *other* books' examples instead (leave one book out): does a
  mean of rule-book code point elsewhere than a mean of library code?
The fused search with every channel is rules.py; this isolates the one reading.
"""

from __future__ import annotations

import argparse
import sys

import numpy as np

from dualrag.embedding import get_embedder
from dualrag.embedding.base import l2_normalise
from dualrag.embedding.centroid import code_centroid
from dualrag.retrieval.query import code_windows
from evaluation.books import load_book
from evaluation.core.heldout import left_out

DOC_CHARS = 800  # about the store's dense text (192 tokens)


def recall(queries: np.ndarray, docs: np.ndarray, owners: np.ndarray) -> tuple[float, float]:
    scores = queries @ docs.T
    rank = (scores > scores[np.arange(len(owners)), owners][:, None]).sum(axis=1)
    return float((rank < 1).mean()), float((rank < 5).mean())


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--books", default="pmd,errorprone,androidlint")
    args = ap.parse_args()
    embedder = get_embedder()
    mean = code_centroid(embedder, "java")
    if mean is None:
        print(f"no shipped Java mean for {embedder.name}: run python -m evaluation.tools.code_centroid", file=sys.stderr)
        return 2
    data = {}
    for book in args.books.split(","):
        rules = load_book(book)
        docs = embedder.embed_documents([f"{r['title']}\n{r['prose']}"[:DOC_CHARS] for r in rules])
        owners = np.array([i for i, r in enumerate(rules) if r["violating"] and code_windows(r["violating"][0])])
        queries = np.stack([embedder.embed_query(code_windows(rules[i]["violating"][0])[0]) for i in owners])
        data[book] = (docs, queries, owners)
    books_mean = {b: np.concatenate([data[o][1] for o in others]).mean(axis=0) for b, others in left_out(list(data))}
    print(f"{'book':>12} {'rules':>5}  {'plain R@1/R@5':>14}  {'centred':>11}  {'books mean':>11}")
    for book, (docs, queries, owners) in data.items():
        plain = recall(queries, docs, owners)
        centred = recall(l2_normalise(queries - mean), docs, owners)
        others = recall(l2_normalise(queries - books_mean[book]), docs, owners)
        print(f"{book:>12} {len(owners):>5}  {plain[0]:.3f} / {plain[1]:.3f}  {centred[0]:.3f} / {centred[1]:.3f}  "
              f"{others[0]:.3f} / {others[1]:.3f}")
    cosines = [float(l2_normalise(m) @ l2_normalise(mean)) for m in books_mean.values()]
    print(f"cosine of the library-code mean with each books' mean: {min(cosines):.3f}-{max(cosines):.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
