"""Source files -> CodeSymbols, through the language packs' symbol readers
(`LanguagePack.symbols`: Java, Kotlin and Python declarations with their references; EDI documents,
MyBatis mapper statements and Spring configuration keys with the links written in them), with the
references inside each member resolved to repository types where that is cheap.

Shared by the offline indexer (indexers/code) and the index-less retriever (dualrag/retrieval/code):

    parsed = parse_source(path, data)                  # ParsedFile: a SourceFile or symbols, note on failure
    symbols = code_symbols(parsed, exists, repository="lang", blob="…")
    refs = resolve_refs(parsed.source, decl, exists)   # ResolvedRef(kind, owner, name, argc, line)

`exists(qualified) -> bool` says whether the repository declares a type; it turns guesses from
imports, the package and wildcard imports into one qualified name, or into `~Name` (outside).
Resolution is the same for Java, Kotlin and Python (`dualrag.parsing.symbol_model`), so a Kotlin
call to a Java method, or Java's `new` of a Kotlin class, resolves like a Java one.
"""

from __future__ import annotations

import posixpath
from collections.abc import Callable
from dataclasses import dataclass, field

from dualrag.languages.pack import SymbolReader
from dualrag.languages.registry import pack_for, packs, recognise
from dualrag.parsing.symbol_model import CALLABLE_KINDS, Decl, SourceFile, type_name
from dualrag.source.encoding import decode
from dualrag.units import MAX_SYMBOL_BODY, CodeSymbol

Exists = Callable[[str], bool]
MAX_SOURCE_BYTES = 4_000_000  # above this a file is reported and skipped (a generated monster)
MAX_SOURCE_LINES = 60_000
MAX_MEMBERS_PER_FILE = 2_000  # a class with more members is generated; its types and the first members are kept
JavaFile = SourceFile  # the name earlier callers import
# Bumped when a reader gives other symbols for the same file: an index written before reads every file again.
READERS_VERSION = "2"


def symbol_reader(path: str, text: str | None = None) -> SymbolReader | None:
    """The code index's reader of a file (from its pack), or None for a file it does not index.
    `text` lets content-sniffing packs claim a file (a MyBatis mapper among `.xml` files)."""
    pack = pack_for(recognise(path, text))
    if pack is not None and pack.symbols is not None:
        return pack.symbols
    if path.lower().rsplit("/", 1)[-1] == "partners.xml":  # the EDI partner registry
        edi = pack_for("edi-flow")
        return edi.symbols if edi is not None else None
    return None


def symbol_language(path: str, text: str | None = None) -> str | None:
    """The code index's language of a file ("java", "kotlin", "python", "edi", "mybatis", "spring"),
    or None for a file it does not index (by its name alone unless `text` is given)."""
    reader = symbol_reader(path, text)
    return reader.language if reader is not None else None


def symbol_candidate(path: str) -> bool:
    """Whether the index should read a file: a reader claims it by its name, or a pack that
    recognises its files by content and has a reader may (every `.xml` may be a MyBatis mapper)."""
    if symbol_language(path) is not None:
        return True
    name = path.lower().rsplit("/", 1)[-1]
    suffix = name[name.rfind("."):] if "." in name else ""
    return bool(suffix) and suffix in _sniffed_suffixes()


def _sniffed_suffixes() -> frozenset[str]:
    return frozenset(e for p in packs() if p.symbols is not None and p.sniff is not None for e in p.sniff_extensions)


def source_globs() -> tuple[str, ...]:
    """git pathspecs of every file some reader may read (the checkout graph lists these)."""
    return tuple(dict.fromkeys(g for p in packs() if p.symbols is not None for g in p.symbols.globs))


@dataclass
class ParsedFile:
    path: str
    language: str | None
    source: SourceFile | None = None  # declarations and references (Java, Kotlin, Python)
    symbols: list[CodeSymbol] = field(default_factory=list)  # documents complete once read (EDI, mappers, keys)
    text: str = ""
    encoding: str = "utf-8"
    note: str | None = None  # why the file gave no or partial symbols

    @property
    def java(self) -> SourceFile | None:
        """The declarations of a Java, Kotlin or Python file (the name earlier callers use)."""
        return self.source

    @property
    def edi(self) -> list[CodeSymbol]:
        return self.symbols if self.language == "edi" else []


