"""The two linguist attributes of a `.gitattributes` file that say a path is not the team's code:
`linguist-vendored` and `linguist-generated` (GitHub Linguist's overrides, which GitLab honours too).

Each line is a pattern and attributes: `name` or `name=true` sets one, `-name` or `name=false`
unsets it (the path is the team's code after all), `!name` forgets it. For every attribute the
last matching line wins, as in git. Patterns follow .gitignore syntax (`source.patterns`, linear
time), which differs from git's attributes in one respect: a pattern naming a folder also matches
the files under it (git wants `folder/**`). Negated patterns (`!pattern`) are not allowed by git
and are ignored here.
"""

from __future__ import annotations

from dataclasses import dataclass

from dualrag.source.patterns import PathPatterns

NAMES = ("linguist-vendored", "linguist-generated")
MAX_LINES = 2_000  # a longer attributes file is read up to here


@dataclass(frozen=True)
class Rule:
    pattern: str
    matcher: PathPatterns
    values: dict[str, bool | None]  # attribute -> set (True), unset (False), forgotten (None)


@dataclass(frozen=True)
class LinguistAttributes:
    rules: tuple[Rule, ...] = ()

    @classmethod
    def parse(cls, text: str) -> LinguistAttributes:
        rules = []
        for line in text.splitlines()[:MAX_LINES]:
            parts = line.split()
            if len(parts) < 2 or parts[0].startswith(("#", "!")) or len(parts[0]) > 256:
                continue
            values = {}
            for attr in parts[1:]:
                name, _, value = attr.lstrip("-!").partition("=")
                if name in NAMES:
                    values[name] = None if attr.startswith("!") else (
                        not attr.startswith("-") and value.lower() not in ("false", "0"))
            if values:
                rules.append(Rule(parts[0], PathPatterns([parts[0]]), values))
        return cls(tuple(rules))

    def of(self, path: str, name: str) -> tuple[bool | None, str | None]:
        """(value, the pattern that decided it) of attribute `name` for `path`; (None, None) when
        no line says anything."""
        for rule in reversed(self.rules):
            if name in rule.values and rule.matcher.match(path):
                value = rule.values[name]
                return (value, rule.pattern) if value is not None else (None, None)
        return None, None
