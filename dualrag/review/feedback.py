"""Learning from feedback across merge requests: a new finding that closely matches what reviewers
dismissed on earlier merge requests of the repository is suppressed, with a note.

A finding matches a record when both are about the same rule (the same rule id; without one, the
same category) and either have the same fingerprint, or

- their embeddings (title + message + normalised code) have a cosine of at least
  `[feedback] similarity` (they say the same thing), and
- their code has the same shape (`dualrag.feedback.code_shape`: keywords, annotations and
  punctuation, names and literals abstracted; Jaccard at least `[feedback] code_similarity`).
  A dense embedding of a short line is dominated by the words around it: two findings in the same
  words on `this.name = name;` and on `a.getB().c()` embed at 0.92-0.95 whatever the threshold, so
  the code is compared on its own. A dismissal recorded without code matches on its fingerprint
  only; an acceptance without code on its embedding alone (keeping is the safe side).

It is suppressed when

- at least `[feedback] min_dismissals` dismissals match it, and
- no acceptance of the same rule matches it as closely (a finding like those the team fixed is kept:
  the rule is right there, even if it was wrong elsewhere);

suppressed means dropped, except at or above `[feedback] keep_at` (critical by default): those
stay listed but do not count in the decision, like findings settled on an earlier push. Findings
that already have a thread on this merge request are left to that thread (the coordinator's
`prior_findings`), and the merge request's own records are not read: feedback only ever speaks
about other merge requests.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from dualrag.config import Settings
from dualrag.embedding.base import Embedder
from dualrag.feedback import (
    WORDS,
    FeedbackRecord,
    FeedbackScope,
    code_shape,
    embed_text,
    finding_group,
    shape_similarity,
)
from dualrag.findings import SEVERITY_RANK, Finding
from dualrag.priors import PriorFinding
from dualrag.review.fingerprint import loose_key, normalise_code

if TYPE_CHECKING:
    from dualrag.store.session import StoreSession

CodeOf = Callable[[Finding], list[str]]


@dataclass
class FeedbackOutcome:
    findings: list[Finding]
    notes: list[str] = field(default_factory=list)
    dropped: int = 0
    kept_uncounted: int = 0


@dataclass
class FeedbackMemory:
    """The repository's records (other merge requests only), their vectors, and how to embed."""

    records: list[FeedbackRecord]
    vectors: np.ndarray  # (len(records), dim), L2-normalised
    embedder: Embedder
    similarity: float = 0.9
    code_similarity: float = 0.5
    min_dismissals: int = 1
    keep_at: str = "critical"

    def __post_init__(self) -> None:
        self._groups: dict[str, list[int]] = {}
        for i, r in enumerate(self.records):
            self._groups.setdefault(r.group, []).append(i)
        self._shapes = [code_shape(r.code) for r in self.records]

    def matches(self, record: int, fingerprint: str | None, dense: float, shape: frozenset) -> bool:
        r = self.records[record]
        if r.fingerprint and r.fingerprint == fingerprint:
            return True
        if dense < self.similarity:
            return False
        if not r.code:
            return not r.dismissal
        return shape_similarity(shape, self._shapes[record]) >= self.code_similarity

    def apply(self, findings: Sequence[Finding], code_of: CodeOf,
              priors: Sequence[PriorFinding] = ()) -> FeedbackOutcome:
        out = FeedbackOutcome(findings=[])
        own = {p.fingerprint for p in priors if p.fingerprint} | {p.key for p in priors if p.key}
        todo: list[tuple[int, Finding, str, list[int]]] = []
        for i, f in enumerate(findings):
            rows = self._groups.get(finding_group(f.rule_id, f.category), [])
            if not rows or not f.counted or f.fingerprint in own or loose_key(f, code_of(f)) in own:
                continue
            if not any(self.records[r].dismissal for r in rows):
                continue
            todo.append((i, f, normalise_code(code_of(f)), rows))
        verdicts: dict[int, tuple[list[FeedbackRecord], bool]] = {}
        if todo:
            queries = np.asarray(self.embedder.embed_documents(
                [embed_text(f.title, f.message, code) for _, f, code, _ in todo]), dtype=np.float32)
            for (i, f, code, rows), q in zip(todo, queries, strict=True):
                scores = self.vectors[rows] @ q
                shape = code_shape(code)
                matched: list[tuple[float, FeedbackRecord]] = []
                best_accept = -1.0
                for row, score in zip(rows, scores, strict=True):
                    r = self.records[row]
                    if not self.matches(row, f.fingerprint, float(score), shape):
                        continue
                    s = 1.0 if r.fingerprint and r.fingerprint == f.fingerprint else float(score)
                    if r.dismissal:
                        matched.append((s, r))
                    else:
                        best_accept = max(best_accept, s)
                if len(matched) >= self.min_dismissals and max(s for s, _ in matched) > best_accept:
                    verdicts[i] = ([r for _, r in sorted(matched, key=lambda t: -t[0])], True)
        keep_rank = SEVERITY_RANK.get(self.keep_at, len(SEVERITY_RANK))
        for i, f in enumerate(findings):
            if i not in verdicts:
                out.findings.append(f)
                continue
            matched, _ = verdicts[i]
            why = dismissed_note(matched)
            if SEVERITY_RANK[f.severity] >= keep_rank:
                out.findings.append(f.model_copy(update={"counted": False}))
                out.kept_uncounted += 1
                out.notes.append(f"{f.path}:{f.line} not counted: {why}")
            else:
                out.dropped += 1
                out.notes.append(f"{f.path}:{f.line} suppressed: {why}")
        return out