@dataclass(frozen=True, slots=True)
class ResolvedRef:
    kind: str  # call | new | type | field | mref | super-call
    owner: str  # qualified repository type, `~Name` outside the repository, "" unknown
    name: str
    argc: int
    line: int

    @property
    def key(self) -> str:
        return f"{self.owner}#{self.name}/{self.argc}"


def parse_source(path: str, data: bytes, *, max_bytes: int = MAX_SOURCE_BYTES,
                 max_lines: int = MAX_SOURCE_LINES) -> ParsedFile:
    """Parse one file's bytes with its pack's reader. Never raises: problems become `note`."""
    reader = symbol_reader(path)
    out = ParsedFile(path=path, language=reader.language if reader is not None else None)
    if reader is None and not symbol_candidate(path):
        out.note = "no symbol reader for this file"
        return out
    if len(data) > max_bytes:
        out.note = f"skipped: {len(data) / 1e6:.1f} MB is above {max_bytes / 1e6:.0f} MB"
        return out
    if b"\0" in data[:8000]:
        out.note = "skipped: binary content"
        return out
    text, out.encoding = decode(data)
    if reader is None:
        reader = symbol_reader(path, text)
        if reader is None:
            out.note = "no symbol reader for this file"
            return out
        out.language = reader.language
    out.text = text
    lines = text.count("\n") + 1
    if lines > max_lines:
        out.note = f"skipped: {lines:,} lines is above {max_lines:,} (generated?)"
        out.text = ""
        return out
    try:
        read = reader.read(path, text, data)
    except Exception as exc:  # noqa: BLE001 - one broken document never stops an index
        out.note = f"{reader.language} file not read: {type(exc).__name__}: {exc}"
        return out
    if isinstance(read, SourceFile):
        out.source = read
        if read.error:
            out.note = read.error
        members = [d for d in read.decls if not d.is_type]
        if len(members) > MAX_MEMBERS_PER_FILE:
            keep = {id(d) for d in members[:MAX_MEMBERS_PER_FILE]}
            read.decls = [d for d in read.decls if d.is_type or id(d) in keep]
            out.note = (f"{len(members):,} members (generated?): only the first {MAX_MEMBERS_PER_FILE:,} indexed"
                        + (f"; {out.note}" if out.note else ""))
    else:
        out.symbols = list(read or ())
    return out


# ----------------------------------------------------------------------------------- resolution


def qualify(jf: SourceFile, written: str | None, exists: Exists, context: str = "") -> str:
    """Qualified repository type for a written type name, `~Name` when it is not in the repository,
    "" when nothing is written."""
    if not written:
        return ""
    found = jf.qualify(written, exists, context=context)
    if found:
        return found[0]
    name = type_name(written)
    return f"~{name}" if name else ""


def _declares(jf: SourceFile, owner: str, name: str) -> bool:
    return any(d.owner == owner and d.name == name and d.kind in CALLABLE_KINDS for d in jf.decls)


def resolve_refs(jf: SourceFile, decl: Decl, exists: Exists) -> list[ResolvedRef]:
    """The references of a member with owners qualified (see module doc)."""
    out: list[ResolvedRef] = []
    own_type = next((d for d in jf.decls if d.is_type and _q(d) == decl.owner), None)
    for r in decl.refs:
        if r.kind == "type":
            q = qualify(jf, r.receiver_type, exists, decl.owner)
            if q and not q.startswith("~"):
                out.append(ResolvedRef("type", q, q.rsplit(".", 1)[-1], -1, r.line))
            continue
        if r.kind == "new":
            q = qualify(jf, r.receiver_type, exists, decl.owner)
            out.append(ResolvedRef("new", q, (q.lstrip("~") or r.name).rsplit(".", 1)[-1], r.argc, r.line))
            continue
        if r.kind == "super-call":
            if r.receiver_type == "super":
                sup = own_type.supertypes[0] if own_type and own_type.kind == "class" and own_type.supertypes else ""
                q = qualify(jf, sup, exists, _outer(decl.owner)) if sup else "~Object"
            else:
                q = decl.owner
            out.append(ResolvedRef("new", q, q.lstrip("~").rsplit(".", 1)[-1], r.argc, r.line))
            continue
        owner = ""
        if r.receiver is None:  # unqualified: this type or an outer one, a static import, else inherited
            scope = decl.owner
            while scope and not _declares(jf, scope, r.name):
                scope = scope.rpartition(".")[0] if "." in scope else ""
                if jf.package and scope == jf.package:
                    scope = ""
            if not scope and jf.module_scope and _declares(jf, jf.package, r.name):
                scope = jf.package  # a Kotlin top-level or Python module-level function of this file
            if scope:
                owner = scope
            elif r.name in jf.static_imports:
                target = jf.static_imports[r.name]
                owner = qualify(jf, target, exists) or target
                if owner.startswith("~") and jf.module_scope and target[:1].islower():
                    owner = target  # a Kotlin top-level function imported from its package
            elif r.kind == "call":
                owner = decl.owner
        elif r.receiver_type == "super":
            sup = own_type.supertypes[0] if own_type and own_type.supertypes else ""
            owner = qualify(jf, sup, exists, _outer(decl.owner)) if sup else "~Object"
        elif r.receiver_type:
            owner = qualify(jf, r.receiver_type, exists, decl.owner)
        out.append(ResolvedRef(r.kind, owner, r.name, r.argc, r.line))
    return out


