"""The code retriever: for a chunk, the code its change depends on or affects.

    graph = StoreGraph(code_store, "lang")              # a pre-built index (dualrag index code)
    graph = RepoGraph.from_checkout("/path/to/repo")    # or none: parse files of the checkout on demand
    retriever = CodeRetriever(graph, read_file=reader)  # reader(path) -> new file bytes (else the graph reads)
    for item in retriever.retrieve(chunk): item.relation, item.symbol, item.score
    candidates = retriever.candidates(chunk)            # Candidates for context.assemble (ContextCode items)

Every file a language pack has a symbol reader for takes part (`LanguagePack.symbols`): Java,
Kotlin and Python declarations resolve through one model, so Kotlin calling Java and Java calling
Kotlin are found like Java calling Java.

Relations: `definition` (methods, functions, constructors, fields and types the changed lines use,
resolved through imports, fields, parameters and locals; a name the parser could not tie to a type
is looked up by name and arity; a Kotlin property read finds a Java getter and a Java getter call a
Kotlin property; a call to a MyBatis mapper interface method also brings the statement it runs; a
field or member carrying `@Value("${k}")` / `@ConfigurationProperties(prefix)` brings the key's
definition in application*.yml/properties; a mapper statement's `<include>` and `resultMap`),
`caller` (members that call a changed method, constructor or mapper statement: impact), `override`
(the supertype declarations a changed method overrides or implements), `mapper` (a changed mapper
interface method's statement, a changed statement's interface method), `config` (the code reading a
changed configuration key), `edi-reference` (transforms, flows and partners a changed flow/dt element
references, and the flows using a changed transform). Scores are fused: a relation weight x
resolution confidence, damped by rank inside the relation, so the context assembler can rerank and
pack them.

Both graphs answer the same questions; the index makes them fast on large repositories, the
checkout graph needs nothing built (one merge-request job in CI): it finds a type's file from the
pack's `locate` (package path and file name), parses only the files it reaches, and finds callers
with `git grep -w`.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from fnmatch import fnmatchcase
from functools import lru_cache
from pathlib import Path
from typing import Protocol

from dualrag.languages import code_languages, packs
from dualrag.languages.code_symbols import (
    ParsedFile,
    code_symbols,
    parse_source,
    resolve_refs,
    source_globs,
    symbol_candidate,
    symbol_language,
)
from dualrag.parsing.symbol_model import CALLABLE_KINDS, TYPE_KINDS, arity, config_key
from dualrag.retrieval.context import Candidate, ContextCode
from dualrag.units import CodeSymbol

Reader = Callable[[str], "bytes | None"]
_WEIGHTS = {"definition": 1.0, "override": 0.9, "mapper": 0.95, "edi-reference": 0.9, "caller": 0.75,
            "config": 0.7}
_IDENT = re.compile(r"\b[A-Za-z_$][\w$]*\b")
_ACCESSOR = re.compile(r"^(?:get|is|set)([A-Z]\w*)$")
MAX_BY_NAME = 4  # an unresolved call matching more same-name methods than this is too vague to include
MAX_CALLERS = 12
MAX_CALLER_LINES = 40
MAX_LINKED = 10  # configuration keys under one prefix, users of one key


class CodeGraph(Protocol):
    repository: str

    def type_exists(self, qualified: str) -> bool: ...
    def type_symbol(self, qualified: str) -> CodeSymbol | None: ...
    def members(self, owner: str, name: str) -> list[CodeSymbol]: ...
    def by_name(self, name: str, kinds: tuple[str, ...]) -> list[CodeSymbol]: ...
    def callers(self, name: str) -> list[CodeSymbol]: ...
    def linked(self, *, language: str, ref: str | None = None, qualified: str | None = None,
               owner: str | None = None, hint: str | tuple[str, ...] = "") -> list[CodeSymbol]: ...
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
            found = self.store.find(self.repository, qualified=[qualified], kinds=tuple(TYPE_KINDS), limit=1)
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

    def linked(self, *, language: str, ref: str | None = None, qualified: str | None = None,
               owner: str | None = None, hint: str | tuple[str, ...] = "") -> list[CodeSymbol]:
        given = {"refs": [ref] if ref else (), "qualified": [qualified] if qualified else (),
                 "owners": [owner] if owner else ()}
        wanted = code_languages() if language == "code" else {language}
        return [s for s in self.store.find(self.repository, **given, limit=200) if s.language in wanted]

    def edi(self, *, path: str | None = None, qualified: str | None = None, ref: str | None = None) -> list[CodeSymbol]:
        given = {"paths": [path] if path else (), "qualified": [qualified] if qualified else (),
                 "refs": [ref] if ref else ()}
        return [s for s in self.store.find(self.repository, **given) if s.language == "edi"]

    def read(self, path: str) -> bytes | None:
        return self._read(path) if self._read else None


class RepoGraph:
    """Answers from a checked-out repository, parsing files on demand (no index needed)."""

    def __init__(self, root: str | Path, paths: Iterable[str], read: Reader, *, repository: str = "checkout",
                 grep: Callable[..., list[str]] | None = None) -> None:
        self.root = Path(root)
        self.repository = repository
        self._read = read
        self._grep = grep
        self.paths = [p for p in paths if symbol_candidate(p)]
        self._by_name: dict[str, list[str]] = {}
        self._by_dir: dict[str, list[str]] = {}
        for p in self.paths:
            folder, _, name = p.rpartition("/")
            self._by_name.setdefault(name, []).append(p)
            self._by_dir.setdefault(folder, []).append(p)
        self._locators = [p.symbols.locate for p in packs() if p.symbols is not None and p.symbols.locate]
        self._parsed: dict[str, ParsedFile | None] = {}
        self._symbols: dict[str, list[CodeSymbol]] = {}
        self._types: dict[str, CodeSymbol | None] = {}
        self._matches: dict[str, tuple[str, ...]] = {}

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
            paths = git.tracked_files(*source_globs())
            base = git.root

            def read(path: str) -> bytes | None:
                try:
                    return git.read_file(None, path, limit=8_000_000)
                except SourceError:
                    return None

            def grep(word: str, *patterns: str) -> list[str]:
                try:
                    return git.files_containing(word, *patterns)
                except SourceError:
                    return []

            return cls(base, paths, read_file or read, repository=base.name, grep=grep)
        paths = []
        resolved = root.resolve()
        for dirpath, dirs, files in os.walk(root):
            dirs[:] = [d for d in dirs if not d.startswith(".")]
            for f in files:
                rel = os.path.relpath(os.path.join(dirpath, f), root).replace(os.sep, "/")
                if symbol_candidate(rel):
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
        """Files that may declare `qualified`, most likely first (each pack's `locate`)."""
        out: list[str] = []
        for locate in self._locators:
            for pattern in locate(qualified):
                out += [p for p in self._match(pattern) if p not in out]
        return out[:60]

    def _match(self, pattern: str) -> tuple[str, ...]:
        if pattern not in self._matches:
            self._matches[pattern] = self._match_paths(pattern)
        return self._matches[pattern]

    def _match_paths(self, pattern: str) -> tuple[str, ...]:
        folder, _, name = pattern.rpartition("/")
        if not any(c in name for c in "*?["):
            return tuple(p for p in self._by_name.get(name, ()) if p == pattern or p.endswith("/" + pattern))
        dirs = [d for d in self._by_dir if d == folder or d.endswith("/" + folder)] if folder else [""]
        return tuple(p for d in dirs for p in self._by_dir.get(d, ()) if fnmatchcase(p.rpartition("/")[2], name))

    def _declares_type(self, path: str, qualified: str) -> bool:
        pf = self.parsed(path)
        return pf is not None and pf.source is not None and any(
            d.is_type and d.type_name == qualified for d in pf.source.decls)

    # -- graph

    def type_symbol(self, qualified: str) -> CodeSymbol | None:
        if qualified in self._types:
            return self._types[qualified]
        self._types[qualified] = None  # guards recursion while the file is converted
        found = None
        for path in self._files_for(qualified):
            if self._declares_type(path, qualified):
                found = next((s for s in self.file_symbols(path)
                              if s.kind in TYPE_KINDS and s.qualified_name == qualified), None)
                break
        self._types[qualified] = found
        return found

    def type_exists(self, qualified: str) -> bool:
        if qualified in self._types:
            return self._types[qualified] is not None
        return any(self._declares_type(path, qualified) for path in self._files_for(qualified))

    def members(self, owner: str, name: str) -> list[CodeSymbol]:
        t = self.type_symbol(owner)
        if t is not None:
            return [s for s in self.file_symbols(t.path) if s.owner == owner and s.name == name]
        # a package's top-level declarations (Kotlin): the files of its folder
        return [s for path in self._files_for(owner) for s in self.file_symbols(path)
                if s.owner == owner and s.name == name]

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

    def linked(self, *, language: str, ref: str | None = None, qualified: str | None = None,
               owner: str | None = None, hint: str | tuple[str, ...] = "") -> list[CodeSymbol]:
        """Symbols of `language` ("code": those of every pack whose reader holds code) carrying `ref`, named `qualified`
        or owned by `owner`. Which files are read: every configuration file for "spring"; for
        mappers the `.xml` files that mention the namespace; for code the files that mention a
        word of `hint` (spellings of a key)."""
        if language == "spring":
            paths = [p for p in self.paths if symbol_language(p) == "spring"][:50]
        else:
            words = (hint,) if isinstance(hint, str) else hint
            words = tuple(w for w in words if w) or tuple(w for w in (
                owner, qualified.rpartition(".")[0] if language == "mybatis" and qualified else qualified) if w)[:1]
            if not words:
                return []
            globs = ("*.xml",) if language == "mybatis" else _code_globs()
            paths = list(dict.fromkeys(p for w in words for p in self._grep_files(w, globs)))[:200]
        out = []
        wanted = code_languages() if language == "code" else {language}
        for path in paths:
            for s in self.file_symbols(path):
                if s.language not in wanted:
                    continue
                if (ref is None or ref in s.refs) and (qualified is None or s.qualified_name == qualified) and (
                        owner is None or s.owner == owner):
                    out.append(s)
        return out

    def _grep_files(self, word: str, globs: tuple[str, ...] | None = None) -> list[str]:
        globs = globs or _code_globs()
        if self._grep is not None:
            return self._grep(word, *globs)
        pattern = re.compile(rb"(?<![\w$])" + re.escape(word.encode()) + rb"(?![\w$])")
        return [p for p in self.paths if any(fnmatchcase(p.rpartition("/")[2], g.rpartition("/")[2]) for g in globs)
                and (d := self._read(p)) is not None and pattern.search(d)]

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


def _code_globs() -> tuple[str, ...]:
    return tuple(g for p in packs() if p.symbols is not None and p.symbols.code for g in p.symbols.globs)


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
        self._mapped: dict[str, list[CodeSymbol]] = {}
        self._canon: dict[str, str | None] = {}

    def candidates(self, chunk) -> list[Candidate]:
        return [r.candidate() for r in self.retrieve(chunk)]

    def retrieve(self, chunk) -> list[RetrievedCode]:
        """Definitions, callers, overrides, mapper links, configuration and EDI references of one
        chunk, best first."""
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
            if pf.source is None and not pf.symbols:
                if pf.note and pf.language is not None:
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
        if pf.source is not None:
            return self._source(pf, changed)
        linker = {"edi": self._edi, "mybatis": self._mapper, "spring": self._config}.get(pf.language or "")
        return linker(pf, changed) if linker is not None and pf.symbols else []

    def _source(self, pf: ParsedFile, changed: set[int]) -> list[RetrievedCode]:
        """Java, Kotlin, Python: what the changed lines use, who calls what they change."""
        jf = pf.source
        assert jf is not None
        own = {d.type_name for d in jf.decls if d.is_type}
        exists = lambda q: q in own or self._canonical(q) is not None  # noqa: E731
        live = {s.symbol_id: s for s in code_symbols(pf, exists, repository=self.graph.repository)}
        live_by_owner: dict[tuple[str, str], list[CodeSymbol]] = {}
        for s in live.values():
            live_by_owner.setdefault((s.owner, s.name), []).append(s)

        def members(owner: str, name: str) -> list[CodeSymbol]:
            if owner in own or owner == jf.package and jf.module_scope and (owner, name) in live_by_owner:
                return live_by_owner.get((owner, name), [])
            return self.graph.members(self._canonical(owner) or owner, name)

        def type_symbol(q: str) -> CodeSymbol | None:
            if q in own:
                return next((s for s in live.values() if s.qualified_name == q and s.kind in TYPE_KINDS), None)
            canonical = self._canonical(q)
            return self.graph.type_symbol(canonical) if canonical else None

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
                        if not hits and jf.module_scope and r.owner == d.owner != jf.package:
                            # unqualified in Kotlin/Python: a top-level function of the package or module
                            hits = [s for s in members(jf.package, r.name) if s.kind in CALLABLE_KINDS]
                        defs += [(s, 1.0, f"{where} calls {_short(s)}") for s in hits]
                        if hits:
                            continue
                    # unresolved receiver (or inherited from outside): by name and arity
                    hits = [s for s in self.graph.by_name(r.name, ("method", "function")) if _arity_ok(s, r.argc)]
                    if 0 < len(hits) <= MAX_BY_NAME:
                        defs += [(s, 0.6, f"{where} calls {r.name} (matched by name)") for s in hits]
                elif r.kind == "new" and r.owner and not r.owner.startswith("~"):
                    ctors = [s for s in members(r.owner, r.name) + members(r.owner, "__init__")
                             if (s.kind == "constructor" or s.name == "__init__") and _arity_ok(s, r.argc)]
                    t = type_symbol(r.owner)
                    defs += [(s, 0.95, f"{where} constructs {_short(s)}") for s in ctors]
                    if t is not None and not ctors:
                        defs.append((t, 0.8, f"{where} constructs {t.qualified_name}"))
                elif r.kind == "new" and jf.module_scope and r.owner.startswith("~"):
                    # Kotlin's capitalised function (a DSL builder: `ModuleDefinition { }`)
                    hits = [s for s in members(jf.package, r.name) if s.kind == "function"] or [
                        s for s in self.graph.by_name(r.name, ("function",)) if _arity_ok(s, r.argc)][:MAX_BY_NAME]
                    defs += [(s, 0.8, f"{where} calls {r.name}") for s in hits]
                elif r.kind == "field" and r.owner and not r.owner.startswith("~"):
                    defs += [(s, 0.9, f"{where} uses {_short(s)}") for s in _hierarchy_fields(
                        r.owner, r.name, members, type_symbol, getter_first=jf.language == "kotlin")]
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
            # configuration keys the changed member reads (@Value, @ConfigurationProperties)
            defs += [(s, 0.9, why) for s, why in self._config_definitions(d.links, f"{pf.path}:{d.start}")]
            if d.kind == "field":  # a property of a @ConfigurationProperties class: its key, else the prefix
                holder = next((t for t in jf.decls if t.is_type and t.type_name == d.owner), None)
                for link in holder.links if holder is not None else ():
                    kind, _, prefix = link.partition(":")
                    if kind != "config-prefix":
                        continue
                    keys = self.graph.linked(language="spring", ref=f"config-key:{prefix}.{config_key(d.name)}")
                    defs += [(s, 0.95, f"{pf.path}:{d.start} binds {s.qualified_name}") for s in keys]
                    defs += [(s, 0.8 if keys else 0.9, f"{pf.path}:{d.start} is bound under {prefix}")
                             for s in self.graph.linked(language="spring", ref=f"config-key:{prefix}")]
        # one hop further: the SQL a mapper interface method runs, the keys a used field reads
        for s, confidence, why in list(defs):
            if s.kind in ("method", "function") and s.language in ("java", "kotlin"):
                defs += [(m, confidence * 0.95, f"{why}, which runs <{m.kind} id=\"{m.name}\">")
                         for m in self._statements(s.owner) if m.name == s.name]
            if s.refs and s.language in ("java", "kotlin"):
                defs += [(k, confidence * 0.9, f"{why}, which reads {k.qualified_name}")
                         for k, _ in self._config_definitions(s.refs, why)]
        this_ids = {s.symbol_id for s in live.values() if any(s.start_line <= n <= s.end_line for n in changed)
                    and s.kind not in TYPE_KINDS and s.kind != "file"}
        out += _ranked("definition", [(s, c, why) for s, c, why in defs if s.symbol_id not in this_ids])

        # callers and overrides of the members the change touches; mapper statements of mapper methods
        callers, overrides, mapped = [], [], []
        for d in touched:
            if d.kind not in CALLABLE_KINDS:
                continue
            name = d.name
            own_type = type_symbol(d.owner)
            supers = _supertypes(own_type, type_symbol)
            owners = {d.owner} | set(supers)
            if d.kind == "constructor" or name == "__init__":
                name = d.owner.rsplit(".", 1)[-1]  # `new Foo(...)`, `Foo(...)` name the type
            for s in self.graph.callers(name):
                if s.path == pf.path and any(s.start_line <= n <= s.end_line for n in changed):
                    continue
                match = [c for c in s.calls if c.split("#", 1)[-1].rsplit("/", 1)[0] == name
                         and _argc_ok(int(c.rsplit("/", 1)[1]), d.params)]
                exact = any(c.split("#", 1)[0] in owners for c in match)
                vague = any(c.split("#", 1)[0] == "" for c in match)
                if exact or vague:
                    callers.append((s, 1.0 if exact else 0.5, f"calls {d.owner.rsplit('.', 1)[-1]}.{name}"))
            if d.kind in ("method", "function") and own_type is not None:
                for sup in supers:
                    for s in members(sup, d.name):
                        if s.kind == "method" and len(s.params) == len(d.params):
                            overrides.append((s, 1.0, f"{d.owner.rsplit('.', 1)[-1]}.{d.name} overrides it"))
            if d.kind == "method" and jf.language in ("java", "kotlin"):
                mapped += [(m, 1.0, f"{d.owner.rsplit('.', 1)[-1]}.{d.name} runs it")
                           for m in self._statements(d.owner) if m.name == d.name]
        callers.sort(key=lambda c: -c[1])
        out += _ranked("caller", callers[:MAX_CALLERS], caller_window=True)
        out += _ranked("override", overrides)
        out += _ranked("mapper", mapped)
        return out

    def _canonical(self, qualified: str, depth: int = 4) -> str | None:
        """The declared name of a type: itself, or what a Python package re-exports under it
        (`requests.Session` is `requests.sessions.Session`: `from .sessions import Session` in
        `requests/__init__.py`). None when the repository declares neither."""
        if qualified in self._canon:
            return self._canon[qualified]
        self._canon[qualified] = None
        found = qualified if self.graph.type_exists(qualified) else None
        owner, _, name = qualified.rpartition(".")
        if found is None and owner and depth:
            module = self.graph.type_symbol(owner)
            if module is not None and module.kind == "module":
                target = next((i.removeprefix("static ") for i in module.imports
                               if i.removeprefix("static ").rsplit(".", 1)[-1] == name), None)
                if target and target != qualified:
                    found = self._canonical(target, depth - 1)
        self._canon[qualified] = found
        return found

    def _statements(self, owner: str) -> list[CodeSymbol]:
        """The MyBatis statements of a mapper namespace (cached per owner)."""
        if owner not in self._mapped:
            self._mapped[owner] = self.graph.linked(language="mybatis", owner=owner) if owner else []
        return self._mapped[owner]

    def _config_definitions(self, links: Iterable[str], where: str) -> list[tuple[CodeSymbol, str]]:
        out: list[tuple[CodeSymbol, str]] = []
        for link in links:
            kind, _, key = link.partition(":")
            if kind == "config":
                out += [(s, f"{where} reads {s.qualified_name}")
                        for s in self.graph.linked(language="spring", ref=f"config-key:{key}")]
            elif kind == "config-prefix":
                found = self.graph.linked(language="spring", ref=f"config-key:{key}")
                found += [s for s in self.graph.linked(language="spring", ref=f"config-under:{key}")
                          if s.kind == "config-key"][:MAX_LINKED]
                out += [(s, f"{where} binds {key}.*") for s in found]
        return out

    def _mapper(self, pf: ParsedFile, changed: set[int]) -> list[RetrievedCode]:
        """A changed MyBatis statement: the mapper interface method it implements, who calls that
        method, the `<sql>` and `<resultMap>` it uses, the statements that include a changed `<sql>`."""
        mapped, defs, callers = [], [], []
        units = [u for u in pf.symbols if any(u.start_line <= n <= u.end_line for n in changed)]
        for u in units:
            where = f"{pf.path}:{u.start_line}"
            methods = [s for s in self.graph.members(u.owner, u.name)
                       if s.language != "mybatis" and s.kind in CALLABLE_KINDS] if u.owner else []
            mapped += [(s, 1.0, f"{where} <{u.kind} id=\"{u.name}\"> implements {_short(s)}") for s in methods]
            for ref in u.refs:
                target = ref.partition(":")[2]
                local = [s for s in pf.symbols if s.qualified_name == target]
                hits = local or self.graph.linked(language="mybatis", qualified=target)
                defs += [(s, 1.0, f"{where} uses <{s.kind} id=\"{s.name}\">") for s in hits]
            if methods:
                for s in self.graph.callers(u.name):
                    if any(c.split("#", 1)[0] == u.owner and c.split("#", 1)[-1].rsplit("/", 1)[0] == u.name
                           for c in s.calls):
                        callers.append((s, 1.0, f"calls {u.owner.rsplit('.', 1)[-1]}.{u.name}"))
            if u.kind == "sql":
                callers += [(s, 0.8, f"includes <sql id=\"{u.name}\">")
                            for s in self.graph.linked(language="mybatis", ref=f"sql:{u.qualified_name}",
                                                       hint=u.owner)]
        out = _ranked("mapper", [m for m in mapped if m[0].path != pf.path])
        out += _ranked("definition", [d for d in defs if not any(d[0].symbol_id == u.symbol_id for u in units)])
        out += _ranked("caller", [c for c in callers if c[0].symbol_id not in {u.symbol_id for u in units}][:MAX_CALLERS],
                       caller_window=True)
        return out

    def _config(self, pf: ParsedFile, changed: set[int]) -> list[RetrievedCode]:
        """A changed configuration key: the code that reads it (`@Value`, `@ConfigurationProperties`
        of it or an enclosing prefix), and the same key set in the other configuration files."""
        users, others = [], []
        keys = [u for u in pf.symbols if u.kind == "config-key" and any(u.start_line <= n <= u.end_line for n in changed)]
        for u in keys:
            canon = config_key(u.qualified_name)
            words = _spellings(u.name if len(u.name) > 2 else u.qualified_name)
            users += [(s, 1.0, f"reads {u.qualified_name}")
                      for s in self.graph.linked(language="code", ref=f"config:{canon}", hint=words)]
            parts = canon.split(".")
            for i in range(len(parts) - 1, 0, -1):
                prefix = ".".join(parts[:i])
                written = ".".join(u.qualified_name.split(".")[:i])
                users += [(s, 0.9, f"binds {prefix}.* ({u.qualified_name})")
                          for s in self.graph.linked(language="code", ref=f"config-prefix:{prefix}",
                                                     hint=_spellings(written))]
            others += [(s, 0.7, f"{u.qualified_name} is also set in {s.path}")
                       for s in self.graph.linked(language="spring", ref=f"config-key:{canon}") if s.path != pf.path]
        out = _ranked("config", users[:MAX_LINKED * 2])
        out += _ranked("definition", others[:MAX_LINKED])
        return out

    def _edi(self, pf: ParsedFile, changed: set[int]) -> list[RetrievedCode]:
        refs: list[tuple[CodeSymbol, float, str]] = []
        units = [u for u in pf.symbols if any(u.start_line <= n <= u.end_line for n in changed)]
        top = [u for u in pf.symbols if u.kind in ("edi-flow", "edi-transform")]
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
    least, most = arity(params)
    return least <= argc and (most is None or argc <= most)


def _arity_ok(s: CodeSymbol, argc: int) -> bool:
    return s.kind not in CALLABLE_KINDS or _argc_ok(argc, s.params)


def _hierarchy_lookup(owner: str, name: str, argc: int, members, type_symbol, depth: int = 6) -> list[CodeSymbol]:
    seen: set[str] = set()
    frontier = [owner]
    for _ in range(depth):
        nxt = []
        for o in frontier:
            if o in seen:
                continue
            seen.add(o)
            hits = [s for s in members(o, name) if s.kind in ("method", "function")]
            if hits:
                exact = [s for s in hits if _argc_ok(argc, s.params)]
                return exact or hits[:MAX_BY_NAME]
            accessor = _ACCESSOR.match(name)
            if accessor and argc <= 1:  # Java's getName() on a Kotlin `val name` (or a Lombok field)
                prop = accessor.group(1)[:1].lower() + accessor.group(1)[1:]
                fields = [s for s in members(o, prop) if s.kind == "field"]
                if fields:
                    return fields
            t = type_symbol(o)
            if t is not None:
                nxt += [x for x in t.supertypes if x and not x.startswith("~")]
                if t.kind == "facade" and t.owner:
                    nxt.append(t.owner)  # Java's FooKt.bar(): Kotlin's top-level bar of the package
                if t.kind in ("class", "interface"):
                    nxt.append(f"{o}.Companion")  # Kotlin's Foo.bar() on a companion object
            if "." in o and type_symbol(o.rpartition(".")[0]) is not None:
                nxt.append(o.rpartition(".")[0])  # a nested class calling its outer class's method
        frontier = nxt
        if not frontier:
            break
    return []


def _hierarchy_fields(owner: str, name: str, members, type_symbol, depth: int = 6, *,
                      getter_first: bool = False) -> list[CodeSymbol]:
    """A field (Kotlin property, Python attribute) of the type or its supertypes; for a Kotlin
    property read (`getter_first`) on a Java type, its getter (the field is private)."""
    o = owner
    getters = (f"get{name[:1].upper()}{name[1:]}", f"is{name[:1].upper()}{name[1:]}") if name else ()
    for _ in range(depth):
        fields = [s for s in members(o, name) if s.kind == "field"]
        accessors = [s for g in getters for s in members(o, g) if s.kind == "method" and not s.params] \
            if getter_first or not fields else []
        hits = accessors or fields if getter_first else fields or accessors
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


def _spellings(key: str) -> tuple[str, ...]:
    """The ways code may write a configuration key (relaxed binding): as written, kebab-case,
    camelCase."""
    kebab = re.sub(r"([a-z0-9])([A-Z])", r"\1-\2", key).replace("_", "-").lower()
    camel = re.sub(r"[-_]([a-zA-Z0-9])", lambda m: m.group(1).upper(), key)
    return tuple(dict.fromkeys((key, kebab, camel)))


def _short(s: CodeSymbol) -> str:
    owner = s.owner.rsplit(".", 1)[-1]
    return f"{owner}.{s.name}" if owner else s.name


@lru_cache(maxsize=4096)
def _strip_strings(line: str) -> str:
    line = re.sub(r'"(?:[^"\\]|\\.)*"', '""', line)
    return line.split("//", 1)[0]
