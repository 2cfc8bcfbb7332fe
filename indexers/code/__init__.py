"""Repositories into code symbols in the store: `index_repository(path, store)`.

Walks the files git tracks at a commit (so `.gitignore` holds), drops what the diff noise filter
drops (vendored, generated, lock files; generated markers in the first lines), skips symlinks and
submodules, parses the files a language pack reads (dualrag.languages.code_symbols: Java, Kotlin,
Python, EDI, MyBatis mappers among the `.xml` files, Spring configuration) and writes one point per
symbol. Incremental by git blob hash: a file whose blob is stored already is not read, a file
that vanished (or became noise) has its symbols removed. Nothing is written before every changed
file is parsed and encoded, and the write itself is all or nothing (CodeStore.apply).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from dualrag.config import NoiseConfig
from dualrag.embedding.base import Embedder
from dualrag.embedding.sparse import Bm25Encoder
from dualrag.languages.code_symbols import (
    READERS_VERSION,
    ParsedFile,
    code_symbols,
    parse_source,
    symbol_candidate,
    symbol_language,
)
from dualrag.source.git import GitRepo, TreeEntry
from dualrag.source.noise import NoiseFilter
from dualrag.source.paths import unsafe_reason
from dualrag.source.target import TargetSide
from dualrag.store.code import CodeStore, repository_name
from dualrag.units import CodeSymbol

__all__ = ["IndexReport", "index_repository"]

Progress = Callable[[str, int, int], None]  # (stage, done, total)
_TYPE_KINDS = frozenset({"class", "interface", "enum", "record", "annotation"})


@dataclass
class IndexReport:
    repository: str
    commit: str
    files: int = 0  # files a symbol reader read at the commit
    parsed: int = 0  # of them read and parsed in this run
    unchanged: int = 0
    removed: int = 0  # files whose symbols were removed
    symbols: int = 0  # symbols of the parsed files
    written: int = 0
    deleted: int = 0
    seconds: float = 0.0
    skipped: list[tuple[str, str]] = field(default_factory=list)  # (path, reason)
    notes: list[tuple[str, str]] = field(default_factory=list)  # parsed with problems

    def summary(self) -> str:
        return (f"{self.repository}@{self.commit[:10]}: {self.files} files ({self.parsed} parsed, {self.unchanged} "
                f"unchanged, {self.removed} removed), {self.symbols} symbols parsed, {self.written} written, "
                f"{self.deleted} deleted, {len(self.skipped)} skipped, {self.seconds:.2f} s")


def index_repository(path: str | Path, store: CodeStore, *, ref: str = "HEAD", name: str | None = None,
                     sparse: Bm25Encoder | None = None, embedder: Embedder | None = None,
                     noise: NoiseConfig | None = None, progress: Progress | None = None) -> IndexReport:
    """Index the source files of `path` at `ref` into `store` (incremental, all or nothing)."""
    start = time.perf_counter()
    repo = GitRepo(path)
    commit = repo.verify_ref(ref)
    repository = repository_name(name or repo.root.name)
    sparse = sparse or Bm25Encoder()
    # The indexed commit is its own target side: vendor folders in module roots, its .gitattributes.
    noise_filter = NoiseFilter(noise or NoiseConfig(), TargetSide(has=lambda p: repo.has_path(commit, p),
                                                                  read=lambda p: repo.read_file(commit, p, 1_000_000)))
    report = IndexReport(repository=repository, commit=commit)
    step = progress or (lambda stage, done, total: None)

    wanted: list[TreeEntry] = []
    for e in repo.list_tree(commit):
        if not symbol_candidate(e.path):
            continue
        lang = symbol_language(e.path) or "xml"
        if e.mode == "120000":
            report.skipped.append((e.path, "symbolic link (not followed)"))
        elif e.mode == "160000":
            report.skipped.append((e.path, "submodule"))
        elif (why := unsafe_reason(e.path)) is not None:
            report.skipped.append((e.path, f"unsafe path: {why}"))
        elif (why := noise_filter.reason(e.path, lang)) is not None:
            report.skipped.append((e.path, why))
        else:
            wanted.append(e)
    stored = store.blobs(repository)
    if store.readers(repository) != READERS_VERSION:
        stored = {p: "" for p in stored}  # the readers changed since: read every file again
    changed = [e for e in wanted if stored.get(e.path) != e.blob]
    present = {e.path for e in wanted}
    vanished = [p for p in stored if p not in present]
    report.unchanged = len(wanted) - len(changed)
    step("read", 0, len(changed))
    data = repo.read_blobs(sorted({e.blob for e in changed}))
    parsed: list[tuple[TreeEntry, ParsedFile]] = []
    for i, e in enumerate(changed, 1):
        raw = data.get(e.blob)
        if raw is None:
            report.skipped.append((e.path, "blob not readable"))
            vanished.append(e.path)
            continue
        head = raw[:4000].decode("utf-8", "replace").split("\n")[:10]
        why = noise_filter.reason(e.path, symbol_language(e.path) or "", head=head)
        if why is not None:
            report.skipped.append((e.path, why))
            if e.path in stored:
                vanished.append(e.path)
            continue
        pf = parse_source(e.path, raw)
        if pf.note:
            report.notes.append((e.path, pf.note))
        parsed.append((e, pf))
        step("parse", i, len(changed))  # every file: the callback decides what to print
    # Types the repository declares: stored ones (minus the files being replaced) and the new ones.
    replaced = {e.path for e, _ in parsed} | set(vanished)
    types = {q for q, p in store.type_paths(repository).items() if p not in replaced} if stored else set()
    for _, pf in parsed:
        if pf.source is not None:
            types.update(d.type_name for d in pf.source.decls if d.is_type)
    symbols: list[CodeSymbol] = []
    for e, pf in parsed:
        symbols += code_symbols(pf, types.__contains__, repository=repository, commit=commit, blob=e.blob)
    report.files = len(parsed) + report.unchanged
    report.parsed = len(parsed)
    report.removed = len([p for p in vanished if p in stored])
    report.symbols = sum(1 for s in symbols if s.kind != "file")
    step("write", 0, len(symbols))
    applied = store.apply(repository, symbols, set(vanished) | {e.path for e, _ in parsed}, sparse,
                          embedder=embedder, commit=commit, ref=ref, readers=READERS_VERSION)
    step("write", len(symbols), len(symbols))
    report.written, report.deleted = applied.written, applied.deleted
    report.seconds = time.perf_counter() - start
    return report
