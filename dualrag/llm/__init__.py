"""The LLM layer: provider clients behind one interface, structured output, resilience, telemetry.

Reviewers use `LLMFactory(config.llm, sink=...).for_reviewer(name)` → `(client | None, reason)`
and call `client.complete(LLMRequest(...))` → `LLMResponse`, catching the typed errors of
`dualrag.llm.errors`. Provider SDKs are imported only when a model of theirs is used.
"""

from dualrag.config.llm import (
    DEFAULT_CAPABILITIES,
    EndpointConfig,
    LlamaCppConfig,
    LLMConfig,
    ModelCapability,
    ModelSpec,
    ResilienceConfig,
)
from dualrag.llm.base import LLMClient, ProviderClient
from dualrag.llm.errors import (
    Cancelled,
    ContextOverflow,
    EmptyOutput,
    ErrorKind,
    InvalidOutput,
    LLMError,
    MissingExtra,
    OutputError,
    ProviderError,
    Truncated,
    Unavailable,
)
from dualrag.llm.factory import OFFLINE_REASON, LLMFactory, build_llm
from dualrag.llm.resilience import (
    BreakerRegistry,
    BreakerState,
    CircuitBreaker,
    Deadline,
    ManualClock,
    ResilientClient,
    RetryPolicy,
    SystemClock,
)
from dualrag.llm.structured import parse_json_tolerant, parse_structured, schema_instructions
from dualrag.llm.telemetry import EventSink, JsonlSink, ListSink
from dualrag.llm.types import LLMRequest, LLMResponse, Message, Usage, cost_of

__all__ = [
    "DEFAULT_CAPABILITIES", "OFFLINE_REASON", "BreakerRegistry", "BreakerState", "Cancelled",
    "CircuitBreaker", "ContextOverflow", "Deadline", "EmptyOutput", "EndpointConfig", "ErrorKind",
    "EventSink", "InvalidOutput", "JsonlSink", "LLMClient", "LLMConfig", "LLMError", "LLMFactory",
    "LLMRequest", "LLMResponse", "ListSink", "LlamaCppConfig", "ManualClock", "Message", "MissingExtra",
    "ModelCapability", "ModelSpec", "OutputError", "ProviderClient", "ProviderError", "ResilienceConfig",
    "ResilientClient", "RetryPolicy", "SystemClock", "Truncated", "Unavailable", "Usage", "build_llm",
    "cost_of", "parse_json_tolerant", "parse_structured", "schema_instructions",
]
