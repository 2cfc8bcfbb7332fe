"""Code context on the corpus: sampled call sites, mapper statements and `@Value` keys each become a
one-line change, and the code retriever (on the tree's code index) must bring the declaration the
oracle names (packs.py's docstring says what each kind checks)."""

from __future__ import annotations

import random
import re
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path

import yaml

from dualrag.chunking import HunkSlice
from dualrag.diff.hunks import DiffLine
from dualrag.parsing.symbol_model import CALLABLE_KINDS, config_key
from dualrag.retrieval.code import CodeRetriever, StoreGraph
from dualrag.store.code import open_code_store
from evaluation.languages.corpus import Tree
from indexers.code import index_repository

# names too common in libraries to trust a unique repository declaration as the callee
COMMON = frozenset("""get set add put remove size run apply let also equals toString hashCode close start stop
init update invoke value values of copy clear contains isEmpty length append format join split map filter
forEach first last next read write keys items sort error warn info debug log print println call send emit
create build parse load save find open check reset with use from to list dict str len iter any all min max
sum round hash type super repr main test setUp tearDown push pop shift insert delete execute accept handle
register resolve compare compareTo iterator getValue setValue getName getId release dispose onCreate onDestroy
""".split())  # noqa: SIM905



def _chunk(path: str, line: int, text: str):
    hunk = HunkSlice(path, line, 1, line, 1, "", (DiffLine("+", None, line, text),))

    class One:
        files = (path,)
        hunks = (hunk,)

    return One()


def code_context(trees: list[Tree], store_dir: Path, sample: int, seed: int) -> dict[str, Counter]:
    out: dict[str, Counter] = defaultdict(Counter)
    rng = random.Random(seed)
    with open_code_store(store_dir) as cs:
        for i, tree in enumerate(trees):
            name = f"t{i}"
            started = time.perf_counter()
            report = index_repository(tree.root, cs, name=name)
            print(f"  indexed {tree.name}: {report.files} files, {report.symbols} symbols, "
                  f"{time.perf_counter() - started:.0f} s", file=sys.stderr)
            symbols = [s for s in cs.symbols(name) if s.kind != "file"]
            graph = StoreGraph(cs, name, read_file=lambda p, r=tree.root: (r / p).read_bytes()
                               if (r / p).is_file() else None)
            retriever = CodeRetriever(graph, read_file=graph.read, max_items=40)
            _calls(tree, symbols, retriever, rng, sample, out)
            _mappers(tree, symbols, retriever, rng, sample, out)
            _spring(tree, symbols, retriever, rng, sample, out)
    return out


def _lines(root: Path, path: str) -> list[str]:
    return (root / path).read_text("utf-8", "replace").split("\n")


def _calls(tree: Tree, symbols, retriever, rng, sample: int, out) -> None:
    declared = defaultdict(list)
    for s in symbols:
        if s.kind in ("method", "function") and s.language in ("java", "kotlin", "python"):
            declared[s.name].append(s)
    unique = {n: v[0] for n, v in declared.items() if len(v) == 1 and n not in COMMON and len(n) > 3}
    cases = []
    for s in symbols:
        if s.language not in ("kotlin", "python", "java") or s.kind not in CALLABLE_KINDS:
            continue
        for key in s.calls:
            callee = key.split("#", 1)[-1].rsplit("/", 1)[0]
            # a callee that is a parameter of the caller (a pytest fixture, a callback) is no declaration's call
            if callee in unique and unique[callee].symbol_id != s.symbol_id and not re.search(
                    rf"\b{re.escape(callee)}\b", s.signature.partition("(")[2]):
                cases.append((s, callee, unique[callee]))
    by_kind = defaultdict(list)
    for caller, callee, target in cases:
        kind = f"{caller.language}->{target.language}" if caller.language != target.language else caller.language
        if caller.language == "java" and target.language == "java":
            continue
        by_kind[kind].append((caller, callee, target))
    for kind, items in sorted(by_kind.items()):
        rng.shuffle(items)
        for caller, callee, target in items[:sample]:
            lines = _lines(tree.root, caller.path)
            line = next((n for n in range(caller.start_line, min(caller.end_line, len(lines)) + 1)
                         if re.search(rf"\b{re.escape(callee)}\s*(\(|\{{|$)", lines[n - 1])), None)
            if line is None:
                continue
            # the oracle, by the text alone: `Other.callee(` names another class than the declaration's
            receiver = re.search(rf"\b([A-Z]\w*)\s*\??\.\s*{re.escape(callee)}\b", lines[line - 1])
            owner = target.owner.rsplit(".", 1)[-1]
            if receiver and receiver.group(1) not in (owner, "Companion") and target.kind != "function":
                out[f"calls {kind}"]["left out: another class named as receiver"] += 1
                continue
            got = retriever.retrieve(_chunk(caller.path, line, lines[line - 1]))
            hit = any(r.relation == "definition" and r.symbol.path == target.path
                      and r.symbol.start_line == target.start_line for r in got)
            out[f"calls {kind}"]["cases"] += 1
            out[f"calls {kind}"]["found"] += hit
            if not hit and len(out[f"calls {kind}:misses"]) < 4:
                out[f"calls {kind}:misses"][f"{caller.path}:{line} {callee} -> {target.path}:{target.start_line}"] += 1


