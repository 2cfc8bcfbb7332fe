#!/usr/bin/env python3
"""The hostile corpus: inputs an attacker or a careless user would give dualrag, each run through
the CLI as a user runs it, each with the outcome it must have.

    .venv/bin/python -m evaluation.safety.hostile_corpus            # every case
    .venv/bin/python -m evaluation.safety.hostile_corpus -k xml     # cases whose name holds "xml"

Prints one row per case: expected outcome, what happened, wall seconds, the child's peak RSS,
pass/fail; exits 1 when a case fails. The floor for every row: it ends within 60 s and 1 GB RSS,
or stops with exit 2 at a cap. Inputs are generated into a temporary folder (nothing big is kept
in the repository). Every run uses a fresh temporary store (`DUALRAG_STORE`), the embedded
defaults and no model, except the cases that bring their own stand-in model (a loopback server
that answers `{"findings": []}` to everything and counts the requests).

A case is a row of `CASES` (gathered from `hostile_cases`, `hostile_trust`, `hostile_output` and
`hostile_forged`; their shared parts in `hostile_kit`): a name, a builder that writes its inputs
and returns the command (and extra environment), the expected exit codes, text the output must
hold, and optional checks. Injection and bad-configuration cases join the same list.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Self

from evaluation.core.report import floor
from evaluation.safety.hostile_cases import CASES as FIRST_CASES
from evaluation.safety.hostile_forged import CASES as ISSUE_43
from evaluation.safety.hostile_kit import (
    DUALRAG,
    KILL_AFTER,
    MAX_RSS_MB,
    MAX_SECONDS,
    Case,
    Run,
    added_file_diff,
    review,
    write,
)
from evaluation.safety.hostile_output import LIMIT_CASES, OUTPUT_CASES
from evaluation.safety.hostile_trust import TRUST_CASES

CASES: list[Case] = [*FIRST_CASES, *TRUST_CASES, *OUTPUT_CASES, *LIMIT_CASES, *ISSUE_43]


# ------------------------------------------------------------------------------------ running


def child_env(store: Path, extra: dict[str, str], model_url: str | None) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("DUALRAG_", "OPENAI_", "ANTHROPIC_"))}  # no model, no stray settings
    env.update({"DUALRAG_STORE": str(store), "NO_COLOR": "1", "COLUMNS": "200"})
    if model_url is not None:
        env.update({"DUALRAG_LLM": "openai:gpt-4o-mini", "OPENAI_BASE_URL": model_url, "OPENAI_API_KEY": "corpus"})
    env.update(extra)
    return env


# A small launcher runs dualrag and reports its peak RSS. Linux carries a process's RSS high-water
# mark across fork and exec, so a child forked straight from this script (which holds the inputs
# it generated, a 100 MB zip bomb included) would report this script's peak, not its own.
_LAUNCHER = """import os, subprocess, sys
proc = subprocess.Popen(sys.argv[2:])
_, status, usage = os.wait4(proc.pid, 0)
with open(sys.argv[1], "w") as fh:
    fh.write(f"{os.waitstatus_to_exitcode(status)} {usage.ru_maxrss}")
