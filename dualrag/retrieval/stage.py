"""The retrieve stage of a review: one Context per chunk.

Reads the run's store (indexing the bundled rules on first use), builds deterministic
queries from each chunk's changed lines, retrieves rule candidates (and code candidates
when a code source is given), then reranks, prunes and packs them (context.py).
Anything that fails here costs context, never the review: it becomes a note.
"""

from __future__ import annotations

import re
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from dualrag.chunking import Chunk, ChunkPlan
from dualrag.config import RetrievalConfig, Settings
from dualrag.config.resolved import ResolvedModel, resolve_model
from dualrag.config.rules import RulesConfig
from dualrag.diff import ChangeSet
from dualrag.errors import UserError
from dualrag.languages import file_project_type
from dualrag.progress import progress
from dualrag.rerank import Reranker, load_reranker
from dualrag.rerank.calibration import pruning_threshold
from dualrag.retrieval.context import Candidate, Context, ContextRule, assemble
from dualrag.retrieval.query import MAX_WINDOWS, RuleQuery, build_rule_query
from dualrag.retrieval.rules import RetrievedRule, RuleRetriever
from dualrag.rulebook import load_bundled_cached
from dualrag.source.review_source import ReviewSource
from dualrag.store.session import StoreSession
from dualrag.tokens import get_estimator

CodeSource = Callable[[Chunk], Sequence[Candidate]]
Reader = Callable[[str], "bytes | None"]
_WORD = re.compile(r"[A-Za-z]+|[\u4e00-\u9fff]+")
_RERANK_QUERY_CHARS = 2000


RuleLanguage = Callable[[str], str]  # added code -> a few lines of rule language ("" = none)


@dataclass(frozen=True)
class Retrieval:
    """The retrieve stage: one Context per chunk id, and what cost context (a note each)."""

    contexts: dict[str, Context] = field(default_factory=dict)
    notes: tuple[str, ...] = ()


def retrieve(plan: ChunkPlan, changes: ChangeSet, settings: Settings, source: ReviewSource, *, store: StoreSession,
             model: ResolvedModel, rule_language: RuleLanguage | None = None) -> Retrieval:
    """Rules and code for every chunk, reranked and packed into `model`'s room; failures become
    notes. `store` is the run's; `rule_language` is the model query (review/rule_query.py), when
    that channel is on and a model is configured."""
    notes: list[str] = []
    reranker = load_reranker(settings.rerank)
    if not reranker.available:
        notes.append(reranker.reason)
    elif pruning_threshold(settings.rerank.threshold, reranker) is None:
        notes.append(f"reranked by {reranker.name} without a pruning threshold: only the token budget and caps "
                     f"prune (calibrate one: dualrag models calibrate DIR)")
    count = get_estimator("fast", model=model.token_model).count
    retriever, found = rule_retriever(settings, store)
    notes.extend(found)
    code, found = code_source(store if retriever else None, source.repo_root, source.read_file)
    notes.extend(found)
    contexts = build_contexts(plan, changes, settings, retriever=retriever, reranker=reranker, count_tokens=count,
                              code_source=code, rule_language=rule_language, model=model)
    return Retrieval({c.chunk_id: c for c in contexts}, tuple(notes))


def rule_retriever(settings: Settings, store: StoreSession) -> tuple[RuleRetriever | None, tuple[str, ...]]:
    """The retriever over the configured knowledge bases of the run's store, or None when there is
    none; and notes. The store stays the session's: its client serves the code side too (an
    embedded Qdrant admits one client at a time)."""
    from dualrag.embedding import Bm25Encoder, get_embedder
    from dualrag.store import StoreError, StoreLockedError

    cfg = settings.retrieval
    notes: list[str] = []
    try:
        db = store.rules()
    except StoreLockedError as exc:  # another run holds the store: this review goes on without rules
        return None, (f"rule retrieval skipped: {exc}",)
    # Any other StoreError (a --store that is a file, an unreachable Qdrant URL) and an unknown
    # embedder are configuration that cannot work: they stop the review (exit 2), not thin it.
    embedder = get_embedder(config=settings.embedding)
    sparse = Bm25Encoder(settings.embedding.bm25)
    if cfg.index_bundled:
        try:
            notes.extend(index_bundled(db, cfg.bundled_kb, embedder, sparse))
        except StoreError as exc:
            notes.append(f"bundled rules not indexed: {exc}")
    usable = []
    for kb in cfg.kbs or db.knowledge_bases():
        try:
            db.check(kb, embedding_model=embedder.name, dim=embedder.dim, sparse_model=sparse.name)
            usable.append(kb)
            if marker := db.incomplete(kb):  # a write killed half way: some rules may be missing
                notes.append(f"knowledge base '{kb}' is incomplete ({marker} never finished): index it again")
        except UserError as exc:
            notes.append(f"knowledge base '{kb}' skipped: {exc}")
    fill = [cfg.bundled_kb] if cfg.bundled_fill else []
    own = kb_settings(db, cfg, usable, embedder, sparse, notes)
    return RuleRetriever(db, embedder, sparse, usable, cfg.channels, fill=fill, kb_channels=own), tuple(notes)


