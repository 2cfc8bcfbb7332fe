"""The code retriever: for a chunk, the code its change depends on or affects.

    graph = StoreGraph(code_store, "lang")              # a pre-built index (dualrag index code)
    graph = RepoGraph.from_checkout("/path/to/repo")    # or none: parse files of the checkout on demand
    retriever = CodeRetriever(graph, read_file=reader)  # reader(path) -> new file bytes (else the graph reads)
    for item in retriever.retrieve(chunk): item.relation, item.symbol, item.score
    candidates = retriever.candidates(chunk)            # Candidates for context.assemble (ContextCode items)

Relations: `definition` (methods, constructors, fields and types the changed lines use, resolved
through imports, fields, parameters and locals; a name the parser could not tie to a type is
looked up by name and arity), `caller` (members that call a changed method or constructor:
impact), `override` (the supertype declarations a changed method overrides or implements),
`edi-reference` (transforms, flows and partners a changed flow/dt element references, and the flows
using a changed transform). Scores are fused: a relation weight x resolution confidence, damped
by rank inside the relation, so the context assembler can rerank and pack them.

Both graphs answer the same questions; the index makes them fast on large repositories, the
checkout graph needs nothing built (one merge-request job in CI): it finds a type's file from the
package path, parses only the files it reaches, and finds callers with `git grep -w`.
"""

from __future__ import annotations

import os
import posixpath
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Protocol

from dualrag.parsing.code_symbols import ParsedFile, code_symbols, parse_source, resolve_refs, symbol_language
from dualrag.retrieval.context import Candidate, ContextCode
from dualrag.units import CodeSymbol

Reader = Callable[[str], "bytes | None"]
TYPE_KINDS = ("class", "interface", "enum", "record", "annotation")
_WEIGHTS = {"definition": 1.0, "override": 0.9, "edi-reference": 0.9, "caller": 0.75, "config": 0.6}
_IDENT = re.compile(r"\b[A-Za-z_$][\w$]*\b")
MAX_BY_NAME = 4  # an unresolved call matching more same-name methods than this is too vague to include
MAX_CALLERS = 12
MAX_CALLER_LINES = 40


class CodeGraph(Protocol):
    repository: str

    def type_exists(self, qualified: str) -> bool: ...
    def type_symbol(self, qualified: str) -> CodeSymbol | None: ...
    def members(self, owner: str, name: str) -> list[CodeSymbol]: ...
    def by_name(self, name: str, kinds: tuple[str, ...]) -> list[CodeSymbol]: ...
    def callers(self, name: str) -> list[CodeSymbol]: ...
    def edi(self, *, path: str | None = None, qualified: str | None = None, ref: str | None = None) -> list[CodeSymbol]: ...
    def read(self, path: str) -> bytes | None: ...


# ------------------------------------------------------------------------------------- graphs


class StoreGraph:
    """Answers from a code index (dualrag.store.code.CodeStore); exact payload lookups only."""

    def __init__(self, store, repository: str, read_file: Reader | None = None) -> None:
        self.store = store
        self.repository = repository
        self._read = read_file
        self._types: dict[str, CodeSymbol | None] = {}
        store.manifest(repository)  # fails early with a clear message when there is no index

    def type_symbol(self, qualified: str) -> CodeSymbol | None:
        if qualified not in self._types:
            found = self.store.find(self.repository, qualified=[qualified], kinds=TYPE_KINDS, limit=1)
            self._types[qualified] = found[0] if found else None
        return self._types[qualified]

    def type_exists(self, qualified: str) -> bool:
        return self.type_symbol(qualified) is not None

    def members(self, owner: str, name: str) -> list[CodeSymbol]:
        return self.store.find(self.repository, owners=[owner], names=[name])

    def by_name(self, name: str, kinds: tuple[str, ...]) -> list[CodeSymbol]:
        return self.store.find(self.repository, names=[name], kinds=kinds, limit=50)

    def callers(self, name: str) -> list[CodeSymbol]:
        return self.store.find(self.repository, call_names=[name], limit=500)

    def edi(self, *, path: str | None = None, qualified: str | None = None, ref: str | None = None) -> list[CodeSymbol]:
        given = {"paths": [path] if path else (), "qualified": [qualified] if qualified else (),
                 "refs": [ref] if ref else ()}
        return [s for s in self.store.find(self.repository, **given) if s.language == "edi"]

    def read(self, path: str) -> bytes | None:
        return self._read(path) if self._read else None


