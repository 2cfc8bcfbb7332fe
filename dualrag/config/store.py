"""Typed configuration of the Qdrant store (section `[qdrant]`; the embedded path is `Settings.store`)."""

from __future__ import annotations

from pydantic import Field, SecretStr

from dualrag.config.section import Section


class StoreConfig(Section):
    """Embedded Qdrant at a directory by default; a server or cluster when `url` is given."""

    url: str | None = Field(None, description="Qdrant server, e.g. http://localhost:6333; None = embedded store")
    api_key: SecretStr | None = Field(None, description="server API key (prefer env DUALRAG_QDRANT__API_KEY)")
    prefer_grpc: bool = Field(False, description="server: use gRPC")
    timeout: float = Field(30.0, gt=0, description="server: seconds per request")
    connect_timeout: float = Field(5.0, gt=0, description="server: seconds to wait for a first answer before "
                                                          "giving up on the URL (exit 2)")
    collection_prefix: str = Field("rules_", pattern=r"^[A-Za-z0-9_\-]*$", description="collection = prefix + kb")
    batch_size: int = Field(64, ge=1, le=10_000, description="points per write")
    lock_timeout: float = Field(
        10.0, ge=0, description="embedded: seconds to wait for another dualrag process to release the store"
    )
