"""The registry of language packs: the built-in packs, then every pack a distribution declares
under the entry-point group `dualrag.languages`, then packs registered at run time
(`register(pack)`). A later pack with the same name replaces an earlier one, and later packs
are asked first when two claim the same file: a team's pack overrides a built-in one.

An entry point names a `LanguagePack`, a list of them, or a callable returning either:

    [project.entry-points."dualrag.languages"]
    go = "dualrag_go:PACK"

A pack that fails to load is reported once on stderr and left out: a review never stops for it.
"""

from __future__ import annotations

import fnmatch
import importlib
import sys
import threading
from collections.abc import Iterable
from functools import lru_cache
from importlib import metadata
from typing import Any

from dualrag.languages import grammars
from dualrag.languages.pack import Grammar, LanguagePack, Specialist

GROUP = "dualrag.languages"
# module:attribute of each built-in pack, registered in this order (later ones are asked first)
BUILTIN = (
    "dualrag.languages.xml:XML", "dualrag.languages.xml:MAVEN_POM",
    "dualrag.languages.java:PACK",
    "dualrag.languages.edi:FLOW", "dualrag.languages.edi:DT", "dualrag.languages.edi:MESSAGE",
    "dualrag.languages.python:PACK", "dualrag.languages.sql:PACK", "dualrag.languages.mybatis:PACK",
    "dualrag.languages.kotlin:PACK",
    "dualrag.languages.spring:YAML", "dualrag.languages.spring:PROPERTIES",
)

_lock = threading.RLock()
_packs: dict[str, LanguagePack] = {}
_loaded = False
_failed: list[str] = []


def _load() -> None:
    global _loaded
    if _loaded:
        return
    with _lock:
        if _loaded:
            return
        for ref in BUILTIN:
            for pack in _resolve(_attribute(ref)):
                _packs[pack.name] = pack
        for ep in _entry_points():
            try:
                loaded = list(_resolve(ep.load()))
            except Exception as exc:  # noqa: BLE001 - a broken plug-in costs its language only
                _warn(f"language pack {ep.name!r} ({ep.value}) not loaded: {type(exc).__name__}: {exc}")
                continue
            for pack in loaded:
                _packs.pop(pack.name, None)
                _packs[pack.name] = pack
        _loaded = True
        _clear_caches()


def _entry_points() -> Iterable[metadata.EntryPoint]:
    try:
        return metadata.entry_points(group=GROUP)
    except Exception as exc:  # noqa: BLE001 - a broken installation's metadata costs the plug-ins only
        _warn(f"language pack entry points not read: {exc}")
        return ()


def _attribute(ref: str) -> Any:
    module, _, attr = ref.partition(":")
    return getattr(importlib.import_module(module), attr)


def _resolve(obj: Any) -> Iterable[LanguagePack]:
    if callable(obj) and not isinstance(obj, LanguagePack):
        obj = obj()
    items = [obj] if isinstance(obj, LanguagePack) else list(obj)
    for item in items:
        if not isinstance(item, LanguagePack):
            raise TypeError(f"not a LanguagePack: {item!r}")
    return items


def _warn(message: str) -> None:
    if message not in _failed:
        _failed.append(message)
        print(f"dualrag: warning: {message}", file=sys.stderr)


def register(pack: LanguagePack) -> LanguagePack:
    """Add (or replace, by name) a pack; it is asked before every pack registered earlier."""
    if not isinstance(pack, LanguagePack):
        raise TypeError(f"not a LanguagePack: {pack!r}")
    _load()
    with _lock:
        _packs.pop(pack.name, None)
        _packs[pack.name] = pack
        _clear_caches()
    return pack


def reload() -> None:
    """Forget packs registered at run time and read the built-ins and entry points again (a
    distribution installed since the first use is picked up)."""
    global _loaded
    with _lock:
        _packs.clear()
        _failed.clear()
        _loaded = False
    _load()


def unregister(name: str) -> LanguagePack | None:
    _load()
    with _lock:
        pack = _packs.pop(name, None)
        _clear_caches()
    return pack


def packs() -> tuple[LanguagePack, ...]:
    """Every registered pack, in registration order."""
    _load()
    return tuple(_packs.values())


def pack_for(language: str | None) -> LanguagePack | None:
    """The pack of a file language (`FileDiff.language`), or None."""
    if not language:
        return None
    _load()
    return _packs.get(language)


# ------------------------------------------------------------------------------- recognition


def recognise(path: str, text: str | None = None) -> str | None:
    """The pack language of a file, or None when no pack claims it. `text` (the file, or the
    diff's text of it) lets content sniffers and shebangs decide."""
    name = path.rpartition("/")[2].lower()
    dot = name.rfind(".")
    suffix = name[dot:] if dot > 0 else ""
    ordered = _ordered()
    if text is not None:
        for pack in ordered:
            if pack.sniff is not None and suffix in pack.sniff_extensions and _sniffs(pack, path, text):
                return pack.name
    by_name = _by_filename(name)
    if by_name is not None:
        return by_name
    if suffix:
        found = _by_suffix().get(suffix)
        if found is not None:
            return found
    elif text is not None:
        return shebang_language(text)
    return None


def _sniffs(pack: LanguagePack, path: str, text: str) -> bool:
    try:
        return bool(pack.sniff(path, text))
    except Exception as exc:  # noqa: BLE001 - a sniffer bug costs the sniff, never the review
        _warn(f"language pack {pack.name!r}: sniffing {path} failed: {type(exc).__name__}: {exc}")
        return False