def _mappers(tree: Tree, symbols, retriever, rng, sample: int, out) -> None:
    methods = {(s.owner, s.name): s for s in symbols if s.language in ("java", "kotlin") and s.kind == "method"}
    interfaces = {s.qualified_name for s in symbols if s.kind == "interface"}
    pairs = [(st, methods[(st.owner, st.name)]) for st in symbols if st.language == "mybatis"
             and st.kind in ("select", "insert", "update", "delete") and st.owner in interfaces
             and (st.owner, st.name) in methods]
    rng.shuffle(pairs)
    for st, method in pairs[:sample]:
        lines = _lines(tree.root, st.path)
        got = retriever.retrieve(_chunk(st.path, st.start_line, lines[st.start_line - 1]))
        out["mapper XML -> interface method"]["cases"] += 1
        out["mapper XML -> interface method"]["found"] += any(
            r.symbol.symbol_id == method.symbol_id and r.relation == "mapper" for r in got)
        lines = _lines(tree.root, method.path)
        got = retriever.retrieve(_chunk(method.path, method.start_line, lines[method.start_line - 1]))
        out["interface method -> mapper XML"]["cases"] += 1
        out["interface method -> mapper XML"]["found"] += any(
            r.symbol.symbol_id == st.symbol_id and r.relation == "mapper" for r in got)


def _yaml_keys(text: str, prefix: str = "") -> set[str]:
    out: set[str] = set()
    try:
        docs = list(yaml.safe_load_all(text))
    except yaml.YAMLError:
        return out

    def walk(node, path: str) -> None:
        if isinstance(node, dict):
            for k, v in node.items():
                p = f"{path}.{k}" if path else str(k)
                out.add(config_key(p))
                walk(v, p)

    for d in docs:
        walk(d, prefix)
    return out


def _spring(tree: Tree, symbols, retriever, rng, sample: int, out) -> None:
    keys: set[str] = set()
    for f in tree.root.rglob("*"):
        if f.is_file() and re.fullmatch(r"(application|bootstrap).*\.(ya?ml|properties)", f.name):
            text = f.read_text("utf-8", "replace")
            if f.suffix == ".properties":
                keys |= {config_key(m) for m in re.findall(r"(?m)^\s*([^#!\s=:][^=:\s]*)\s*[=:]", text)}
            else:
                keys |= _yaml_keys(text)
    if not keys:
        return
    cases = []
    for s in symbols:
        for ref in s.refs:
            kind, _, key = ref.partition(":")
            if kind == "config" and key in keys:
                cases.append((s, key))
    rng.shuffle(cases)
    for s, key in cases[:sample]:
        lines = _lines(tree.root, s.path)
        line = next((n for n in range(s.start_line, s.end_line + 1) if "${" in lines[n - 1]), s.start_line)
        got = retriever.retrieve(_chunk(s.path, line, lines[line - 1]))
        out["@Value -> key definition"]["cases"] += 1
        out["@Value -> key definition"]["found"] += any(
            r.relation == "definition" and r.symbol.language == "spring" and config_key(r.symbol.qualified_name) == key
            for r in got)
    # the other way: a changed key brings the code that reads it
    users = defaultdict(set)
    for s, key in cases:
        users[key].add(s.symbol_id)
    defs = [s for s in symbols if s.language == "spring" and s.kind == "config-key"
            and config_key(s.qualified_name) in users]
    rng.shuffle(defs)
    for d in defs[:sample]:
        lines = _lines(tree.root, d.path)
        got = retriever.retrieve(_chunk(d.path, d.start_line, lines[d.start_line - 1]))
        out["key -> code reading it"]["cases"] += 1
        out["key -> code reading it"]["found"] += any(
            r.relation == "config" and r.symbol.symbol_id in users[config_key(d.qualified_name)] for r in got)

