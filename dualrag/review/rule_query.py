"""With a model: the added code of a chunk turned into rule language, one more rule query
(`[retrieval.channels] model_query`).

Code and rule prose share few words: `finally { return x; }` against "a finally block must not
return". A model bridges that in a few lines ("Do not return from a finally block"), which the
retriever searches like the code itself (rules.py), fused with the deterministic queries, never
instead of them: a drifting answer adds a weak channel, it cannot take the code's place.

One short request per distinct piece of code, cached by its hash for the writer's life; its
tokens are in the review's usage under the tag `rule_query`. A failed request or an unusable
answer gives an empty query and a note: retrieval goes on with the deterministic channels.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Mapping, MutableMapping, Sequence
from typing import Any

from dualrag.llm.errors import LLMError
from dualrag.llm.types import LLMRequest, Message
from dualrag.review.prompt import template
from dualrag.review.sanitize import sanitize
from dualrag.source.text import CONTROL

MAX_CODE_CHARS = 3_000  # the first windows of the code: what the deterministic dense query reads too
MAX_LINES = 5
MAX_LINE_CHARS = 160
MAX_OUTPUT_TOKENS = 160
SYSTEM = "You help a code reviewer find which of the team's written coding rules apply to a change."
_BULLET = re.compile(r"^\s*(?:[-*•]|\d+[.)、]|#+)\s*")


class RuleQueryWriter:
    """`writer(code) -> str`: a few lines of rule language for the code ("" when the model fails)."""

    def __init__(self, client: Any, *, cache: MutableMapping[str, str] | None = None,
                 instructions: str | None = None) -> None:
        self.client = client
        self.instructions = instructions  # another prompt than rule_query.md (an evaluation's variant)
        self.cache: MutableMapping[str, str] = {} if cache is None else cache
        self.failures: list[str] = []

    def __call__(self, code: str) -> str:
        code = code.strip()[:MAX_CODE_CHARS]
        if not code:
            return ""
        key = hashlib.sha256(code.encode("utf-8", "replace")).hexdigest()
        if key not in self.cache:
            try:
                response = self.client.complete(rule_query_request(code, self.instructions))
            except LLMError as exc:
                self.failures.append(str(exc))
                return ""
            self.cache[key] = clean_answer(response.text or "")
        return self.cache[key]


    @property
    def notes(self) -> tuple[str, ...]:
        if not self.failures:
            return ()
        return ((f"model rule query failed {len(self.failures)} time(s) (the code alone was searched): "
                 f"{self.failures[0]}"),)

    @classmethod
    def for_run(cls, enabled: bool, reviewers: Sequence[Any], clients: Mapping[str, Any] | None
                ) -> RuleQueryWriter | None:
        """The model query of rule retrieval, on the first reviewer's client, when that channel is
        on (`enabled`) and a model reads the change."""
        if not enabled or not clients:
            return None
        client = next((clients[r.name] for r in reviewers if clients.get(r.name) is not None), None)
        return cls(client) if client is not None else None


def rule_query_request(code: str, instructions: str | None = None) -> LLMRequest:
    instructions = (instructions or template("rule_query")).strip().replace("{max_lines}", str(MAX_LINES))
    user = f"{instructions}\n\n<added_code>\n{sanitize(code)}\n</added_code>\n"
    return LLMRequest(prefix=(SYSTEM,), messages=(Message("user", user),), max_output_tokens=MAX_OUTPUT_TOKENS,
                      tag="rule_query")


def clean_answer(text: str) -> str:
    """At most MAX_LINES short plain lines: bullets, fences and control characters gone."""
    lines = []
    for raw in CONTROL.sub(" ", text.replace("```", "\n")).splitlines():
        line = _BULLET.sub("", raw).strip().strip("`*\"'")
        if len(line) < 8 or line.lower().startswith(("here", "java", "plain")):
            continue
        lines.append(line[:MAX_LINE_CHARS])
        if len(lines) == MAX_LINES:
            break
    return "\n".join(lines)
