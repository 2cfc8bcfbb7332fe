"""Typed configuration of the Qdrant store (section `[qdrant]`; the embedded path is `Settings.store`)."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field, SecretStr


class StoreConfig(BaseModel):
    """Embedded Qdrant at a directory by default; a server or cluster when `url` is given."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    url: str | None = Field(None, description="Qdrant server, e.g. http://localhost:6333; None = embedded store")
    api_key: SecretStr | None = Field(None, description="server API key (prefer env DUALRAG_QDRANT__API_KEY)")
    prefer_grpc: bool = Field(False, description="server: use gRPC")
    timeout: float = Field(30.0, gt=0, description="server: seconds per request")
    collection_prefix: str = Field("rules_", pattern=r"^[A-Za-z0-9_\-]*$", description="collection = prefix + kb")
    batch_size: int = Field(64, ge=1, le=10_000, description="points per write")
    lock_timeout: float = Field(
        10.0, ge=0, description="embedded: seconds to wait for another dualrag process to release the store"
    )
