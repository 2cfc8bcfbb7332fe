"""Code a candidate detector must stay quiet on: the clean corpus (check (c)) and the other rules'
violating examples (check (d)), both counted for many candidates at once.

Both are `Fragments`: texts parsed as a review parses a hunk, indexed by the node types and the
words each holds. A candidate runs only on the fragments that hold every node type its query names
and every word it compares with (a query can match nowhere else), and counting stops once it is
past its limit: so a round of many rules' candidates costs about what their few hits cost, not a
pass of every query over every fragment, and a lattice of more general candidates stays cheap.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from threading import Lock

from dualrag import languages
from dualrag.rulebook import tree_rows
from dualrag.units import Detector

WINDOW_LINES = 40  # a corpus file is checked as the hunks of a review are parsed: fragments of this many lines
_WORD = re.compile(r"[A-Za-z_$][\w$]*|\d[\w.]*")
_QUOTED = r'"(?:[^"\\]|\\.)*"'
_PREDICATE = re.compile(r'\(#[\w?!-]+(?:[^()"]|' + _QUOTED + r')*\)')
_EQ = re.compile(r'^\(#eq\? @\w+ "((?:[^"\\]|\\.)*)"\)$')
_STRING = re.compile(_QUOTED)
_NODE = re.compile(r"\(([A-Za-z]\w*)")


def needs(detector: Detector) -> tuple[frozenset[str], frozenset[str], tuple[str, ...]]:
    """What a fragment must hold for a query detector to match there: node types, words, and
    other texts (checked as substrings)."""
    scope = detector.scope
    return _needs(detector.pattern, tuple(scope.inside) if scope else (), tuple(scope.receiver_types) if scope else ())


def may_fire(detector: Detector, language: str, text: str) -> bool:
    """False when a query detector cannot match in `text` parsed as a fragment: a word or text it
    compares with, or a node type it names, is not there (cheap tests before running it)."""
    types, words, others = needs(detector)
    return all(w in text for w in words) and all(o in text for o in others) and types <= fragment_types(language, text)


@lru_cache(maxsize=8192)
def _words_of(text: str) -> frozenset[str]:
    return frozenset(_WORD.findall(text))


@lru_cache(maxsize=8192)
def fragment_types(language: str, text: str) -> frozenset[str]:
    """The node types of a text parsed as a fragment (an example: parsed once)."""
    from .examples import raw_root

    return frozenset(_node_types(raw_root(language, text)))


@lru_cache(maxsize=8192)
def _needs(pattern: str, inside: tuple[str, ...], receivers: tuple[str, ...]):
    texts: list[str] = []
    for predicate in _PREDICATE.findall(pattern):
        m = _EQ.match(predicate)
        if m:
            texts.append(_unquote(m.group(1)))
    rest = _PREDICATE.sub(" ", pattern)
    tokens = [_unquote(t[1:-1]) for t in _STRING.findall(rest)]  # anonymous nodes: keywords, operators
    types = set(_NODE.findall(_STRING.sub(" ", rest))) | set(inside)
    if len(receivers) == 1:  # a receiver of the type, or the type itself: its name is there
        texts.append(receivers[0])
    words = {t for t in texts + tokens if _WORD.fullmatch(t)}
    others = tuple(t for t in texts if not _WORD.fullmatch(t))
    return frozenset(types), frozenset(words), others


def _unquote(value: str) -> str:
    return re.sub(r"\\(.)", lambda m: {"n": "\n", "t": "\t"}.get(m.group(1), m.group(1)), value)


@dataclass
class Fragments:
    """Texts of one language, each parsed alone, indexed by node type and word on first use.
    `examples`: the texts are a book's examples, parsed and read once per process however many
    sets (a held-out fold's, a rule's) they are in; a corpus's windows are parsed here."""

    language: str
    texts: list[str] = field(default_factory=list)
    examples: bool = False
    _roots: list | None = None
    _types: dict[str, set[int]] | None = None
    _words: dict[str, set[int]] | None = None
    _lock: Lock = field(default_factory=Lock)

    def roots(self) -> list:
        from .examples import raw_root

        with self._lock:
            if self._roots is None or len(self._roots) != len(self.texts):
                if self.examples:
                    self._roots = [raw_root(self.language, t) for t in self.texts]
                else:
                    parser = languages.parser(self.language)
                    self._roots = [parser.parse(t.encode("utf-8", "replace")).root_node for t in self.texts]
                self._types = self._words = None
            return self._roots

    def _index(self) -> tuple[dict[str, set[int]], dict[str, set[int]]]:
        roots = self.roots()
        with self._lock:
            if self._types is None or self._words is None:
                types: dict[str, set[int]] = {}
                words: dict[str, set[int]] = {}
                for i, root in enumerate(roots):
                    text = self.texts[i]
                    kinds = fragment_types(self.language, text) if self.examples else _node_types(root)
                    for kind in kinds:
                        types.setdefault(kind, set()).add(i)
                    for word in _words_of(text) if self.examples else set(_WORD.findall(text)):
                        words.setdefault(word, set()).add(i)
                self._types, self._words = types, words
            return self._types, self._words

    def first(self, detector: Detector) -> int | None:
        """The first text the detector fires on, or None."""
        return next((i for i, _ in self.fired(detector)), None)

    def candidates(self, detector: Detector) -> list[int]:
        """The fragments a query detector may match in (in order)."""
        by_type, by_word = self._index()
        types, words, others = needs(detector)
        sets = [by_type.get(t, set()) for t in types] + [by_word.get(w, set()) for w in words]
        if not sets:
            found: set[int] = set(range(len(self.texts)))
        else:
            sets.sort(key=len)
            found = set(sets[0]).intersection(*sets[1:])
        return sorted(i for i in found if all(o in self.texts[i] for o in others))

    def fired(self, detector: Detector, required: Sequence[str] = ()) -> Iterator[tuple[int, int]]:
        """(fragment, rows the detector fires on there) for each fragment where it fires; a regex
        runs on each line of the fragments holding its `required` words."""
        if detector.kind == "regex":
            rx = re.compile(detector.pattern)
            for i, text in enumerate(self.texts):
                if required and not all(r in text for r in required):
                    continue
                n = sum(1 for line in text.split("\n") if all(r in line for r in required) and rx.search(line))
                if n:
                    yield i, n
            return
        roots = self.roots()
        for i in self.candidates(detector):
            try:
                n = len(tree_rows(detector, self.language, roots[i]))
            except Exception:  # noqa: BLE001 - a query this grammar refuses fires nowhere
                return
            if n:
                yield i, n