"""


def run_child(args: list[str], env: dict[str, str], cwd: Path) -> Run:
    """Run dualrag through the launcher; kill its process group after KILL_AFTER seconds."""
    out_path, err_path, stats = cwd / ".stdout", cwd / ".stderr", cwd / ".rusage"
    start = time.perf_counter()
    with out_path.open("wb") as out, err_path.open("wb") as err:
        proc = subprocess.Popen([sys.executable, "-c", _LAUNCHER, str(stats), DUALRAG, *args], stdout=out,
                                stderr=err, env=env, cwd=cwd, start_new_session=True)
        try:
            proc.wait(timeout=KILL_AFTER)
            killed = False
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
            killed = True
    seconds = time.perf_counter() - start
    code, rss_kb = (int(x) for x in stats.read_text().split()) if stats.exists() else (proc.returncode, 0)
    read = lambda p: p.read_bytes().decode("utf-8", "replace")
    return Run(code, read(out_path), read(err_path), seconds, rss_kb / 1024, killed)


def judge(case: Case, run: Run) -> tuple[str, bool]:
    problems = []
    if run.killed:
        problems.append(f"killed after {KILL_AFTER:.0f} s")
    if run.code not in case.codes:
        last = (run.err.strip().splitlines() or [""])[-1][:100]
        problems.append(f"exit {run.code} ({last})")
    problems += [f"does not say {s!r}" for s in case.says if s not in run.out + run.err]
    if case.check is not None and (why := case.check(run)):
        problems.append(why)
    if run.code != 2 and run.seconds > MAX_SECONDS:
        problems.append(f"{run.seconds:.0f} s > {MAX_SECONDS:.0f} s")
    if run.rss_mb > MAX_RSS_MB:
        problems.append(f"{run.rss_mb:.0f} MB > {MAX_RSS_MB:.0f} MB")
    if problems:
        return "; ".join(problems), False
    got = f"exit {run.code}" + (f", {run.requests} model requests" if case.model else "")
    return got, True


class StandIn:
    """A loopback OpenAI-compatible model that answers `{"findings": []}` and counts requests."""

    def __enter__(self) -> Self:
        from dualrag.testing.fake_llm import FakeOpenAI

        self.srv = FakeOpenAI()
        self.srv.responder = lambda _req: self.srv.chat(json.dumps({"findings": []}))
        self.srv.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.srv.stop()

    @property
    def url(self) -> str:
        return self.srv.base_url

    @property
    def count(self) -> int:
        return len(self.srv.requests)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("-k", dest="select", help="only cases whose name contains this (case-insensitive)")
    ap.add_argument("--keep", action="store_true", help="keep the generated inputs and print where")
    args = ap.parse_args()
    cases = [c for c in CASES if not args.select or args.select.lower() in c.name.lower()]
    base = Path(tempfile.mkdtemp(prefix="dualrag-hostile-"))
    store = base / "store"
    rows, failed = [], 0
    try:
        # The first review indexes the bundled rules into the store (~20 s once): done up front so
        # that every row times its input, not the set-up.
        warm = base / "warm"
        warm.mkdir()
        diff = write(warm, "w.diff", added_file_diff("src/w.py", "x = 1"))
        setup = run_child(review(diff), child_env(store, {}, None), warm)
        print(f"set-up: bundled rules indexed into {store} in {setup.seconds:.1f} s (exit {setup.code})")
        with StandIn() as model:
            for case in cases:
                folder = base / f"case{len(rows):02d}"
                folder.mkdir()
                argv, extra = case.build(folder)
                before = model.count
                run = run_child(argv, child_env(store, extra, model.url if case.model else None), folder)
                run.requests = model.count - before
                got, ok = judge(case, run)
                failed += not ok
                rows.append((case.name, case.expected(), got, f"{run.seconds:.1f}", f"{run.rss_mb:.0f}",
                             "pass" if ok else "FAIL"))
                print(f"  {case.name}: {'pass' if ok else 'FAIL'} ({run.seconds:.1f} s)", file=sys.stderr)
                if not args.keep:
                    shutil.rmtree(folder, ignore_errors=True)
    finally:
        if args.keep:
            print(f"inputs kept in {base}")
        else:
            shutil.rmtree(base, ignore_errors=True)
    _table(("case", "expected", "got", "seconds", "peak RSS MB", "result"), rows)
    print(f"{len(rows) - failed}/{len(rows)} cases as expected (floor: each within {MAX_SECONDS:.0f} s and "
          f"{MAX_RSS_MB:.0f} MB, or exit 2 at a cap)")
    print(floor("every case as expected (no hostile case approved by the obedient model)",
                f"{len(rows) - failed}/{len(rows)}", not failed))
    return 1 if failed else 0


def _table(head: tuple[str, ...], rows: list[tuple[str, ...]]) -> None:
    widths = [max(len(str(r[i])) for r in [head, *rows]) for i in range(len(head))]
    for r in [head, tuple("-" * w for w in widths), *rows]:
        print("| " + " | ".join(str(c).ljust(w) for c, w in zip(r, widths)) + " |")


if __name__ == "__main__":
    sys.exit(main())
