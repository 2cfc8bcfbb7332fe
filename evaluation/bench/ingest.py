"""Ingest throughput and peak memory: parse + noise filter + type + tier.

    .venv/bin/python -m evaluation.bench.ingest [DIFF_DIR] [--runs 5] [--largest 5] [--generated-mb 50]

For the largest real diffs in DIFF_DIR (default ../shared/eval/diffs), a generated
50 MB diff and a generated 10,000-file diff it prints, per input:
  - ingest MB/s: median of --runs timed runs of `ingest()` (what the ChangeSet costs);
  - full MB/s: ingest plus parsing the hunks of every reviewed file (what the later
    stages pay when they read every line), median of the same number of runs;
  - peak x: (input bytes + peak Python allocation during ingest) / input bytes,
    measured by tracemalloc in a separate, untimed run.
Floor (issue 2): ingest >= 20 MB/s on the real diffs and the 50 MB diff, and peak below
10x the diff size everywhere.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
import tracemalloc
from pathlib import Path

from dualrag.config import load_settings
from dualrag.diff import ingest
from evaluation.core import datasets
from evaluation.core.report import verdict

FLOOR_MBPS = 20.0
FLOOR_PEAK = 10.0

_JAVA_LINES = [
    "        if (order == null) {",
    "            throw new IllegalArgumentException(\"order must not be null\");",
    "        }",
    "        BigDecimal total = order.getTotal().setScale(2, RoundingMode.HALF_UP);",
    "        log.info(\"submitting order {} for partner {}\", order.getNumber(), partner);",
    "        request.setAddressCode(String.valueOf(address.getCode()));",
    "        // 校验伙伴编码，必须为数字字符串",
    "        for (OrderLine line : order.getLines()) {",
    "            quantities.merge(line.getSku(), line.getQuantity(), Integer::sum);",
    "        return repository.findByCustomerIdAndStatus(customerId, Status.OPEN);",
]


def generated_diff(target_bytes: int, *, files: int | None = None, seed: int = 20261129) -> bytes:
    """A deterministic git diff of Java files (some CRLF, some with Chinese comments),
    with a lock file and a minified bundle in between, of about `target_bytes`."""
    rng = random.Random(seed)
    parts: list[bytes] = []
    size = 0
    n = 0
    while (files is None and size < target_bytes) or (files is not None and n < files):
        n += 1
        kind = n % 25
        if kind == 7:
            path, body = f"web/app{n}/package-lock.json", [f'    "dep{i}": "1.{i}.0",' for i in range(60)]
        elif kind == 13:
            path, body = f"web/app{n}/dist/app.min.js", ["var a=function(){return 1};" * 40]
        else:
            path = f"src/main/java/com/acme/mod{n % 97}/Service{n}.java"
            body = [rng.choice(_JAVA_LINES) for _ in range(rng.randint(20, 120) if files is None else 6)]
        eol = "\r\n" if n % 11 == 0 else "\n"
        hunks = []
        for start in range(1, len(body) + 1, 30):
            block = body[start - 1 : start + 29]
            lines = [(" " if i % 3 else "-") + text for i, text in enumerate(block)]
            lines += ["+" + text.replace("order", "request") for text in block[::3]]
            old_len = sum(1 for x in lines if x[0] in " -")
            new_len = sum(1 for x in lines if x[0] in " +")
            hunks.append(f"@@ -{start},{old_len} +{start},{new_len} @@ class Service{n}\n")
            hunks.extend(line + eol for line in lines)
        header = (
            f"diff --git a/{path} b/{path}\nindex 1111111..2222222 100644\n"
            f"--- a/{path}\n+++ b/{path}\n"
        )
        chunk = (header + "".join(hunks)).encode("utf-8")
        parts.append(chunk)
        size += len(chunk)
    return b"".join(parts)


def _median_seconds(fn, runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def measure(name: str, data: bytes, settings, runs: int) -> dict:
    mb = len(data) / 1e6

    def full() -> None:
        changes = ingest(data, settings)
        for f in changes.reviewable:
            f.hunks  # noqa: B018 - materialise every hunk

    changes = ingest(data, settings)
    t_ingest = _median_seconds(lambda: ingest(data, settings), runs)
    t_full = _median_seconds(full, runs)
    tracemalloc.start()
    ingest(data, settings)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return {
        "name": name, "mb": mb, "files": len(changes.files), "skipped": len(changes.skipped),
        "ingest": mb / t_ingest, "full": mb / t_full, "peak_x": (len(data) + peak) / len(data),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("diff_dir", nargs="?", default=str(datasets.DIFFS))
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--largest", type=int, default=5)
    parser.add_argument("--generated-mb", type=float, default=50.0)
    args = parser.parse_args()

    settings = load_settings(None)
    inputs: list[tuple[str, bytes]] = []
    diff_dir = Path(args.diff_dir)
    if diff_dir.is_dir():
        real = sorted((p for p in diff_dir.iterdir() if p.suffix in (".diff", ".patch")),
                      key=lambda p: p.stat().st_size, reverse=True)[: args.largest]
        inputs += [(p.name, p.read_bytes()) for p in real]
    else:
        print(f"(no real diffs at {diff_dir}; generated inputs only)")
    inputs.append((f"generated {args.generated_mb:g} MB", generated_diff(int(args.generated_mb * 1e6))))
    inputs.append(("generated 10,000 files (time bound only)", generated_diff(0, files=10_000)))

    print(f"{'input':<48} {'MB':>7} {'files':>6} {'skip':>5} {'ingest MB/s':>12} {'full MB/s':>10} {'peak x':>7}")
    rows = []
    for name, data in inputs:
        row = measure(name, data, settings, args.runs)
        rows.append(row)
        print(f"{name[:48]:<48} {row['mb']:7.2f} {row['files']:6d} {row['skipped']:5d} "
              f"{row['ingest']:12.1f} {row['full']:10.1f} {row['peak_x']:7.2f}")
    # The floor names the largest real diffs and the generated 50 MB diff; the 10,000-file
    # diff of tiny files is there to show time and memory stay bounded.
    worst_speed = min(r["ingest"] for r in rows if "time bound" not in r["name"])
    worst_peak = max(r["peak_x"] for r in rows)
    ok = worst_speed >= FLOOR_MBPS and worst_peak < FLOOR_PEAK
    print(f"ingest: slowest {worst_speed:.1f} MB/s (floor {FLOOR_MBPS:g}), "
          f"median {statistics.median(r['ingest'] for r in rows):.1f} MB/s; "
          f"full parse median {statistics.median(r['full'] for r in rows):.1f} MB/s; "
          f"worst peak {worst_peak:.2f}x (floor < {FLOOR_PEAK:g}x): {verdict(ok)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
