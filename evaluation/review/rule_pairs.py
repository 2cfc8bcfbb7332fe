"""Rule-application pairs from a rule book: one diff adding a file that breaks a rule, one adding
a file that follows it.

For every rule of the book with at least one violating and one compliant example, the *first*
of each becomes a new Java file (rule_files.py: comments that give the answer away removed, the
fragment wrapped into a class). Its path is `src/main/java/com/example/case<NN>/<Type>.java` with
`package com.example.case<NN>;` (`src/test/java/...` and `SampleTest` when either side has
`@Test`), the same folder for both sides; `<NN>` is the rule's position among the book's eligible
rules, `<Type>` the fragment's public top-level type, else the wrapper's name. Neither names the rule.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from evaluation.books import load_book
from evaluation.core.heldout import seeded
from evaluation.review.rule_files import WRAPPER, letters, make_file

SIDES = ("violating", "compliant")
# Error Prone rules whose *first* examples do not show the rule (read by hand; `--exclude known-bad`)
KNOWN_BAD = {
    "DoubleCheckedLocking": "the violating example is the holder-class idiom the rule recommends",
    "GuardedBy": "the compliant example has an unguarded access (the book calls it a missed error)",
    "InexactVarargsConditional": "the violating example is the varargs method; the bad call is the compliant one",
    "JdkObsolete": "the violating example holds both the obsolete call and its replacement",
    "ReferenceEquality": "the violating example uses == only where the rule allows it (inside equals)",
    "StatementSwitchToExpressionSwitch": "both examples already are arrow switches",
    "ThrowableEqualsHashCode": "the violating example's equals/hashCode is a comment, which is removed",
    "TypeParameterShadowing": "the compliant example still shadows T",
    "UnnecessaryDefaultInEnumSwitch": "the violating example has no default case",
}

@dataclass(frozen=True)
class Side:
    path: str
    text: str  # the whole new file
    shape: str  # "unit", "members", "statements" or "mixed": how the fragment was wrapped

    @property
    def diff(self) -> str:
        lines = self.text.splitlines()
        return (f"diff --git a/{self.path} b/{self.path}\nnew file mode 100644\n--- /dev/null\n+++ b/{self.path}\n"
                f"@@ -0,0 +1,{len(lines)} @@\n" + "".join(f"+{line}\n" for line in lines))

    @property
    def sha(self) -> str:
        return hashlib.sha256(self.diff.encode("utf-8")).hexdigest()[:12]


@dataclass(frozen=True)
class RulePair:
    rule: str  # the book's rule id (never in a diff)
    title: str
    level: str
    case: int  # position among the book's eligible rules, 1-based: the path's case<NN>
    violating: Side
    compliant: Side

    def side(self, name: str) -> Side:
        return self.violating if name == "violating" else self.compliant

    @property
    def leaks(self) -> list[str]:
        """The sides whose diff still spells the rule's id (letters only, any case): where the code's
        own identifiers are the rule's name (`@GuardedBy`, `FileSystem.newFileSystem`)."""
        return [s for s in SIDES if letters(self.rule) in letters(self.side(s).diff)]


def eligible(book: str) -> list[dict]:
    """The book's rules with a violating and a compliant example, in book order."""
    return [r for r in load_book(book) if r.get("violating") and r.get("compliant")]


def build_pair(rule: dict, case: int) -> RulePair:
    tests = any("@Test" in rule[s][0] for s in SIDES)
    package = f"com.example.case{case:02d}"
    root = "src/test/java" if tests else "src/main/java"
    name = WRAPPER + ("Test" if tests else "")
    sides = {}
    for s in SIDES:
        shape, text, public = make_file(rule[s][0], rule["id"], package, name)
        sides[s] = Side(f"{root}/{package.replace('.', '/')}/{public or name}.java", text, shape)
    return RulePair(rule["id"], rule["title"], rule.get("level") or "", case, sides["violating"], sides["compliant"])


def load_pairs(book: str = "errorprone") -> list[RulePair]:
    return [build_pair(rule, i) for i, rule in enumerate(eligible(book), 1)]


def sample(pairs: list[RulePair], n: int, seed: int, exclude: frozenset[str] = frozenset()) -> list[RulePair]:
    """The first n of the pairs shuffled by `seed`, skipping the rules in `exclude`, in case order (a
    larger n keeps the smaller sample; an excluded rule's place goes to the next one)."""
    order = seeded(pairs, None, seed)
    return sorted([p for p in order if p.rule not in exclude][:n], key=lambda p: p.case)
