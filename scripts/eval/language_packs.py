#!/usr/bin/env python
"""The new language packs (Kotlin, Python, MyBatis, Spring) on real public code (issue 26, item 4).

    .venv/bin/python -m scripts.eval.language_packs [--snapshot NAME=GITDIR@COMMIT ...]
        [--cache .dualrag/lang-corpus] [--sample 150] [--budgets 1500,4000] [--seed 7]

Fetches the packages of scripts/eval/lang_corpus/packages.txt (PyPI sdists with `pip download`, npm
tarballs with `npm pack`; provenance and licences in scripts/eval/lang_corpus/SOURCE.md) into the cache,
plus the git snapshots given with --snapshot (MyBatis and Spring Boot projects: no registry ships
them). Per language it prints:

- chunk cuts: the real diffs (each package's old -> new version; the last commits of a snapshot's
  history that touch the language) are chunked at each --budget with the new files at hand; every
  place where one file's added lines continue in another chunk is a cut (removal-only slices and
  context lines are left out: they belong to old-side members), and it is on a member boundary
  when no member the pack groups by (function, method, statement, key...; from the whole new file)
  holds the added lines on both sides. Cuts inside a member that alone exceeds the budget
  (`split`) are counted apart: the budget did not allow.
- code context: call sites sampled from the new trees whose callee is declared exactly once in the
  tree (a method/function name, not a common library name: the oracle) each become a one-line
  change; the code retriever, on the tree's code index, is asked for that line's context, and it is
  a hit when a `definition` item is that declaration. Kotlin calling Java and Java calling Kotlin
  are counted apart. Mapper XML <-> interface: a change inside each statement whose namespace is a
  mapper interface declaring a method of the statement's id must bring that method (`mapper`), and a
  change of the method the statement. Spring: a change of each `@Value("${k}")` line whose key is
  set in an application*.yml/properties of the tree (read with PyYAML, not our reader) must bring
  the key's definition, and a change of the key the code reading it.
- detectors: the bundled detectors of each pack run on every file of the corpus (the whole file as
  added lines): crashes (must be 0) and hits per 10,000 lines, by rule.
"""

from __future__ import annotations

import argparse
import random
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
import traceback
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from itertools import pairwise
from pathlib import Path

import yaml

from dualrag.checks.detectors import applies, detect_hunks
from dualrag.chunking import HunkSlice, chunk_changes
from dualrag.config import load_settings
from dualrag.diff import ingest
from dualrag.diff.hunks import DiffLine, Hunk
from dualrag.languages.code_symbols import code_symbols, parse_source
from dualrag.languages.outline import outline
from dualrag.parsing.symbol_model import CALLABLE_KINDS, config_key
from dualrag.retrieval.code import CodeRetriever, StoreGraph
from dualrag.rulebook import load_bundled
from dualrag.source.language import language_of
from dualrag.store.code import open_code_store
from dualrag.tokens import get_estimator
from indexers.code import index_repository
from scripts import ROOT

LIST = Path(__file__).resolve().parent / "lang_corpus" / "packages.txt"
PACK_LANGUAGES = ("python", "kotlin", "mybatis", "spring-yaml", "spring-properties", "sql")
# names too common in libraries to trust a unique repository declaration as the callee
COMMON = frozenset("""get set add put remove size run apply let also equals toString hashCode close start stop
init update invoke value values of copy clear contains isEmpty length append format join split map filter
forEach first last next read write keys items sort error warn info debug log print println call send emit
create build parse load save find open check reset with use from to list dict str len iter any all min max
sum round hash type super repr main test setUp tearDown push pop shift insert delete execute accept handle
register resolve compare compareTo iterator getValue setValue getName getId release dispose onCreate onDestroy
""".split())  # noqa: SIM905


@dataclass
class Tree:
    name: str
    root: Path  # the new version, a git repository (for the code index)
    diffs: list[tuple[str, bytes, Path]] = field(default_factory=list)  # (label, unified diff, new tree)
    source: str = ""


# ------------------------------------------------------------------------------------------ corpus


def _run(cmd: list[str], cwd: Path | None = None, check: bool = True) -> subprocess.CompletedProcess:
    return subprocess.run(cmd, cwd=cwd, check=check, capture_output=True)


