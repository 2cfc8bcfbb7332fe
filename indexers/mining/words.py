"""What a rule's own words name: APIs, types, keywords, operators, literals and constructs.

A pattern that names what the rule's text names generalises; one that names only what its
example happened to contain (`doWork`, `Frobnicator`) does not. So candidates are scored by
what of the rule they name (`tree.path_bits`, `tree.relevance`), and a generalisation drops
first what the rule never mentions (`lattice.py`).

- words: the ASCII words of the title and text, lower-cased, camel-case parts too (`compareTo`
  -> compareto, compare); a keyword that is also an everyday English word (`if`, `for`, `new`,
  `return`, `case`) counts only where the text shows it as code: in backticks or quotes, in
  capitals (`DELETE`), before a construct noun ("return statement", "for loop") or amid Chinese
  (where an ASCII word is code);
- operators the text writes (`==`, `!=`, `+=`, `?:`);
- constructs: the node types (and operators) the language pack's vocabulary
  (`GrammarRoles.constructs`, English and Chinese: 三目 -> ternary_expression, 强制转换 ->
  cast_expression, 字符串拼接 -> `+`) finds in the text. Node types whose own name the text uses
  (`finally` -> finally_clause) are found by `tree.type_related` from the words.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from dualrag.languages import GrammarRoles

from .examples import roles_of

# Keywords that are also ordinary English: prose uses them without meaning the construct.
PROSE_KEYWORDS = frozenset({
    "if", "for", "do", "new", "return", "case", "default", "try", "break", "continue", "while", "else", "this",
    "with", "in", "is", "as", "not", "and", "or", "from", "where", "select", "set", "update", "delete", "insert",
    "into", "catch", "throw", "final", "long", "short", "char", "import", "package", "super", "object", "when",
    "pass", "raise", "global", "print", "order", "by", "group", "on", "join", "values", "table", "index", "like",
    "all", "any", "some", "create", "drop", "alter", "having", "limit", "var", "val", "fun", "record", "yield"})
_CONSTRUCT_NOUNS = frozenset({"statement", "statements", "loop", "loops", "block", "blocks", "clause", "clauses",
                              "keyword", "keywords", "expression", "expressions", "operator", "operators", "branch",
                              "branches", "label", "labels", "call", "calls", "literal", "literals"})
_WORD = re.compile(r"[A-Za-z_$][A-Za-z0-9_$]*|\d+(?:\.\d+)?")
_CAMEL = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\d+")
_CODE_SPAN = re.compile(r"`([^`]+)`|\"([^\"\n]{1,60})\"|'([^'\n]{1,60})'|“([^”\n]{1,60})”")
_OPERATOR = re.compile(r"(?<![=!<>+\-*/&|?:%^])(==|!=|\+=|-=|\*=|/=|<=|>=|&&|\|\||<<|>>>?|!!|\?:|\?\.)"
                       r"(?![=!<>+\-*/&|?:%^])")
_CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uff00-\uffef\u3000-\u303f]")


@dataclass(frozen=True)
class RuleWords:
    """What one rule's text names (see the module). `in` asks the lower-cased words."""

    words: frozenset[str] = frozenset()
    types: frozenset[str] = frozenset()  # node types the text names through the pack's vocabulary
    operators: frozenset[str] = frozenset()  # operator and keyword tokens the text names as code
    code: frozenset[str] = frozenset()  # words the text writes as code (in backticks or quotes)
    roles: GrammarRoles = field(default_factory=GrammarRoles, repr=False, compare=False)  # the grammar read in

    def __contains__(self, word: object) -> bool:
        return word in self.words

    def __iter__(self):
        return iter(self.words)

    def __len__(self) -> int:
        return len(self.words)


def rule_words(*texts: str, language: str = "java", constructs: bool = True) -> RuleWords:
    """What a rule's title and text name, read with the language pack's construct vocabulary.
    `constructs` False: its ASCII words only, every one (how the miner before issue 42 read a rule)."""
    text = "\n".join(t for t in texts if t)
    code = _code_words(text)
    words: set[str] = set()
    for m in _WORD.finditer(text):
        word = m.group(0)
        lower = word.lower()
        if constructs and lower in PROSE_KEYWORDS and not (lower in code or _as_code(text, m.start(), m.end())):
            continue
        words.add(lower)
        words.update(p.lower() for p in _CAMEL.findall(word)
                     if len(p) > 2 and not (constructs and p.lower() in PROSE_KEYWORDS))
    if not constructs:
        return RuleWords(frozenset(words), roles=roles_of(language))
    operators = set(_OPERATOR.findall(text))
    operators.update(w for w in words if w in roles_of(language).keywords)
    types: set[str] = set()
    lowered = text.lower()
    for target, phrases in roles_of(language).constructs:
        if any(_names(lowered, text, p, code) for p in phrases):
            (types if re.fullmatch(r"[a-z_]+", target) else operators).add(target)
    return RuleWords(frozenset(words), frozenset(types), frozenset(operators), frozenset(code), roles_of(language))


def _code_words(text: str) -> set[str]:
    """Words the text writes as code: in backticks or quotes."""
    out: set[str] = set()
    for m in _CODE_SPAN.finditer(text):
        span = next(g for g in m.groups() if g is not None)
        out.update(w.lower() for w in _WORD.findall(span))
    return out


def _as_code(text: str, start: int, end: int) -> bool:
    """A keyword-like word used as code: in capitals, before a construct noun, or amid Chinese."""
    word = text[start:end]
    if len(word) > 1 and word.isupper():
        return True
    after = re.match(r"\s*(?:-\s*)?([A-Za-z]+)", text[end:end + 24])
    if after and after.group(1).lower() in _CONSTRUCT_NOUNS:
        return True
    before, following = text[max(0, start - 2):start].strip(), text[end:end + 2].strip()
    return bool(_CJK.search(before[-1:]) or _CJK.search(following[:1]))


def _names(lowered: str, text: str, phrase: str, code: set[str]) -> bool:
    """Whether the text uses a vocabulary phrase (Chinese: anywhere; English: as whole words, an
    everyday keyword only where it is code)."""
    phrase = phrase.lower()
    if phrase not in lowered:
        return False
    if _CJK.search(phrase) or not re.search(r"\w", phrase):
        return True
    for m in re.finditer(rf"(?<![\w-]){re.escape(phrase)}(?![\w-])", lowered):
        if phrase not in PROSE_KEYWORDS or phrase in code or _as_code(text, m.start(), m.end()):
            return True
    return False
