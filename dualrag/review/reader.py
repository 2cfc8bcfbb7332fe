"""The model that reads the chunks decides how big they are, how much context they get and how
its prompts are written (ARCHITECTURE.md, stage 2: one notion of "the model").

The reader is the configured model of the reviewers a change gets (`--llm`, `[llm] model`,
`[llm.reviewers]`) with its capability entry (`[llm.models."openai:local"] context_window = 16384,
max_output_tokens = 1024`, else the built-in table). When reviewers use different models, the
smallest window wins: every chunk must fit every model that reads it.

- chunk budget: from the reader's window (`chunking.windows`/`window_tokens` apply only offline);
- context budget: at most `1/CONTEXT_SHARE` of the window goes to retrieved rules and code, and
  the reader's output cap (not a fixed 4,000) is kept free for the answer — a 16k-window model
  given 12,000 tokens of loosely related rules repeats them instead of reviewing;
- prompts: a window of at most `COMPACT_WINDOW` tokens means a small model: it gets the compact
  rules of engagement (`prompts/shared_compact.md`), which it follows better than the full ones.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from dualrag.config import Settings
from dualrag.config.llm import LLMConfig, ModelSpec
from dualrag.review.reviewers import Reviewer

COMPACT_WINDOW = 32_768
CONTEXT_SHARE = 16


@dataclass(frozen=True)
class ReaderModel:
    model: str  # PROVIDER:MODEL
    window: int
    max_output: int  # what one answer may take: the capability's cap, at most [llm] max_output_tokens

    @property
    def name(self) -> str:
        """The model without its provider (what tokenizers and window tables know it by)."""
        return ModelSpec.parse(self.model).model

    @property
    def compact(self) -> bool:
        return self.window <= COMPACT_WINDOW

    @property
    def context_tokens(self) -> int:
        return self.window // CONTEXT_SHARE


def reader_for(llm: LLMConfig, reviewers: Sequence[Reviewer]) -> ReaderModel | None:
    """The reader of a change's chunks, or None for an offline review."""
    specs = sorted({spec for r in reviewers if (spec := llm.model_for(r.name))})
    readers = []
    for spec in specs:
        cap = llm.capability(spec)
        readers.append(ReaderModel(spec, cap.context_window, min(cap.max_output_tokens, llm.max_output_tokens)))
    return min(readers, key=lambda r: (r.window, r.max_output), default=None)


def fitted(settings: Settings, reader: ReaderModel | None) -> Settings:
    """Settings whose context budget and answer reserve follow the reader (values the user set
    explicitly in `[retrieval]` are kept)."""
    if reader is None:
        return settings
    retrieval = settings.retrieval
    explicit = retrieval.model_fields_set
    update = {}
    if "context_tokens" not in explicit:
        update["context_tokens"] = min(retrieval.context_tokens, reader.context_tokens)
    if "output_tokens" not in explicit:
        update["output_tokens"] = reader.max_output
    if not update:
        return settings
    return settings.model_copy(update={"retrieval": retrieval.model_copy(update=update)})