def _git_tree(path: Path) -> None:
    """Make an extracted tree a git repository with one commit (the indexer reads git trees)."""
    if (path / ".git").exists():
        return
    env_args = ["-c", "user.email=eval@dualrag", "-c", "user.name=eval"]
    _run(["git", "init", "-q", str(path)])
    _run(["git", *env_args, "-C", str(path), "add", "-A", "-f"])
    _run(["git", *env_args, "-C", str(path), "commit", "-q", "-m", "corpus", "--no-verify"])


def _extract(archive: Path, into: Path) -> Path:
    if into.exists():
        return into
    tmp = into.with_name(into.name + ".tmp")
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir(parents=True)
    with tarfile.open(archive) as tar:
        tar.extractall(tmp, filter="data")
    kids = [p for p in tmp.iterdir()]
    top = kids[0] if len(kids) == 1 and kids[0].is_dir() else tmp
    top.rename(into) if top != tmp else tmp.rename(into)
    shutil.rmtree(tmp, ignore_errors=True)
    return into


def _fetch(registry: str, name: str, version: str, cache: Path) -> Path:
    dest = cache / "src" / f"{registry}-{name}-{version}"
    if dest.exists():
        return dest
    dl = cache / "dl" / registry
    dl.mkdir(parents=True, exist_ok=True)
    if registry == "pypi":
        _run([sys.executable, "-m", "pip", "download", "-q", "--no-deps", "--no-binary", ":all:", "-d", str(dl),
              f"{name}=={version}"])
        norm = re.sub(r"[-_.]+", "[-_.]", name)
        archive = next(p for p in dl.iterdir() if re.fullmatch(rf"(?i){norm}-{re.escape(version)}\.tar\.gz", p.name))
    else:
        out = _run(["npm", "pack", "--silent", f"{name}@{version}", "--pack-destination", str(dl)]).stdout
        archive = dl / out.decode().strip().splitlines()[-1]
    return _extract(archive, dest)


def _diff(old: Path, new: Path, globs: tuple[str, ...]) -> bytes:
    out = subprocess.run(["git", "diff", "--no-index", "--no-color", "-M", "--", str(old), str(new)],
                         capture_output=True, check=False).stdout  # exit 1: the trees differ
    # paths relative to the trees
    text = out.decode("utf-8", "surrogateescape")
    text = text.replace(f"a{old}/", "a/").replace(f"b{new}/", "b/").replace(f"a/{old}/", "a/").replace(
        f"b/{new}/", "b/")
    files = re.split(r"(?m)^(?=diff --git )", text)
    keep = [f for f in files if f.startswith("diff --git ") and any(
        re.search(g, f.split("\n", 1)[0]) for g in globs)]
    return "".join(keep).encode("utf-8", "surrogateescape")


_LANG_GLOBS = (r"\.py\b", r"\.kt\b", r"\.java\b", r"\.xml\b", r"application[^/ ]*\.(ya?ml|properties)\b", r"\.sql\b")


def registry_trees(cache: Path) -> list[Tree]:
    trees = []
    for line in LIST.read_text().splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        registry, name, old, new = line.split()
        try:
            new_dir = _fetch(registry, name, new, cache)
            old_dir = _fetch(registry, name, old, cache)
        except (subprocess.CalledProcessError, StopIteration) as exc:
            print(f"  {registry} {name}: not fetched ({exc})", file=sys.stderr)
            continue
        _git_tree(new_dir)
        tree = Tree(name, new_dir, source=f"{registry} {name} {new}")
        tree.diffs.append((f"{name} {old}->{new}", _diff(old_dir, new_dir, _LANG_GLOBS), new_dir))
        trees.append(tree)
    return trees


def snapshot_trees(specs: list[str], cache: Path, commits: int) -> list[Tree]:
    trees = []
    for spec in specs:
        name, _, rest = spec.partition("=")
        gitdir, _, commit = rest.partition("@")
        commit = commit or "HEAD"
        full = _run(["git", "--git-dir", gitdir, "rev-parse", commit]).stdout.decode().strip()
        dest = cache / "src" / f"gh-{name.replace('/', '+')}-{full[:8]}"
        if not dest.exists():
            dest.mkdir(parents=True)
            archive = subprocess.run(["git", "--git-dir", gitdir, "archive", full], capture_output=True, check=True).stdout
            subprocess.run(["tar", "-x", "-C", str(dest)], input=archive, check=True)
        _git_tree(dest)
        tree = Tree(name, dest, source=f"snapshot {name}@{full[:8]}")
        # real diffs: the latest commits touching the packs' files, each applied to its own new tree
        log = _run(["git", "--git-dir", gitdir, "log", "--format=%H", "--no-merges", full, "--", "*.xml", "*.yml",
                    "*.yaml", "*.properties", "*.kt", "*.py", "*.sql"]).stdout.decode().split()
        for sha in log[:commits]:
            diff = _run(["git", "--git-dir", gitdir, "diff", "--no-color", "-M", f"{sha}^", sha], check=False).stdout
            if not diff:
                continue
            at = cache / "src" / f"gh-{name.replace('/', '+')}-at-{sha[:8]}"
            if not at.exists():
                got = subprocess.run(["git", "--git-dir", gitdir, "archive", sha], capture_output=True, check=False)
                if got.returncode:  # a snapshot may lack old objects: that commit is left out
                    continue
                at.mkdir(parents=True)
                subprocess.run(["tar", "-x", "-C", str(at)], input=got.stdout, check=True)
            tree.diffs.append((f"{name} {sha[:8]}", diff, at))
        trees.append(tree)
    return trees


