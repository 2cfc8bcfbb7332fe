"""Store errors the user can act on (exit 2, one line)."""

from dualrag.errors import UserError


class StoreError(UserError):
    """The store cannot be opened, read or written."""


class StoreLockedError(StoreError):
    """Another process holds the embedded store."""


class IndexMismatchError(StoreError):
    """The knowledge base was indexed with another embedder, sparse scheme or schema version."""


class UnknownKnowledgeBaseError(StoreError):
    """No collection for this knowledge base."""
