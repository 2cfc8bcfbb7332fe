"""Rule knowledge bases in Qdrant: one collection per knowledge base, dense + BM25 sparse vectors.

Embedded (local) mode at a directory by default, a server or cluster when `StoreConfig.url` is set.
Collection `rules_<kb>` has a named dense vector `dense` (cosine, dim of the embedder) and a named
sparse vector `sparse` (`modifier=IDF`: Qdrant turns the BM25 term weights into full BM25). Its
manifest (schema version, embedder name and dim, sparse scheme) lives in the collection metadata,
so it travels with the data in both modes; a mismatch raises IndexMismatchError.

Writes are incremental and all-or-nothing per call:
1. fetch the stored `content_hash` of every unit's point id; unchanged units are skipped;
2. embed every changed unit (dense and sparse) before anything is written — an embedding failure
   writes nothing;
3. snapshot the stored points that are about to be overwritten (payload and vectors);
4. write in batches; if a batch fails, delete the points this call created and re-write the
   snapshot, so the knowledge base is as it was. Should even the rollback fail, each point is
   still self-consistent (vectors and payload with its own hash are written together), so
   re-running the same indexing converges; the error says so.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any, Literal

import numpy as np
from pydantic import BaseModel, ConfigDict, ValidationError
from qdrant_client import QdrantClient, models

from dualrag.config.store import StoreConfig
from dualrag.embedding import precomputed
from dualrag.embedding.base import Embedder
from dualrag.embedding.sparse import Bm25Encoder, SparseVec
from dualrag.source.git import OWN_FOLDER
from dualrag.units import RuleUnit

from .errors import IndexMismatchError, StoreError, StoreLockedError, UnknownKnowledgeBaseError
from .filters import RuleFilter

SCHEMA_VERSION = 2  # 2: point ids keyed by (kb, document, rule id); payload field `document`
DENSE = "dense"
SPARSE = "sparse"
MANIFEST_KEY = "dualrag"
WRITING_KEY = "dualrag_writing"
# payload fields that get an index on a server (embedded mode scans, indexes have no effect there)
KEYWORD_FIELDS = ("rule_id", "project_types", "languages", "domains", "level", "kb", "source_file", "document",
                  "document_hash", "content_hash")
_EXTRA_PAYLOAD = ("kb", "source_file", "document", "content_hash")
_RULE_FIELDS = frozenset(RuleUnit.model_fields)
_KB_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-")

SearchMode = Literal["dense", "sparse", "hybrid"]


class Manifest(BaseModel):
    model_config = ConfigDict(extra="ignore", frozen=True)

    schema_version: int = SCHEMA_VERSION
    kb: str
    embedding_model: str
    dim: int
    sparse_model: str


class RuleHit(BaseModel):
    model_config = ConfigDict(frozen=True)

    unit: RuleUnit
    score: float
    rank: int  # 1-based
    point_id: str


class UpsertReport(BaseModel):
    model_config = ConfigDict(frozen=True)

    kb: str
    added: int = 0
    updated: int = 0
    unchanged: int = 0
    point_ids: list[str] = []


def document_text(unit: RuleUnit) -> str:
    """What BM25 weighs for a rule: its section path, then its full text."""
    head = " > ".join(unit.section)
    return f"{head}\n{unit.full_text()}" if head else unit.full_text()


EMBED_BATCH = 64  # rules embedded per progress report (`upsert(progress=...)`)
DENSE_TOKENS = 192  # a rule's gist is in its section path, title and opening; BM25 reads the rest


def dense_text(unit: RuleUnit) -> str:
    """What the dense embedder reads: the document text cut at about `DENSE_TOKENS` tokens, with a
    model-written counter-example (`RuleUnit.model_examples`) right after the title.

    BM25 still weighs every word. Embedding whole long rules in 512-token windows cost about
    1 s per rule on 2 cores (evaluation/bench/index_rules.py) for little gain in recall."""
    text, budget = document_text(unit), DENSE_TOKENS
    if unit.model_examples:  # appended after the prose it would fall outside the window; code queries read it
        parts = (" > ".join(unit.section), unit.title, unit.model_examples[0], unit.full_text())
        text = "\n".join(part for part in parts if part)
    for index, char in enumerate(text):
        budget -= 1.0 if "\u3000" <= char <= "\u9fff" or "\uff00" <= char <= "\uffef" else 0.25
        if budget <= 0:
            return text[:index]
    return text


def _probe(url: str, api_key: str | None, timeout: float) -> None:
    """Fail fast on a server that does not answer: the client's own timeout is per request and long."""
    import httpx

    try:
        answer = httpx.get(url.rstrip("/") + "/readyz", timeout=timeout,
                           headers={"api-key": api_key} if api_key else None)
    except httpx.HTTPError as exc:
        raise StoreError(f"cannot reach Qdrant at {url} within {timeout:g} s ({type(exc).__name__}): check "
                         "qdrant.url, or drop it for the embedded store") from None
    if answer.status_code >= 400:
        raise StoreError(f"{url} answered HTTP {answer.status_code} to /readyz: not a Qdrant server that is ready "
                         "(check qdrant.url)")


