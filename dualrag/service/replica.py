"""Each worker's own copy of an embedded store. Embedded Qdrant is one process's folder (it takes
a file lock), so workers cannot share it: each reads a replica of the configured store, copied at
start and again when the store changed (its files' newest modification and total size), between
jobs. One writer only: `dualrag index rules|code` run offline against the configured store.
With `[qdrant] url` (a server or cluster) there is nothing to copy: every worker reads the server."""

from __future__ import annotations

import os
import shutil
import socket
from pathlib import Path

from dualrag.config import Settings


def _signature(folder: Path) -> tuple[float, int, int]:
    newest, size, count = 0.0, 0, 0
    if folder.is_dir():
        for path in folder.rglob("*"):
            if path.is_file() and not path.name.startswith(".lock"):
                st = path.stat()
                newest, size, count = max(newest, st.st_mtime), size + st.st_size, count + 1
    return newest, size, count


class StoreReplica:
    """`settings()` gives the settings with `store` pointing at this worker's replica."""

    def __init__(self, settings: Settings, root: Path | None = None) -> None:
        self.source = Path(settings.store)
        self.base = settings
        name = f"{socket.gethostname()}-{os.getpid()}"
        self.path = (root or self.source.parent / "replicas") / name
        self._seen: tuple[float, int, int] | None = None

    @property
    def needed(self) -> bool:
        return self.base.qdrant.url is None

    def refresh(self) -> bool:
        """Copy the store again when it changed since the last copy; True when copied."""
        if not self.needed:
            return False
        now = _signature(self.source)
        if now == self._seen and self.path.exists():
            return False
        tmp = self.path.with_name(self.path.name + ".new")
        shutil.rmtree(tmp, ignore_errors=True)
        if self.source.is_dir():
            shutil.copytree(self.source, tmp, ignore=shutil.ignore_patterns(".lock"))
        else:
            tmp.mkdir(parents=True)
        shutil.rmtree(self.path, ignore_errors=True)
        tmp.rename(self.path)
        self._seen = now
        return True

    def settings(self, settings: Settings) -> Settings:
        return settings.model_copy(update={"store": self.path}) if self.needed else settings

    def remove(self) -> None:
        if self.needed:
            shutil.rmtree(self.path, ignore_errors=True)