# ------------------------------------------------------------------------------------------ cuts


def chunk_cuts(trees: list[Tree], budgets: list[int]) -> dict[str, Counter]:
    """Per language: cuts on a member boundary, inside a member, inside a member above the budget."""
    settings = load_settings(None)
    estimator = get_estimator("fast")
    out: dict[str, Counter] = defaultdict(Counter)
    for tree in trees:
        for label, diff, new_root in tree.diffs:
            if not diff:
                continue
            try:
                changes = ingest(diff, settings)
            except Exception as exc:  # noqa: BLE001 - a diff the ingester refuses is reported, not fatal
                print(f"  {label}: not ingested ({exc})", file=sys.stderr)
                continue

            def read(p: str, root: Path = new_root) -> bytes | None:
                f = root / p
                return f.read_bytes() if f.is_file() else None

            files = {f.path: f for f in changes.reviewable if f.language in PACK_LANGUAGES}
            if not files:
                continue
            groups: dict[str, list] = {}
            for path, f in files.items():
                data = read(path)
                if data is None:
                    continue
                o = outline(f.language, data.decode("utf-8", "replace"),
                            fallback_type=Path(path).stem)
                groups[path] = [m for m in o.members if m.groups] if not o.error else []
                out[f.language]["files"] += 1
            for budget in budgets:
                plan = chunk_changes(changes, estimator=estimator, config=settings.chunking, budget=budget,
                                     read_file=read, window=128_000)
                pieces: dict[str, list[tuple[int, int, int, bool]]] = defaultdict(list)
                for k, chunk in enumerate(plan.chunks):
                    for h in chunk.hunks:
                        if h.path not in files:
                            continue
                        # the added lines (context lines travel with their hunk, whichever member they are
                        # in; a removal alone belongs to an old-side member, not to one of the new file)
                        new = [ln.new_no for ln in h.lines if ln.kind == "+"]
                        if not new:
                            continue
                        split = chunk.split_member or any(m.split and m.path == h.path for m in chunk.members)
                        pieces[h.path].append((min(new), max(new), k, split))
                for path, ps in pieces.items():
                    ps.sort()
                    lang = files[path].language
                    for a, b in pairwise(ps):
                        if a[2] == b[2]:
                            continue
                        inside = [m for m in groups.get(path, ()) if m.start <= a[1] and b[0] <= m.end]
                        if not inside:
                            out[lang]["on member boundary"] += 1
                        elif a[3] or b[3]:
                            out[lang]["in a member above the budget"] += 1
                        else:
                            out[lang]["inside a member"] += 1
                            if len(out[lang + ":examples"]) < 3:
                                out[lang + ":examples"][f"{label} {path}:{a[1]}|{b[0]} {inside[0].name}"] += 1
    return out


# ------------------------------------------------------------------------------------------ code context


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


# ------------------------------------------------------------------------------------------ detectors


def detectors(trees: list[Tree]) -> dict[str, Counter]:
    rules = [r for r in load_bundled() if r.detect is not None]
    out: dict[str, Counter] = defaultdict(Counter)
    for tree in trees:
        for f in sorted(tree.root.rglob("*")):
            if not f.is_file() or ".git" in f.parts:
                continue
            rel = str(f.relative_to(tree.root))
            try:
                text = f.read_text("utf-8")
            except (UnicodeDecodeError, OSError):
                continue
            language = language_of(rel, text)
            if language not in PACK_LANGUAGES:
                continue
            lines = text.split("\n")
            hunk = Hunk(0, 0, 1, len(lines), "", tuple(DiffLine("+", None, i + 1, t) for i, t in enumerate(lines)))
            selected = [r for r in rules if applies(r, language)]
            out[language]["files"] += 1
            out[language]["lines"] += len(lines)
            try:
                found = detect_hunks(rel, language, [hunk], selected)
            except Exception:  # noqa: BLE001 - the figure we want
                out[language]["crashes"] += 1
                traceback.print_exc()
                continue
            for finding in found:
                out[language][f"hit {finding.rule_id}"] += 1
                out[language]["hits"] += 1
    return out