def open_store(path: str | Path | None = None, config: StoreConfig | None = None) -> RuleStore:
    """Open the embedded store at `path` (created if missing), or the server of `config.url`."""
    config = config or StoreConfig()
    if config.url:
        api_key = config.api_key.get_secret_value() if config.api_key else None
        _probe(config.url, api_key, config.connect_timeout)
        client = QdrantClient(url=config.url, api_key=api_key, prefer_grpc=config.prefer_grpc,
                              timeout=int(config.timeout), check_compatibility=False)
        try:
            client.get_collections()
        except Exception as exc:
            client.close()
            first_line = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
            raise StoreError(f"cannot use Qdrant at {config.url}: {first_line}") from None
        return RuleStore(client, config, location=config.url, embedded=False)
    if path is None:
        raise StoreError("no store: give a store directory (--store) or a Qdrant URL")
    if re.match(r"[A-Za-z][A-Za-z0-9+.-]+:/", str(path)):  # (a Path keeps one slash) not a folder `http:`
        raise StoreError(f"store {path} is a URL, not a folder: give a Qdrant server as qdrant.url "
                         "(DUALRAG_QDRANT__URL)")
    location = Path(path)
    if location.exists() and not location.is_dir():
        raise StoreError(f"store {location} is not a directory")
    keep_out_of_git(location)
    deadline = time.monotonic() + config.lock_timeout
    while True:
        try:
            client = QdrantClient(path=str(location))
            break
        except RuntimeError as exc:
            if "already accessed" not in str(exc):
                raise StoreError(f"cannot open store {location}: {exc}") from None
            if time.monotonic() >= deadline:
                raise StoreLockedError(
                    f"store {location} is in use by another dualrag process (an embedded store allows one at a "
                    f"time; waited {config.lock_timeout:g}s): retry when it has finished, or use a Qdrant server "
                    "(qdrant.url)"
                ) from None
            time.sleep(0.2)
        except (OSError, ValueError) as exc:
            raise StoreError(f"cannot open store {location}: {exc}") from None
    return RuleStore(client, config, location=str(location), embedded=True)


def keep_out_of_git(location: Path) -> None:
    """An embedded store is local data: `git add -A` must not commit it, nor a review of the worktree
    read it. `.dualrag/` (the default store's folder), else the store folder, gets a `.gitignore` of `*`."""
    folder = location.parent if location.parent.name == OWN_FOLDER else location
    ignore = folder / ".gitignore"
    if ignore.exists():
        return
    try:
        folder.mkdir(parents=True, exist_ok=True)
        ignore.write_text("# written by dualrag: local data (the store), never committed\n*\n", encoding="utf-8")
    except OSError:
        pass  # a read-only store (baked into a runner image) is in nobody's worktree


