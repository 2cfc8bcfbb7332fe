"""Reviewers' feedback in Qdrant: one collection per repository (`feedback_<repo>`), one point per
(finding fingerprint, outcome), a dense vector of its title + message + code.

    from dualrag.store.feedback import open_feedback_store
    with open_feedback_store(".dualrag/store") as fs:        # or FeedbackStore.sharing(rule_store)
        fs.record("group_app", records, embedder)          # idempotent: uuid5 point ids, existing kept
        fs.records("group_app", with_vectors=True)         # [(record, vector)]
        fs.forget("group_app", ids=[...]) / fs.forget("group_app", rule="R-12")

A record already stored keeps its first timestamp: re-recording the same thread writes nothing.
The manifest (schema, embedder) lives in the collection metadata like the other collections'.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any, Self

import numpy as np
from pydantic import BaseModel, ConfigDict, ValidationError
from qdrant_client import QdrantClient, models

from dualrag.config.store import StoreConfig
from dualrag.embedding.base import Embedder
from dualrag.feedback import FeedbackRecord, repository_key

from .errors import IndexMismatchError, StoreError, UnknownKnowledgeBaseError
from .qdrant import DENSE, MANIFEST_KEY, RuleStore, _batches, open_store

FEEDBACK_SCHEMA_VERSION = 1
FEEDBACK_PREFIX = "feedback_"
KEYWORD_FIELDS = ("rule_id", "category", "outcome", "fingerprint", "mr")


class FeedbackManifest(BaseModel):
    model_config = ConfigDict(extra="ignore", frozen=True)

    schema_version: int = FEEDBACK_SCHEMA_VERSION
    kind: str = "feedback"
    repository: str
    embedding_model: str
    dim: int


def open_feedback_store(path: str | Path | None = None, config: StoreConfig | None = None) -> FeedbackStore:
    rule_store = open_store(path, config)
    return FeedbackStore(rule_store.client, location=rule_store.location, embedded=rule_store.embedded,
                         owns_client=True)


def has_feedback(path: str | Path | None, config: StoreConfig | None, repository: str) -> bool | None:
    """Cheap look without opening Qdrant: False when an embedded store surely has no collection for
    `repository`; None when only opening the store can tell (a server)."""
    if config is not None and config.url:
        return None
    if path is None:
        return False
    return (Path(path) / "collection" / f"{FEEDBACK_PREFIX}{repository}").is_dir()


class FeedbackStore:
    def __init__(self, client: QdrantClient, *, location: str, embedded: bool, owns_client: bool = False) -> None:
        self.client = client
        self.location = location
        self.embedded = embedded
        self._owns = owns_client

    @classmethod
    def sharing(cls, store: RuleStore) -> FeedbackStore:
        return cls(store.client, location=store.location, embedded=store.embedded)

    def close(self) -> None:
        if self._owns:
            self.client.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ------------------------------------------------------------------ collections

    def collection(self, repository: str) -> str:
        if not repository or repository != repository_key(repository):
            raise StoreError(f"bad repository key '{repository}': use 1-64 letters, digits, '_' or '-'")
        return f"{FEEDBACK_PREFIX}{repository}"

    def repositories(self) -> list[str]:
        names = [c.name for c in self.client.get_collections().collections]
        return sorted(n[len(FEEDBACK_PREFIX):] for n in names if n.startswith(FEEDBACK_PREFIX))

    def exists(self, repository: str) -> bool:
        return bool(self.client.collection_exists(self.collection(repository)))

    def manifest(self, repository: str) -> FeedbackManifest:
        name = self.collection(repository)
        if not self.client.collection_exists(name):
            known = ", ".join(self.repositories()) or "none"
            raise UnknownKnowledgeBaseError(f"no feedback for repository '{repository}' in store {self.location} "
                                            f"(recorded: {known})")
        raw = (self.client.get_collection(name).config.metadata or {}).get(MANIFEST_KEY)
        try:
            manifest = FeedbackManifest.model_validate(raw)
        except ValidationError:
            raise IndexMismatchError(f"collection '{name}' in {self.location} has no dualrag feedback manifest") from None
        if manifest.schema_version != FEEDBACK_SCHEMA_VERSION:
            raise IndexMismatchError(f"feedback of '{repository}' uses schema {manifest.schema_version}, this dualrag "
                                     f"reads {FEEDBACK_SCHEMA_VERSION}: `dualrag feedback forget --all`")
        return manifest

    def ensure(self, repository: str, embedder: Embedder) -> FeedbackManifest:
        name = self.collection(repository)
        if not self.client.collection_exists(name):
            wanted = FeedbackManifest(repository=repository, embedding_model=embedder.name, dim=embedder.dim)
            self.client.create_collection(
                name, vectors_config={DENSE: models.VectorParams(size=embedder.dim, distance=models.Distance.COSINE)},
                metadata={MANIFEST_KEY: wanted.model_dump()})
            if not self.embedded:
                for field in KEYWORD_FIELDS:
                    self.client.create_payload_index(name, field, field_schema=models.PayloadSchemaType.KEYWORD)
        manifest = self.manifest(repository)
        if manifest.embedding_model != embedder.name or manifest.dim != embedder.dim:
            raise IndexMismatchError(f"feedback of '{repository}' was embedded with {manifest.embedding_model}, not "
                                     f"{embedder.name}: configure that embedder, or forget it (`dualrag feedback "
                                     f"forget --all --repo {repository}`)")
        return manifest

    def drop(self, repository: str) -> bool:
        return bool(self.client.delete_collection(self.collection(repository)))

    def count(self, repository: str) -> int:
        self.manifest(repository)
        return self.client.count(self.collection(repository), exact=True).count

    # ------------------------------------------------------------------ writing

    def record(self, repository: str, records: Sequence[FeedbackRecord], embedder: Embedder) -> tuple[int, int]:
        """Store the records not stored yet; (written, already there). Idempotent."""
        for r in records:
            if r.repository != repository:
                raise StoreError(f"feedback record of '{r.repository}' written to '{repository}'")
        unique = list({r.point_id: r for r in records}.values())
        if not unique:
            return 0, 0
        self.ensure(repository, embedder)
        name = self.collection(repository)
        stored: set[str] = set()
        for batch in _batches([r.point_id for r in unique], 256):
            stored |= {str(p.id) for p in self.client.retrieve(name, ids=batch, with_payload=False)}
        new = [r for r in unique if r.point_id not in stored]
        if new:
            vectors = np.asarray(embedder.embed_documents([r.embed_text() for r in new]), dtype=np.float32)
            points = [models.PointStruct(id=r.point_id, vector={DENSE: v.tolist()}, payload=r.model_dump(mode="json"))
                      for r, v in zip(new, vectors, strict=True)]
            for batch in _batches(points, 256):
                self.client.upsert(name, points=batch, wait=True)
        return len(new), len(unique) - len(new)

    def forget(self, repository: str, *, ids: Iterable[str] = (), rule: str | None = None,
               everything: bool = False) -> list[str]:
        """Delete records by point id (or a unique prefix of one), by rule id (or `category:X`), or all.
        Returns the ids deleted; StoreError names an id that matches no record or several."""
        self.manifest(repository)
        name = self.collection(repository)
        stored = self.records(repository)
        doomed: set[str] = set()
        for wanted in ids:
            hits = [pid for pid, r, _ in stored if pid == wanted or pid.startswith(wanted)]
            if len(hits) != 1:
                raise StoreError(f"feedback id '{wanted}' matches {len(hits)} records of '{repository}'"
                                 + (" (give more of it)" if hits else ""))
            doomed.add(hits[0])
        if rule is not None:
            doomed |= {pid for pid, r, _ in stored
                       if r.rule_id == rule or (rule.startswith("category:") and not r.rule_id
                                                and r.category == rule.split(":", 1)[1])}
        if everything:
            doomed |= {pid for pid, _, _ in stored}
        for batch in _batches(sorted(doomed), 256):
            self.client.delete(name, points_selector=models.PointIdsList(points=batch), wait=True)
        return sorted(doomed)

    # ------------------------------------------------------------------ reading

    def records(self, repository: str, *, with_vectors: bool = False) -> list[tuple[str, FeedbackRecord, Any]]:
        """[(point id, record, vector or None)], oldest first."""
        name = self.collection(repository)
        if not self.client.collection_exists(name):
            return []
        self.manifest(repository)
        out = []
        offset = None
        while True:
            recs, offset = self.client.scroll(name, limit=1024, offset=offset, with_payload=True,
                                              with_vectors=[DENSE] if with_vectors else False)
            for rec in recs:
                vector = None
                if with_vectors and isinstance(rec.vector, dict):
                    vector = np.asarray(rec.vector.get(DENSE), dtype=np.float32)
                out.append((str(rec.id), FeedbackRecord.model_validate(rec.payload or {}), vector))
            if offset is None:
                break
        out.sort(key=lambda t: (t[1].recorded_at, t[0]))
        return out