def _outer(owner: str) -> str:
    return owner.rpartition(".")[0]


def _q(d: Decl) -> str:
    return f"{d.owner}.{d.name}" if d.owner else d.name


# ----------------------------------------------------------------------------------- symbols


def code_symbols(parsed: ParsedFile, exists: Exists, *, repository: str, commit: str = "",
                 blob: str = "") -> list[CodeSymbol]:
    """The CodeSymbols of one parsed file, plus one `file` symbol that records its blob (so a file
    without declarations is not parsed again by an incremental index)."""
    path = parsed.path
    out: list[CodeSymbol] = []
    jf = parsed.source
    if jf is not None:
        seen: set[str] = set()
        lines = parsed.text.split("\n")
        for d in jf.decls:
            qualified = d.qualified
            sid = f"{path}#{qualified}"
            if sid in seen:  # anonymous classes in one method may repeat a name
                sid = f"{sid}@{d.start}"
            seen.add(sid)
            calls, names, fields, types = [], [], [], []
            # in a stable order: the same file gives the same symbol (an unchanged content hash)
            for r in sorted(resolve_refs(jf, d, exists), key=lambda r: (r.line, r.kind, r.name, r.owner, r.argc)):
                if r.kind in ("call", "new", "mref", "super-call"):
                    calls.append(r.key)
                    names.append(r.name)
                elif r.kind == "field":
                    fields.append(f"{r.owner}#{r.name}")
                elif r.kind == "type":
                    types.append(r.owner)
            body = d.body
            if d.is_type and not body:
                body = d.signature + " { … }"
            elif not body:
                body = "\n".join(lines[d.start - 1 : d.end])
            out.append(CodeSymbol(
                symbol_id=sid, kind=d.kind, language=jf.language, name=d.name,
                qualified_name=qualified, owner=d.owner, path=path, start_line=d.start, end_line=d.end,
                signature=d.signature, doc=d.doc, body=body[: MAX_SYMBOL_BODY + 40], params=list(d.params),
                type=d.type, static=d.static,
                supertypes=[qualify(jf, s, exists, _outer(_q(d))) for s in d.supertypes] if d.is_type else [],
                calls=_uniq(calls), call_names=_uniq(names), field_refs=_uniq(fields), type_refs=_uniq(types),
                refs=_uniq(d.links),
                # a Python module's imports are what it re-exports (`from .sessions import Session`)
                imports=_imports(jf) if d.is_type and (d.owner == jf.package or d.kind == "module") else [],
                repository=repository, commit=commit, blob=blob,
            ))
    out.extend(s.model_copy(update={"repository": repository, "commit": commit, "blob": blob}) for s in parsed.symbols)
    package = jf.package if jf is not None else ""
    out.append(CodeSymbol(
        symbol_id=f"{path}#<file>", kind="file", language=parsed.language or "other",
        name=posixpath.basename(path), qualified_name=path, owner=package, path=path, start_line=1,
        end_line=max(1, parsed.text.count("\n") + 1), signature=parsed.note or "",
        imports=_imports(jf) if jf is not None else [],
        repository=repository, commit=commit, blob=blob,
    ))
    return out


def _imports(jf: SourceFile) -> list[str]:
    return (list(jf.imports) + [f"{w}.*" for w in jf.wildcards]
            + [f"static {t}.{m}" for m, t in jf.static_imports.items()] + [f"static {t}.*" for t in jf.static_wildcards])


def _uniq(items: list[str]) -> list[str]:
    return list(dict.fromkeys(i for i in items if i))
