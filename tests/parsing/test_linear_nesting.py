"""Member ownership is found in one pass: nesting depth must not multiply the time.

Times are compared by ratio between two sizes (4x apart), never in absolute seconds: quadratic
code takes ~16x, cubic ~64x, one pass ~4x (up to 10x allowed: a busy machine adds noise)."""

from __future__ import annotations

import time

from dualrag.chunking.units import file_units
from dualrag.config import Settings
from dualrag.diff import ingest
from dualrag.languages import parser
from dualrag.parsing.java import java_members
from dualrag.parsing.symbols import java_file
from dualrag.testing.hostile_java import nested_anonymous_classes, nested_lambdas


def _best_of(fn, arg, runs: int = 3) -> float:
    best = float("inf")
    for _ in range(runs):
        t = time.perf_counter()
        fn(arg)
        best = min(best, time.perf_counter() - t)
    return best


def _ratio(fn, small: int, factor: int = 4) -> float:
    fn(small)  # warm caches (grammar, queries)
    return _best_of(fn, small * factor) / max(_best_of(fn, small), 1e-4)


def test_nested_lambdas_outline_near_linear():
    ratio = _ratio(lambda n: java_members(nested_lambdas(n), parser("java")), 800)
    assert ratio < 10, f"4x the lambdas took {ratio:.1f}x the time"


def test_nested_lambdas_owners_are_right():
    members, _, _ = java_members(nested_lambdas(3), parser("java"))
    lambdas = [m for m in members if m.kind == "lambda"]
    assert [m.name for m in lambdas] == [f"com.acme.Deep.run().lambda@{5 + i}" for i in range(3)]


def test_nested_anonymous_classes_owners_and_time():
    members, _, _ = java_members(nested_anonymous_classes(2), parser("java"))
    names = [m.name for m in members if m.kind == "method"]
    assert names == ["com.acme.Nest.make()", "com.acme.Nest.new Object.m0()",
                     "com.acme.Nest.new Object.new Object.m1()"]
    assert _ratio(lambda n: java_file(nested_anonymous_classes(n), parser("java")), 300) < 10


def _diff(text: str) -> bytes:
    lines = text.rstrip("\n").split("\n")
    body = "".join(f"+{line}\n" for line in lines)
    return (f"diff --git a/src/Deep.java b/src/Deep.java\nnew file mode 100644\nindex 0000000..1111111\n"
            f"--- /dev/null\n+++ b/src/Deep.java\n@@ -0,0 +1,{len(lines)} @@\n{body}").encode()


def test_nested_lambdas_units_near_linear():
    def units(n: int) -> None:
        f = ingest(_diff(nested_lambdas(n)), Settings()).files[0]
        file_units(f, None)
    assert _ratio(units, 400) < 10
