"""Model-written variants of a rule's examples, for verifying a mined detector only (`index rules
--model-variants`, issue 42).

A detector mined from one or two examples is checked against the document's own code, which
rarely shows the careful colleague's code next to the mistake: a pattern climbed past its
example ("any `setWritable` call") passes every check the document offers and then fires on the
correct use. A configured model writes, per rule with a violating example, one more violating
variant (other names, nesting, receiver) and one compliant near miss (the same APIs used as the rule
asks). They only verify: a candidate must fire on the violating variant and stay quiet on the
compliant one (`indexers/mining/verify.Variants`); no candidate is made from them, so a poor
answer can cost a detector, never make one. One request per rule, cached by the model and the rule's
text and example, so re-indexing an unchanged book asks nothing; a failed request leaves the rule
without variants.
"""

from __future__ import annotations

import json
import re
from collections import UserDict
from collections.abc import Callable, MutableMapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from dualrag.config.paths import user_cache_dir
from dualrag.llm.errors import LLMError
from dualrag.llm.types import LLMRequest, Message
from dualrag.review.model_ask import answer_text, request_key
from dualrag.review.prompt import template
from dualrag.review.sanitize import sanitize
from dualrag.units import RuleUnit

MAX_RULE_CHARS = 1_200
MAX_EXAMPLE_CHARS = 1_500
MAX_LINES = 15
MAX_OUTPUT_TOKENS = 400
SYSTEM = "You write short code examples to test a checker for a team's coding rules."
_FENCE = re.compile(r"```[\w+-]*[ \t]*\n(.*?)```", re.DOTALL)

Pair = tuple[tuple[str, ...], tuple[str, ...]]  # (violating variants, compliant variants)


class CachedVariants(UserDict):
    """The answers by request hash, kept in a JSON file between runs (written whole, atomically)."""

    def __init__(self, path: Path) -> None:
        super().__init__()
        self.path = path
        try:
            stored = json.loads(path.read_text(encoding="utf-8"))
            self.data = {k: (tuple(v[0]), tuple(v[1])) for k, v in stored.items()}
        except (OSError, ValueError, TypeError, IndexError, AttributeError):
            self.data = {}  # none yet, or unreadable: asked again

    @classmethod
    def default(cls) -> CachedVariants:
        return cls(user_cache_dir() / "variants.json")

    def save(self) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        tmp = self.path.with_suffix(".tmp")
        tmp.write_text(json.dumps({k: [list(a), list(b)] for k, (a, b) in self.data.items()}), encoding="utf-8")
        tmp.replace(self.path)


@dataclass
class VariantWriter:
    """`writer(units) -> {rule id: (violating, compliant)}` for every unit with a violating example."""

    client: object | None  # None: answers from the cache only
    model: str
    language: str = "Java"
    cache: MutableMapping[str, Pair] = field(default_factory=dict)
    failures: list[str] = field(default_factory=list)
    asked: int = 0

    def __call__(self, units: Sequence[RuleUnit], progress: Callable[[int, int], None] | None = None
                 ) -> dict[str, Pair]:
        out: dict[str, Pair] = {}
        wanted = [u for u in units if u.bad_examples and u.detect is None]
        for i, unit in enumerate(wanted, 1):
            pair = self.one(unit)
            if pair[0] or pair[1]:
                out[unit.rule_id] = pair
            if progress:
                progress(i, len(wanted))
        return out

    def one(self, unit: RuleUnit) -> Pair:
        request = variants_request(unit, self.language)
        key = request_key(self.model, request)
        if key not in self.cache:
            if self.client is None:
                return (), ()
            self.asked += 1
            try:
                text = answer_text(self.client, request)  # a cut-off answer: the blocks it finished count
            except LLMError as exc:
                self.failures.append(f"{unit.rule_id}: {exc}")
                return (), ()
            self.cache[key] = parse_variants(text or "", unit)
        return self.cache[key]

    @property
    def notes(self) -> tuple[str, ...]:
        if not self.failures:
            return ()
        return (f"the model wrote no variants for {len(self.failures)} rule(s): {self.failures[0]}",)


def variants_request(unit: RuleUnit, language: str = "Java") -> LLMRequest:
    instructions = (template("rule_variants").strip().replace("{language}", language)
                    .replace("{max_lines}", str(MAX_LINES)))
    rule = unit.text if unit.text.startswith(unit.title) else f"{unit.title}\n\n{unit.text}"
    user = (f"{instructions}\n\n<rule>\n{sanitize(rule, limit=MAX_RULE_CHARS)}\n</rule>\n\n"
            f"<violating>\n{sanitize(unit.bad_examples[0], limit=MAX_EXAMPLE_CHARS)}\n</violating>\n")
    return LLMRequest(prefix=(SYSTEM,), messages=(Message("user", user),), max_output_tokens=MAX_OUTPUT_TOKENS,
                      grow=False, tag="rule_variants")


def parse_variants(text: str, unit: RuleUnit) -> Pair:
    """The answer's first two fenced blocks: (violating,), (compliant,). A block that repeats one of
    the document's own examples adds nothing and is dropped; one block alone is the violating one."""
    blocks = [_cut(b) for b in _FENCE.findall(text.replace("\r", ""))]
    own = {_squash(e) for e in (*unit.bad_examples, *unit.good_examples)}
    keep = [b if b and _squash(b) not in own else "" for b in blocks[:2]]
    violating = (keep[0],) if keep and keep[0] else ()
    compliant = (keep[1],) if len(keep) > 1 and keep[1] and _squash(keep[1]) != _squash(keep[0]) else ()
    return violating, compliant


def _cut(block: str) -> str:
    lines = [line.rstrip() for line in block.splitlines() if line.strip()]
    return "\n".join(lines[:MAX_LINES])


def _squash(code: str) -> str:
    return re.sub(r"\s+", "", code.strip().strip("`"))
