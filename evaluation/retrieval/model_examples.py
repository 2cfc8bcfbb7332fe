#!/usr/bin/env python3
"""Have the local model write a counter-example for every rule of a book that shows none (issue 24).

Each rule's request reads the rule's text only (`dualrag/review/rule_example.py`), never the book's
examples, which stay the queries of `evaluation.retrieval.rules`; `--book dev` asks for the dev guideline's
rules that have no 反例 of their own, as `index rules` would. The answers are cached in
`.dualrag/eval-model-examples/<book>.json` (resumable: a rule already answered is not asked
again); `evaluation.retrieval.rules --model-examples` indexes the book with them.

    OPENAI_BASE_URL=http://127.0.0.1:8765/v1 OPENAI_API_KEY=local \\
    .venv/bin/python -m evaluation.retrieval.model_examples --book errorprone
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path

from dualrag.config import load_settings
from dualrag.llm import LLMFactory
from dualrag.review.rule_example import ExampleWriter
from evaluation import ROOT
from evaluation.books import anchors, load_book, render
from evaluation.core import datasets
from evaluation.core.scoring import squash
from indexers.rules import segment

CACHE_DIR = ROOT / ".dualrag" / "eval-model-examples"


def cache_path(book: str) -> Path:
    return CACHE_DIR / f"{book}.json"


def load_cache(book: str) -> dict[str, str]:
    path = cache_path(book)
    return json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}


class _Saving(dict):
    """A cache that writes itself after every answer: a killed run loses one request at most."""

    def __init__(self, book: str, data: dict[str, str]) -> None:
        super().__init__(data)
        self.book = book

    def __setitem__(self, key: str, value: str) -> None:
        super().__setitem__(key, value)
        cache_path(self.book).parent.mkdir(parents=True, exist_ok=True)
        cache_path(self.book).write_text(json.dumps(self, ensure_ascii=False, indent=0), encoding="utf-8")


def document(book: str, structure: str, out: Path) -> Path:
    """The book's document: `dev` is the dev guideline's PDF, our own books are rendered."""
    return datasets.guideline() if book == "dev" else render(book, structure, out)


def examples_by_rule(book: str, structure: str = "md") -> dict[str, str]:
    """The book's rule id -> the example the model wrote for it (cached answers only)."""
    cache = load_cache(book)
    if not cache:
        return {}
    with tempfile.TemporaryDirectory() as out:
        units = segment(render(book, structure, Path(out)), "team")
    writer = ExampleWriter(None, model="openai:local", cache=cache)
    written = [(squash(u.full_text()), writer.one(u)) for u in units]
    found = {}
    for rule_id, anchor in anchors(load_book(book)).items():
        unit = next((w for text, w in written if anchor in text), None)
        if unit is not None and unit.model_examples:
            found[rule_id] = unit.model_examples[0]
    return found


def overlap(book: str) -> None:
    """How close the model's examples come to the book's own (the queries it never read): token
    Jaccard of each rule's written example against its first violating example. A model that had
    learned the book by heart would write the queries back; this says how far it does."""
    written = examples_by_rule(book)
    words = lambda code: set(re.findall(r"[A-Za-z_]\w+", code))
    scores = []
    for rule in load_book(book):
        if rule["id"] in written and rule["violating"]:
            a, b = words(written[rule["id"]]), words(rule["violating"][0])
            scores.append(len(a & b) / max(1, len(a | b)))
    if scores:
        scores.sort()
        print(f"{book}: {len(scores)} rules; token Jaccard of the model's example against the book's own: median "
              f"{statistics.median(scores):.2f}, 90th percentile {scores[int(0.9 * (len(scores) - 1))]:.2f}, "
              f"> 0.5 for {sum(s > 0.5 for s in scores)} ({sum(s > 0.5 for s in scores) / len(scores):.0%})")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--book", required=True)
    ap.add_argument("--structure", default="md", help="the edition whose segmented rules are asked about")
    ap.add_argument("--llm", default="openai:local")
    ap.add_argument("--overlap", action="store_true", help="only report how close the cached examples come to "
                                                          "the book's own")
    args = ap.parse_args(argv)
    if args.overlap:
        overlap(args.book)
        return 0

    settings = load_settings(None, llm={"model": args.llm, "models": {args.llm: {
        "context_window": 16384, "max_output_tokens": 512}}})
    client = LLMFactory(settings.llm).for_reviewer("rules")[0]
    with tempfile.TemporaryDirectory() as out:
        units = segment(document(args.book, args.structure, Path(out)), "team")
    writer = ExampleWriter(client, model=args.llm, cache=_Saving(args.book, load_cache(args.book)))
    seconds: list[float] = []
    for i, unit in enumerate(units, 1):
        started = time.monotonic()
        before = writer.asked
        written = writer.one(unit)
        if writer.asked > before:
            seconds.append(time.monotonic() - started)
            print(f"[{i}/{len(units)}] {unit.rule_id}: {len(written.model_examples[0].splitlines()) if written.model_examples else 0}"
                  f" lines, {seconds[-1]:.1f} s", flush=True)
    print(f"{len(units)} rules, {writer.asked} asked, {len(writer.failures)} failed, "
          f"median {statistics.median(seconds) if seconds else 0:.1f} s per request")
    for failure in writer.failures[:5]:
        print(f"  failed: {failure}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