def _node_types(root) -> set[str]:
    seen: set[str] = set()
    cursor = root.walk()
    while True:
        seen.add(cursor.node.type)
        if cursor.goto_first_child():
            continue
        while not cursor.goto_next_sibling():
            if not cursor.goto_parent():
                return seen


@dataclass
class Corpus:
    """Clean code of one language: files read from a folder up to a line cap, checked as a review
    runs a detector: on fragments (`WINDOW_LINES` lines each, parsed without the rest of the file,
    on first use), so a pattern that only a fragment's parse shows (a `static` field read as a
    local variable outside its class) is counted where it would fire."""

    folder: str
    language: str
    files: list[tuple[str, str]] = field(default_factory=list)  # (path, text)
    lines: int = 0
    _fragments: Fragments | None = None
    _lock: Lock = field(default_factory=Lock)

    def fragments(self) -> Fragments:
        with self._lock:
            if self._fragments is None:
                texts = []
                for _, text in self.files:
                    lines = text.split("\n")
                    texts += ["\n".join(lines[i:i + WINDOW_LINES]) for i in range(0, len(lines), WINDOW_LINES)]
                self._fragments = Fragments(self.language, texts)
            return self._fragments

    def roots(self) -> list:
        """The parsed fragments (parsing and indexing them now)."""
        fragments = self.fragments()
        fragments.candidates(Detector(kind="tree-sitter", pattern="(_) @violation"))
        return fragments.roots()

    def hits(self, detector: Detector, required: Sequence[str] = (), stop_after: int | None = None) -> int:
        """Lines of the corpus the detector fires on (counting stops past `stop_after`).
        `required`: words a line must contain for a regex to fire there (a pre-filter)."""
        total = 0
        for _, n in self.fragments().fired(detector, required):
            total += n
            if stop_after is not None and total > stop_after:
                break
        return total

    def count(self, detectors: Sequence[Detector], required: Sequence[Sequence[str]],
              stop_after: int | None = None) -> list[int]:
        """Lines of the corpus each detector fires on (each stops counting past `stop_after`)."""
        return [self.hits(d, r, stop_after) for d, r in zip(detectors, required, strict=True)]


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
    _fragments: Fragments | None = None

    def allowed(self, rule_id: str) -> int:
        others = sum(1 for rid, _ in self.examples if rid != rule_id)
        return max(self.floor, int(self.share * others))

    def others(self, rule_id: str) -> int:
        return sum(1 for rid, _ in self.examples if rid != rule_id)

    def count(self, detectors: Sequence[Detector], rule_ids: Sequence[str]) -> list[int]:
        """How many other rules' violating examples each detector fires on (counting stops one
        past what the rule is allowed)."""
        if self._fragments is None or len(self._fragments.texts) != len(self.examples):
            self._fragments = Fragments(self.language, [code for _, code in self.examples], examples=True)
        out = []
        for detector, rule_id in zip(detectors, rule_ids, strict=True):
            limit, n = self.allowed(rule_id), 0
            for i, _ in self._fragments.fired(detector):
                n += self.examples[i][0] != rule_id
                if n > limit:
                    break
            out.append(n)
        return out


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
