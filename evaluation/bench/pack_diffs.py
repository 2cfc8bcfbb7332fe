#!/usr/bin/env python
"""Real diffs per language pack, for the token-estimator bench (scripts/bench/tokens.py, moving to evaluation/bench/).

    .venv/bin/python -m evaluation.bench.pack_diffs --snapshots DIR [--snapshot OWNER/NAME=GITDIR ...] \
        [--out .dualrag/pack-diffs]

`pack_diffs.json` beside this file lists, per pack, public repositories, the paths of the pack's
files in them and the commits taken: each commit's diff against its first parent, limited to those
paths, becomes OUT/<pack>/<owner>-<name>-<sha10>.diff. The repositories come as git snapshots
(the session's repository snapshot tool, or any clone holding the commits): `--snapshots DIR` finds
OWNER+NAME or OWNER+NAME/repo under DIR; `--snapshot` names one. Nothing fetched is committed:
OUT is under `.dualrag/` (ignored by git).

| pack | repositories (licence) |
|---|---|
| java | yangzongzhuan/RuoYi (MIT): `*.java`, the commits adding string comparisons the Java detectors rewrite |
| kotlin | android/nowinandroid (Apache-2.0): `*.kt`, `*.kts` |
| python | pallets/flask (BSD-3-Clause), azoner/pyx12 (BSD-3-Clause): `*.py` |
| sql | sqlfluff/sqlfluff (MIT), spring-projects/spring-petclinic (Apache-2.0), macrozheng/mall (Apache-2.0): `*.sql` |
| mybatis | macrozheng/mall: `*Mapper.xml` |
| spring | macrozheng/mall, spring-projects/spring-petclinic: `application*.yml`, `application*.properties` |
| xml | macrozheng/mall `pom.xml`, android/nowinandroid Android resources |
| edi | xlate/staedi (Apache-2.0) EDI schemas and interchanges, azoner/pyx12 X12 map XML |

The commits are the newest ones touching those paths at the snapshot recorded in the list (for
Java, those whose lines compare strings with `==` or call `equals` on a variable).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

from evaluation import ROOT

LIST = Path(__file__).resolve().parent / "pack_diffs.json"
OUT = ROOT / ".dualrag" / "pack-diffs"


def _git_dir(repo: str, roots: list[Path], named: dict[str, str]) -> Path | None:
    if repo in named:
        return Path(named[repo])
    for root in roots:
        for cand in (root / repo.replace("/", "+") / "repo", root / repo.replace("/", "+")):
            if cand.is_dir():
                return cand
    return None


def build(out: Path, roots: list[Path], named: dict[str, str]) -> dict[str, int]:
    """Write every listed diff into `out`; the number written per pack."""
    written: dict[str, int] = {}
    for entry in json.loads(LIST.read_text(encoding="utf-8")):
        gitdir = _git_dir(entry["repo"], roots, named)
        if gitdir is None:
            print(f"{entry['repo']}: no snapshot given; its {entry['pack']} diffs are left out", file=sys.stderr)
            continue
        folder = out / entry["pack"]
        folder.mkdir(parents=True, exist_ok=True)
        for sha in entry["commits"]:
            got = subprocess.run(["git", "--git-dir", str(gitdir), "diff", "--no-color", "--binary", f"{sha}^", sha,
                                  "--", *entry["paths"]], capture_output=True, check=False)
            if got.returncode or not got.stdout:
                print(f"{entry['repo']} {sha[:10]}: not in the snapshot", file=sys.stderr)
                continue
            (folder / f"{entry['repo'].replace('/', '-')}-{sha[:10]}.diff").write_bytes(got.stdout)
            written[entry["pack"]] = written.get(entry["pack"], 0) + 1
    return written


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--snapshots", type=Path, action="append", default=[], metavar="DIR")
    ap.add_argument("--snapshot", action="append", default=[], metavar="OWNER/NAME=GITDIR")
    ap.add_argument("--out", type=Path, default=OUT)
    args = ap.parse_args(argv)
    named = dict(s.split("=", 1) for s in args.snapshot)
    written = build(args.out, args.snapshots, named)
    for pack, n in sorted(written.items()):
        print(f"{pack:8s} {n:3d} diffs in {args.out / pack}")
    return 0 if written else 2


if __name__ == "__main__":
    raise SystemExit(main())