def dismissed_note(matched: Sequence[FeedbackRecord], shown: int = 3) -> str:
    """'dismissed 3 times before (won't fix on !12 ×2, disagreed on !14)', closest first."""
    counts: dict[str, int] = {}
    for r in matched:
        what = f"{WORDS[r.outcome]} on {r.mr}" if r.mr else WORDS[r.outcome]
        counts[what] = counts.get(what, 0) + 1
    parts = [f"{what} ×{n}" if n > 1 else what for what, n in list(counts.items())[:shown]]
    more = f", +{len(counts) - shown} more" if len(counts) > shown else ""
    times = "once" if len(matched) == 1 else f"{len(matched)} times"
    return f"dismissed {times} before ({', '.join(parts)}{more})"


def memory_from(rows: Sequence[tuple[str, FeedbackRecord, object]], embedder: Embedder, settings: Settings,
                mr: str | None = None) -> FeedbackMemory | None:
    """The memory of stored rows (with vectors), without the records of merge request `mr`."""
    kept = [(r, v) for _, r, v in rows if v is not None and (mr is None or r.mr != mr)]
    if not any(r.dismissal for r, _ in kept):
        return None
    vectors = np.stack([np.asarray(v, dtype=np.float32) for _, v in kept])
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    vectors = vectors / np.where(norms == 0, 1.0, norms)
    cfg = settings.feedback
    return FeedbackMemory([r for r, _ in kept], vectors, embedder, similarity=cfg.similarity,
                          code_similarity=cfg.code_similarity, min_dismissals=cfg.min_dismissals, keep_at=cfg.keep_at)


@dataclass(frozen=True)
class Memory:
    """What earlier merge requests taught, for this review: the memory (None: nothing applies) and
    why it does not apply, when that is worth saying."""

    memory: FeedbackMemory | None = None
    notes: tuple[str, ...] = ()


def load_memory(settings: Settings, scope: FeedbackScope | None, store: StoreSession | None = None) -> Memory:
    """The repository's feedback for a review (disabled, nothing recorded, store unusable: none,
    with a note when something failed; a review never fails for want of feedback). `store`: the
    run's; without one the store is opened and closed here."""
    if scope is None or not settings.feedback.enabled or not scope.repository:
        return Memory()
    if store is None:
        from dualrag.store.session import StoreSession

        with StoreSession.of(settings) as own:
            return load_memory(settings, scope, own)
    if store.has_feedback(scope.repository) is False:
        return Memory()
    from dualrag.embedding import get_embedder
    from dualrag.errors import UserError
    from dualrag.store import StoreError

    try:
        fs = store.feedback()
        rows = fs.records(scope.repository, with_vectors=True)
        if not rows:
            return Memory()
        embedder = get_embedder(config=settings.embedding)
        fs.ensure(scope.repository, embedder)  # the stored vectors are this embedder's
    except (StoreError, UserError, OSError) as exc:
        return Memory(notes=(f"feedback of {scope.repository} not applied: {exc}",))
    return Memory(memory_from(rows, embedder, settings, scope.mr))