class RepoGraph:
    """Answers from a checked-out repository, parsing files on demand (no index needed)."""

    def __init__(self, root: str | Path, paths: Iterable[str], read: Reader, *, repository: str = "checkout",
                 grep: Callable[[str], list[str]] | None = None) -> None:
        self.root = Path(root)
        self.repository = repository
        self._read = read
        self._grep = grep
        self.paths = [p for p in paths if symbol_language(p)]
        self._by_stem: dict[str, list[str]] = {}
        for p in self.paths:
            if p.endswith(".java"):
                self._by_stem.setdefault(posixpath.basename(p)[:-5], []).append(p)
        self._parsed: dict[str, ParsedFile | None] = {}
        self._symbols: dict[str, list[CodeSymbol]] = {}
        self._types: dict[str, CodeSymbol | None] = {}

    @classmethod
    def from_checkout(cls, root: str | Path, read_file: Reader | None = None) -> RepoGraph:
        """The working tree of `root` (git-tracked files when it is a repository, else a walk)."""
        from dualrag.errors import SourceError
        from dualrag.source.git import GitRepo

        root = Path(root)
        try:
            git = GitRepo(root)
        except SourceError:
            git = None
        if git is not None:
            paths = git.tracked_files("*.java", "*.flow", "*.dt", "*partners.xml")
            base = git.root

            def read(path: str) -> bytes | None:
                try:
                    return git.read_file(None, path, limit=8_000_000)
                except SourceError:
                    return None

            def grep(word: str) -> list[str]:
                try:
                    return git.files_containing(word, "*.java")
                except SourceError:
                    return []

            return cls(base, paths, read_file or read, repository=base.name, grep=grep)
        paths = []
        resolved = root.resolve()
        for dirpath, dirs, files in os.walk(root):
            dirs[:] = [d for d in dirs if not d.startswith(".")]
            for f in files:
                rel = os.path.relpath(os.path.join(dirpath, f), root).replace(os.sep, "/")
                if symbol_language(rel):
                    paths.append(rel)

        def read_plain(path: str) -> bytes | None:
            target = (root / path).resolve()
            if not target.is_relative_to(resolved) or not target.is_file():
                return None  # a symlink leaving the repository is not followed
            return target.read_bytes()

        return cls(root, paths, read_file or read_plain, repository=root.name)

    # -- files

    def read(self, path: str) -> bytes | None:
        return self._read(path)

    def parsed(self, path: str) -> ParsedFile | None:
        if path not in self._parsed:
            data = self._read(path)
            self._parsed[path] = parse_source(path, data) if data is not None else None
        return self._parsed[path]

    def file_symbols(self, path: str) -> list[CodeSymbol]:
        if path not in self._symbols:
            pf = self.parsed(path)
            self._symbols[path] = code_symbols(pf, self.type_exists, repository=self.repository) if pf else []
        return self._symbols[path]

    def _files_for(self, qualified: str) -> list[str]:
        parts = qualified.split(".")
        out = []
        for i in range(len(parts) - 1, -1, -1):  # com.acme.Outer.Inner: try Inner.java, Outer.java, ...
            stem, folder = parts[i], "/".join(parts[:i])
            for p in self._by_stem.get(stem, ()):
                if p == f"{folder}/{stem}.java".lstrip("/") or p.endswith(f"/{folder}/{stem}.java") or (
                        not folder and "/" not in p.strip("/")):
                    out.append(p)
            if out:
                break
        return out

    # -- graph

    def type_symbol(self, qualified: str) -> CodeSymbol | None:
        if qualified in self._types:
            return self._types[qualified]
        self._types[qualified] = None  # guards recursion while the file is converted
        found = None
        for path in self._files_for(qualified):
            pf = self.parsed(path)
            if pf is None or pf.java is None:
                continue
            if any(d.is_type and (f"{d.owner}.{d.name}" if d.owner else d.name) == qualified for d in pf.java.decls):
                found = next((s for s in self.file_symbols(path)
                              if s.kind in TYPE_KINDS and s.qualified_name == qualified), None)
                break
        self._types[qualified] = found
        return found

    def type_exists(self, qualified: str) -> bool:
        if qualified in self._types:
            return self._types[qualified] is not None
        for path in self._files_for(qualified):
            pf = self.parsed(path)
            if pf is not None and pf.java is not None and any(
                    d.is_type and (f"{d.owner}.{d.name}" if d.owner else d.name) == qualified for d in pf.java.decls):
                return True
        return False

    def members(self, owner: str, name: str) -> list[CodeSymbol]:
        t = self.type_symbol(owner)
        if t is None:
            return []
        return [s for s in self.file_symbols(t.path) if s.owner == owner and s.name == name]

    def by_name(self, name: str, kinds: tuple[str, ...]) -> list[CodeSymbol]:
        out = []
        for path in self._grep_files(name)[:200]:
            out += [s for s in self.file_symbols(path) if s.name == name and s.kind in kinds]
        return out

    def callers(self, name: str) -> list[CodeSymbol]:
        out = []
        for path in self._grep_files(name)[:300]:
            out += [s for s in self.file_symbols(path) if name in s.call_names]
        return out

    def _grep_files(self, word: str) -> list[str]:
        if self._grep is not None:
            return self._grep(word)
        pattern = re.compile(rb"\b" + re.escape(word.encode()) + rb"\b")
        return [p for p in self.paths if p.endswith(".java") and (d := self._read(p)) is not None and pattern.search(d)]

    def edi(self, *, path: str | None = None, qualified: str | None = None, ref: str | None = None) -> list[CodeSymbol]:
        if path is not None:
            return [s for s in self.file_symbols(path) if s.language == "edi"] if path in self.paths else []
        out = []
        for p in self.paths:
            if symbol_language(p) != "edi":
                continue
            for s in self.file_symbols(p):
                if s.language == "edi" and ((qualified and s.qualified_name == qualified) or (ref and ref in s.refs)):
                    out.append(s)
        return out


