"""Who reads a change: the reviewers it gets, the one model resolved from their configuration
(`config/resolved.py`: window, answer cap, tokenizer, price, compact prompts), and their clients.

Resolved once per run and passed down: chunking, caps, retrieval, the reviewers and the walkthrough
read the same object; the settings are never rewritten to carry it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from dualrag.config import Settings
from dualrag.config.llm import LLMConfig
from dualrag.config.resolved import COMPACT_WINDOW, CONTEXT_SHARE, ResolvedModel, resolve_model
from dualrag.diff.model import ChangeSet
from dualrag.llm.factory import LLMFactory
from dualrag.llm.telemetry import EventSink
from dualrag.review.reviewers import Reviewer, select_reviewers

__all__ = ["COMPACT_WINDOW", "CONTEXT_SHARE", "Readers", "readers_for", "resolve_for"]


@dataclass(frozen=True)
class Readers:
    reviewers: tuple[Reviewer, ...]  # selected for the change's tier and project type
    model: ResolvedModel
    clients: Mapping[str, Any] | None = None  # reviewer name -> client; None: offline, or nothing to review


def resolve_for(settings: Settings, reviewers: Sequence[Reviewer], llm: LLMConfig | None = None) -> ResolvedModel:
    """The model that reads what `reviewers` review (`llm`: the run's LLM configuration, else the settings')."""
    llm = llm or settings.llm
    return resolve_model(settings, [spec for r in reviewers if (spec := llm.model_for(r.name))], llm)


def readers_for(changes: ChangeSet, settings: Settings, *, only: Sequence[str] | None = None,
                factory: LLMFactory | None = None, sink: EventSink | None = None,
                on_heartbeat: Any = None) -> Readers:
    """The reviewers, their model and their clients. `factory`: a shared one (its configuration
    wins over the settings'); its clients report to `sink`, this run's. A model that cannot work
    (a missing key) stops here, before any work."""
    llm = factory.config if factory is not None else settings.llm
    selected = tuple(select_reviewers(str(changes.risk_tier), str(changes.project_type), only=only,
                                      languages=[f.language for f in changes.files if f.reviewable]))
    model = resolve_for(settings, selected, llm)
    if not model.online or not changes.reviewable:
        return Readers(selected, model)
    factory = factory or LLMFactory(llm, sink=sink, on_heartbeat=on_heartbeat)
    return Readers(selected, model, {r.name: factory.for_reviewer(r.name, sink=sink)[0] for r in selected})
