"""Model variants (issue 42, item 3): does a model's compliant near miss of each rule's example,
used only to gate the lattice's steps, make mined detectors more precise on code the book never
showed? Per book with independent files: the least general miner (the baseline), the lattice, and
the lattice with the model's variants, mined from the whole book in the same run, scored on the
independent files (recall within 2 lines of a labelled line, precision over every hit; scoring.py).

    ../shared/tools/local-llm.sh 8765           # the local model (or any OpenAI-compatible endpoint)
    OPENAI_BASE_URL=http://127.0.0.1:8765/v1 OPENAI_API_KEY=local \\
        nice -n 10 .venv/bin/python -m evaluation.mining.variants [--books androidlint,errorprone]

The model is asked only for the rules the independent files are labelled with (a request per rule,
~30 s on 2 cores with the 1.5B model), from the rule's text and first violating example; it never
sees an independent file, and nothing is chosen here: the lattice runs with the setting the
leave-one-book-out choice of `evaluation.mining.detectors` made for every book
(context-first/general). Answers are cached (~/.cache/dualrag/variants.json): a re-run asks nothing.
"""

from __future__ import annotations

import argparse
import difflib
import os
import statistics
import sys
import time
from collections import Counter
from dataclasses import replace

from dualrag.config import load_settings
from dualrag.llm import LLMFactory
from dualrag.review.rule_variants import CachedVariants, VariantWriter
from indexers.mining import MiningOptions, load_corpus

from . import books as bk
from .choices import BASELINE, GRID
from .full import full
from .scoring import cases, score

LATTICE = next(s for s in GRID if s.name == "context-first/general")


def _f(x: float | None) -> str:
    return "-" if x is None else f"{x:.2f}"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--books", default="androidlint,errorprone")
    ap.add_argument("--llm", default="openai:local", help="PROVIDER:MODEL (OPENAI_BASE_URL from the environment)")
    args = ap.parse_args()
    settings = load_settings(None, llm={"model": args.llm})
    client, _ = LLMFactory(settings.llm).for_reviewer("rules")
    writer = VariantWriter(client, model=args.llm, cache=CachedVariants.default())
    print(f"model {args.llm} at {os.environ.get('OPENAI_BASE_URL', 'the default endpoint')}")
    rows = []
    for name in filter(None, args.books.split(",")):
        book = bk.load(name)
        labelled = {c.rule for c in cases(name) or ()}
        folder = bk.CORPORA.get(book.language)
        corpus = load_corpus(folder, book.language) if folder else None

        def variants_for(units, labelled=labelled, name=name):
            def saved(done: int, total: int) -> None:  # kept as it goes: a stopped run asks again only the rest
                writer.cache.save()
                print(f"  {name}: variants {done}/{total}", file=sys.stderr, flush=True)

            return writer([u for u in units if u.rule_id in labelled], progress=saved)

        start, asked = time.perf_counter(), writer.asked
        base = MiningOptions(corpus=corpus, language=book.language)
        systems = {"baseline": full(book, BASELINE.options(base)),
                   "lattice": full(book, LATTICE.options(base)),
                   "lattice + model variants": full(book, LATTICE.options(replace(base, variants_for=variants_for)))}
        answers = [writer.one(u) for u in book.units if u.rule_id in labelled and u.bad_examples]
        close = [difflib.SequenceMatcher(None, bad[0], u.bad_examples[0]).ratio()
                 for u, (bad, _) in zip((u for u in book.units if u.rule_id in labelled and u.bad_examples), answers)
                 if bad]
        print(f"{name}: the model's answers: {sum(1 for b, g in answers if not b and not g)} without code, "
              f"{sum(1 for b, g in answers if b and not g)} without a near miss; violating variants' similarity to "
              f"the example, median {statistics.median(close) if close else 0:.2f} "
              f"({sum(c > 0.8 for c in close)} of {len(close)} above 0.8)")
        turned = Counter(c.step.split("+")[0] for r in systems["lattice + model variants"].report.rules
                         if r.rule_id in labelled for c in r.climb if "compliant variant" in c.outcome)
        carried = sum(1 for u in systems["lattice + model variants"].units if u.detect.mined.variants)
        print(f"{name}: {len(labelled)} labelled rules, {writer.asked - asked} request(s) to the model, "
              f"{carried} kept detectors checked on variants, steps turned down by a variant: "
              f"{dict(turned) or 'none'}; {time.perf_counter() - start:.0f}s")
        for system, mined in systems.items():
            ind = score(name, mined.detectors())
            kept = sum(1 for u in mined.units if u.rule_id in labelled)
            rows.append((name, system, kept, len(labelled), ind))
    if writer.failures:
        print(f"the model failed {len(writer.failures)} time(s), first: {writer.failures[0]}")
    print(f"\n{'book':<12} {'miner':<26} {'kept':>9} {'recall':>7} {'prec':>5} {'TP':>4} {'FP':>4}")
    for name, system, kept, labelled, ind in rows:
        print(f"{name:<12} {system:<26} {kept:>4} / {labelled:<2} {_f(ind.recall):>7} {_f(ind.precision):>5} "
              f"{ind.tp:>4} {ind.fp:>4}")
    print("  (kept: detectors of the labelled rules; recall over violating files; precision over every hit of a "
          "file's own rule, compliant files and violating files hit away from their lines)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
