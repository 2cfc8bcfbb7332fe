"""Precision and recall of the EDI validators (dualrag/edi) on our labelled corpus, and the time to
validate a generated 5 MB `.dt`.

    .venv/bin/python -m evaluation.languages.edi [--corpus tests/edi/corpus] [--runs 7] [--json]

Corpus: every `.flow` / `.dt` under the corpus folder is reviewed as an added file (the whole file
is in the diff; other corpus files are the repository, read through `read_file`). A label is a
comment `<!-- expect: RULE[, RULE] -->` on the line the finding must sit on. The merge request of
`examples/edi-project/` is also reviewed from the plain diff (labels in `mr.labels.json`).
Findings are `(path, line, rule)`; precision = matching / all validator findings, recall =
matching / labels, per rule and overall.
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import time
from collections import Counter
from pathlib import Path

from dualrag.checks.edi import validate_changes
from dualrag.config import Settings
from dualrag.diff import ingest
from dualrag.edi import Files, kind_of, read_document, validate
from dualrag.rulebook import load_bundled_cached
from evaluation import ROOT
from evaluation.core.report import floor, grid

_EXPECT = re.compile(rb"<!--\s*expect:\s*([A-Z0-9, -]+?)\s*-->")


def added_file_diff(rel: str, data: bytes) -> bytes:
    lines = data.split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()
    head = (f"diff --git a/{rel} b/{rel}\nnew file mode 100644\nindex 0000000..1111111\n"
            f"--- /dev/null\n+++ b/{rel}\n@@ -0,0 +1,{len(lines)} @@\n").encode()
    return head + b"".join(b"+" + ln + b"\n" for ln in lines)


def labels_of(rel: str, data: bytes) -> set[tuple[str, int, str]]:
    out = set()
    for no, line in enumerate(data.split(b"\n"), 1):
        for m in _EXPECT.finditer(line):
            for rule in m.group(1).decode().split(","):
                if rule.strip():
                    out.add((rel, no, rule.strip()))
    return out


def evaluate_corpus(corpus: Path) -> tuple[set, set]:
    settings = Settings()
    rules = load_bundled_cached()
    expected: set = set()
    found: set = set()

    def read_file(path: str) -> bytes | None:
        p = corpus / path
        return p.read_bytes() if p.is_file() else None

    for path in sorted(corpus.rglob("*")):
        rel = path.relative_to(corpus).as_posix()
        if not path.is_file() or kind_of(rel) not in ("flow", "dt"):
            continue
        data = path.read_bytes()
        expected |= labels_of(rel, data)
        changes = ingest(added_file_diff(rel, data), settings)
        findings, _ = validate_changes(changes, rules, read_file=read_file)
        found |= {(f.path, f.line, f.rule_id) for f in findings}
    labels = json.loads((corpus / "mr.labels.json").read_text())
    diff = (ROOT / labels["diff"]).read_bytes()
    findings, _ = validate_changes(ingest(diff, settings), rules)
    expected |= {("mr:" + p, n, r) for p, n, r in labels["expected"]}
    found |= {("mr:" + f.path, f.line, f.rule_id) for f in findings}
    return expected, found


def scores(expected: set, found: set) -> tuple[dict, dict]:
    tp = expected & found
    per: dict[str, dict] = {}
    e, f, t = Counter(r for *_, r in expected), Counter(r for *_, r in found), Counter(r for *_, r in tp)
    for rule in sorted(set(e) | set(f)):
        per[rule] = {"labels": e[rule], "found": f[rule], "tp": t[rule],
                     "precision": t[rule] / f[rule] if f[rule] else 1.0,
                     "recall": t[rule] / e[rule] if e[rule] else 1.0}
    overall = {"labels": len(expected), "found": len(found), "tp": len(tp),
               "precision": len(tp) / len(found) if found else 1.0,
               "recall": len(tp) / len(expected) if expected else 1.0}
    return per, overall


def big_dt(target_bytes: int = 5 * 1024 * 1024) -> bytes:
    """A valid transform of about `target_bytes`: a large internal target definition plus mappings."""
    head = ('<?xml version="1.0" encoding="UTF-8"?>\n<transform id="big" format="1.0">\n'
            '  <source standard="internal" message="in">\n')
    parts = [head]
    size, n = len(head), 0
    per = ('    <field path="in.f{n}" usage="O" type="string" maxLength="35"/>\n', )
    fields_src, fields_tgt, maps = [], [], []
    while size < target_bytes:
        s = per[0].format(n=n)
        t = f'    <field path="out.f{n}" usage="M" type="string" maxLength="35" codes="A B C"/>\n'
        m = f'    <map id="m{n}" from="in.f{n}" to="out.f{n}" function="table" table="t{n % 50}"/>\n'
        fields_src.append(s), fields_tgt.append(t), maps.append(m)
        size += len(s) + len(t) + len(m)
        n += 1
    parts += fields_src
    parts.append('  </source>\n  <target standard="internal" message="out">\n')
    parts += fields_tgt
    parts.append("  </target>\n  <mappings>\n")
    parts += maps
    parts.append("  </mappings>\n</transform>\n")
    return "".join(parts).encode()


def time_big(runs: int) -> tuple[float, int, int]:
    data = big_dt()
    times, issues = [], 0
    for _ in range(runs):
        start = time.perf_counter()
        doc = read_document("big.dt", "dt", data)
        issues = len(validate(doc, Files()))
        times.append(time.perf_counter() - start)
    return statistics.median(times), len(data), issues


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--corpus", default=str(ROOT / "tests" / "edi" / "corpus"))
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    expected, found = evaluate_corpus(Path(args.corpus))
    per, overall = scores(expected, found)
    median, size, issues = time_big(args.runs)
    if args.json:
        print(json.dumps({"per_rule": per, "overall": overall,
                          "big_dt": {"bytes": size, "median_seconds": median, "issues": issues}}, indent=2))
    else:
        print(grid([("rule", "labels", "found", "tp", "precision", "recall")]
                   + [(rule, str(s["labels"]), str(s["found"]), str(s["tp"]), f"{s['precision']:.3f}",
                       f"{s['recall']:.3f}") for rule, s in [*per.items(), ("overall", overall)]]))
        for kind, items in (("missed", sorted(expected - found)), ("false positive", sorted(found - expected))):
            for p, n, r in items:
                print(f"  {kind}: {p}:{n} {r}")
        print(f"5 MB .dt: {size / 1e6:.2f} MB validated in {median * 1000:.0f} ms (median of {args.runs}), "
              f"{issues} issue(s)")
    checks = [floor("precision = 1.0", f"{overall['precision']:.3f}", overall["precision"] == 1.0),
              floor("recall >= 0.95", f"{overall['recall']:.3f}", overall["recall"] >= 0.95),
              floor("a 5 MB .dt validated in < 1 s", f"{median:.2f} s", median < 1.0)]
    if not args.json:
        print("floors:\n" + "\n".join(checks))
    return 0 if all(line.endswith("PASS") for line in checks) else 1


if __name__ == "__main__":
    raise SystemExit(main())