# ------------------------------------------------------------------------------------- retriever


@dataclass(frozen=True)
class RetrievedCode:
    relation: str  # definition | caller | override | edi-reference
    symbol: CodeSymbol
    score: float  # fused: relation weight x confidence, damped by rank within the relation
    reason: str  # e.g. "Foo.java:42 calls StringUtils.isBlank"
    text: str  # what a prompt shows

    def context_item(self, score: float | None = None, tokens: int = 0) -> ContextCode:
        s = self.symbol
        return ContextCode(relation=self.relation, symbol=s.qualified_name, path=s.path, start_line=s.start_line,
                           end_line=s.end_line, text=self.text, score=round(self.score if score is None else score, 4),
                           tokens=tokens)

    def candidate(self) -> Candidate:
        kind = {"kind": "code"} if "kind" in Candidate.__dataclass_fields__ else {}
        return Candidate(**kind, text=self.text, fused_score=self.score,
                         build=lambda score, tokens: self.context_item(score, tokens))


class CodeRetriever:
    def __init__(self, graph: CodeGraph, *, read_file: Reader | None = None, max_items: int = 40) -> None:
        self.graph = graph
        self.read_file = read_file
        self.max_items = max_items
        self.notes: list[str] = []

    def candidates(self, chunk) -> list[Candidate]:
        return [r.candidate() for r in self.retrieve(chunk)]

    def retrieve(self, chunk) -> list[RetrievedCode]:
        """Definitions, callers, overrides and EDI references of one chunk, best first."""
        found: dict[tuple[str, str], tuple[RetrievedCode, int]] = {}
        for path in chunk.files:
            changed = changed_lines(chunk, path)
            if not changed:
                continue
            data = self.read_file(path) if self.read_file else None
            if data is None:
                data = self.graph.read(path)
            if data is None:
                self.notes.append(f"{path}: new file text not available; no code context")
                continue
            pf = parse_source(path, data)
            if pf.note and pf.java is None and not pf.edi:
                self.notes.append(f"{path}: {pf.note}")
                continue
            for item in self.for_file(pf, changed):
                key = (item.relation, item.symbol.symbol_id)
                if key not in found or found[key][0].score < item.score:
                    found[key] = (item, len(found))
        ranked = sorted((v for v in found.values()), key=lambda v: (-v[0].score, v[1]))
        return [item for item, _ in ranked[: self.max_items]]

    # -- one file

    def for_file(self, pf: ParsedFile, changed: set[int]) -> list[RetrievedCode]:
        if pf.java is not None:
            return self._java(pf, changed)
        if pf.edi:
            return self._edi(pf, changed)
        return []

    def _java(self, pf: ParsedFile, changed: set[int]) -> list[RetrievedCode]:
        jf = pf.java
        assert jf is not None
        own = {(f"{d.owner}.{d.name}" if d.owner else d.name) for d in jf.decls if d.is_type}
        exists = lambda q: q in own or self.graph.type_exists(q)  # noqa: E731
        live = {s.symbol_id: s for s in code_symbols(pf, exists, repository=self.graph.repository)}
        live_by_owner: dict[tuple[str, str], list[CodeSymbol]] = {}
        for s in live.values():
            live_by_owner.setdefault((s.owner, s.name), []).append(s)

        def members(owner: str, name: str) -> list[CodeSymbol]:
            if owner in own:
                return live_by_owner.get((owner, name), [])
            return self.graph.members(owner, name)

        def type_symbol(q: str) -> CodeSymbol | None:
            if q in own:
                return next((s for s in live.values() if s.qualified_name == q and s.kind in TYPE_KINDS), None)
            return self.graph.type_symbol(q)

        out: list[RetrievedCode] = []
        defs: list[tuple[CodeSymbol, float, str]] = []
        lines = pf.text.split("\n")
        touched = [d for d in jf.decls if not d.is_type and any(d.start <= n <= d.end for n in changed)]
        for d in touched:
            here = f"{d.owner}.{d.name}" if d.kind != "field" else d.qualified
            for r in resolve_refs(jf, d, exists):
                if r.line not in changed:
                    continue
                where = f"{pf.path}:{r.line}"
                if r.kind in ("call", "mref"):
                    if r.owner.startswith("~"):
                        continue
                    if r.owner:
                        hits = _hierarchy_lookup(r.owner, r.name, r.argc, members, type_symbol)
                        defs += [(s, 1.0, f"{where} calls {_short(s)}") for s in hits]
                        if hits:
                            continue
                    # unresolved receiver (or inherited from outside): by name and arity
                    hits = [s for s in self.graph.by_name(r.name, ("method",)) if _arity_ok(s, r.argc)]
                    if 0 < len(hits) <= MAX_BY_NAME:
                        defs += [(s, 0.6, f"{where} calls {r.name} (matched by name)") for s in hits]
                elif r.kind == "new" and r.owner and not r.owner.startswith("~"):
                    ctors = [s for s in members(r.owner, r.name) if s.kind == "constructor" and _arity_ok(s, r.argc)]
                    t = type_symbol(r.owner)
                    defs += [(s, 0.95, f"{where} constructs {_short(s)}") for s in ctors]
                    if t is not None and not ctors:
                        defs.append((t, 0.8, f"{where} constructs {t.qualified_name}"))
                elif r.kind == "field" and r.owner and not r.owner.startswith("~"):
                    defs += [(s, 0.9, f"{where} uses field {_short(s)}")
                             for s in _hierarchy_fields(r.owner, r.name, members, type_symbol)]
                elif r.kind == "type":
                    t = type_symbol(r.owner)
                    if t is not None:
                        defs.append((t, 0.7, f"{where} uses type {t.qualified_name}"))
            # bare identifiers on changed lines naming a field of this type or an outer one
            for n in sorted(x for x in changed if d.start <= x <= d.end and x <= len(lines)):
                for ident in set(_IDENT.findall(_strip_strings(lines[n - 1]))):
                    if ident in d.locals or ident[:1].isupper() and not ident.isupper():
                        continue
                    scope = d.owner
                    while scope and scope != jf.package:
                        hits = [s for s in members(scope, ident) if s.kind == "field" and s.symbol_id != here]
                        if hits:
                            defs += [(s, 0.85, f"{pf.path}:{n} uses field {_short(s)}") for s in hits]
                            break
                        scope = scope.rpartition(".")[0]
        this_ids = {s.symbol_id for s in live.values() if any(s.start_line <= n <= s.end_line for n in changed)
                    and s.kind not in TYPE_KINDS and s.kind != "file"}
        out += _ranked("definition", [(s, c, why) for s, c, why in defs if s.symbol_id not in this_ids])

        # callers and overrides of the members the change touches
        callers, overrides = [], []
        for d in touched:
            if d.kind not in ("method", "constructor"):
                continue
            argc = len(d.params)
            name = d.name
            own_type = type_symbol(d.owner)
            supers = _supertypes(own_type, type_symbol)
            owners = {d.owner} | set(supers)
            for s in self.graph.callers(name):
                if s.path == pf.path and any(s.start_line <= n <= s.end_line for n in changed):
                    continue
                match = [c for c in s.calls if c.split("#", 1)[-1].rsplit("/", 1)[0] == name
                         and _argc_ok(int(c.rsplit("/", 1)[1]), d.params)]
                exact = any(c.split("#", 1)[0] in owners for c in match)
                vague = any(c.split("#", 1)[0] == "" for c in match)
                if exact or vague:
                    callers.append((s, 1.0 if exact else 0.5, f"calls {d.owner.rsplit('.', 1)[-1]}.{name}"))
            if d.kind == "method":
                for sup in supers:
                    for s in members(sup, name):
                        if s.kind == "method" and len(s.params) == argc:
                            overrides.append((s, 1.0, f"{d.owner.rsplit('.', 1)[-1]}.{name} overrides it"))
        callers.sort(key=lambda c: -c[1])
        out += _ranked("caller", callers[:MAX_CALLERS], caller_window=True)
        out += _ranked("override", overrides)
        return out

    def _edi(self, pf: ParsedFile, changed: set[int]) -> list[RetrievedCode]:
        refs: list[tuple[CodeSymbol, float, str]] = []
        units = [u for u in pf.edi if any(u.start_line <= n <= u.end_line for n in changed)]
        top = [u for u in pf.edi if u.kind in ("edi-flow", "edi-transform")]
        for u in units:
            wanted = u.refs if u.kind != "edi-flow" or len(units) == 1 else []
            for ref in wanted:
                kind, _, value = ref.partition(":")
                if kind in ("dt", "flow"):
                    target = [s for s in self.graph.edi(path=value) if s.kind in ("edi-transform", "edi-flow")]
                elif kind == "partner":
                    target = self.graph.edi(qualified=f"partner:{value}")
                else:
                    continue
                refs += [(s, 1.0, f"{pf.path}:{u.start_line} {u.kind.removeprefix('edi-')} references {ref}")
                         for s in target]
        for t in top:  # a changed transform or flow: the flows that use it
            if t.kind == "edi-transform" and units:
                for s in self.graph.edi(ref=f"dt:{pf.path}"):
                    refs.append((s, 0.8, f"{s.path} uses this transform"))
            if t.kind == "edi-flow" and units:
                for s in self.graph.edi(ref=f"flow:{pf.path}"):
                    refs.append((s, 0.8, f"{s.path} routes to this flow"))
        return _ranked("edi-reference", [r for r in refs if r[0].path != pf.path])


