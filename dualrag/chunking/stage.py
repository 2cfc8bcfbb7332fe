"""The chunk and cap stages of a review: the change cut to the reading model's window, then the
chunks a review may spend on (`[limits]`)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from dualrag.chunking import chunk_changes
from dualrag.chunking.caps import cap_plan
from dualrag.chunking.model import ChunkPlan
from dualrag.config import Settings
from dualrag.config.resolved import ResolvedModel
from dualrag.diff.model import ChangeSet
from dualrag.tokens import TokenizerUnavailable, get_estimator

Reader = Callable[[str], "bytes | None"]


@dataclass(frozen=True)
class Chunking:
    plan: ChunkPlan
    notes: tuple[str, ...] = ()  # an estimator that fell back

    @property
    def note(self) -> str | None:
        return self.notes[0] if self.notes else None


@dataclass(frozen=True)
class Spend:
    """The chunks retrieved for and reviewed; the rest stay in the plan, unreviewed."""

    plan: ChunkPlan
    notes: tuple[str, ...] = ()  # which cap left chunks out


def chunk(changes: ChangeSet, settings: Settings, model: ResolvedModel, *, read_file: Reader | None = None,
          estimator: str | None = None) -> Chunking:
    """Chunk a ChangeSet with the configured estimator in `model`'s tokens and window; an `exact`
    estimator whose tokenizer is not installed degrades to `fast` with a note rather than failing."""
    kind, notes = estimator or settings.chunking.estimator, ()
    try:
        est = get_estimator(kind, model=model.token_model)
    except (TokenizerUnavailable, ValueError, ImportError, OSError) as exc:
        est = get_estimator("fast", model=model.token_model)
        notes = (f"token estimator '{kind}' unavailable ({exc}); used 'fast'",)
    plan = chunk_changes(changes, estimator=est, config=settings.chunking, read_file=read_file, window=model.window,
                         limits=settings.limits)
    return Chunking(plan, notes)


def spend(plan: ChunkPlan, settings: Settings, model: ResolvedModel, *, reviewers: int) -> Spend:
    """The first chunks a review may spend on. A chunk costs one request per reviewer, and one
    more for the model's rule query when that channel is on; offline only the chunk cap applies."""
    rule_query = int(settings.retrieval.enabled and settings.retrieval.channels.model_query)
    price = model.input_price
    spent, note = cap_plan(plan, settings.limits, calls_per_chunk=reviewers + rule_query if model.online else 0,
                           usd_per_prompt_token=price / 1e6 if price else None, overhead_tokens=model.context_tokens)
    return Spend(spent, (note,) if note else ())
