#!/usr/bin/env python
"""Inspect how a rule document segments: counts, levels, top sections, longest units, anchors.

    .venv/bin/python -m evaluation.tools.inspect_rules PATH [--kb NAME] [--anchors dev.jsonl]

With --anchors (JSONL rows with `anchor` and optionally `section`): each anchor is looked up
in the whitespace-free title+text+examples of every unit; it should be in exactly one.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from collections import Counter
from pathlib import Path

from dualrag.errors import UserError
from indexers.readers import read_document
from indexers.rules import segment


def _flat(text: str) -> str:
    return re.sub(r"\s+", "", text)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("path")
    ap.add_argument("--kb", default=None, help="knowledge-base name for rule ids (default: file stem)")
    ap.add_argument("--anchors", help="JSONL with `anchor` (and `section`) per row")
    ap.add_argument("--show", type=int, default=0, help="also print the first N units")
    args = ap.parse_args(argv)
    kb = args.kb or re.sub(r"[^a-z0-9]+", "-", Path(args.path).stem.lower()).strip("-") or "rules"

    start = time.perf_counter()
    try:
        docs = read_document(args.path)
        units = segment(docs, kb)
    except UserError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    elapsed = time.perf_counter() - start

    pages = {d.metadata.get("page") for d in docs if d.metadata.get("page") is not None}
    print(f"file:     {args.path}")
    print(f"pages:    {len(pages) or 1}")
    print(f"units:    {len(units)}   ({elapsed:.2f}s read+segment)")
    levels = Counter(u.level.value if u.level else "none" for u in units)
    print("levels:   " + ", ".join(f"{k} {v}" for k, v in levels.most_common()))
    print("top sections:")
    for name, count in Counter(u.section[0] if u.section else "(none)" for u in units).items():
        print(f"  {count:4d}  {name}")
    print("longest units:")
    for u in sorted(units, key=lambda u: len(u.full_text()), reverse=True)[:3]:
        print(f"  {len(u.full_text()):5d} chars  {u.rule_id}  p{u.source.page}  {u.title[:60]}")
    for u in units[: args.show]:
        print(json.dumps(u.model_dump(mode="json"), ensure_ascii=False))

    if args.anchors:
        flats = [_flat(u.title + u.text + "".join(u.bad_examples) + "".join(u.good_examples)) for u in units]
        rows = [json.loads(line) for line in Path(args.anchors).read_text(encoding="utf-8").splitlines() if line.strip()]
        anchors: dict[str, str] = {}
        for row in rows:
            anchors.setdefault(_flat(row["anchor"]), row.get("section", ""))
        one = several = none = section_ok = 0
        for anchor, section in anchors.items():
            hits = [i for i, f in enumerate(flats) if anchor in f]
            if len(hits) == 1:
                one += 1
                got = " > ".join(units[hits[0]].section)
                if _flat(got) == _flat(section):
                    section_ok += 1
                else:
                    print(f"  section mismatch {anchor}: {got!r} != {section!r}")
            elif hits:
                several += 1
                print(f"  in {len(hits)} units: {anchor}: " + ", ".join(units[i].rule_id for i in hits))
            else:
                none += 1
                print(f"  in no unit: {anchor}")
        print(f"anchors:  {len(anchors)} distinct ({len(rows)} rows): exactly one unit {one}, "
              f"several {several}, none {none}; section matches {section_ok}/{one}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
