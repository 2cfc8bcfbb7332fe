"""Keys that had a second home and now have one: still read, said once on the progress channel
(`dualrag: ...` on stderr from the CLI), and moved where they belong before validation.

- `[chunking] windows = {NAME = TOKENS}` was a second window table beside `[llm.models]`: each
  entry becomes `[llm.models."NAME"] context_window`, over the entry's other capabilities.
- `[retrieval] output_tokens` was a second answer reserve beside `[llm] max_output_tokens`: it
  becomes that, unless `[llm] max_output_tokens` is set too (then it is ignored).
"""

from __future__ import annotations

import json
from typing import Any

from dualrag.config.llm import DEFAULT_CAPABILITIES
from dualrag.progress import progress


def move_deprecated(values: Any) -> Any:
    """`values` (the merged settings input) with the deprecated keys moved to their one home."""
    if not isinstance(values, dict):
        return values
    chunking, retrieval = values.get("chunking"), values.get("retrieval")
    windows = chunking.get("windows") if isinstance(chunking, dict) else None
    output = retrieval.get("output_tokens") if isinstance(retrieval, dict) else None
    if windows is None and output is None:
        return values
    values = dict(values)
    llm = values.get("llm")
    if isinstance(llm, str):
        llm = json.loads(llm) if llm.strip().startswith("{") else {"model": llm}
    llm = dict(llm) if isinstance(llm, dict) else {}
    if windows is not None:
        values["chunking"] = {k: v for k, v in chunking.items() if k != "windows"}
        windows = json.loads(windows) if isinstance(windows, str) else windows
        models = dict(llm.get("models") or {})
        for name, window in dict(windows).items():
            models[name] = {**_capability_of(models.get(name), name), "context_window": window}
        llm["models"] = models
        progress.warning("chunking.windows is deprecated: give a model's window as [llm.models.\"NAME\"] "
                         "context_window (read as that for now)")
    if output is not None:
        values["retrieval"] = {k: v for k, v in retrieval.items() if k != "output_tokens"}
        if "max_output_tokens" in llm or "max_output" in llm:
            progress.warning("retrieval.output_tokens is deprecated and ignored: llm.max_output_tokens is set and "
                             "is the answer's reserve")
        else:
            llm["max_output_tokens"] = output
            progress.warning("retrieval.output_tokens is deprecated: the answer's reserve is llm.max_output_tokens "
                             "(read as that for now)")
    values["llm"] = llm
    return values


def _capability_of(entry: Any, name: str) -> dict[str, Any]:
    """The capabilities a window entry keeps: the configured entry, else the built-in one of that
    model name (so its prices and output cap are not lost), else none."""
    if isinstance(entry, dict):
        return entry
    if entry is not None:
        return entry.model_dump()
    bare = name.strip().lower()
    for key, cap in DEFAULT_CAPABILITIES.items():
        if bare in (key, key.partition(":")[2]):
            return cap.model_dump()
    return {}