def reader_crashes(trees: list[Tree]) -> Counter:
    """Symbol readers on every file (never raise by contract; a note is not a crash)."""
    out: Counter = Counter()
    for tree in trees:
        for f in tree.root.rglob("*"):
            if not f.is_file() or ".git" in f.parts:
                continue
            rel = str(f.relative_to(tree.root))
            try:
                pf = parse_source(rel, f.read_bytes())
                if pf.language:
                    code_symbols(pf, lambda q: False, repository="r")
                    out[f"{pf.language} files"] += 1
                    out[f"{pf.language} with a note"] += bool(pf.note)
            except Exception:  # noqa: BLE001
                out["crashes"] += 1
                traceback.print_exc()
    return out


# ------------------------------------------------------------------------------------------ main


def _share(c: Counter, num: str = "found", den: str = "cases") -> str:
    return f"{c[num]}/{c[den]} = {c[num] / c[den]:.1%}" if c[den] else "no cases"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cache", type=Path, default=ROOT / ".dualrag" / "lang-corpus")
    ap.add_argument("--snapshot", action="append", default=[], metavar="NAME=GITDIR@COMMIT")
    ap.add_argument("--commits", type=int, default=30, help="snapshot commits used as real diffs")
    ap.add_argument("--sample", type=int, default=150)
    ap.add_argument("--budgets", default="1500,4000")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--only", default="", help="comma list of parts: cuts,context,detectors")
    args = ap.parse_args()
    parts = set(args.only.split(",")) if args.only else {"cuts", "context", "detectors"}
    args.cache.mkdir(parents=True, exist_ok=True)
    started = time.perf_counter()
    trees = registry_trees(args.cache) + snapshot_trees(args.snapshot, args.cache, args.commits)
    print("corpus: " + "; ".join(t.source for t in trees))
    if "detectors" in parts:
        print("\n== detectors on every corpus file (the whole file as added lines)")
        for lang, c in sorted(detectors(trees).items()):
            rate = c["hits"] / c["lines"] * 10_000 if c["lines"] else 0
            rules = ", ".join(f"{k[4:]} {v}" for k, v in sorted(c.items()) if k.startswith("hit "))
            print(f"  {lang:18} {c['files']:5} files {c['lines']:8,} lines  crashes {c['crashes']}  "
                  f"hits {c['hits']} = {rate:.1f} per 10k lines  {rules}")
        rc = reader_crashes(trees)
        print("  symbol readers: crashes " + str(rc["crashes"]) + "; " + ", ".join(
            f"{k} {v}" for k, v in sorted(rc.items()) if k != "crashes"))
    if "cuts" in parts:
        budgets = [int(b) for b in args.budgets.split(",")]
        print(f"\n== chunk cuts on real diffs (budgets {budgets} tokens)")
        for lang, c in sorted(chunk_cuts(trees, budgets).items()):
            if lang.endswith(":examples"):
                for ex in c:
                    print(f"      inside: {ex}")
                continue
            allowed = c["on member boundary"] + c["inside a member"]
            print(f"  {lang:18} {c['files']} changed files; cuts on member boundaries when the budget allows: "
                  f"{c['on member boundary']}/{allowed} = "
                  f"{(c['on member boundary'] / allowed) if allowed else 1:.1%}; "
                  f"inside a member above the budget: {c['in a member above the budget']}")
    if "context" in parts:
        print(f"\n== code context (sample up to {args.sample} per kind, seed {args.seed}; code index per tree)")
        with tempfile.TemporaryDirectory() as tmp:
            found = code_context(trees, Path(tmp) / "store", args.sample, args.seed)
            for kind, c in sorted(found.items()):
                if kind.endswith(":misses"):
                    continue
                left = c["left out: another class named as receiver"]
                print(f"  {kind:34} {_share(c)}" + (f"  ({left} sampled calls left out: `Other.{{name}}(`)" if left else ""))
                for ex in found.get(kind + ":misses", ()):
                    print(f"      missed: {ex}")
    print(f"\n{time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
