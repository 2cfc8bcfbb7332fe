"""One store for one run: rules, code and feedback collections through one Qdrant client.

An embedded Qdrant takes a file lock: each open is a wait when another process holds it, and a
review used to open it once per stage (team detectors, retrieval, feedback). A run opens a
`StoreSession` instead and hands it to every stage that reads knowledge; the client is made on
first use, at most once, and closed by whoever opened the session.

    with StoreSession.of(settings) as store:
        store.exists()            # without opening: is there a store at all? (not created here)
        store.rules()             # the RuleStore, opened (and created) on first use
        store.code(), store.feedback()   # the same client's code and feedback collections

Opening is not retried within a session: the error of the first try (a locked store, a Qdrant
URL that does not answer) is raised again to every later caller, which decides what it costs.
qdrant-client is imported only when the store is really opened.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Self

from dualrag.config.store import StoreConfig

if TYPE_CHECKING:
    from dualrag.config import Settings
    from dualrag.store.code import CodeStore
    from dualrag.store.feedback import FeedbackStore
    from dualrag.store.qdrant import RuleStore


class StoreSession:
    def __init__(self, path: str | Path | None, config: StoreConfig | None = None) -> None:
        self.path = Path(path) if path is not None else None
        self.config = config or StoreConfig()
        self.opens = 0  # clients made: 0 or 1
        self._store: RuleStore | None = None
        self._error: Exception | None = None

    @classmethod
    def of(cls, settings: Settings) -> StoreSession:
        return cls(settings.store, settings.qdrant)

    @property
    def is_open(self) -> bool:
        return self._store is not None

    def exists(self) -> bool:
        """A store to read: a server, or an embedded folder already there (nothing is created)."""
        return bool(self.config.url) or self.is_open or (self.path is not None and self.path.is_dir())

    def rules(self) -> RuleStore:
        """The rule side; the first call opens the store (an embedded one is created if missing)."""
        if self._store is None:
            if self._error is not None:
                raise self._error
            from dualrag.store.qdrant import open_store

            try:
                self._store = open_store(self.path, self.config)
            except Exception as exc:
                self._error = exc
                raise
            finally:
                self.opens += 1
        return self._store

    def code(self) -> CodeStore:
        from dualrag.store.code import CodeStore

        return CodeStore.sharing(self.rules())

    def feedback(self) -> FeedbackStore:
        from dualrag.store.feedback import FeedbackStore

        return FeedbackStore.sharing(self.rules())

    def has_feedback(self, repository: str) -> bool | None:
        """Cheap look before opening: False when an embedded store surely holds no feedback of
        `repository`; None when only the open store can tell."""
        if self.is_open:
            return None
        from dualrag.store.feedback import has_feedback

        return has_feedback(self.path, self.config, repository)

    def close(self) -> None:
        if self._store is not None:
            self._store.close()
            self._store = None

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
