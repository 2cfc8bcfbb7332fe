"""Chunk cuts on real diffs: where one file's added lines continue in another chunk, is the cut on a
member boundary of the language's pack, or inside a member (one that alone exceeds the budget counts
apart: the budget did not allow)?"""

from __future__ import annotations

import sys
from collections import Counter, defaultdict
from itertools import pairwise
from pathlib import Path

from dualrag.chunking import chunk_changes
from dualrag.config import load_settings
from dualrag.diff import ingest
from dualrag.languages.outline import outline
from dualrag.tokens import get_estimator
from evaluation.languages.corpus import PACK_LANGUAGES, Tree


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
