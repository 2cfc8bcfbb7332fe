"""Code knowledge in Qdrant: one collection per repository (`code_<repo>`), one point per CodeSymbol
(Java, Kotlin, Python declarations; EDI units; MyBatis mapper statements; Spring configuration keys).

    from dualrag.store.code import open_code_store
    with open_code_store(".dualrag/store") as cs:            # or CodeStore.sharing(rule_store)
        cs.apply("lang", upserts, delete_paths, bm25, commit=sha)   # all or nothing
        cs.blobs("lang")                                     # path -> blob hash (incremental indexing)
        cs.find("lang", names=["isBlank"], owners=[...])     # exact lookups: payload indexes / catalog
        cs.search("lang", "abbreviate string", bm25)         # BM25 over identifiers and doc text

Exact-name lookups never touch a vector: on a server they are payload-index filters (keyword
indexes on the fields of `KEYWORD_FIELDS`); in the embedded store, where Qdrant scans payloads in
Python, a catalog (dicts keyed by name, qualified name, owner, path, called name, supertype) is
built from one scroll per open store and kept in step with writes. Sparse vectors (BM25 over
split identifiers, signature and Javadoc) serve fuzzy lookups. A dense vector is optional
(`embedder=` on the first write fixes it in the manifest) and off by default: see
evaluation/bench/code_index.py --dense for what it costs.

Writes follow the rule store (dualrag/store/qdrant.py): everything is parsed and encoded first;
the points about to be deleted or overwritten are snapshotted; on a failed write the new points are
deleted and the snapshot restored, so the collection is as it was.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

import numpy as np
from pydantic import BaseModel, ConfigDict, ValidationError
from qdrant_client import QdrantClient, models

from dualrag.config.store import StoreConfig
from dualrag.embedding.base import Embedder
from dualrag.embedding.sparse import Bm25Encoder
from dualrag.parsing.symbol_model import TYPE_KINDS
from dualrag.units import CodeSymbol

from .errors import IndexMismatchError, StoreError, UnknownKnowledgeBaseError
from .qdrant import DENSE, MANIFEST_KEY, SPARSE, RuleStore, _batches, open_store

CODE_SCHEMA_VERSION = 1
CODE_PREFIX = "code_"
KEYWORD_FIELDS = ("name", "qualified_name", "owner", "path", "kind", "call_names", "supertypes", "type_refs",
                  "refs", "blob", "language")
_FIELDS = frozenset(CodeSymbol.model_fields)
_NAME_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-")


class CodeManifest(BaseModel):
    model_config = ConfigDict(extra="ignore", frozen=True)

    schema_version: int = CODE_SCHEMA_VERSION
    kind: str = "code"
    repository: str
    sparse_model: str
    embedding_model: str | None = None  # None: no dense vectors
    dim: int | None = None
    commit: str = ""  # the last commit indexed completely
    ref: str = ""
    readers: str = ""  # the symbol readers' version the index was written with (another: every file is read again)


class ApplyReport(BaseModel):
    model_config = ConfigDict(frozen=True)

    repository: str
    written: int = 0
    unchanged: int = 0
    deleted: int = 0


def repository_name(name: str) -> str:
    """A collection-safe repository name: `commons-lang3.git` -> `commons-lang3_git`."""
    clean = "".join(c if c in _NAME_CHARS else "_" for c in name).strip("_")[:64]
    if not clean:
        raise StoreError(f"bad repository name '{name}': use letters, digits, '_' or '-'")
    return clean


def open_code_store(path: str | Path | None = None, config: StoreConfig | None = None) -> CodeStore:
    """Open the store (embedded at `path`, or the server of `config.url`) for code collections."""
    rule_store = open_store(path, config)
    return CodeStore(rule_store.client, rule_store.config, location=rule_store.location,
                     embedded=rule_store.embedded, owns_client=True)


class CodeStore:
    """Code collections in one Qdrant (the rule store's). Use as a context manager, or `close()`."""

    def __init__(self, client: QdrantClient, config: StoreConfig, *, location: str, embedded: bool,
                 owns_client: bool = False) -> None:
        self.client = client
        self.config = config
        self.location = location
        self.embedded = embedded
        self._owns = owns_client
        self._catalogs: dict[str, _Catalog] = {}

    @classmethod
    def sharing(cls, store: RuleStore) -> CodeStore:
        """The code side of an open rule store (an embedded store admits one client at a time)."""
        return cls(store.client, store.config, location=store.location, embedded=store.embedded)

    def close(self) -> None:
        if self._owns:
            self.client.close()

    def __enter__(self) -> CodeStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ------------------------------------------------------------------ collections

    def collection(self, repository: str) -> str:
        if repository != repository_name(repository):
            raise StoreError(f"bad repository name '{repository}': use 1-64 letters, digits, '_' or '-'")
        return f"{CODE_PREFIX}{repository}"

    def repositories(self) -> list[str]:
        names = [c.name for c in self.client.get_collections().collections]
        return sorted(n[len(CODE_PREFIX):] for n in names if n.startswith(CODE_PREFIX))

    def exists(self, repository: str) -> bool:
        return self.client.collection_exists(self.collection(repository))

    def manifest(self, repository: str) -> CodeManifest:
        name = self.collection(repository)
        if not self.client.collection_exists(name):
            known = ", ".join(self.repositories()) or "none"
            raise UnknownKnowledgeBaseError(
                f"no code index for '{repository}' in store {self.location} (indexed: {known}): "
                "run `dualrag index code REPO` first")
        raw = (self.client.get_collection(name).config.metadata or {}).get(MANIFEST_KEY)
        try:
            manifest = CodeManifest.model_validate(raw)
        except ValidationError:
            raise IndexMismatchError(f"collection '{name}' in {self.location} has no dualrag code manifest") from None
        if manifest.schema_version != CODE_SCHEMA_VERSION:
            raise IndexMismatchError(
                f"code index '{repository}' uses schema {manifest.schema_version}, this dualrag reads "
                f"{CODE_SCHEMA_VERSION}: drop it and index the repository again")
        return manifest

    def ensure(self, repository: str, sparse: Bm25Encoder, embedder: Embedder | None = None) -> CodeManifest:
        name = self.collection(repository)
        if not self.client.collection_exists(name):
            wanted = CodeManifest(repository=repository, sparse_model=sparse.name,
                                  embedding_model=embedder.name if embedder else None,
                                  dim=embedder.dim if embedder else None)
            dense = {DENSE: models.VectorParams(size=embedder.dim, distance=models.Distance.COSINE)} if embedder else {}
            self.client.create_collection(
                name, vectors_config=dense,
                sparse_vectors_config={SPARSE: models.SparseVectorParams(modifier=models.Modifier.IDF)},
                metadata={MANIFEST_KEY: wanted.model_dump()},
            )
            if not self.embedded:
                for field in KEYWORD_FIELDS:
                    self.client.create_payload_index(name, field, field_schema=models.PayloadSchemaType.KEYWORD)
        manifest = self.manifest(repository)
        if manifest.sparse_model != sparse.name:
            raise IndexMismatchError(f"code index '{repository}' uses sparse scheme {manifest.sparse_model}, "
                                     f"not {sparse.name}: drop it and index again")
        if embedder is not None and manifest.embedding_model not in (None, embedder.name):
            raise IndexMismatchError(f"code index '{repository}' was built with embedder {manifest.embedding_model}, "
                                     f"not {embedder.name}: drop it and index again")
        return manifest

    def drop(self, repository: str) -> bool:
        self._catalogs.pop(repository, None)
        return bool(self.client.delete_collection(self.collection(repository)))

    def count(self, repository: str) -> int:
        self.manifest(repository)
        return self.client.count(self.collection(repository), exact=True).count

    # ------------------------------------------------------------------ reading

    def blobs(self, repository: str) -> dict[str, str]:
        """path -> git blob hash of every indexed file (from its `file` symbol)."""
        if not self.client.collection_exists(self.collection(repository)):
            return {}
        out = {}
        for payload in self._scroll(repository, _match("kind", ["file"]), ["path", "blob"]):
            out[payload["path"]] = payload.get("blob", "")
        return out

    def readers(self, repository: str) -> str:
        """The symbol readers' version the index was last written with ("" when none or older)."""
        if not self.client.collection_exists(self.collection(repository)):
            return ""
        return self.manifest(repository).readers

    def type_paths(self, repository: str) -> dict[str, str]:
        """qualified type name -> path, for every indexed type (Java, Kotlin, Python modules...)."""
        if not self.client.collection_exists(self.collection(repository)):
            return {}
        kinds = sorted(TYPE_KINDS)
        return {p["qualified_name"]: p["path"]
                for p in self._scroll(repository, _match("kind", kinds), ["qualified_name", "path"])}

    def symbols(self, repository: str, paths: Iterable[str] | None = None) -> list[CodeSymbol]:
        flt = _match("path", list(paths)) if paths is not None else None
        return [_symbol(p) for p in self._scroll(repository, flt, True)]

    def find(self, repository: str, *, names: Sequence[str] = (), qualified: Sequence[str] = (),
             owners: Sequence[str] = (), kinds: Sequence[str] = (), call_names: Sequence[str] = (),
             supertypes: Sequence[str] = (), paths: Sequence[str] = (), refs: Sequence[str] = (),
             limit: int = 200) -> list[CodeSymbol]:
        """Symbols matching every given field (each: any of its values). Exact, no vectors."""
        given = {"name": names, "qualified_name": qualified, "owner": owners, "kind": kinds,
                 "call_names": call_names, "supertypes": supertypes, "path": paths, "refs": refs}
        given = {k: list(v) for k, v in given.items() if v}
        if not given:
            raise StoreError("find() needs at least one field to match")
        if self.embedded:
            return self._catalog(repository).find(given, limit)
        flt = models.Filter(must=[_match(k, v).must[0] for k, v in given.items()])
        out = []
        for payload in self._scroll(repository, flt, True, limit=limit):
            out.append(_symbol(payload))
        return out[:limit]

    def search(self, repository: str, text: str, sparse: Bm25Encoder, *, limit: int = 10,
               kinds: Sequence[str] = ()) -> list[tuple[CodeSymbol, float]]:
        """BM25 over names, signatures and doc comments (the fuzzy lookup)."""
        self.manifest(repository)
        query = sparse.encode_query(text)
        if not query.indices:
            return []
        result = self.client.query_points(self.collection(repository), query=query.to_qdrant(), using=SPARSE,
                                          query_filter=_match("kind", list(kinds)) if kinds else None,
                                          limit=limit, with_payload=True)
        return [(_symbol(p.payload or {}), float(p.score)) for p in result.points]

    def search_dense(self, repository: str, text: str, embedder: Embedder, *, limit: int = 10) -> list[tuple[CodeSymbol, float]]:
        manifest = self.manifest(repository)
        if manifest.embedding_model is None:
            raise StoreError(f"code index '{repository}' has no dense vectors (index with an embedder to add them)")
        result = self.client.query_points(self.collection(repository), query=embedder.embed_query(text).tolist(),
                                          using=DENSE, limit=limit, with_payload=True)
        return [(_symbol(p.payload or {}), float(p.score)) for p in result.points]

    # ------------------------------------------------------------------ writing

    def apply(self, repository: str, upserts: Sequence[CodeSymbol], delete_paths: Iterable[str],
              sparse: Bm25Encoder, *, embedder: Embedder | None = None, commit: str = "",
              ref: str = "", readers: str | None = None) -> ApplyReport:
        """Replace the symbols of the files in `delete_paths` and of the files of `upserts` by
        `upserts`; unchanged symbols (same content hash) are not rewritten. All or nothing."""
        manifest = self.ensure(repository, sparse, embedder)
        if manifest.embedding_model and embedder is None:
            raise StoreError(f"code index '{repository}' has dense vectors ({manifest.embedding_model}): "
                             "index it with that embedder")
        name = self.collection(repository)
        seen: set[str] = set()
        for s in upserts:
            if s.repository != repository:
                raise StoreError(f"symbol {s.symbol_id} belongs to repository '{s.repository}', not '{repository}'")
            if s.point_id in seen:
                raise StoreError(f"symbol id '{s.symbol_id}' occurs twice")
            seen.add(s.point_id)
        scope = set(delete_paths) | {s.path for s in upserts}
        existing: dict[str, str] = {}
        for batch in _batches(sorted(scope), 256):
            for rec in self._scroll_records(name, _match("path", batch), ["content_hash"]):
                existing[str(rec.id)] = (rec.payload or {}).get("content_hash", "")
        changed = [s for s in upserts if existing.get(s.point_id) != s.content_hash]
        doomed = [pid for pid in existing if pid not in seen]
        report = ApplyReport(repository=repository, written=len(changed), unchanged=len(upserts) - len(changed),
                             deleted=len(doomed))
        if changed or doomed:
            texts = [s.search_text() for s in changed]
            sparse_vecs = sparse.encode_documents(texts)
            dense = None
            if manifest.embedding_model and changed:
                dense = np.asarray(embedder.embed_documents(texts), dtype=np.float32)  # type: ignore[union-attr]
                if dense.shape != (len(texts), manifest.dim):
                    raise StoreError(f"embedder returned shape {dense.shape}, expected ({len(texts)}, {manifest.dim})")
            points = []
            for i, (s, sv) in enumerate(zip(changed, sparse_vecs, strict=True)):
                vector: dict[str, Any] = {SPARSE: sv.to_qdrant()}
                if dense is not None:
                    vector[DENSE] = dense[i].tolist()
                points.append(models.PointStruct(id=s.point_id, vector=vector, payload=_payload(s)))
            overwritten = [s.point_id for s in changed if s.point_id in existing]
            snapshot = self._retrieve(name, overwritten + doomed)
            try:
                for batch in _batches(doomed, max(self.config.batch_size, 256)):
                    self.client.delete(name, points_selector=models.PointIdsList(points=batch), wait=True)
                for batch in _batches(points, max(self.config.batch_size, 256)):
                    self.client.upsert(name, points=batch, wait=True)
            except Exception as exc:
                self._catalogs.pop(repository, None)
                self._rollback(name, [p.id for p in points if p.id not in existing], snapshot, exc)
            catalog = self._catalogs.get(repository)
            if catalog is not None:
                catalog.remove(doomed)
                catalog.add(changed)
        if commit or ref or readers is not None:
            meta = manifest.model_copy(update={"commit": commit or manifest.commit, "ref": ref or manifest.ref,
                                               "readers": manifest.readers if readers is None else readers})
            self.client.update_collection(name, metadata={MANIFEST_KEY: meta.model_dump()})
        return report

    def _rollback(self, name: str, new_ids: list[Any], old: list[models.Record], cause: Exception) -> None:
        try:
            for batch in _batches(new_ids, 256):
                self.client.delete(name, points_selector=models.PointIdsList(points=batch), wait=True)
            restore = [models.PointStruct(id=r.id, vector=r.vector or {}, payload=r.payload) for r in old]
            for batch in _batches(restore, 256):
                self.client.upsert(name, points=batch, wait=True)
        except Exception as again:
            raise StoreError(f"writing to {name} failed ({cause}) and so did restoring it ({again}): index the "
                             "repository again to complete it") from cause
        raise StoreError(f"writing to {name} failed, nothing was changed: {cause}") from cause

    # ------------------------------------------------------------------ helpers

    def _catalog(self, repository: str) -> _Catalog:
        if repository not in self._catalogs:
            self.manifest(repository)
            self._catalogs[repository] = _Catalog([_symbol(p) for p in self._scroll(repository, None, True)])
        return self._catalogs[repository]

    def _retrieve(self, name: str, ids: Sequence[str]) -> list[models.Record]:
        out: list[models.Record] = []
        for batch in _batches(list(ids), 256):
            out += self.client.retrieve(name, ids=batch, with_payload=True, with_vectors=True)
        return out

    def _scroll(self, repository: str, flt: models.Filter | None, payload: Any, limit: int | None = None):
        name = self.collection(repository)
        self.manifest(repository)
        for rec in self._scroll_records(name, flt, payload, limit=limit):
            yield rec.payload or {}

    def _scroll_records(self, name: str, flt: models.Filter | None, payload: Any, limit: int | None = None):
        offset, given = None, 0
        while True:
            records, offset = self.client.scroll(name, scroll_filter=flt, limit=1024, offset=offset,
                                                 with_payload=payload, with_vectors=False)
            yield from records
            given += len(records)
            if offset is None or (limit is not None and given >= limit):
                return


class _Catalog:
    """In-memory exact lookups for the embedded store (Qdrant's local mode scans payloads)."""

    _KEYS = ("name", "qualified_name", "owner", "kind", "call_names", "supertypes", "path", "refs")

    def __init__(self, symbols: Iterable[CodeSymbol]) -> None:
        self.by_id: dict[str, CodeSymbol] = {}
        self.index: dict[str, dict[str, set[str]]] = {k: defaultdict(set) for k in self._KEYS}
        self.add(symbols)

    def add(self, symbols: Iterable[CodeSymbol]) -> None:
        for s in symbols:
            if s.point_id in self.by_id:
                self.remove([s.point_id])
            self.by_id[s.point_id] = s
            for key in self._KEYS:
                for value in _values(s, key):
                    self.index[key][value].add(s.point_id)

    def remove(self, ids: Iterable[str]) -> None:
        for pid in ids:
            s = self.by_id.pop(pid, None)
            if s is None:
                continue
            for key in self._KEYS:
                for value in _values(s, key):
                    self.index[key][value].discard(pid)

    def find(self, given: dict[str, list[str]], limit: int) -> list[CodeSymbol]:
        hits: set[str] | None = None
        for key, values in sorted(given.items(), key=lambda kv: len(kv[1])):
            ids: set[str] = set()
            for v in values:
                ids |= self.index[key].get(v, set())
            hits = ids if hits is None else hits & ids
            if not hits:
                return []
        ordered = sorted((self.by_id[i] for i in hits or ()), key=lambda s: (s.path, s.start_line))
        return ordered[:limit]


def _values(s: CodeSymbol, key: str) -> list[str]:
    value = getattr(s, key)
    return list(value) if isinstance(value, list) else [value]


def _match(key: str, values: list[str]) -> models.Filter:
    return models.Filter(must=[models.FieldCondition(key=key, match=models.MatchAny(any=list(values)))])


def _payload(s: CodeSymbol) -> dict[str, Any]:
    payload = s.model_dump(mode="json")
    payload["content_hash"] = s.content_hash
    return payload


def _symbol(payload: dict[str, Any]) -> CodeSymbol:
    return CodeSymbol.model_validate({k: v for k, v in payload.items() if k in _FIELDS})