def shebang_language(text: str) -> str | None:
    """The pack whose interpreter the first `#!` line names (`#!/usr/bin/env python3`)."""
    first = next(iter(_first_lines(text)), "")
    if first[:1] in ("+", " ") and first[1:3] == "#!":
        first = first[1:]
    if not first.startswith("#!"):
        return None
    parts = first[2:].split()
    program = parts[0].rsplit("/", 1)[-1] if parts else ""
    if program == "env":
        rest = [p for p in parts[1:] if not p.startswith("-") and "=" not in p]
        program = rest[0].rsplit("/", 1)[-1] if rest else ""
    for pack in _ordered():
        for name in pack.shebangs:
            if program == name or program.startswith(name) and not program[len(name):].strip("0123456789."):
                return pack.name
    return None


def _first_lines(text: str) -> Iterable[str]:
    """The first line of a file, or of the first hunk of a diff of it."""
    if text.startswith(("diff --git", "--- ", "@@")) or "\n@@ -" in text[:2000]:
        at = text.find("@@ -0,0 +1")
        if at < 0:
            at = text.find("@@ -1,")
        if at < 0:
            return ()
        body = text[text.find("\n", at) + 1:]
        return (body.split("\n", 1)[0],)
    return (text.split("\n", 1)[0],)


@lru_cache(maxsize=1)
def _ordered() -> tuple[LanguagePack, ...]:
    _load()
    return tuple(reversed(_packs.values()))


@lru_cache(maxsize=1)
def _by_suffix() -> dict[str, str]:
    out: dict[str, str] = {}
    for pack in _ordered():
        for ext in pack.extensions:
            out.setdefault(ext.lower(), pack.name)
    return out


@lru_cache(maxsize=4096)
def _by_filename(name: str) -> str | None:
    for pack in _ordered():
        for pattern in pack.filenames:
            if name == pattern or any(c in pattern for c in "*?[") and fnmatch.fnmatchcase(name, pattern):
                return pack.name
    return None


# ------------------------------------------------------------------------------- meaning


def project_type(languages: Iterable[str], default: str = "generic") -> str:
    """The change's type from its files' languages: the type of the highest-priority pack that
    gives one (EDI over Java), else `default`."""
    best: tuple[int, str] | None = None
    for language in set(languages):
        pack = pack_for(language)
        if pack is not None and pack.project_type and (best is None or pack.priority > best[0]):
            best = (pack.priority, pack.project_type)
    return best[1] if best else default


def file_project_type(language: str, default: str = "generic") -> str:
    pack = pack_for(language)
    return pack.project_type if pack is not None and pack.project_type else default


def project_types() -> frozenset[str]:
    """Every project type a rule may name: generic plus those the packs give."""
    return frozenset({"generic", *(p.project_type for p in packs() if p.project_type)})


def specialists(languages: Iterable[str] | None = None, project_type: str | None = None) -> tuple[Specialist, ...]:
    """The specialist reviewers the packs of these file languages bring (each once, in pack order);
    without languages, those of the packs that give `project_type` (an EDI change: the EDI reviewer)."""
    if languages is not None:
        wanted = set(languages)
        chosen = [p for p in packs() if p.name in wanted]
    else:
        chosen = [p for p in packs() if project_type and p.project_type == project_type]
    out: dict[str, Specialist] = {}
    for pack in chosen:
        for spec in pack.reviewers:
            out.setdefault(spec.name, spec)
    return tuple(out.values())


def all_specialists() -> dict[str, tuple[Specialist, tuple[str, ...]]]:
    """Every pack specialist by name, with the languages that bring it."""
    out: dict[str, tuple[Specialist, tuple[str, ...]]] = {}
    for pack in packs():
        for spec in pack.reviewers:
            known, langs = out.get(spec.name, (spec, ()))
            out[spec.name] = (known, (*langs, pack.name))
    return out


def code_languages() -> frozenset[str]:
    """The code-index languages whose files hold calls (their readers' `code`): Java, Kotlin, Python..."""
    return frozenset(p.symbols.language for p in packs() if p.symbols is not None and p.symbols.code)


def grammar_of(name: str) -> Grammar | None:
    """The grammar of a pack (by language) or a grammar by its own name."""
    pack = pack_for(name)
    if pack is not None:
        return pack.grammar
    for p in packs():
        if p.grammar is not None and p.grammar.name == name:
            return p.grammar
    return None


def grammar_languages() -> frozenset[str]:
    """Languages (and grammar names) a tree-sitter detector may target."""
    out = set()
    for p in packs():
        if p.grammar is not None:
            out.update((p.name, p.grammar.name))
    return frozenset(out)


def _clear_caches() -> None:
    for fn in (_ordered, _by_suffix, _by_filename):
        fn.cache_clear()


def parser(name: str):
    """A tree-sitter Parser for a pack's language or a grammar name ("java", "xml", "mybatis")."""
    grammar = grammar_of(name)
    if grammar is None:
        raise ValueError(f"no grammar for {name!r}")
    return grammars.parser(grammar)


def language(name: str):
    """The tree-sitter Language of a pack's language or a grammar name."""
    grammar = grammar_of(name)
    if grammar is None:
        raise ValueError(f"no tree-sitter grammar for {name!r}")
    return grammars.language(grammar)