def kb_settings(db, cfg: RetrievalConfig, kbs: Sequence[str], embedder, sparse, notes: list[str]) -> dict:
    """Each team knowledge base's own channel setting: what its self-check chose on its own
    counter-examples (self_check.py; made once here if `dualrag index rules` has not made it),
    under every key the user set in `[retrieval.channels]`. The bundled rules keep the configured
    setting (their floor was calibrated under it), read without the centred reading unless it is set:
    like a base with its own examples, their rules show code (self_check.py says why)."""
    from dualrag.retrieval.self_check import ensure_choice, read_choice, resolve

    out = {}
    for kb in kbs:
        if kb == cfg.bundled_kb:
            if "centred" not in cfg.channels.model_fields_set:
                out[kb] = cfg.channels.model_copy(update={"centred": False})
            continue
        try:
            choice = read_choice(db, kb)
            if choice is None:
                progress.info("choosing the rule channels of '%s' on its own counter-examples (once; "
                              "'dualrag index rules' does it ahead)", kb)
                choice = ensure_choice(db, kb, embedder, sparse)
        except Exception as exc:  # noqa: BLE001 - a choice costs recall at most, never the review
            notes.append(f"knowledge base '{kb}' searched with the configured channels: its self-check failed ({exc})")
            continue
        if choice.setting is not None:
            out[kb] = resolve(cfg.channels, choice)
    return out


def index_bundled(store, kb: str, embedder, sparse) -> tuple[str, ...]:
    """The bundled rules are ours: when the store holds them under another embedder, rebuild.
    Returns what the review should note.

    On first use they are all embedded (about 20 s with the default embedder on 2 cores): that is
    said on the progress channel before and after, so a terminal or CI log does not sit silent."""
    from dualrag.store import IndexMismatchError

    notes: list[str] = []
    rules = load_bundled_cached()
    started = time.perf_counter()
    if not store.exists(kb) or store.count(kb) != len(rules):
        progress.info("indexing %d bundled rules into %s with %s (once per store; 'dualrag index rules "
                      "--bundled' does it ahead)", len(rules), store.location, embedder.name)
    try:
        report = store.upsert(kb, rules, embedder, sparse)
    except IndexMismatchError:
        progress.info("re-indexing the bundled rules with %s (the store holds another embedder's)", embedder.name)
        store.drop(kb)
        report = store.upsert(kb, rules, embedder, sparse)
        notes.append(f"re-indexed the bundled rules: the store held them under another embedder or an older "
                     f"index schema (now {embedder.name})")
    if report.added or report.updated:
        progress.info("indexed %d bundled rules in %.1f s", report.added + report.updated,
                      time.perf_counter() - started)
        notes.append(f"indexed {report.added + report.updated} bundled rules into '{kb}'")
    return tuple(notes)


def code_source(store: StoreSession | None, repo_root: Path | None, read_file: Reader | None
                ) -> tuple[CodeSource | None, tuple[str, ...]]:
    """Code context for chunks: the repository's code index when the store has one, else the
    checkout itself (the touched files and what they import); nothing without a repository."""
    if repo_root is None:
        return None, ("code context skipped: review a repository (--repo) to bring definitions and callers",)
    from dualrag.retrieval.code import CodeRetriever, RepoGraph, StoreGraph
    from dualrag.store.code import repository_name

    notes: tuple[str, ...] = ()
    try:
        graph = None
        if store is not None:
            code_store = store.code()
            name = repository_name(repo_root.name)
            if code_store.exists(name):
                graph = StoreGraph(code_store, name, read_file=read_file)
        if graph is None:
            graph = RepoGraph.from_checkout(repo_root, read_file=read_file)
            notes = ("code context from the checkout (no code index: 'dualrag index code' makes it faster)",)
    except UserError as exc:
        return None, (f"code context skipped: {exc}",)
    return CodeRetriever(graph, read_file=read_file).candidates, notes


def chunk_queries(chunk: Chunk, changes: ChangeSet, settings: Settings,
                  windows: int = MAX_WINDOWS, rule_language: RuleLanguage | None = None) -> list[RuleQuery]:
    """One query per language among the chunk's files, from its added lines only.

    The unchanged lines and enclosing members are not under review: their constructs (a comment
    above, a loop around) brought rules about code nobody changed. From the added lines alone the
    rules packed per chunk of the Defects4J bug diffs fell from 2.8 to 1.9 under the floor, and half
    the chunks got none (evaluation/retrieval/calibrate_rule_floor.py); the dev cases have no context to lose."""
    language = {f.path: f.language for f in changes.files}
    added: dict[str, list[str]] = {}
    for hunk in chunk.hunks:
        lang = language.get(hunk.path, "other")
        added.setdefault(lang, []).extend(line.text for line in hunk.lines if line.kind == "+")
    domains = detect_domains(chunk, settings.retrieval.domains)
    queries = [
        build_rule_query("\n".join(lines), language=lang, domains=domains, windows=windows,
                         project_type=_project_type(lang, str(changes.project_type)))
        for lang, lines in added.items() if any(line.strip() for line in lines)
    ]
    if rule_language is not None:  # handed in only when the channel is on and a model is configured
        queries = [replace(q, model=rule_language(q.raw)) for q in queries]
    return queries


