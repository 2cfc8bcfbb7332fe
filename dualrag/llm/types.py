"""Request and response values shared by every provider."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Literal

from pydantic import BaseModel

from dualrag.config.llm import ModelCapability

Role = Literal["user", "assistant"]
FinishReason = Literal["stop", "length", "tool_use", "content_filter", "other"]


@dataclass(frozen=True)
class Message:
    role: Role
    content: str


@dataclass(frozen=True)
class LLMRequest:
    """One call to a model.

    `prefix` is the stable part, most stable first (shared rules, specialist instructions,
    schema; then the repository part). It becomes the system prompt; Anthropic gets a cache
    breakpoint after each block (at most four, the last ones). `messages` is the variable part
    (the change), usually one user message.
    """

    prefix: tuple[str, ...]
    messages: tuple[Message, ...]
    max_output_tokens: int | None = None  # None = config default
    schema: type[BaseModel] | None = None  # structured output, validated by pydantic
    temperature: float | None = None  # None = config default
    timeout: float | None = None  # silence before the first token (one attempt), seconds; None = config default
    time_left: float | None = None  # seconds this attempt may take in all (set by the resilient client)
    tag: str = ""  # free text carried into telemetry (e.g. reviewer/chunk id)
    grow: bool = True  # finish "length": retried once with more room; False: Truncated at once (the caller salvages)

    @classmethod
    def simple(cls, system: str | list[str], user: str, **kw: Any) -> "LLMRequest":
        prefix = (system,) if isinstance(system, str) else tuple(system)
        return cls(prefix=prefix, messages=(Message("user", user),), **kw)

    def with_(self, **changes: Any) -> "LLMRequest":
        return replace(self, **changes)


@dataclass
class Usage:
    """Token counts. `input_tokens` counts every prompt token, cached or not; `cache_read_tokens`
    and `cache_write_tokens` are the parts of it read from / written to the provider's cache."""

    input_tokens: int = 0
    output_tokens: int = 0
    cache_read_tokens: int = 0
    cache_write_tokens: int = 0
    estimated: bool = False  # counted locally: the provider reported no usage (some local servers)

    @property
    def uncached_input_tokens(self) -> int:
        return max(0, self.input_tokens - self.cache_read_tokens - self.cache_write_tokens)

    def __add__(self, other: "Usage") -> "Usage":
        return Usage(
            self.input_tokens + other.input_tokens,
            self.output_tokens + other.output_tokens,
            self.cache_read_tokens + other.cache_read_tokens,
            self.cache_write_tokens + other.cache_write_tokens,
            self.estimated or other.estimated,
        )

    def as_dict(self) -> dict[str, int]:
        return {
            "input_tokens": self.input_tokens,
            "output_tokens": self.output_tokens,
            "cache_read_tokens": self.cache_read_tokens,
            "cache_write_tokens": self.cache_write_tokens,
        }


def cost_of(usage: Usage, cap: ModelCapability) -> float | None:
    """USD for this usage at the capability's prices; None when the prices are unknown."""
    if cap.input_price is None or cap.output_price is None:
        return None
    read = cap.cache_read_price if cap.cache_read_price is not None else cap.input_price
    write = cap.cache_write_price if cap.cache_write_price is not None else cap.input_price
    total = (
        usage.uncached_input_tokens * cap.input_price
        + usage.cache_read_tokens * read
        + usage.cache_write_tokens * write
        + usage.output_tokens * cap.output_price
    )
    return round(total / 1_000_000, 8)


@dataclass
class LLMResponse:
    text: str
    parsed: BaseModel | None
    finish_reason: FinishReason
    usage: Usage
    latency_s: float
    model: str  # PROVIDER:MODEL that answered
    cost: float | None = None
    raw_finish_reason: str | None = None  # as the provider said it
    attempts: int = 1
    failbacks: list[dict[str, Any]] = field(default_factory=list)
    repaired: bool = False  # the JSON needed repair before it validated