class RuleStore:
    """Rule collections in one Qdrant. Use as a context manager, or call `close()`."""

    def __init__(self, client: QdrantClient, config: StoreConfig, *, location: str, embedded: bool) -> None:
        self.client = client
        self.config = config
        self.location = location
        self.embedded = embedded
        self._manifests: dict[str, Manifest] = {}

    # ------------------------------------------------------------------ lifecycle

    def close(self) -> None:
        self.client.close()

    def __enter__(self) -> RuleStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ------------------------------------------------------------------ collections

    def collection(self, kb: str) -> str:
        if not kb or len(kb) > 64 or not set(kb) <= _KB_CHARS:
            raise StoreError(f"bad knowledge-base name '{kb}': use 1-64 letters, digits, '_' or '-'")
        return f"{self.config.collection_prefix}{kb}"

    def knowledge_bases(self) -> list[str]:
        prefix = self.config.collection_prefix
        names = [c.name for c in self.client.get_collections().collections]
        return sorted(n[len(prefix) :] for n in names if n.startswith(prefix))

    def manifest(self, kb: str) -> Manifest:
        """The manifest of an existing knowledge base; UnknownKnowledgeBaseError if there is none."""
        if kb in self._manifests:
            return self._manifests[kb]
        name = self.collection(kb)
        if not self.client.collection_exists(name):
            known = ", ".join(self.knowledge_bases()) or "none"
            raise UnknownKnowledgeBaseError(
                f"no knowledge base '{kb}' in store {self.location} (indexed: {known}): index rules first"
            )
        metadata = self.client.get_collection(name).config.metadata or {}
        raw = metadata.get(MANIFEST_KEY)
        try:
            manifest = Manifest.model_validate(raw)
        except ValidationError:
            raise IndexMismatchError(
                f"collection '{name}' in {self.location} has no dualrag manifest: it was not written by dualrag; "
                "drop it or use another store"
            ) from None
        if manifest.schema_version != SCHEMA_VERSION:
            raise IndexMismatchError(
                f"knowledge base '{kb}' uses index schema {manifest.schema_version}, this dualrag reads "
                f"{SCHEMA_VERSION}: re-index it ('dualrag kb drop {kb}', then index its documents again)"
            )
        self._manifests[kb] = manifest
        return manifest

    def check(self, kb: str, *, embedding_model: str | None = None, dim: int | None = None,
              sparse_model: str | None = None) -> Manifest:
        """The manifest, after checking it against what the caller is about to use."""
        manifest = self.manifest(kb)
        wrong = []
        if embedding_model is not None and embedding_model != manifest.embedding_model:
            wrong.append(f"embedder {manifest.embedding_model}, not {embedding_model}")
        if dim is not None and dim != manifest.dim:
            wrong.append(f"dimension {manifest.dim}, not {dim}")
        if sparse_model is not None and sparse_model != manifest.sparse_model:
            wrong.append(f"sparse scheme {manifest.sparse_model}, not {sparse_model}")
        if wrong:
            raise IndexMismatchError(
                f"knowledge base '{kb}' was indexed with {'; '.join(wrong)}: re-index it with the configured "
                "embedder (drop the knowledge base, then index the rules again), or configure the embedder it was "
                "built with"
            )
        return manifest

    def ensure(self, kb: str, embedder: Embedder, sparse: Bm25Encoder) -> Manifest:
        """Create the knowledge base's collection if missing, else check its manifest."""
        wanted = Manifest(kb=kb, embedding_model=embedder.name, dim=embedder.dim, sparse_model=sparse.name)
        name = self.collection(kb)
        if not self.client.collection_exists(name):
            try:
                self.client.create_collection(
                    name,
                    vectors_config={DENSE: models.VectorParams(size=wanted.dim, distance=models.Distance.COSINE)},
                    sparse_vectors_config={SPARSE: models.SparseVectorParams(modifier=models.Modifier.IDF)},
                    metadata={MANIFEST_KEY: wanted.model_dump()},
                )
            except Exception:
                if not self.client.collection_exists(name):  # not a lost creation race
                    raise
            if not self.embedded:
                for field in KEYWORD_FIELDS:
                    self.client.create_payload_index(name, field, field_schema=models.PayloadSchemaType.KEYWORD)
        return self.check(kb, embedding_model=wanted.embedding_model, dim=wanted.dim, sparse_model=wanted.sparse_model)

    def drop(self, kb: str) -> bool:
        self._manifests.pop(kb, None)
        return bool(self.client.delete_collection(self.collection(kb)))

    def exists(self, kb: str) -> bool:
        return bool(self.client.collection_exists(self.collection(kb)))

    def count(self, kb: str) -> int:
        self.manifest(kb)
        return self.client.count(self.collection(kb), exact=True).count

    # ------------------------------------------------------------------ writing

    def upsert(self, kb: str, units: Sequence[RuleUnit], embedder: Embedder, sparse: Bm25Encoder, *,
               progress: Callable[[str, int, int], None] | None = None) -> UpsertReport:
        """Write `units` into `kb`, skipping those whose content hash is stored already. All or nothing.
        `progress(stage, done, total)`: "embedding" per batch of rules, then "writing"."""
        self.collection(kb)
        ids = [u.point_id for u in units]
        seen: dict[str, str] = {}
        for unit in units:
            if unit.source.kb != kb:
                raise StoreError(f"rule {unit.rule_id} belongs to knowledge base '{unit.source.kb}', not '{kb}'")
            if unit.point_id in seen:
                raise StoreError(
                    f"rule id '{unit.rule_id}' occurs twice in document {unit.source.document} of knowledge base "
                    f"'{kb}': rule ids must be unique within a document"
                )
            seen[unit.point_id] = unit.source.document
        self.ensure(kb, embedder, sparse)
        name = self.collection(kb)
        stored = {r.id: (r.payload or {}).get("content_hash") for r in self._retrieve(name, ids, ["content_hash"])}
        changed = [u for u in units if stored.get(u.point_id) != u.content_hash]
        report = UpsertReport(
            kb=kb,
            added=sum(1 for u in changed if u.point_id not in stored),
            updated=sum(1 for u in changed if u.point_id in stored),
            unchanged=len(units) - len(changed),
            point_ids=ids,
        )
        if not changed:
            return report
        # 1. embed everything first: a failure here writes nothing
        texts = [document_text(u) for u in changed]
        step = progress or (lambda stage, done, total: None)
        dense_texts = [dense_text(u) for u in changed]
        size = EMBED_BATCH if progress else len(dense_texts)  # batches only to say how far it is
        parts = []
        for at in range(0, len(dense_texts), size):
            step("embedding", at, len(dense_texts))
            # the bundled rules' vectors ship with the package (embedding/precomputed.py): taken, not recomputed
            parts.append(precomputed.embed_documents(embedder, dense_texts[at:at + size])[0])
        step("embedding", len(dense_texts), len(dense_texts))
        dense = np.concatenate(parts) if len(parts) > 1 else parts[0]
        if dense.shape != (len(texts), embedder.dim):
            raise StoreError(f"embedder {embedder.name} returned shape {dense.shape}, expected ({len(texts)}, {embedder.dim})")
        sparse_vecs = sparse.encode_documents(texts)
        points = [
            models.PointStruct(id=u.point_id, vector={DENSE: d.tolist(), SPARSE: s.to_qdrant()}, payload=_payload(u))
            for u, d, s in zip(changed, dense, sparse_vecs, strict=True)
        ]
        # 2. snapshot what is overwritten, 3. write, rolling back on failure
        old = self._retrieve(name, [u.point_id for u in changed if u.point_id in stored], True, with_vectors=True)
        try:
            written = 0
            for batch in _batches(points, self.config.batch_size):
                step("writing", written, len(points))
                self.client.upsert(name, points=batch, wait=True)
                written += len(batch)
            step("writing", written, len(points))
        except Exception as exc:
            self._rollback(name, [p.id for p in points if p.id not in stored], old, exc)
        return report

    def _rollback(self, name: str, new_ids: list[Any], old: list[models.Record], cause: Exception) -> None:
        try:
            for batch in _batches(new_ids, self.config.batch_size):
                self.client.delete(name, points_selector=models.PointIdsList(points=batch), wait=True)
            restore = [models.PointStruct(id=r.id, vector=r.vector or {}, payload=r.payload) for r in old]
            for batch in _batches(restore, self.config.batch_size):
                self.client.upsert(name, points=batch, wait=True)
        except Exception as again:
            raise StoreError(
                f"writing to {name} failed ({cause}) and so did restoring it ({again}); the store holds a mix of "
                "old and new rules, each whole: run the same indexing again to complete it"
            ) from cause
        raise StoreError(f"writing to {name} failed, nothing was changed: {cause}") from cause

    def prune(self, kb: str, keep_ids: Iterable[str], *, document: str | None = None,
              source_file: str | None = None) -> int:
        """Delete the rules of `kb` whose point id is not kept — only those of `document` (the
        document key, `RuleSource.document`) or `source_file`, if given."""
        name = self.collection(kb)
        self.manifest(kb)
        keep = {str(i) for i in keep_ids}
        scope = RuleFilter(document=document, source_file=source_file).to_qdrant()
        doomed = [pid for pid in self._scroll_ids(name, scope) if str(pid) not in keep]
        for batch in _batches(doomed, self.config.batch_size):
            self.client.delete(name, points_selector=models.PointIdsList(points=batch), wait=True)
        return len(doomed)

    def tag_document(self, kb: str, document: str, document_hash: str) -> None:
        """Record the hash of a document's bytes on all its points (payload `document_hash`)."""
        name = self.collection(kb)
        self.manifest(kb)
        self.client.set_payload(name, {"document_hash": document_hash}, points=models.FilterSelector(
            filter=RuleFilter(document=document).to_qdrant()), wait=True)

    def documents_with_hash(self, kb: str, document_hash: str) -> set[str]:
        """The document keys of `kb` whose points carry `document_hash`: the same bytes indexed
        under another key (from another checkout, a copy)."""
        name = self.collection(kb)
        if not self.client.collection_exists(name):
            return set()
        scope = models.Filter(must=[models.FieldCondition(key="document_hash",
                                                          match=models.MatchValue(value=document_hash))])
        out: set[str] = set()
        offset = None
        while True:
            records, offset = self.client.scroll(name, scroll_filter=scope, limit=1024, offset=offset,
                                                 with_payload=["document"], with_vectors=False)
            out.update(str((r.payload or {}).get("document")) for r in records)
            if offset is None:
                return out

    # A knowledge base being written carries this collection metadata key until the write ends:
    # a write killed half way (kill -9) leaves it, and stats and reviews say so.
    def mark_writing(self, kb: str, what: str | None) -> None:
        """Set (`what`: what is being written, since when) or clear (None) the incomplete marker."""
        self.client.update_collection(self.collection(kb), metadata={WRITING_KEY: what})

    def incomplete(self, kb: str) -> str | None:
        """The marker of a write that has not finished, or None."""
        name = self.collection(kb)
        if not self.client.collection_exists(name):
            return None
        value = (self.client.get_collection(name).config.metadata or {}).get(WRITING_KEY)
        return str(value) if value else None

    def units(self, kb: str, rule_filter: RuleFilter | None = None) -> list[RuleUnit]:
        """Every stored rule of `kb` (matching the filter), in no particular order."""
        name = self.collection(kb)
        self.manifest(kb)
        out: list[RuleUnit] = []
        offset = None
        while True:
            records, offset = self.client.scroll(
                name, scroll_filter=rule_filter.to_qdrant() if rule_filter else None, limit=256, offset=offset,
                with_payload=True, with_vectors=False,
            )
            out += [_unit(r.payload or {}) for r in records]
            if offset is None:
                return out

    def rule_documents(self, kb: str, rule_ids: Iterable[str] | None = None) -> dict[str, set[str]]:
        """Rule id -> the documents (keys) of `kb` that hold it, for `rule_ids` or every rule;
        empty when the knowledge base does not exist. Reads two payload fields only."""
        name = self.collection(kb)
        if not self.client.collection_exists(name):
            return {}
        self.manifest(kb)
        wanted = None if rule_ids is None else sorted(set(rule_ids))
        if wanted == []:
            return {}
        scope = RuleFilter(rule_ids=wanted).to_qdrant() if wanted else None
        out: dict[str, set[str]] = {}
        offset = None
        while True:
            records, offset = self.client.scroll(name, scroll_filter=scope, limit=1024, offset=offset,
                                                 with_payload=["rule_id", "document", "source_file"],
                                                 with_vectors=False)
            for r in records:
                payload = r.payload or {}
                out.setdefault(str(payload.get("rule_id")), set()).add(
                    str(payload.get("document") or payload.get("source_file")))
            if offset is None:
                return out

    # ------------------------------------------------------------------ searching

    def dense_vectors(self, kb: str, point_ids: Sequence[str]) -> dict[str, np.ndarray]:
        """The stored dense vectors of these points (those that exist), by point id."""
        records = self._retrieve(self.collection(kb), point_ids, False, with_vectors=True)
        return {str(r.id): np.asarray((r.vector or {})[DENSE], dtype=np.float32) for r in records
                if isinstance(r.vector, dict) and DENSE in r.vector}

    def search_dense(self, kb: str, vector: Sequence[float] | np.ndarray, rule_filter: RuleFilter | None = None,
                     limit: int = 10) -> list[RuleHit]:
        manifest = self.manifest(kb)
        query = _dense_list(vector)
        if len(query) != manifest.dim:
            self.check(kb, dim=len(query))
        result = self.client.query_points(
            self.collection(kb), query=query, using=DENSE, query_filter=_filter(rule_filter), limit=limit,
            with_payload=True,
        )
        return _hits(result.points)

    def search_sparse(self, kb: str, vector: SparseVec | models.SparseVector, rule_filter: RuleFilter | None = None,
                      limit: int = 10) -> list[RuleHit]:
        self.manifest(kb)
        query = _sparse(vector)
        if not query.indices:
            return []
        result = self.client.query_points(
            self.collection(kb), query=query, using=SPARSE, query_filter=_filter(rule_filter), limit=limit,
            with_payload=True,
        )
        return _hits(result.points)

    def search_hybrid(self, kb: str, vector: Sequence[float] | np.ndarray, sparse_vector: SparseVec | models.SparseVector,
                      rule_filter: RuleFilter | None = None, limit: int = 10,
                      candidates: int | None = None) -> list[RuleHit]:
        """Dense and sparse candidates fused by Qdrant with reciprocal-rank fusion."""
        manifest = self.manifest(kb)
        dense = _dense_list(vector)
        if len(dense) != manifest.dim:
            self.check(kb, dim=len(dense))
        flt = _filter(rule_filter)
        depth = candidates or max(4 * limit, 50)
        prefetch = [models.Prefetch(query=dense, using=DENSE, filter=flt, limit=depth)]
        sparse = _sparse(sparse_vector)
        if sparse.indices:
            prefetch.append(models.Prefetch(query=sparse, using=SPARSE, filter=flt, limit=depth))
        result = self.client.query_points(
            self.collection(kb), prefetch=prefetch, query=models.FusionQuery(fusion=models.Fusion.RRF),
            query_filter=flt, limit=limit, with_payload=True,
        )
        return _hits(result.points)

    def search(self, kb: str, text: str, embedder: Embedder, sparse: Bm25Encoder, *,
               rule_filter: RuleFilter | None = None, limit: int = 10, mode: SearchMode = "hybrid") -> list[RuleHit]:
        """Embed `text` as a query with the embedder the knowledge base was built with, then search."""
        self.check(kb, embedding_model=embedder.name, dim=embedder.dim,
                   sparse_model=sparse.name if mode != "dense" else None)
        if mode == "sparse":
            return self.search_sparse(kb, sparse.encode_query(text), rule_filter, limit)
        vector = embedder.embed_query(text)
        if mode == "dense":
            return self.search_dense(kb, vector, rule_filter, limit)
        return self.search_hybrid(kb, vector, sparse.encode_query(text), rule_filter, limit)

    # ------------------------------------------------------------------ helpers

    def _retrieve(self, name: str, ids: Sequence[str], with_payload: Any, *, with_vectors: bool = False) -> list[models.Record]:
        out: list[models.Record] = []
        for batch in _batches(list(ids), 256):
            out += self.client.retrieve(name, ids=batch, with_payload=with_payload, with_vectors=with_vectors)
        return out

    def _scroll_ids(self, name: str, scope: models.Filter | None) -> Iterator[Any]:
        offset = None
        while True:
            records, offset = self.client.scroll(
                name, scroll_filter=scope, limit=1024, offset=offset, with_payload=False, with_vectors=False
            )
            yield from (r.id for r in records)
            if offset is None:
                return


