"""The linear-time gitignore matcher: same answers as pathspec, no catastrophic backtracking."""

from __future__ import annotations

import random
import time

import pathspec
import pytest

from dualrag.source.glob import GlobSet

PATTERNS = ["*.log", "docs/api/**", "/build/", "node_modules/", "**/gen/*.java", "a/**/b", "*token*", "auth/",
            "src/*/x?.py", "[abc]*.txt", "!keep.log", "foo", "/foo", "foo/bar", "**/x", "x/**", "[!a-c]z",
            "d/**/e/**/f", "\\#hash", "sp\\ ace"]
SEGMENTS = ["a", "b", "docs", "api", "build", "node_modules", "gen", "src", "foo", "bar", "x", "keep.log", "q.log",
            "Z.java", "tokenize.py", "auth", "xy.py", "b.txt", "dz", "zz", "e", "f", "d", "#hash", "sp ace"]


def test_agrees_with_pathspec_on_random_lists_and_paths():
    rng = random.Random(7)
    for _ in range(2000):
        lines = rng.sample(PATTERNS, rng.randint(1, 4))
        path = "/".join(rng.choice(SEGMENTS) for _ in range(rng.randint(1, 5)))
        assert GlobSet(lines).match(path) == pathspec.GitIgnoreSpec.from_lines(lines).match_file(path), (lines, path)


@pytest.mark.parametrize("pattern, path", [
    ("a*a*a*a*a*a*a*a*a*a*a*a*b", "a" * 20_000),
    ("**/a/**/a/**/a/**/a*a*a*a*b", "/".join(["a"] * 5_000)),
    ("*" + "?*" * 60 + "z", "y" * 20_000),
])
def test_backtracking_patterns_take_milliseconds(pattern, path):
    start = time.perf_counter()
    assert GlobSet([pattern]).match(path) is False
    assert time.perf_counter() - start < 1.0


def test_ignore_case_and_last_match_wins():
    assert GlobSet(["*TOKEN*"], ignore_case=True).match("src/Tokens.java")
    assert not GlobSet(["*.log", "!keep.log"]).match("x/keep.log")
    assert GlobSet(["*.log", "!keep.log", "x/**"]).match("x/keep.log")
