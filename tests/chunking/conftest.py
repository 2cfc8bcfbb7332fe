"""Helpers for chunking tests: an additive word-count estimator (so expected budgets can be
derived by hand from the inputs) and Java sources built from method specs."""

from __future__ import annotations

import pytest

from dualrag.config import ChunkingConfig


class WordEstimator:
    """Tokens = whitespace-separated words. Additive over newline-terminated pieces, which makes
    "exactly at the budget" computable from the inputs."""

    name = "words"

    def count(self, text: str) -> int:
        return len(text.split())

    def count_many(self, texts):
        return [self.count(t) for t in texts]


@pytest.fixture
def words() -> WordEstimator:
    return WordEstimator()


@pytest.fixture
def exact_config() -> ChunkingConfig:
    """No packing headroom: the estimate itself is held to the budget."""
    return ChunkingConfig(estimate_margin=0.0, overlap_lines=2)


def java_class(methods: dict[str, list[str]], *, package: str = "com.acme", name: str = "Foo") -> str:
    out = [f"package {package};", "", f"public class {name} {{"]
    for signature, body in methods.items():
        out.append(f"    {signature} {{")
        out += [f"        {line}" for line in body]
        out += ["    }", ""]
    out.append("}")
    return "\n".join(out) + "\n"


@pytest.fixture
def make_java() -> object:
    return java_class