# ------------------------------------------------------------------------------------- helpers


def changed_lines(chunk, path: str) -> set[int]:
    """New-file lines a chunk adds, and for removals the line they were removed before."""
    out: set[int] = set()
    for h in chunk.hunks:
        if h.path != path:
            continue
        previous = h.new_start - 1
        for line in h.lines:
            if line.kind == "+" and line.new_no is not None:
                out.add(line.new_no)
            elif line.kind == "-":
                out.add(previous + 1)
            if line.new_no is not None:
                previous = line.new_no
    return out


def _ranked(relation: str, items: list[tuple[CodeSymbol, float, str]], caller_window: bool = False) -> list[RetrievedCode]:
    out, seen = [], set()
    weight = _WEIGHTS[relation]
    for s, confidence, why in sorted(items, key=lambda i: -i[1]):
        if s.symbol_id in seen or s.kind == "file":
            continue
        seen.add(s.symbol_id)
        score = weight * confidence / (1 + 0.05 * len(out))
        text = s.display_text()
        if caller_window and text.count("\n") > MAX_CALLER_LINES:
            text = "\n".join(text.split("\n")[:MAX_CALLER_LINES]) + "\n    /* … */"
        out.append(RetrievedCode(relation, s, round(score, 4), why, f"// {relation}: {why}\n{text}"))
    return out


