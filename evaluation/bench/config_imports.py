"""What loading the configuration costs: the dualrag modules `import dualrag.config` loads, in a fresh
interpreter, and what `load_settings()` of a typical `--config` file adds; beside the same figures of
a baseline commit (its `dualrag/` extracted to a temporary folder and put first on the path), in the
same command. Times are the median of `--runs` fresh interpreters.

    .venv/bin/python -m evaluation.bench.config_imports [--baseline c7e994f] [--runs 7]

Floor (issue 43): `import dualrag.config` loads at most 15 `dualrag.*` modules. As the issue counted
(20 at c7e994f), the root package `dualrag` (its `__version__` only) is not one of them; the count
with it is printed too. Every stage imports the configuration first, so what it drags in, every
stage pays.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from evaluation import ROOT
from evaluation.core.report import verdict

FLOOR = 15
# A configuration file of the kind a team writes (docs/configuration.md): sections, no deprecated keys.
TOML = '[llm]\nmodel = "openai:gpt-4.1-mini"\n[retrieval]\nmax_rules = 6\n[review]\nrule_checks = 2\n'
PROBE = """
import json, sys, time
t = time.perf_counter()
{statement}
took = time.perf_counter() - t
print(json.dumps({{"file": sys.modules["dualrag"].__file__, "modules": sorted(m for m in sys.modules if m == "dualrag" or m.startswith("dualrag.")),
                  "seconds": took}}))
"""
STATEMENTS = {
    "import dualrag.config": "import dualrag.config",
    "load_settings(file)": "import dualrag.config\nfrom dualrag.config import load_settings\n"
                           "load_settings(__import__('pathlib').Path(sys.argv[1]))",
}


def probe(statement: str, path_first: Path | None, toml: Path | None = None) -> dict:
    """One fresh interpreter: the dualrag modules loaded by `statement` (which reads the file `toml`
    as sys.argv[1]) and the seconds it took."""
    env_path = [str(path_first)] if path_first else []
    code = f"import sys; sys.path[:0] = {env_path!r}\n" + PROBE.format(statement=statement)
    done = subprocess.run([sys.executable, "-c", code, str(toml or "")], capture_output=True, text=True, check=True,
                          cwd=tempfile.gettempdir(), env={"PATH": "/usr/bin:/bin"})
    return json.loads(done.stdout)


def counted(modules: list[str]) -> list[str]:
    """The modules the floor counts: `dualrag.*`, the root package left out (as issue 43 counted)."""
    return [m for m in modules if m != "dualrag"]


def measure(path_first: Path | None, toml: Path, runs: int) -> dict[str, tuple[list[str], float]]:
    out = {}
    for name, statement in STATEMENTS.items():
        probes = [probe(statement, path_first, toml) for _ in range(runs)]
        if path_first and not probes[0]["file"].startswith(str(path_first)):  # the editable install won
            raise SystemExit(f"measured {probes[0]['file']}, not the dualrag of {path_first}")
        out[name] = (probes[0]["modules"], statistics.median(p["seconds"] for p in probes))
    return out


def extract(commit: str, into: Path) -> Path:
    """`dualrag/` as it was at `commit`, in a folder of its own (nothing installed, nothing touched)."""
    into.mkdir(parents=True, exist_ok=True)
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", commit, "dualrag"], capture_output=True, check=True)
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive.stdout, check=True)
    return into


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--baseline", default="c7e994f", help="commit measured beside the checkout ('' for none)")
    parser.add_argument("--runs", type=int, default=7, help="fresh interpreters per figure (median)")
    parser.add_argument("--list", action="store_true", help="print every module loaded")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        toml = Path(tmp) / "dualrag.toml"
        toml.write_text(TOML, encoding="utf-8")
        rows = {"checkout": measure(ROOT, toml, args.runs)}
        if args.baseline:
            rows[args.baseline] = measure(extract(args.baseline, Path(tmp) / "base"), toml, args.runs)
    now = rows["checkout"]["import dualrag.config"][0]
    print(f"{'':16} {'what':24} {'dualrag.* (root too)':>21} {'median ms':>10}")
    for label, figures in rows.items():
        for name, (modules, seconds) in figures.items():
            print(f"{label:16} {name:24} {len(counted(modules)):>12} ({len(modules):>3})   {seconds * 1000:>9.1f}")
    if args.baseline:
        base = rows[args.baseline]["import dualrag.config"]
        print(f"import time ratio checkout / {args.baseline}: "
              f"{rows['checkout']['import dualrag.config'][1] / base[1]:.2f}")
        gone = sorted(set(base[0]) - set(now))
        print("no longer loaded by `import dualrag.config`:", ", ".join(gone) or "-")
    if args.list:
        print("\n".join(now))
    ok = len(counted(now)) <= FLOOR
    print(f"import dualrag.config: {len(counted(now))} dualrag modules (floor <= {FLOOR}): {verdict(ok)}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
