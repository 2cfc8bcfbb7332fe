"""The data sets of ../shared/eval (its README.md says what each holds and how it was drawn), one
loader each, so no harness keeps its own path to them:

- `guideline()`: the dev guideline, kb/java-manual-huangshan.pdf (the p3c cases' rule document);
- `p3c()`: p3c/dev.jsonl, Java snippets labelled violation/clean, each with its guideline anchor;
- `bugs()`: bugs/dev.jsonl, bug-introducing Defects4J diffs with their buggy lines;
- `diffs()` / `diff_manifest()`: diffs/, real diffs with awkward traits, and its manifest.json;

and beside them `JAVA_SOURCES`, the Apache Commons sources scripts/fetch_java_sources.sh fetches
from Debian's archive (git repositories, one per source package; `DUALRAG_JAVA_SOURCES` moves it).

Each takes another path in place of the shared one (a harness's `--kb`, `--cases`... option; the
constants are the defaults). A path that is not there is one line on stderr and exit code 2.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

from evaluation import SHARED

EVAL = SHARED / "eval"
GUIDELINE = EVAL / "kb" / "java-manual-huangshan.pdf"
P3C = EVAL / "p3c" / "dev.jsonl"
BUGS = EVAL / "bugs" / "dev.jsonl"
DIFFS = EVAL / "diffs"
DIFF_SUFFIXES = (".diff", ".patch")
JAVA_SOURCES = Path(os.environ.get("DUALRAG_JAVA_SOURCES", Path.home() / ".cache" / "dualrag" / "java-sources"))
COMMONS_LANG = JAVA_SOURCES / "libcommons-lang3-java"


def need(path: str | Path, what: str) -> Path:
    """`path` when it exists; otherwise say what is missing and where it should be, and exit 2."""
    path = Path(path)
    if not path.exists():
        print(f"error: no {what} at {path} (the evaluation data sits beside the checkout, in ../shared/eval)",
              file=sys.stderr)
        raise SystemExit(2)
    return path


def rows(path: str | Path) -> list[dict]:
    """The rows of a JSON Lines file (blank lines skipped)."""
    return [json.loads(line) for line in Path(path).read_text(encoding="utf-8").splitlines() if line.strip()]


def guideline(path: str | Path | None = None) -> Path:
    return need(path or GUIDELINE, "dev guideline PDF")


def p3c(path: str | Path | None = None, label: str | None = None) -> list[dict]:
    """The p3c cases (`label`: only the `violation` or only the `clean` rows)."""
    found = rows(need(path or P3C, "p3c cases"))
    return [r for r in found if label is None or r["label"] == label]


def bugs(path: str | Path | None = None) -> list[dict]:
    return rows(need(path or BUGS, "bug diffs"))


def diffs(folder: str | Path | None = None) -> list[Path]:
    """The diff files of the folder (.diff and .patch, sorted by name; its manifest and notes left out)."""
    root = need(folder or DIFFS, "diffs folder")
    return sorted(p for p in root.iterdir() if p.is_file() and p.suffix in DIFF_SUFFIXES)


def diff_manifest(folder: str | Path | None = None) -> list[dict]:
    """The folder's manifest.json (one entry per file: traits, near duplicates), or none."""
    path = Path(folder or DIFFS) / "manifest.json"
    return json.loads(path.read_text(encoding="utf-8")) if path.is_file() else []