def _payload(unit: RuleUnit) -> dict[str, Any]:
    payload = unit.model_dump(mode="json")
    payload.update(kb=unit.source.kb, source_file=unit.source.file, document=unit.source.document,
                   content_hash=unit.content_hash)
    return payload


def _unit(payload: dict[str, Any]) -> RuleUnit:
    return RuleUnit.model_validate({k: v for k, v in payload.items() if k in _RULE_FIELDS})


def _hits(points: Sequence[models.ScoredPoint]) -> list[RuleHit]:
    return [
        RuleHit(unit=_unit(p.payload or {}), score=float(p.score), rank=rank, point_id=str(p.id))
        for rank, p in enumerate(points, 1)
    ]


def _filter(rule_filter: RuleFilter | None) -> models.Filter | None:
    return rule_filter.to_qdrant() if rule_filter else None


def _dense_list(vector: Sequence[float] | np.ndarray) -> list[float]:
    return np.asarray(vector, dtype=np.float32).reshape(-1).tolist()


def _sparse(vector: SparseVec | models.SparseVector) -> models.SparseVector:
    return vector.to_qdrant() if isinstance(vector, SparseVec) else vector


def _batches(items: Sequence[Any], size: int) -> Iterator[list[Any]]:
    for start in range(0, len(items), size):
        yield list(items[start : start + size])
