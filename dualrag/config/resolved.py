"""The model that reads a run's chunks, resolved once (ARCHITECTURE.md, stage 2: one notion of
"the model") and passed down to every stage that sizes something by it.

The reader is the configured model of the reviewers a change gets (`--llm`, `[llm] model`,
`[llm.reviewers]`) with its capability entry (`[llm.models."openai:local"] context_window = 16384,
max_output_tokens = 1024`, else the built-in table). When reviewers use different models, the
smallest window wins: every chunk must fit every model that reads it. Offline (no model), the
window is that of `[chunking] model` in the same capability table, else `chunking.window_tokens`.

- chunk budget: from the window;
- context budget: at most `1/CONTEXT_SHARE` of the window goes to retrieved rules and code (unless
  `[retrieval] context_tokens` is set), and the answer cap is kept free for the answer — a
  16k-window model given 12,000 tokens of loosely related rules repeats them instead of reviewing;
- prompts: a window of at most `COMPACT_WINDOW` tokens means a small model: it gets the compact
  rules of engagement (`prompts/shared_compact.md`), which it follows better than the full ones.

Nothing here rewrites the settings: the object sits beside them.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from dualrag.config.llm import LLMConfig, ModelSpec
from dualrag.config.settings import Settings

COMPACT_WINDOW = 32_768
CONTEXT_SHARE = 16


@dataclass(frozen=True)
class ResolvedModel:
    reader: str | None  # PROVIDER:MODEL that reads the chunks; None: an offline review
    window: int  # its context window: sizes chunks and context
    max_output: int  # what one answer may take (the capability's cap, at most [llm] max_output_tokens)
    token_model: str | None  # whose tokenizer counts (the model without its provider)
    context_tokens: int  # rules and code per chunk, at most
    input_price: float | None = None  # USD per million prompt tokens; None: unknown or offline

    @property
    def online(self) -> bool:
        return self.reader is not None

    @property
    def compact(self) -> bool:
        """A small model, which gets the compact prompts."""
        return self.online and self.window <= COMPACT_WINDOW


def resolve_model(settings: Settings, specs: Iterable[str], llm: LLMConfig | None = None) -> ResolvedModel:
    """The reader among `specs` (the PROVIDER:MODEL of each reviewer that runs; none: offline).
    `llm` is the configuration the run's clients come from (a shared factory's), else `settings.llm`."""
    llm = llm or settings.llm
    retrieval = settings.retrieval
    readers = []
    for spec in sorted(set(specs)):
        cap = llm.capability(spec)
        readers.append((cap.context_window, min(cap.max_output_tokens, llm.max_output_tokens), spec, cap.input_price))
    if not readers:
        name = settings.chunking.model
        window = (llm.window_of(name) if name else None) or settings.chunking.window_tokens
        return ResolvedModel(None, window, llm.max_output_tokens, name, retrieval.context_tokens)
    window, max_output, spec, price = min(readers, key=lambda r: (r[0], r[1]))
    context = retrieval.context_tokens
    if "context_tokens" not in retrieval.model_fields_set:  # what the user set stays
        context = min(context, window // CONTEXT_SHARE)
    return ResolvedModel(spec, window, max_output, ModelSpec.parse(spec).model, context, price)
