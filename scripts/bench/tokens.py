#!/usr/bin/env python3
"""Benchmark (and calibrate) the token estimators against exact o200k_base counts.

    .venv/bin/python -m scripts.bench.tokens ../shared/eval/diffs ../shared/eval/bugs/dev.jsonl \
        ../shared/eval/p3c/dev.jsonl
    .venv/bin/python -m scripts.bench.tokens --calibrate ../shared/eval/diffs ... ../shared/eval/kb

Inputs: directories (their *.diff/*.patch files, *.jsonl, and *.pdf if pypdf is installed), or those
files directly. Units: each diff is split into per-file sections at `diff --git` lines; each .jsonl row
gives its `diff` (one unit) or `code` field; each PDF page is a unit; plus synthetic units made by
concatenating consecutive diff sections up to ~8k and ~60k exact tokens. Those units are for
calibration and diagnosis; the floors (MAPE <= 4%, worst under-estimate <= 10%, >= 10x exact speed)
are checked per chunk: the diff inputs are ingested and chunked by dualrag's own chunker at
budgets of 2k, 8k and 60k tokens, and every distinct chunk text is compared with its exact count.
Identical units are counted once. The formula estimator is measured WITHOUT its 63-token request
overhead (`count_content`), since units are chunks, not requests.

--calibrate refits the fast estimator's costs on the "calibration half" (units whose content hash
is even) and prints them (--write also puts them into dualrag/tokens/fast.py); the benchmark reports
error on all units and on the held-out half separately so overfitting shows.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import statistics
import sys
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from scripts import ROOT

SYNTHETIC_SIZES = (8_000, 60_000)  # exact-token targets for concatenated units
SPEED_RUNS = 5


@dataclass
class Unit:
    kind: str  # diff-file, bug-diff, p3c-code, pdf-page, concat-8k, concat-60k
    source: str
    text: str
    exact: int = 0

    @property
    def heldout(self) -> bool:
        """The half NOT used for calibration (stable: depends only on the content)."""
        return hashlib.sha256(self.text.encode("utf-8", "replace")).digest()[0] % 2 == 1


def decode_bytes(raw: bytes) -> str:
    """As dualrag decodes a diff file: UTF-8, then GB18030, then Latin-1; line endings kept."""
    from dualrag.source.encoding import decode

    return decode(raw)[0]


def split_diff(text: str) -> list[str]:
    """Per-file sections of a unified diff: a new section at each `diff --git` line."""
    sections: list[str] = []
    start = 0
    pos = 0 if text.startswith("diff --git ") else text.find("\ndiff --git ")
    while pos != -1:
        cut = pos if pos == 0 else pos + 1
        if cut > start:
            sections.append(text[start:cut])
        start = cut
        pos = text.find("\ndiff --git ", cut + 1)
    sections.append(text[start:])
    return [s for s in sections if s.strip()]


def _pdf_pages(path: Path) -> list[str]:
    try:
        from pypdf import PdfReader
    except ImportError:
        print(f"skipping {path}: pypdf not installed", file=sys.stderr)
        return []
    return [
        t
        for page in PdfReader(str(path)).pages
        if (t := page.extract_text() or "").strip()
    ]


def load_units(inputs: Iterable[str]) -> list[Unit]:
    files: list[Path] = []
    for item in inputs:
        p = Path(item)
        if p.is_dir():
            files.extend(
                sorted(
                    f
                    for f in p.iterdir()
                    if f.suffix in {".diff", ".patch", ".jsonl", ".pdf"}
                )
            )
        elif p.is_file():
            files.append(p)
        else:
            raise SystemExit(f"no such file or directory: {item}")
    units: list[Unit] = []
    for f in files:
        if f.suffix == ".jsonl":
            for line in f.read_text(encoding="utf-8").splitlines():
                if line.strip():
                    row = json.loads(line)
                    if row.get("diff"):
                        units.append(Unit("bug-diff", f.name, row["diff"]))
                    elif row.get("code"):
                        units.append(Unit("p3c-code", f.name, row["code"]))
        elif f.suffix == ".pdf":
            units.extend(Unit("pdf-page", f.name, t) for t in _pdf_pages(f))
        else:
            units.extend(
                Unit("diff-file", f.name, s)
                for s in split_diff(decode_bytes(f.read_bytes()))
            )
    seen: set[str] = set()
    unique = []
    for u in units:
        if u.text not in seen:
            seen.add(u.text)
            unique.append(u)
    return unique


def add_synthetic(units: list[Unit]) -> list[Unit]:
    """Concatenate consecutive diff-file sections up to each target size (needs .exact set)."""
    out: list[Unit] = []
    sections = [u for u in units if u.kind == "diff-file"]
    for target in SYNTHETIC_SIZES:
        buf: list[Unit] = []
        total = 0
        for u in sections:
            if buf and total + u.exact > target:
                out.append(
                    Unit(
                        f"concat-{target // 1000}k",
                        buf[0].source,
                        "".join(x.text for x in buf),
                        total,
                    )
                )
                buf, total = [], 0
            buf.append(u)
            total += u.exact
        if buf and total >= target // 2:
            out.append(
                Unit(
                    f"concat-{target // 1000}k",
                    buf[0].source,
                    "".join(x.text for x in buf),
                    total,
                )
            )
    return out


@dataclass
class ErrorStats:
    n: int
    mape: float
    worst_under: float  # most negative % error, reported as a positive number
    worst_over: float
    mean_signed: float


CHUNK_BUDGETS = (2_000, 8_000, 60_000)


def chunk_units(inputs: Iterable[str]) -> list[Unit]:
    """The texts the chunker actually produces from the diff inputs, at several budgets.

    The issue's floors are per chunk: this is what a prompt budget is checked against.
    """
    from dualrag.chunking import chunk_changes
    from dualrag.config import load_settings
    from dualrag.diff import ingest
    from dualrag.errors import UserError
    from dualrag.tokens import get_estimator

    settings, estimator = load_settings(None), get_estimator("fast")
    diffs: list[tuple[str, bytes]] = []
    for item in inputs:
        path = Path(item)
        files = sorted(path.iterdir()) if path.is_dir() else [path]
        for f in files:
            if f.suffix in (".diff", ".patch"):
                diffs.append((f.name, f.read_bytes()))
            elif f.suffix == ".jsonl":
                for line in f.read_text(encoding="utf-8").splitlines():
                    row = json.loads(line)
                    if "diff" in row:
                        diffs.append((row.get("id", f.name), row["diff"].encode("utf-8")))
    seen: set[str] = set()
    out: list[Unit] = []
    for name, data in diffs:
        try:
            changes = ingest(data, settings)
        except UserError:
            continue
        for budget in CHUNK_BUDGETS:
            plan = chunk_changes(changes, estimator=estimator, config=settings.chunking, budget=budget)
            for chunk in plan.chunks:
                if chunk.text and chunk.text not in seen:
                    seen.add(chunk.text)
                    out.append(Unit(f"chunk-{budget // 1000}k", name, chunk.text))
    return out


def error_stats(estimates: Sequence[int], exact: Sequence[int]) -> ErrorStats:
    errs = [100.0 * (e - x) / x for e, x in zip(estimates, exact) if x > 0]
    return ErrorStats(
        n=len(errs),
        mape=statistics.fmean(abs(e) for e in errs),
        worst_under=max(0.0, -min(errs)),
        worst_over=max(0.0, max(errs)),
        mean_signed=statistics.fmean(errs),
    )


def median_speed(
    count: Callable[[str], int], texts: Sequence[str], runs: int = SPEED_RUNS
) -> float:
    """MB/s of calling `count` on every text, median of `runs` passes in this process."""
    nbytes = sum(len(t.encode("utf-8", "replace")) for t in texts)
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        for t in texts:
            count(t)
        times.append(time.perf_counter() - t0)
    return nbytes / statistics.median(times) / 1e6


def calibrate(units: list[Unit], reference: str) -> str:
    """Fit the fast estimator's costs on the calibration half; returns the constants' source."""
    from dualrag.tokens.fast import fit_weights, format_weights

    train = [u for u in units if not u.heldout]
    weights = fit_weights([u.text for u in train], [u.exact for u in train])
    print(f"# fitted on {len(train)} units (calibration half) against {reference}")
    block = format_weights(weights, reference.removeprefix("exact-"))
    print(block)
    return block


def write_constants(blocks: list[str]) -> None:
    """Replace the cost tables in dualrag/tokens/fast.py with freshly fitted ones."""
    path = ROOT / "dualrag" / "tokens" / "fast.py"
    src = path.read_text(encoding="utf-8")
    for block in blocks:
        name = block.split("\n")[1].split(" = ")[0]  # e.g. O200K_COSTS
        pattern = re.compile(rf"# fmt: off\n{name} = \(.*?\n\)\n# fmt: on", re.S)
        src, n = pattern.subn(lambda _m: block, src, count=1)
        if n != 1:
            raise SystemExit(f"{name} table not found in {path}")
    path.write_text(src, encoding="utf-8")
    print(f"wrote {len(blocks)} tables into {path}")


def class_mix(text: str) -> str:
    """Share of UTF-8 bytes per fast-estimator byte class (classes above 2% only)."""
    from collections import Counter

    from dualrag.tokens.base import utf8
    from dualrag.tokens.fast import CLASS_NAMES, CLASS_TABLE

    data = utf8(text)
    counts = Counter(data.translate(CLASS_TABLE))
    shares = sorted(((n / len(data), CLASS_NAMES[c]) for c, n in counts.items()), reverse=True)
    return " ".join(f"{name} {100 * share:.0f}%" for share, name in shares if share >= 0.02)


def print_worst(units: Sequence[Unit], errors: Sequence[float], n: int) -> None:
    """The n most under-estimated units: error, size, class mix, excerpt, and o200k token pieces."""
    from dualrag.tokens.exact import load_tiktoken_encoding

    enc = load_tiktoken_encoding("o200k_base")
    print(f"\nfast: {n} worst under-estimates (error%, kind, source, exact tokens, bytes)")
    for err, u in sorted(zip(errors, units), key=lambda p: p[0])[:n]:
        nbytes = len(u.text.encode("utf-8", "replace"))
        print(f"{err:+6.1f}% {u.kind} {u.source} exact={u.exact} bytes={nbytes} held-out={u.heldout}")
        print(f"    mix: {class_mix(u.text)}")
        print(f"    text: {u.text[:120]!r}")
        ids = enc.encode_ordinary(u.text[:400])[:60]
        pieces = "|".join(enc.decode_single_token_bytes(i).decode("utf-8", "replace") for i in ids)
        print(f"    bpe:  {pieces!r}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument(
        "inputs", nargs="+", help="directories or .diff/.patch/.jsonl/.pdf files"
    )
    ap.add_argument(
        "--calibrate",
        action="store_true",
        help="refit the fast estimator and print its constants",
    )
    ap.add_argument(
        "--write",
        action="store_true",
        help="with --calibrate: write the constants into dualrag/tokens/fast.py",
    )
    ap.add_argument(
        "--runs", type=int, default=SPEED_RUNS, help="speed passes (median is reported)"
    )
    ap.add_argument(
        "--worst",
        type=int,
        default=0,
        metavar="N",
        help="print the N units fast under-estimates most (excerpt, class mix, BPE pieces)",
    )
    args = ap.parse_args(argv)

    from dualrag.tokens import TokenizerUnavailable, get_estimator

    base = load_units(args.inputs)
    refs = {}
    for model in ("gpt-4o", "gpt-4"):  # o200k_base, cl100k_base
        try:
            est = get_estimator("exact", model=model)
            refs[est.name] = est
        except TokenizerUnavailable as exc:
            print(f"{model}: {exc}", file=sys.stderr)
    if "exact-o200k" not in refs:
        print("exact o200k_base is required as the reference", file=sys.stderr)
        return 0
    exact = refs["exact-o200k"]
    for u in base:
        u.exact = exact.count(u.text)
    units = [u for u in base + add_synthetic(base) if u.exact > 0]

    if args.calibrate:
        blocks = [calibrate(units, "exact-o200k")]
        if "exact-cl100k" in refs:
            cl = refs["exact-cl100k"]
            cl_units = [Unit(u.kind, u.source, u.text, cl.count(u.text)) for u in units]
            blocks.append(calibrate(cl_units, "exact-cl100k"))
        if args.write:
            write_constants(blocks)
        return 0

    corpus = [
        u.text for u in base
    ]  # speed corpus: every unit once, no synthetic duplicates
    mb = sum(len(t.encode("utf-8", "replace")) for t in corpus) / 1e6
    print(
        f"{len(base)} units + {len(units) - len(base)} synthetic, {mb:.2f} MB; errors vs exact-o200k"
    )

    fast = get_estimator("fast")
    formula = get_estimator("formula")
    candidates: dict[str, Callable[[str], int]] = {
        "fast": fast.count,
        "formula": formula.count_content,
    }
    candidates.update({n: r.count for n, r in refs.items() if r is not exact})
    if "exact-cl100k" in refs:
        fast_cl = get_estimator("fast", model="gpt-4")
        candidates["fast(cl100k)"] = fast_cl.count

    kinds = sorted({u.kind for u in units})
    header = f"{'estimator':14s} {'subset':12s} {'n':>5s} {'MAPE%':>7s} {'under%':>7s} {'over%':>7s} {'bias%':>7s}"
    print(header)
    print("-" * len(header))
    summary: dict[str, ErrorStats] = {}
    for name, count in candidates.items():
        ref_units = units
        target = [u.exact for u in units]
        if name == "fast(cl100k)":  # compare like with like
            target = [refs["exact-cl100k"].count(u.text) for u in units]
        est = [count(u.text) for u in ref_units]
        rows = [("all", list(range(len(units))))]
        rows.append(("heldout-half", [i for i, u in enumerate(units) if u.heldout]))
        rows += [(k, [i for i, u in enumerate(units) if u.kind == k]) for k in kinds]
        for label, idx in rows:
            if not idx:
                continue
            s = error_stats([est[i] for i in idx], [target[i] for i in idx])
            if label == "all":
                summary[name] = s
            print(
                f"{name:14s} {label:12s} {s.n:5d} {s.mape:7.2f} {s.worst_under:7.2f} {s.worst_over:7.2f} {s.mean_signed:+7.2f}"
            )
        print()

    speeds = {
        name: median_speed(fn, corpus, args.runs) for name, fn in candidates.items()
    }
    speeds.update(
        {n: median_speed(r.count, corpus, args.runs) for n, r in refs.items()}
    )
    print(f"speed (median of {args.runs} runs, single thread, per-unit count()):")
    for name, mbps in speeds.items():
        print(
            f"  {name:14s} {mbps:9.1f} MB/s  {mbps / speeds['exact-o200k']:6.1f}x exact-o200k"
        )

    # The floors are per chunk: the chunker's own output on the diff inputs.
    chunks = chunk_units(args.inputs)
    for u in chunks:
        u.exact = exact.count(u.text)
    chunks = [u for u in chunks if u.exact > 0]
    chunk_corpus = [u.text for u in chunks]
    print(f"\nper chunk ({len(chunks)} distinct chunks of the diff inputs at budgets "
          f"{', '.join(str(b) for b in CHUNK_BUDGETS)}):")
    chunk_summary: dict[str, ErrorStats] = {}
    chunk_speeds: dict[str, float] = {}
    for name, count in (("fast", fast.count), ("formula", formula.count_content)):
        chunk_summary[name] = error_stats([count(u.text) for u in chunks], [u.exact for u in chunks])
        chunk_speeds[name] = median_speed(count, chunk_corpus, args.runs)
    chunk_speeds["exact-o200k"] = median_speed(exact.count, chunk_corpus, args.runs)
    for name, st in chunk_summary.items():
        print(f"  {name:8s} MAPE {st.mape:5.2f}%  worst-under {st.worst_under:5.2f}%  "
              f"worst-over {st.worst_over:6.2f}%  {chunk_speeds[name]:7.1f} MB/s "
              f"({chunk_speeds[name] / chunk_speeds['exact-o200k']:.1f}x exact)")

    fast_errors = [100.0 * (fast.count(u.text) - u.exact) / u.exact for u in units]
    beyond = sum(e < -10.0 for e in fast_errors)
    if args.worst:
        print_worst(units, fast_errors, args.worst)
    print(f"fast: {beyond} of {len(units)} calibration units under-estimated by more than 10% "
          "(per-file sections and snippets, not chunks; the floors below are per chunk)")
    for name in ("formula", "fast"):
        s, ratio = chunk_summary[name], chunk_speeds[name] / chunk_speeds["exact-o200k"]
        ok = s.mape <= 4.0 and s.worst_under <= 10.0 and ratio >= 10.0
        verdict = (
            ("PASS" if ok else "FAIL") if name == "fast" else "(baseline, no floors)"
        )
        print(
            f"{name} per chunk: MAPE {s.mape:.1f}% (<=4%) worst-under {s.worst_under:.1f}% (<=10%) "
            f"speed {ratio:.1f}x exact (>=10x): {verdict}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
