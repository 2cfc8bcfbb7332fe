"""Hostile Java shapes shared by the hostile corpus (`evaluation/safety/hostile_corpus.py`) and the tests."""

from __future__ import annotations


def nested_lambdas(depth: int) -> str:
    """One method whose body nests `depth` lambdas, each inside the previous one's block. Code
    that walks up from every member to find its owner costs depth squared (or cubed) here."""
    lines = ["package com.acme;", "", "public class Deep {", "    void run() {"]
    lines += [f"        Runnable r{i} = () -> {{" for i in range(depth)]
    lines += ["        };"] * depth
    lines += ["    }", "}"]
    return "\n".join(lines) + "\n"


def nested_anonymous_classes(depth: int) -> str:
    """Anonymous classes nested `depth` deep, each with a method holding the next one."""
    lines = ["package com.acme;", "", "public class Nest {", "    Object make() {"]
    for i in range(depth):
        lines += ["        return new Object() {", f"            Object m{i}() {{"]
    lines += ["                return null;"]
    lines += ["            }", "        };"] * depth
    lines += ["    }", "}"]
    return "\n".join(lines) + "\n"
