"""The Qdrant store of rule knowledge bases (foundations layer).

    from dualrag.store import open_store, RuleFilter
    with open_store(".dualrag/store") as store:          # embedded; or open_store(config=StoreConfig(url=...))
        store.upsert("java", units, embedder, bm25)        # skips unchanged, all or nothing
        store.prune("java", keep_ids=[u.point_id for u in units])
        hits = store.search("java", code, embedder, bm25, rule_filter=RuleFilter(project_type="java"))
"""

from importlib import import_module
from typing import TYPE_CHECKING, Any

from dualrag.config.store import StoreConfig

from .errors import IndexMismatchError, StoreError, StoreLockedError, UnknownKnowledgeBaseError

if TYPE_CHECKING:
    from .code import CodeManifest, CodeStore, open_code_store
    from .feedback import FeedbackStore, open_feedback_store
    from .filters import RuleFilter
    from .qdrant import (
        DENSE,
        SCHEMA_VERSION,
        SPARSE,
        Manifest,
        RuleHit,
        RuleStore,
        SearchMode,
        UpsertReport,
        document_text,
        open_store,
    )
    from .session import StoreSession

# qdrant-client takes about a second to import; configuration and errors must not pay for it.
_LAZY = {
    "RuleFilter": ".filters",
    **dict.fromkeys(
        ("DENSE", "SCHEMA_VERSION", "SPARSE", "Manifest", "RuleHit", "RuleStore", "SearchMode",
         "UpsertReport", "document_text", "open_store"),
        ".qdrant",
    ),
    **dict.fromkeys(("CodeManifest", "CodeStore", "open_code_store"), ".code"),
    **dict.fromkeys(("FeedbackStore", "open_feedback_store"), ".feedback"),
    "StoreSession": ".session",
}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        return getattr(import_module(_LAZY[name], __name__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "CodeManifest",
    "CodeStore",
    "open_code_store",
    "DENSE",
    "FeedbackStore",
    "open_feedback_store",
    "SCHEMA_VERSION",
    "SPARSE",
    "IndexMismatchError",
    "Manifest",
    "RuleFilter",
    "RuleHit",
    "RuleStore",
    "SearchMode",
    "StoreConfig",
    "StoreError",
    "StoreLockedError",
    "StoreSession",
    "UnknownKnowledgeBaseError",
    "UpsertReport",
    "document_text",
    "open_store",
]