def _project_type(language: str, change_type: str) -> str:
    """Java files of an EDI change still get Java rules: the type filter follows the file's
    language pack; a language without a project type takes the change's."""
    return file_project_type(language, change_type)


def detect_domains(chunk: Chunk, domains: dict[str, list[str]]) -> tuple[str, ...]:
    words = Counter(w.lower() for path in chunk.files for w in _WORD.findall(path))
    words.update(w.lower() for hunk in chunk.hunks for line in hunk.lines for w in _WORD.findall(line.text))
    return tuple(name for name, keys in domains.items() if any(k.lower() in words for k in keys))


def build_contexts(
    plan: ChunkPlan,
    changes: ChangeSet,
    settings: Settings,
    *,
    retriever: RuleRetriever | None,
    reranker: Reranker,
    count_tokens: Callable[[str], int],
    code_source: CodeSource | None = None,
    rule_language: RuleLanguage | None = None,
    model: ResolvedModel | None = None,
) -> list[Context]:
    """`model`: the reading model whose room the context fills (its context share, its answer
    kept free); None: the offline one of `settings`."""
    cfg = settings.retrieval
    model = model or resolve_model(settings, ())
    threshold = pruning_threshold(settings.rerank.threshold, reranker)
    contexts = []
    # Each code window is one embedding (~0.3 s on 2 cores): a review shares a budget of them, so a
    # change cut into many chunks searches fewer pieces of each instead of stalling.
    windows = max(1, min(MAX_WINDOWS, cfg.max_query_windows // max(1, len(plan.chunks))))
    floors = rule_floors(cfg)
    for chunk in plan.chunks:
        candidates: list[Candidate] = []
        queries = chunk_queries(chunk, changes, settings, windows, rule_language)
        if retriever is not None:
            for hit in _merge([retriever.retrieve(q, top_k=cfg.candidates) for q in queries]):
                candidates.append(_rule_candidate(hit, floors, settings.rules))
        if code_source is not None:
            candidates.extend(code_source(chunk))
        budget = max(0, min(model.context_tokens, plan.budget.usable - chunk.estimated_tokens - model.max_output))
        query_text = "\n".join(line.text for h in chunk.hunks for line in h.lines if line.kind == "+")
        contexts.append(assemble(
            chunk.id, query_text[:_RERANK_QUERY_CHARS], candidates, reranker=reranker, count_tokens=count_tokens,
            budget=budget, threshold=threshold, floor=min(floors.values(), default=0.0) or None,
            caps={"rule": cfg.max_rules, "code": cfg.max_code},
        ))
    return contexts


def _merge(results: list[list[RetrievedRule]]) -> list[RetrievedRule]:
    """One list per query -> one list, each rule once with its best fused score and its best
    relevance (a rule one language's code clearly concerns is not floored for the other's)."""
    best: dict[str, RetrievedRule] = {}
    for hits in results:
        for hit in hits:
            key = hit.unit.point_id  # kb, document and id: two documents may share a rule id
            seen = best.get(key)
            if seen is None:
                best[key] = hit
            else:
                top = hit if hit.score > seen.score else seen
                best[key] = replace(top, relevance=max(hit.relevance, seen.relevance))
    return sorted(best.values(), key=lambda h: -h.score)


def rule_floors(cfg: RetrievalConfig) -> dict[str, float]:
    """The relevance floor of each knowledge base that has one: the bundled rules' (`rule_floor`)
    and any a team calibrated on its own cases (`rule_floors`). A floor calibrated on one book cut
    another book's right rule, so a base without one is ranked only."""
    floors = {cfg.bundled_kb: cfg.rule_floor, **cfg.rule_floors}
    return {kb: floor for kb, floor in floors.items() if floor > 0}


def _rule_candidate(hit: RetrievedRule, floors: dict[str, float], rules: RulesConfig) -> Candidate:
    unit = hit.unit
    severity = rules.severity(unit.severity, unit.level)
    floor = floors.get(unit.source.kb)
    # The context step holds relevance against one floor: rescale this base's to it (None = never floored).
    relevance = None if floor is None else hit.relevance * min(floors.values()) / floor
    return Candidate(
        kind="rule", text=unit.full_text(), fused_score=hit.score, relevance=relevance,
        build=lambda score, tokens: ContextRule.of(unit, score, tokens, severity),
    )
