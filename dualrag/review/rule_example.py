"""Model-written counter-examples for the rules of a document that shows (almost) none (`index rules`
with a model; `--no-model-examples` skips it).

Code and rule prose share few words, so a rule book of terse prose ("a finally block must not
return") is found by code only through its words. A rule book with counter-examples is found by
code like its examples, and can choose its own retrieval channels on them
(`dualrag/retrieval/self_check.py`). When the document gives a rule no counter-example, a
configured model writes one from the rule's text alone: one short request per rule, cached by
the model and the text it reads, so re-indexing an unchanged book asks nothing.

A written example is marked as the model's (`RuleUnit.model_examples`): search reads it like the
document's own examples, and prompts say where it came from. A failed request leaves the rule as
the document gave it and is counted, never fatal.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, MutableMapping, Sequence
from dataclasses import dataclass, field

from dualrag.llm.errors import LLMError
from dualrag.llm.types import LLMRequest, Message
from dualrag.retrieval.self_check import MIN_CASES, MIN_EXAMPLE_CHARS
from dualrag.review.model_ask import answer_text, request_key
from dualrag.review.prompt import template
from dualrag.review.sanitize import sanitize
from dualrag.units import RuleUnit

MAX_RULE_CHARS = 1_200  # the rule's title and opening: what it forbids is said early
MAX_LINES = 12
MAX_OUTPUT_TOKENS = 200
SYSTEM = "You write short code examples for a team's coding rules."
_FENCE = re.compile(r"```[\w+-]*\n(.*?)(?:```|\Z)", re.DOTALL)


@dataclass
class ExampleWriter:
    """`writer(units) -> units`: each unit without a counter-example gets one the model wrote."""

    client: object | None  # None: answers from the cache only
    model: str
    language: str = "Java"
    cache: MutableMapping[str, str] = field(default_factory=dict)
    failures: list[str] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)  # documents that show their own examples
    asked: int = 0

    def __call__(self, units: Sequence[RuleUnit], progress: Callable[[int, int], None] | None = None
                 ) -> list[RuleUnit]:
        own = documents_with_examples(units)
        self.skipped = sorted(own)
        out = []
        for i, unit in enumerate(units, 1):
            out.append(unit if unit.source.document in own else self.one(unit))
            if progress:
                progress(i, len(units))
        return out

    def key(self, unit: RuleUnit) -> str:
        """What the model reads, hashed with the model: the same rule in another edition of the
        document, or indexed again unchanged, is asked once."""
        return self._key(example_request(unit, self.language))

    def _key(self, request: LLMRequest) -> str:
        return request_key(self.model, request)

    def one(self, unit: RuleUnit) -> RuleUnit:
        if unit.bad_examples or unit.model_examples:
            return unit
        request = example_request(unit, self.language)
        key = self._key(request)
        if key not in self.cache:
            if self.client is None:
                return unit
            self.asked += 1
            try:
                text = answer_text(self.client, request)
            except LLMError as exc:
                self.failures.append(f"{unit.rule_id}: {exc}")
                return unit
            self.cache[key] = clean_example(text or "")
        example = self.cache[key]
        return unit.model_copy(update={"model_examples": [example]}) if example else unit

    @property
    def notes(self) -> tuple[str, ...]:
        notes = [f"{doc}: shows its own examples, which choose its channels; no model examples"
                 for doc in self.skipped]
        if self.failures:
            notes.append(f"the model wrote no example for {len(self.failures)} rule(s): {self.failures[0]}")
        return tuple(notes)


def documents_with_examples(units: Sequence[RuleUnit]) -> set[str]:
    """Documents that show a counter-example for enough rules that the knowledge base chooses its
    channels on them (self_check.MIN_CASES): the model writes none for their rules. On the dev
    guideline (66 rules with a 反例 of 345) the model's examples for the other rules drowned the
    signal of the document's own: its construct channel, chosen on those 66, fell from 0.903 to
    0.645 recall@5 (docs/evaluation/rule-retrieval.md, model examples)."""
    shown = Counter(u.source.document for u in units
                    if any(len(e.strip()) >= MIN_EXAMPLE_CHARS for e in u.bad_examples))
    return {doc for doc, n in shown.items() if n >= MIN_CASES}


def seed_cache(writer: ExampleWriter, stored: Sequence[RuleUnit]) -> None:
    """The examples a knowledge base already holds, for the rules whose text is unchanged."""
    for unit in stored:
        if unit.model_examples:
            writer.cache.setdefault(writer.key(unit.model_copy(update={"model_examples": []})), unit.model_examples[0])


def example_request(unit: RuleUnit, language: str = "Java") -> LLMRequest:
    instructions = (template("rule_example").strip().replace("{language}", language)
                    .replace("{max_lines}", str(MAX_LINES)))
    rule = unit.text if unit.text.startswith(unit.title) else f"{unit.title}\n\n{unit.text}"
    user = f"{instructions}\n\n<rule>\n{sanitize(rule, limit=MAX_RULE_CHARS)}\n</rule>\n"
    return LLMRequest(prefix=(SYSTEM,), messages=(Message("user", user),), max_output_tokens=MAX_OUTPUT_TOKENS,
                      grow=False, tag="rule_example")


def clean_example(text: str) -> str:
    """The answer's first fenced block (or the whole answer), at most MAX_LINES non-blank lines."""
    fenced = _FENCE.search(text)
    body = fenced.group(1) if fenced else text
    lines = [line.rstrip() for line in body.replace("\r", "").splitlines() if line.strip()]
    return "\n".join(lines[:MAX_LINES])
