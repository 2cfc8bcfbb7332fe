"""What reviewers told dualrag about its findings, kept per repository across merge requests (a
foundation: the MR stage writes these records, the store keeps them, the coordinator reads them).

A *dismissal* says a finding was not worth raising: "won't fix", resolved by a human while the
flagged code stayed as it was, "I disagree" that dualrag conceded, a thumbs-down. An *acceptance*
says it was right: resolved because the code changed, its suggestion applied, acknowledged.
One record per (repository, finding fingerprint, outcome): recording the same thread again is a
no-op (`FeedbackRecord.point_id` is a uuid5 of those three).
"""

from __future__ import annotations

import re
import uuid
from dataclasses import dataclass
from datetime import UTC, datetime
from enum import StrEnum
from itertools import pairwise

from pydantic import BaseModel, ConfigDict

_NAMESPACE = uuid.UUID("6f1d3c52-41a4-5c8e-9a57-0d2b7c1e4f90")
_NAME_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-")
MAX_CODE_CHARS = 1200


class Outcome(StrEnum):
    WONT_FIX = "wont_fix"                  # a human replied "won't fix"
    RESOLVED_BY_USER = "resolved_by_user"  # a human resolved it; the flagged code is unchanged
    DISAGREED = "disagreed"                # "I disagree", and dualrag conceded
    THUMBS_DOWN = "thumbs_down"            # a 👎 reaction on the finding
    FIXED = "fixed"                        # dualrag resolved it: the code changed, the finding went away
    APPLIED = "applied"                    # its one-click suggestion was applied
    ACKNOWLEDGED = "acknowledged"          # a human replied "acknowledged": the finding is right


DISMISSALS = frozenset({Outcome.WONT_FIX, Outcome.RESOLVED_BY_USER, Outcome.DISAGREED, Outcome.THUMBS_DOWN})
ACCEPTANCES = frozenset({Outcome.FIXED, Outcome.APPLIED, Outcome.ACKNOWLEDGED})
WORDS = {Outcome.WONT_FIX: "won't fix", Outcome.RESOLVED_BY_USER: "resolved without a change",
         Outcome.DISAGREED: "disagreed", Outcome.THUMBS_DOWN: "thumbs-down", Outcome.FIXED: "fixed",
         Outcome.APPLIED: "suggestion applied", Outcome.ACKNOWLEDGED: "acknowledged"}


def repository_key(name: str) -> str:
    """A collection-safe repository key: `group/sub/project` -> `group_sub_project`; '' if nothing is left."""
    return "".join(c if c in _NAME_CHARS else "_" for c in name.strip()).strip("_")[:64]


@dataclass(frozen=True, slots=True)
class FeedbackScope:
    """Whose feedback a review reads and an MR stage writes: the repository key, and the merge
    request under review (its own threads are the coordinator's `prior_findings`, not feedback)."""

    repository: str
    mr: str | None = None  # "!12" (GitLab), "#12" (GitHub)


class FeedbackRecord(BaseModel):
    model_config = ConfigDict(frozen=True, extra="ignore")

    repository: str
    fingerprint: str
    outcome: Outcome
    rule_id: str | None = None
    category: str = ""
    title: str = ""
    message: str = ""
    code: str = ""          # normalised (review/fingerprint.normalise_code), capped
    path: str = ""
    severity: str = "info"
    mr: str | None = None
    thread_id: str | None = None
    recorded_at: str = ""   # ISO 8601, UTC

    @property
    def point_id(self) -> str:
        return point_id(self.repository, self.fingerprint, self.outcome)

    @property
    def dismissal(self) -> bool:
        return self.outcome in DISMISSALS

    @property
    def group(self) -> str:
        """What a new finding must share with the record before similarity is asked: its rule, else its category."""
        return finding_group(self.rule_id, self.category)

    def embed_text(self) -> str:
        return embed_text(self.title, self.message, self.code)


def point_id(repository: str, fingerprint: str, outcome: str) -> str:
    return str(uuid.uuid5(_NAMESPACE, f"{repository}|{fingerprint}|{outcome}"))


def finding_group(rule_id: str | None, category: str) -> str:
    return f"rule:{rule_id}" if rule_id else f"category:{category}"


def embed_text(title: str, message: str, code: str) -> str:
    """What is embedded for a record and for a new finding alike."""
    return f"{' '.join(title.split())}\n{' '.join(message.split())}\n{code[:MAX_CODE_CHARS]}".strip()


_STRING = re.compile(r'"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'')
_TOKEN = re.compile(r"@?\w+|[^\w\s]")
# Words that give code its shape in the languages dualrag reviews; every other word is a name.
KEYWORDS = frozenset(["abstract", "assert", "boolean", "break", "byte", "case", "catch", "char", "class", "const", "continue", "default", "do", "double", "else", "enum", "extends", "final", "finally", "float", "for", "goto", "if", "implements", "import", "instanceof", "int", "interface", "long", "native", "new", "null", "package", "private", "protected", "public", "return", "short", "static", "strictfp", "super", "switch", "synchronized", "this", "throw", "throws", "transient", "try", "void", "volatile", "while", "true", "false", "var", "record", "yield", "def", "lambda", "None", "self", "elif", "except", "raise", "with", "async", "await", "function", "let"])


def code_shape(code: str) -> frozenset:
    """What a piece of code looks like with its names and literals abstracted: keywords, annotations
    and punctuation kept, names -> `N`, numbers -> `0`, strings -> `S`; as unigrams and bigrams."""
    tokens = []
    for t in _TOKEN.findall(_STRING.sub(" S ", code)):
        if t in KEYWORDS or t.startswith("@") or not (t[0].isalnum() or t[0] == "_") or t == "S":
            tokens.append(t)
        else:
            tokens.append("0" if t[0].isdigit() else "N")
    return frozenset([*tokens, *pairwise(tokens)])


def shape_similarity(a: frozenset, b: frozenset) -> float:
    """Jaccard of two code shapes (0 when either is empty: no code, nothing to compare)."""
    return len(a & b) / len(a | b) if a and b else 0.0


def now() -> str:
    return datetime.now(UTC).replace(microsecond=0).isoformat()
