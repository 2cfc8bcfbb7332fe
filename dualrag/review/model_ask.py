"""What the index-time writers (`rule_example.py`, `rule_variants.py`) share: one short request per
rule, asked once. The cache key is what the model reads, hashed with the model's name; an answer cut
at its token cap keeps what it wrote (its first lines are the useful part)."""

from __future__ import annotations

import hashlib

from dualrag.llm.errors import Truncated
from dualrag.llm.types import LLMRequest


def request_key(model: str, request: LLMRequest) -> str:
    return hashlib.sha256(f"{model}\n{request.messages[0].content}".encode()).hexdigest()


def answer_text(client, request: LLMRequest) -> str:
    """The model's answer; LLMError (other than a cut-off answer) goes to the caller."""
    try:
        return client.complete(request).text or ""
    except Truncated as exc:
        return (exc.response.text or "") if exc.response is not None else ""
