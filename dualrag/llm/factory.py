"""From configuration to a client: `PROVIDER:MODEL`, per-reviewer overrides, failback chains.

    factory = LLMFactory(settings.llm, sink=JsonlSink("run.jsonl"), on_heartbeat=print_line)
    client, reason = factory.for_reviewer("security")
    if client is None:
        ...  # offline review; `reason` says why

One factory per run: it shares the SDK clients (connection pools) and the circuit breakers
(one per model) between all reviewers. A factory shared by several runs (a benchmark) is never
re-pointed at a run: each run asks for its clients with its own sink (`for_reviewer(name,
sink=...)`); breaker transitions go to the factory's own sink, and every call's event lists them.
"""

from __future__ import annotations

import random
import threading
from typing import Any

from dualrag.config.llm import LLMConfig, ModelSpec
from dualrag.llm.base import ProviderClient
from dualrag.llm.resilience import (
    BreakerRegistry,
    Clock,
    Deadline,
    HeartbeatCallback,
    ResilientClient,
    SystemClock,
)
from dualrag.llm.telemetry import EventSink

OFFLINE_REASON = "no model configured: offline review (set --llm PROVIDER:MODEL, DUALRAG_LLM or [llm] model)"


class LLMFactory:
    def __init__(
        self,
        config: LLMConfig,
        *,
        sink: EventSink | None = None,
        on_heartbeat: HeartbeatCallback | None = None,
        clock: Clock | None = None,
        deadline: Deadline | None = None,
        cancel: threading.Event | None = None,
        rng: random.Random | None = None,
    ) -> None:
        self.config = config
        self.sink = sink
        self.on_heartbeat = on_heartbeat
        self.clock = clock or SystemClock()
        self.deadline = deadline
        self.cancel = cancel
        self.rng = rng
        self.breakers = BreakerRegistry(config.resilience, self.clock, on_transition=self._breaker_event)
        self._sdks: dict[str, Any] = {}
        self._providers: dict[str, ProviderClient] = {}
        self._slots: dict[str, threading.Semaphore] = {}
        self._lock = threading.Lock()

    def _breaker_event(self, tr: tuple[str, str, str]) -> None:
        if self.sink is not None:
            self.sink({"event": "llm_breaker", "model": tr[0], "from": tr[1], "to": tr[2]})

    def provider(self, spec: str | ModelSpec) -> ProviderClient:
        """The single-attempt client of one model (cached). Raises ConfigError / MissingExtra.

        Clients of one local endpoint share a slot (`local_concurrency` requests at a time): a
        local server computes one answer at a time, and llama.cpp's abandons the running one
        when a second request arrives, so parallel reviewers would cut each other off."""
        ms = spec if isinstance(spec, ModelSpec) else ModelSpec.parse(spec)
        key = str(ms)
        with self._lock:
            if key not in self._providers:
                client = self._make(ms)
                if client.local:
                    endpoint = f"{ms.provider}:{client.endpoint or ms.model}"
                    if endpoint not in self._slots:
                        self._slots[endpoint] = threading.Semaphore(self.config.resilience.local_concurrency)
                    client.slot = self._slots[endpoint]
                self._providers[key] = client
            return self._providers[key]

    def _make(self, ms: ModelSpec) -> ProviderClient:
        if ms.provider == "openai":
            from dualrag.llm.openai_client import OpenAIClient, make_openai_sdk

            if "openai" not in self._sdks:
                self._sdks["openai"] = make_openai_sdk(self.config)
            return OpenAIClient(ms, self.config, sdk=self._sdks["openai"])
        if ms.provider == "anthropic":
            from dualrag.llm.anthropic_client import AnthropicClient, make_anthropic_sdk

            if "anthropic" not in self._sdks:
                self._sdks["anthropic"] = make_anthropic_sdk(self.config)
            return AnthropicClient(ms, self.config, sdk=self._sdks["anthropic"])
        from dualrag.llm.llamacpp_client import LlamaCppClient

        return LlamaCppClient(ms, self.config)

    def client(self, spec: str, *, sink: EventSink | None = None) -> ResilientClient:
        """A model with its failback chain, resilient; its calls are reported to `sink`, else to the
        factory's (a shared factory serves several runs, each with its own). Raises ConfigError /
        MissingExtra."""
        chain = [self.provider(s) for s in self.config.chain_for(str(ModelSpec.parse(spec)))]
        return ResilientClient(
            chain, self.config.resilience, breakers=self.breakers, clock=self.clock,
            sink=sink if sink is not None else self.sink,
            on_heartbeat=self.on_heartbeat, deadline=self.deadline, cancel=self.cancel, rng=self.rng,
        )

    def for_reviewer(self, reviewer: str | None = None, *, sink: EventSink | None = None
                     ) -> tuple[ResilientClient | None, str]:
        """(client, reason): None and why when no model is configured (offline review). `sink`: as
        for `client`."""
        spec = self.config.model_for(reviewer)
        if spec is None:
            return None, OFFLINE_REASON
        client = self.client(spec, sink=sink)
        chain = [c.model for c in client.chain]
        reason = f"using {chain[0]}" + (f" (failback: {', '.join(chain[1:])})" if len(chain) > 1 else "")
        return client, reason


def build_llm(config: LLMConfig, reviewer: str | None = None, **kw: Any) -> tuple[ResilientClient | None, str]:
    """One-off convenience over `LLMFactory(config, **kw).for_reviewer(reviewer)`."""
    return LLMFactory(config, **kw).for_reviewer(reviewer)
