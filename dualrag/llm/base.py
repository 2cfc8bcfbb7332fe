"""The one interface every client offers, and the shared single-attempt machinery of providers."""

from __future__ import annotations

import threading
import time
from abc import ABC, abstractmethod
from typing import Any, Protocol, runtime_checkable

from dualrag.config.llm import LLMConfig, ModelCapability, ModelSpec, ResilienceConfig
from dualrag.llm.errors import EmptyOutput, OutputError
from dualrag.llm.streaming import Silence
from dualrag.llm.structured import parse_structured, validate
from dualrag.llm.types import FinishReason, LLMRequest, LLMResponse, Usage, cost_of


@runtime_checkable
class LLMClient(Protocol):
    """`complete` returns a response or raises an `LLMError` subclass; never an SDK exception."""

    @property
    def model(self) -> str: ...

    def complete(self, request: LLMRequest) -> LLMResponse: ...


class ProviderClient(ABC):
    """One model on one provider, one attempt per call (the SDK's own retries are off).

    Returns a response whose finish_reason may be "length" (then `parsed` is None and the
    resilient layer decides); raises ProviderError for failed calls, EmptyOutput/InvalidOutput
    for unusable answers (with the usage they cost).
    """

    local: bool = False  # the model runs on this machine: the local timeout defaults apply
    endpoint: str = ""  # where requests go (clients of one endpoint share its slot)
    slot: threading.Semaphore | None = None  # held while a request is in flight (set by the factory)

    def __init__(self, spec: ModelSpec, config: LLMConfig) -> None:
        self.spec = spec
        self.config = config
        self.capability: ModelCapability = config.capability(spec)

    @property
    def model(self) -> str:
        return str(self.spec)

    @property
    def resilience(self) -> ResilienceConfig:
        """The resilience settings with this endpoint's defaults filled in."""
        return self.config.resilience.for_endpoint(self.local)

    # -- helpers for subclasses
    def max_tokens(self, request: LLMRequest) -> int:
        wanted = request.max_output_tokens or self.config.max_output_tokens
        return max(1, min(wanted, self.capability.max_output_tokens))

    def timeout(self, request: LLMRequest) -> float:
        """Silence allowed before the first token (without streaming: the whole attempt)."""
        return float(request.timeout or self.resilience.request_timeout_s or 0)

    def silence(self, request: LLMRequest) -> Silence:
        """How long a streamed answer may stay quiet, within the attempt's time left."""
        left = request.time_left if request.time_left is not None else float("inf")
        between = float(self.resilience.silence_timeout_s or 0)
        return Silence(first_token_s=min(self.timeout(request), left), between_tokens_s=min(between, left),
                       total_s=left)

    def temperature(self, request: LLMRequest) -> float:
        return self.config.temperature if request.temperature is None else request.temperature

    @abstractmethod
    def complete(self, request: LLMRequest) -> LLMResponse:
        """Send one request to the provider (no retries: the resilience layer owns those)."""

    def finish(
        self,
        request: LLMRequest,
        *,
        text: str,
        value: Any = None,
        has_value: bool = False,
        finish_reason: FinishReason,
        raw_finish_reason: str | None,
        usage: Usage,
        started: float,
    ) -> LLMResponse:
        """Build the response; parse and validate structured output unless the answer was cut."""
        response = LLMResponse(
            text=text,
            parsed=None,
            finish_reason=finish_reason,
            usage=usage,
            latency_s=round(time.monotonic() - started, 4),
            model=self.model,
            cost=cost_of(usage, self.capability),
            raw_finish_reason=raw_finish_reason,
        )
        if finish_reason == "length":
            return response
        try:
            if request.schema is None:
                if not text.strip():
                    raise EmptyOutput("the model returned an empty answer")
            elif has_value:
                response.parsed = validate(value, request.schema, raw=text)
            else:
                response.parsed, response.repaired = parse_structured(text, request.schema)
        except OutputError as exc:
            exc.model, exc.usage, exc.response = self.model, usage, response
            raise
        return response
