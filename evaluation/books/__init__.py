"""The public rule books the retrieval and detector harnesses score on, each with its builder and
data in one folder (`<book>/`: rules.jsonl, SOURCE.md, build.py): `pmd`, `errorprone`,
`androidlint` (Java), `codeql` (Java) and `ruff` (Python), built from the projects' own rule
documentation, which nobody tuned dualrag for.

    from evaluation.books import anchors, load_book, render
    rules = load_book("pmd")                  # list of rule dicts, as in rules.jsonl
    path = render("pmd", "pdf", out_dir)      # out_dir/pmd.pdf: the rule prose, no example
    anchor = anchors(rules)[rules[0]["id"]]   # where a rule's prose starts, whitespace-free

`python -m evaluation.books --help` renders and checks the books; `python -m evaluation.books.<book>.build
PATH` rebuilds one from a snapshot of its repository (`builder`, `snapshot`, `text`, `verdicts`,
`snippets`: what the builders share).
"""

from evaluation.books.anchors import anchors
from evaluation.books.library import ALL_BOOKS, BOOK_DIR, BOOKS, STRUCTURES, load_book
from evaluation.books.render import WRITERS, render

__all__ = ["ALL_BOOKS", "BOOKS", "BOOK_DIR", "STRUCTURES", "WRITERS", "anchors", "load_book", "render"]
