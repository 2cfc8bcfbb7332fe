"""Where dualrag keeps what it may rebuild: the user's cache folder of the XDG convention
(`$XDG_CACHE_HOME`, else `~/.cache`), under `dualrag/` (the clean corpus, the model's variants)."""

from __future__ import annotations

import os
from pathlib import Path


def user_cache_dir() -> Path:
    cache = os.environ.get("XDG_CACHE_HOME")
    return (Path(cache) if cache else Path.home() / ".cache") / "dualrag"
