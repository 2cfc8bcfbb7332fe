"""Structured output: the schema as prompt text, and a tolerant parse validated by pydantic.

Parsing order: strict `json.loads` of the stripped text; then our own conservative repair
(strip code fences, take the outermost object/array, drop trailing commas, close brackets of a
truncated answer when the cut is at a safe place); then `json_repair` when it is installed.
Whatever is parsed must validate against the pydantic model, else `InvalidOutput`.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

from pydantic import BaseModel, ValidationError

from dualrag.llm.errors import EmptyOutput, InvalidOutput

_FENCE = re.compile(r"```[a-zA-Z0-9_-]*\s*\n?(.*?)(?:```|$)", re.S)
_TRAILING_COMMA = re.compile(r",(\s*[}\]])")


def schema_json(schema: type[BaseModel]) -> dict[str, Any]:
    return schema.model_json_schema()


def schema_name(schema: type[BaseModel]) -> str:
    name = re.sub(r"[^a-zA-Z0-9_-]", "_", schema.__name__)[:64]
    return name or "answer"


def schema_instructions(schema: type[BaseModel]) -> str:
    """Deterministic prompt text (part of the stable prefix) for providers without json_schema."""
    dumped = json.dumps(schema_json(schema), sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return (
        "Answer with one JSON object only, no prose and no code fences. "
        "It must validate against this JSON schema:\n" + dumped
    )


def parse_structured(text: str, schema: type[BaseModel]) -> tuple[BaseModel, bool]:
    """(validated model, whether repair was needed). Raises EmptyOutput or InvalidOutput.

    Candidates are tried in order (as is, repaired, cut back to an earlier complete member);
    the first that validates wins, so a partial trailing element of a cut answer is dropped.
    """
    if not text or not text.strip():
        raise EmptyOutput("the model returned an empty answer")
    first_error: InvalidOutput | None = None
    for value, repaired in iter_json_candidates(text):
        try:
            return validate(value, schema, raw=text), repaired
        except InvalidOutput as exc:
            first_error = first_error or exc
    raise first_error or InvalidOutput("answer is not JSON and could not be repaired", raw=text)


def validate(value: Any, schema: type[BaseModel], *, raw: str = "") -> BaseModel:
    try:
        return schema.model_validate(value)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "(root)"
        raise InvalidOutput(
            f"answer does not match {schema.__name__}: {where}: {first['msg']} ({exc.error_count()} errors)",
            raw=raw,
        ) from None


def parse_json_tolerant(text: str) -> tuple[Any, bool]:
    """(value, repaired) of the first candidate that parses. Raises InvalidOutput if none does."""
    for value, repaired in iter_json_candidates(text):
        return value, repaired
    raise InvalidOutput("answer is not JSON and could not be repaired", raw=text)


def iter_json_candidates(text: str, limit: int = 64) -> Iterator[tuple[Any, bool]]:
    """Parsed values, best first: the text as is, then repaired variants (at most `limit`)."""
    stripped = text.strip()
    try:
        yield json.loads(stripped), False
    except ValueError:
        pass
    seen: set[str] = set()
    for candidate in _candidates(stripped):
        if candidate in seen or len(seen) >= limit:
            continue
        seen.add(candidate)
        try:
            yield json.loads(candidate), True
        except ValueError:
            continue
    if _looks_truncated(stripped):
        return  # completing a cut answer by guesswork could turn it into "no findings"
    value = _json_repair(stripped)
    if value is not None:
        yield value, True


def _looks_truncated(text: str) -> bool:
    fence = _FENCE.search(text)
    body = fence.group(1) if fence else text
    return _first_open(body) is not None and _outermost(body) is None and not _unbalanced_close(body)


def _unbalanced_close(text: str) -> bool:
    """More closing than opening brackets (outside strings): broken, not cut short."""
    depth = 0
    in_str = esc = False
    for ch in text:
        if in_str:
            if esc:
                esc = False
            elif ch == "\\":
                esc = True
            elif ch == '"':
                in_str = False
        elif ch == '"':
            in_str = True
        elif ch in "{[":
            depth += 1
        elif ch in "}]":
            depth -= 1
            if depth < 0:
                return True
    return False


def _candidates(text: str) -> Iterator[str]:
    body = text
    fence = _FENCE.search(text)
    if fence:
        body = fence.group(1).strip()
        yield body
    outer = _outermost(body)
    if outer is not None:
        yield outer
        yield _TRAILING_COMMA.sub(r"\1", outer)
    start = _first_open(body)
    if start is not None and outer is None:
        yield from _close_truncated(_TRAILING_COMMA.sub(r"\1", body[start:]))


def _first_open(text: str) -> int | None:
    positions = [p for p in (text.find("{"), text.find("[")) if p >= 0]
    return min(positions) if positions else None


def _outermost(text: str) -> str | None:
    """The first balanced {...} or [...] (string-aware), or None."""
    start = _first_open(text)
    if start is None:
        return None
    stack: list[str] = []
    in_str = esc = False
    for i in range(start, len(text)):
        ch = text[i]
        if in_str:
            if esc:
                esc = False
            elif ch == "\\":
                esc = True
            elif ch == '"':
                in_str = False
        elif ch == '"':
            in_str = True
        elif ch in "{[":
            stack.append("}" if ch == "{" else "]")
        elif ch in "}]":
            if not stack or stack.pop() != ch:
                return None
            if not stack:
                return text[start : i + 1]
    return None


def _close_truncated(text: str) -> Iterator[str]:
    """Closings of a cut-off answer, latest cut first.

    A cut is made only where the text before it is complete: right after a closing bracket or
    before a comma (never inside a string or after a key's colon). Each cut keeps at least one
    complete member: a cut back to the bare root bracket would turn a cut answer into an empty
    one ("no findings"), so it is never offered.
    """
    stack: list[str] = []
    in_str = esc = False
    cuts: list[tuple[int, list[str]]] = []  # (index of last kept char, brackets still open)
    for i, ch in enumerate(text):
        if in_str:
            if esc:
                esc = False
            elif ch == "\\":
                esc = True
            elif ch == '"':
                in_str = False
            continue
        if ch == '"':
            in_str = True
        elif ch in "{[":
            stack.append("}" if ch == "{" else "]")
        elif ch in "}]":
            if not stack or stack.pop() != ch:
                return
            if not stack:
                return  # complete already: not a truncation
            cuts.append((i, list(stack)))
        elif ch == ",":
            cuts.append((i - 1, list(stack)))
    if not stack:
        return
    for last, still_open in reversed(cuts):
        head = text[: last + 1].rstrip().rstrip(",")
        yield head + "".join(reversed(still_open))


def _json_repair(text: str) -> Any | None:
    try:
        import json_repair  # optional, maintained repair library
    except ImportError:
        return None
    try:
        value = json_repair.loads(text)
    except Exception:
        return None
    # json_repair returns "" for hopeless input; only objects/arrays count as an answer
    return value if isinstance(value, (dict, list)) and value else None
