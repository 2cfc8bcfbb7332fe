"""Verification of a candidate detector, and the clean corpus it must stay quiet on.

A candidate is kept only when, run exactly as a review runs it (`dualrag.rulebook.detector_rows`:
a regex on each line, a query on the text parsed as one diff fragment), it

(a) fires on every violating example of its rule,
(b) fires on no compliant example of any rule of the document (the book),
(c) fires on at most `max_hits_per_10k` lines per 10,000 lines of a clean corpus, and
(d) fires on at most 5% of the other rules' violating examples (`ExamplePool`; an addition to the
    issue's three: the clean corpus is code of one kind, and a book about Android code taught
    `package test.pkg;` detectors that commons-lang never shows).

It must also name something (an API, a literal the rule names, a construct, keyword or operator
the rule's text names). Without a corpus (c) is not run; the candidate must then be specific on
its own: at least `min_bits` bits. That is reported with the detector (`MinedCheck.corpus_lines`
None). (c) and (d) are counted for many candidates in one pass (`Corpus.count`,
`ExamplePool.count`), by the caller.
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from threading import Lock

from dualrag import languages
from dualrag.rulebook import compile_query, detector_rows, query_rows
from dualrag.units import Detector

WINDOW_LINES = 40  # a corpus file is checked as the hunks of a review are parsed: fragments of this many lines


@dataclass
class Corpus:
    """Clean code of one language: files read from a folder up to a line cap. A tree-sitter
    candidate runs on them as a review runs it: on fragments (`WINDOW_LINES` lines each, parsed
    without the rest of the file, on first use), so a pattern that only a fragment's parse shows
    (a `static` field read as a local variable outside its class) is counted where it would fire."""

    folder: str
    language: str
    files: list[tuple[str, str]] = field(default_factory=list)  # (path, text)
    lines: int = 0
    _windows: list | None = None  # (text, root) per fragment
    _lock: Lock = field(default_factory=Lock)

    def windows(self) -> list[tuple[str, object]]:
        with self._lock:
            if self._windows is None:
                parser = languages.parser(self.language)
                out = []
                for _, text in self.files:
                    lines = text.split("\n")
                    for i in range(0, len(lines), WINDOW_LINES):
                        piece = "\n".join(lines[i:i + WINDOW_LINES])
                        out.append((piece, parser.parse(piece.encode("utf-8", "replace")).root_node))
                self._windows = out
            return self._windows

    def roots(self) -> list:
        """The parsed fragments (parsing them now)."""
        return [root for _, root in self.windows()]

    def hits(self, detector: Detector, required: Sequence[str] = (), stop_after: int | None = None) -> int:
        """Lines of the corpus the detector fires on (counting stops past `stop_after`).
        `required`: texts a file must contain for the detector to fire there (a pre-filter)."""
        total = 0
        if detector.kind == "regex":
            rx = re.compile(detector.pattern)
            for _, text in self.files:
                if required and not all(r in text for r in required):
                    continue
                total += sum(1 for line in text.split("\n") if all(r in line for r in required) and rx.search(line))
                if stop_after is not None and total > stop_after:
                    break
            return total
        compile_query(self.language, detector.pattern)
        for text, root in self.windows():
            if required and not all(r in text for r in required):
                continue
            total += len(query_rows(self.language, detector.pattern, root))
            if stop_after is not None and total > stop_after:
                break
        return total

    def count(self, detectors: Sequence[Detector], required: Sequence[Sequence[str]]) -> list[int]:
        """Lines of the corpus each detector fires on: the tree-sitter ones in one pass of one
        combined query (a file is read when some query's required texts are all in it), the
        regexes one by one over the files that hold their required words."""
        counts = [0] * len(detectors)
        trees = [i for i, d in enumerate(detectors) if d.kind == "tree-sitter"]
        for i, d in enumerate(detectors):
            if d.kind == "regex":
                counts[i] = self.hits(d, required[i])
        if not trees:
            return counts
        from tree_sitter import Query, QueryCursor

        query = Query(languages.language(self.language), "\n".join(detectors[i].pattern for i in trees))
        if query.pattern_count != len(trees):  # a pattern that is several: count one by one
            for i in trees:
                counts[i] = self.hits(detectors[i], required[i])
            return counts
        needs = [tuple(required[i]) for i in trees]
        anyone = any(not n for n in needs)
        for text, root in self.windows():
            if not anyone and not any(all(r in text for r in n) for n in needs):
                continue
            rows: dict[int, set[int]] = {}
            for index, captures in QueryCursor(query).matches(root):
                for node in captures.get("violation", []):
                    rows.setdefault(index, set()).add(node.start_point.row)
            for index, found in rows.items():
                counts[trees[index]] += len(found)
        return counts


@dataclass
class ExamplePool:
    """The violating examples of every rule of a book, for check (d): a detector of one rule
    that fires on many other rules' violating examples catches what all code of the book has
    (`package test.pkg;`), not what its rule forbids — even where the clean corpus is code of
    another kind."""

    language: str
    examples: list[tuple[str, str]] = field(default_factory=list)  # (rule id, code)
    share: float = 0.05  # of the other rules' examples a detector may fire on
    floor: int = 2  # ... and never fewer than this many
    _roots: list | None = None

    def allowed(self, rule_id: str) -> int:
        others = sum(1 for rid, _ in self.examples if rid != rule_id)
        return max(self.floor, int(self.share * others))

    def count(self, detectors: Sequence[Detector], rule_ids: Sequence[str]) -> list[int]:
        """How many other rules' violating examples each detector fires on (one combined query
        for the tree-sitter ones, as the corpus is counted)."""
        from dualrag.rulebook import parse_fragment

        counts = [0] * len(detectors)
        trees = [i for i, d in enumerate(detectors) if d.kind == "tree-sitter"]
        for i, d in enumerate(detectors):
            if d.kind == "regex":
                rx = re.compile(d.pattern)
                counts[i] = sum(1 for rid, code in self.examples
                                if rid != rule_ids[i] and any(rx.search(line) for line in code.split("\n")))
        if not trees:
            return counts
        from tree_sitter import Query, QueryCursor

        query = Query(languages.language(self.language), "\n".join(detectors[i].pattern for i in trees))
        single = query.pattern_count == len(trees)
        if self._roots is None or len(self._roots) != len(self.examples):
            self._roots = [parse_fragment(self.language, code) for _, code in self.examples]
        for (rid, _), root in zip(self.examples, self._roots, strict=True):
            if single:
                fired = {index for index, captures in QueryCursor(query).matches(root) if captures.get("violation")}
            else:
                fired = {k for k, i in enumerate(trees) if query_rows(self.language, detectors[i].pattern, root)}
            for k in fired:
                if rule_ids[trees[k]] != rid:
                    counts[trees[k]] += 1
        return counts


_CORPORA: dict[tuple[str, str, int], Corpus] = {}


def load_corpus(folder: str | os.PathLike[str], language: str = "java", max_lines: int = 1_000_000) -> Corpus:
    """The files of `language` (its pack's extensions) under `folder`, hidden folders and
    symbolic links skipped, in path order up to `max_lines` lines; cached per process."""
    root = Path(folder).expanduser()
    key = (str(root.resolve()), language, max_lines)
    if key in _CORPORA:
        return _CORPORA[key]
    if not root.is_dir():
        raise FileNotFoundError(f"mining corpus {root}: not a folder")
    pack = languages.pack_for(language)
    suffixes = tuple(pack.extensions) if pack is not None and pack.extensions else (f".{language}",)
    corpus = Corpus(str(root), language)
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith("."))
        for name in sorted(filenames):
            path = Path(dirpath) / name
            if not name.endswith(suffixes) or path.is_symlink():
                continue
            try:
                text = path.read_text(encoding="utf-8", errors="replace")
            except OSError:
                continue
            corpus.files.append((str(path), text))
            corpus.lines += text.count("\n") + (0 if text.endswith("\n") or not text else 1)
            if corpus.lines >= max_lines:
                break
        if corpus.lines >= max_lines:
            break
    _CORPORA[key] = corpus
    return corpus


@dataclass
class Verdict:
    ok: bool
    reason: str = ""
    corpus_lines: int | None = None
    corpus_hits: int | None = None
    compliant_hit: str | None = None  # the compliant example it fired on


def verify(detector: Detector, language: str, violating: Sequence[str],
           compliant: Sequence[tuple[str, str]], *, corpus: Corpus | None, max_hits_per_10k: float,
           bits: float, named: bool, min_bits: float, required: Sequence[str] = (),
           corpus_later: bool = False) -> Verdict:
    """(a), (b), (c) above; `compliant`: (rule id, code) of every compliant example of the book.
    `corpus_later`: (c) is left to the caller (`Corpus.count`, many candidates in one pass)."""
    for i, code in enumerate(violating, 1):
        if not _fires(detector, language, code):
            return Verdict(False, f"misses violating example {i} (as a diff fragment)")
    for rule_id, code in compliant:
        if _fires(detector, language, code):
            return Verdict(False, f"fires on a compliant example of {rule_id}", compliant_hit=code)
    if not named:
        return Verdict(False, "names nothing the rule is about (an API, a literal or construct its text names)")
    if corpus is None:
        if bits < min_bits:
            return Verdict(False, f"{bits:.1f} bits, below the {min_bits:g} a candidate needs without a clean corpus")
        return Verdict(True)
    if corpus_later:
        return Verdict(True)
    allowed = max_hits_per_10k * corpus.lines / 10_000
    hits = corpus.hits(detector, required, stop_after=int(allowed))
    if hits > allowed:
        return Verdict(False, f"{hits}+ clean-corpus hits in {corpus.lines:,} lines "
                              f"(limit {max_hits_per_10k:g} per 10k = {int(allowed)})", corpus.lines, hits)
    return Verdict(True, "", corpus.lines, hits)


def _fires(detector: Detector, language: str, code: str) -> bool:
    try:
        return bool(detector_rows(detector, language, code))
    except Exception:  # noqa: BLE001 - a query this grammar refuses fires nowhere
        return False
