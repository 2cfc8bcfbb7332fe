"""Does the packed code context hold the definitions the changed lines call?

    .venv/bin/python -m evaluation.retrieval.code_context [REPO] [--cases 80] [--budget 12000] [--indexless]

The Defects4J Lang/Cli bugs of ../shared/eval/bugs/dev.jsonl are reversals of fixes in 2006-2013
revisions; the Debian sources fetched by scripts/fetch_java_sources.sh are commons-lang3 3.12.0 and
commons-cli 1.6.0, whose files have moved and changed since, so those diffs do not apply. The cases
are therefore changes made to the fetched library itself, deterministically: every k-th line of a
main source file that calls a method declared in the repository is edited (a no-op expression
wrapper `(... )` is not used; the line gets a trailing comment-free whitespace edit), in a temporary
clone. For each case: diff -> ingest -> chunks -> CodeRetriever (index, or --indexless) -> items
packed best first into --budget tokens (chars/4). A call on a changed line counts when a method with
its name and arity is declared elsewhere in the repository and its receiver is not known to be a
type outside the repository (a String, StringBuilder, ... receiver declared in the file) — the oracle; it is a hit when a packed
`definition` item is a method of that name. Floor (issue 6): share >= 0.9.
"""

from __future__ import annotations

import argparse
import subprocess
import tempfile
from pathlib import Path

from dualrag.chunking import chunk_changes
from dualrag.config import load_settings
from dualrag.diff import ingest
from dualrag.languages.code_symbols import parse_source, resolve_refs
from dualrag.retrieval.code import CodeRetriever, RepoGraph, StoreGraph
from dualrag.store.code import open_code_store
from dualrag.tokens import get_estimator
from evaluation.core import datasets
from evaluation.core.report import floor
from indexers.code import index_repository


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("repo", nargs="?", default=str(datasets.COMMONS_LANG))
    ap.add_argument("--cases", type=int, default=80)
    ap.add_argument("--budget", type=int, default=12000)
    ap.add_argument("--indexless", action="store_true")
    args = ap.parse_args()
    if not (Path(args.repo) / ".git").exists():
        print(f"skip: no repository at {args.repo} (run scripts/fetch_java_sources.sh)")
        return 0
    settings = load_settings(None)
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp) / "repo"
        subprocess.run(["git", "clone", "-q", args.repo, str(work)], check=True)
        store = open_code_store(Path(tmp) / "store")
        index_repository(work, store, name="eval")
        methods: dict[str, set[int | None]] = {}
        for s in store.find("eval", kinds=["method"], limit=10**6):
            methods.setdefault(s.name, set()).add(None if s.variadic else len(s.params))
        types = set(store.type_paths("eval"))
        files = sorted(p for p in work.rglob("*.java") if "/src/main/" in str(p))
        lines: list[tuple[Path, int, list[tuple[str, int]]]] = []
        for f in files:
            pf = parse_source(str(f.relative_to(work)), f.read_bytes())
            if pf.java is None:
                continue
            for d in pf.java.decls:
                for r in resolve_refs(pf.java, d, types.__contains__):
                    if r.kind == "call" and not r.owner.startswith("~") and r.name in methods and r.name != d.name and (
                            r.argc in methods[r.name] or None in methods[r.name]):
                        lines.append((f, r.line, [(r.name, r.argc)]))
        merged: dict[tuple[Path, int], list[tuple[str, int]]] = {}
        for f, n, calls in lines:
            merged.setdefault((f, n), []).extend(calls)
        keys = sorted(merged, key=lambda k: (str(k[0]), k[1]))
        step = max(1, len(keys) // args.cases)
        picked = keys[::step][: args.cases]
        graph = RepoGraph.from_checkout(work) if args.indexless else StoreGraph(store, "eval")
        total = hit = 0
        misses = []
        for f, n in picked:
            original = f.read_bytes()
            text = original.decode("utf-8", "replace").split("\n")
            text[n - 1] = text[n - 1] + " "
            f.write_bytes("\n".join(text).encode("utf-8"))
            diff = subprocess.run(["git", "-C", str(work), "diff"], capture_output=True, check=True).stdout
            changes = ingest(diff, settings)
            read = lambda p: (work / p).read_bytes() if (work / p).is_file() else None
            plan = chunk_changes(changes, estimator=get_estimator("fast"), config=settings.chunking, read_file=read)
            retriever = CodeRetriever(graph, read_file=read)
            packed, used = [], 0
            for chunk in plan.chunks:
                for item in retriever.retrieve(chunk):
                    cost = len(item.text) // 4
                    if used + cost <= args.budget:
                        packed.append(item)
                        used += cost
            names = {i.symbol.name for i in packed if i.relation == "definition" and i.symbol.kind == "method"}
            for name, argc in dict.fromkeys(merged[(f, n)]):
                total += 1
                if name in names:
                    hit += 1
                else:
                    misses.append(f"{f.relative_to(work)}:{n} {name}/{argc}")
            f.write_bytes(original)
        store.close()
    share = hit / total if total else 0.0
    print(f"repository     {args.repo} ({'index-less' if args.indexless else 'index'})")
    print(f"cases          {len(picked)} changed lines, {total} calls of repository methods")
    print(f"definitions    {hit}/{total} in the packed context (budget {args.budget} tokens) = {share:.3f}")
    print(floor("definitions in the packed context >= 0.9", f"{share:.3f}", share >= 0.9))
    for m in misses[:10]:
        print(f"  miss {m}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