def _argc_ok(argc: int, params: list[str] | tuple[str, ...]) -> bool:
    if argc < 0:
        return True
    if params and params[-1].endswith("..."):
        return argc >= len(params) - 1
    return argc == len(params)


def _arity_ok(s: CodeSymbol, argc: int) -> bool:
    return s.kind != "method" or _argc_ok(argc, s.params)


def _hierarchy_lookup(owner: str, name: str, argc: int, members, type_symbol, depth: int = 6) -> list[CodeSymbol]:
    seen: set[str] = set()
    frontier = [owner]
    for _ in range(depth):
        nxt = []
        for o in frontier:
            if o in seen:
                continue
            seen.add(o)
            hits = [s for s in members(o, name) if s.kind == "method"]
            if hits:
                exact = [s for s in hits if _argc_ok(argc, s.params)]
                return exact or hits[:MAX_BY_NAME]
            t = type_symbol(o)
            if t is not None:
                nxt += [x for x in t.supertypes if x and not x.startswith("~")]
            if "." in o and type_symbol(o.rpartition(".")[0]) is not None:
                nxt.append(o.rpartition(".")[0])  # a nested class calling its outer class's method
        frontier = nxt
        if not frontier:
            break
    return []


def _hierarchy_fields(owner: str, name: str, members, type_symbol, depth: int = 6) -> list[CodeSymbol]:
    o = owner
    for _ in range(depth):
        hits = [s for s in members(o, name) if s.kind == "field"]
        if hits:
            return hits
        t = type_symbol(o)
        supers = [x for x in (t.supertypes if t else []) if x and not x.startswith("~")]
        if not supers:
            return []
        o = supers[0]
    return []


def _supertypes(t: CodeSymbol | None, type_symbol, depth: int = 6) -> list[str]:
    out: list[str] = []
    frontier = [x for x in (t.supertypes if t else []) if x and not x.startswith("~")]
    for _ in range(depth):
        nxt = []
        for q in frontier:
            if q in out:
                continue
            out.append(q)
            s = type_symbol(q)
            nxt += [x for x in (s.supertypes if s else []) if x and not x.startswith("~")]
        frontier = nxt
    return out


def _short(s: CodeSymbol) -> str:
    owner = s.owner.rsplit(".", 1)[-1]
    return f"{owner}.{s.name}" if owner else s.name


@lru_cache(maxsize=4096)
def _strip_strings(line: str) -> str:
    line = re.sub(r'"(?:[^"\\]|\\.)*"', '""', line)
    return line.split("//", 1)[0]
