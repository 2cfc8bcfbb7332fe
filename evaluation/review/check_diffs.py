"""Run `dualrag review --format json` over every diff in a folder, as a user would.

    .venv/bin/python -m evaluation.review.check_diffs [DIR] [--timeout 120]

For each file (JSON/Markdown/dot files in DIR are documentation, not input) it checks
the CLI contract — exit 0, valid review JSON on stdout, nothing that looks like a
traceback on stderr — and that the file count matches the file headers counted
independently in the bytes. Where DIR has a `manifest.json` naming each file's traits
(as ../shared/eval/diffs does), it also checks each trait in the parsed ChangeSet:
renames, new and deleted files reported as such, binaries labelled, CRLF and non-UTF-8
content recognised, "\\ No newline at end of file" kept off the code lines.
Prints one line per file, a line per trait, and `N processed, N failed`; exits 1 on a failure.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path

from dualrag.config import load_settings
from dualrag.diff import ChangeSet, FileStatus, ingest
from evaluation import ROOT

_GIT_HEADER = re.compile(rb"^diff --git ", re.MULTILINE)
_PLAIN_HEADER = re.compile(rb"^--- [^\n]*\r?\n\+\+\+ ", re.MULTILINE)


def header_count(data: bytes) -> int:
    """Files named by headers, counted without the parser: a cross-check."""
    git = len(_GIT_HEADER.findall(data))
    return git if git else len(_PLAIN_HEADER.findall(data))


def trait_checks(changes: ChangeSet) -> dict[str, bool]:
    files = changes.files
    no_eol = any(line.no_eol for f in changes.reviewable for h in f.hunks for line in h.lines)
    marker_as_code = any(
        line.text.startswith("\\ No newline") for f in changes.reviewable for h in f.hunks for line in h.lines
    )
    return {
        "rename": any(f.status is FileStatus.RENAMED for f in files),
        "binary": any(f.binary and f.skipped_reason for f in files),
        "new_file": any(f.status is FileStatus.ADDED for f in files),
        "deleted_file": any(f.status is FileStatus.DELETED for f in files),
        "crlf": any(f.newline in ("crlf", "mixed") for f in files),
        "non_utf8": any(f.encoding not in (None, "utf-8") for f in files),
        "no_eol_marker": no_eol and not marker_as_code,
        "many_files_gt50": len(files) > 50,
        "huge_gt1MB": changes.diff_bytes > 1_000_000,
    }


def run_cli(path: Path, timeout: float) -> tuple[str | None, dict | None, float]:
    """(problem or None, review JSON, seconds)."""
    start = time.perf_counter()
    try:
        proc = subprocess.run(
            [sys.executable, "-m", "dualrag", "review", "--diff-file", str(path), "--format", "json"],
            capture_output=True, timeout=timeout, check=False, cwd=ROOT,
        )
    except subprocess.TimeoutExpired:
        return f"timed out after {timeout:g}s", None, timeout
    seconds = time.perf_counter() - start
    stderr = proc.stderr.decode("utf-8", "replace")
    if proc.returncode != 0:
        return f"exit {proc.returncode}: {stderr.strip()[:200]}", None, seconds
    if "Traceback" in stderr:
        return "traceback on stderr", None, seconds
    try:
        review = json.loads(proc.stdout)
    except json.JSONDecodeError as exc:
        return f"invalid JSON: {exc}", None, seconds
    for key in ("decision", "project_type", "risk_tier", "files", "findings", "timings"):
        if key not in review:
            return f"review JSON lacks '{key}'", None, seconds
    return None, review, seconds


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("diff_dir", nargs="?", default=str(ROOT.parent / "shared/eval/diffs"))
    parser.add_argument("--timeout", type=float, default=120.0)
    args = parser.parse_args()
    folder = Path(args.diff_dir)
    if not folder.is_dir():
        print(f"not a folder: {folder}", file=sys.stderr)
        return 2
    manifest_path = folder / "manifest.json"
    manifest = {e["file"]: e for e in json.loads(manifest_path.read_text())} if manifest_path.is_file() else {}
    settings = load_settings(None)
    files = sorted(p for p in folder.iterdir()
                   if p.is_file() and not p.name.startswith(".") and p.suffix not in (".json", ".md"))

    failed = 0
    per_trait: dict[str, Counter] = defaultdict(Counter)
    for path in files:
        data = path.read_bytes()
        problem, review, seconds = run_cli(path, args.timeout)
        details = ""
        if review is not None:
            expected = header_count(data)
            if len(review["files"]) != expected:
                problem = f"{len(review['files'])} files reported, {expected} file headers in the diff"
            traits = manifest.get(path.name, {}).get("all_traits", [])
            if traits:
                checks = trait_checks(ingest(data, settings))
                for trait in traits:
                    ok = checks.get(trait)
                    per_trait[trait]["pass" if ok else "fail"] += 1
                    if ok is False:
                        problem = problem or f"trait '{trait}' not recognised"
            skipped = sum(1 for f in review["files"] if f["skipped_reason"])
            details = (f"files={len(review['files'])} skipped={skipped} "
                       f"type={review['project_type']} tier={review['risk_tier']}")
        failed += problem is not None
        status = "FAIL" if problem else "ok"
        print(f"{status:4} {path.name:<58} {len(data) / 1e6:7.2f} MB {seconds:6.2f}s  {problem or details}")
    for trait, counts in sorted(per_trait.items()):
        print(f"trait {trait:<16} {counts['pass']} passed, {counts['fail']} failed")
    print(f"{len(files)} processed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
