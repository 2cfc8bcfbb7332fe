"""A rule-retrieval evaluation set of our own: Java review rules nobody tuned the segmenter for.

`rules.toml` holds the rules of the ACME Java review rule book, written for this evaluation in our
own words (the one source make_rule_eval_set.py renders as Word, Markdown and PDF, so a retrieval
difference between structures is a segmentation difference), `cases.jsonl` the violating and
clean Java snippets that should retrieve them. Prose is plain ASCII without Markdown syntax, so the
same words survive all three renderings; a rule's anchor is taken from its first paragraph
(`make_rule_eval_set.anchor_of`).

The last chapter (`STYLE`: names, doc comments, braces, literals, comments) holds rules that name no
API, which code can only reach through the names of the constructs it shows; it was written from
general Java practice, not from any published guideline's wording or test cases.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
CASES = HERE / "cases.jsonl"


@dataclass(frozen=True)
class Rule:
    code: str
    title: str
    level: str  # MUST or SHOULD
    topic: str  # sub-topic inside the chapter: the Markdown rendering's second heading level
    prose: str  # 2-5 sentences; paragraphs separated by a blank line
    bad: str | None = None
    good: str | None = None

    @property
    def paragraphs(self) -> list[str]:
        return self.prose.split("\n\n")


@dataclass(frozen=True)
class Chapter:
    title: str
    rules: tuple[Rule, ...]
    key: str = ""  # its name in rules.toml: RESOURCES, ..., STYLE


def _prose(text: str) -> str:
    """Paragraphs separated by a blank line, each paragraph's lines joined by one space."""
    return "\n\n".join(" ".join(p.split("\n")) for p in text.strip("\n").split("\n\n"))


def _code(text: str | None) -> str | None:
    return None if text is None else text.strip("\n")


def load(path: Path = HERE / "rules.toml") -> tuple[str, str, tuple[Chapter, ...]]:
    """(title, intro, chapters) of the rule book."""
    book = tomllib.loads(path.read_text(encoding="utf-8"))
    chapters = tuple(
        Chapter(c["title"], tuple(Rule(r["code"], r["title"], r["level"], r["topic"], _prose(r["prose"]),
                                       _code(r.get("bad")), _code(r.get("good"))) for r in c["rule"]), c["key"])
        for c in book["chapter"])
    return book["title"], _prose(book["intro"]), chapters


TITLE, INTRO, CHAPTERS = load()
STYLE = next(c for c in CHAPTERS if c.key == "STYLE")
