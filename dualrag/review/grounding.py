"""Does a model's warning earn its severity? (`[review] model_warnings`)

On real bug pairs the model's own open-ended warnings flagged the fix as often as the bug: a
warning that could be said of any line ("may cause issues", "consider validating the input")
costs a reviewer's attention and tells a bug from its fix by chance. A warning keeps its
severity when it cites a retrieved rule, or when it is *grounded*: it names code of the lines it
sits on (an identifier, call or literal written there) and a concrete failure (a value or input
such as null, zero, a negative number, an empty string, an index past the end; or an exception,
an overflow, a wrong result). Otherwise it is a suggestion: still shown, never a reason to block.

    keep       every warning as the model wrote it
    grounded   ungrounded warnings become suggestions (the default: on the dev bug pairs the model's
               own findings went from +0.00 to +0.03; evaluation/review/bugs.py prints every policy)
    suggestion every warning without a rule becomes a suggestion
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Literal

from dualrag.findings import Finding

Policy = Literal["keep", "grounded", "suggestion"]
FLAGGING = frozenset({"major", "critical"})

_TOKEN = re.compile(r"[A-Za-z_][A-Za-z0-9_]*|\d+(?:\.\d+)?")
_STRING = re.compile(r"\"([^\"\\]{2,40})\"")
# words every line and every message has: naming one proves nothing about the line
_COMMON = frozenset(["a", "an", "the", "and", "or", "not", "if", "else", "for", "while", "do", "return", "new", "this", "that", "is", "are", "be", "to", "of", "in", "on", "at", "by", "with", "as", "it", "its", "int", "long", "short", "byte", "char", "boolean", "double", "float", "void", "var", "final", "static", "public", "private", "protected", "class", "interface", "enum", "extends", "implements", "import", "package", "try", "catch", "finally", "throw", "throws", "null", "true", "false", "string", "object", "list", "map", "set", "get", "put", "add", "value", "values", "result", "data", "code", "line", "method", "call", "function"])
_FAILURE = re.compile(
    r"\b(?:null|nil|none|zero|negative|empty|blank|overflow|underflow|nan|infinity|infinite|out of (?:bounds|range)"
    r"|off[- ]by[- ]one|divid\w* by|index|bound|exception|error|throws?|crash\w*|leak\w*|deadlock\w*|race"
    r"|wrong|incorrect|instead of|never|always|skips?|misses|loses?|lost|truncat\w*|duplicat\w*|unclosed|unchecked"
    r"|inject\w*|bypass\w*|\d+)\b|\w+(?:Exception|Error)\b", re.IGNORECASE)


def code_words(lines: Iterable[str]) -> set[str]:
    """The identifiers, numbers and short string literals written on `lines` (common words left out)."""
    words: set[str] = set()
    for text in lines:
        words.update(m.group(1) for m in _STRING.finditer(text))
        words.update(t for t in _TOKEN.findall(text) if len(t) >= 2 and t.lower() not in _COMMON)
    return words


def grounded(finding: Finding, lines: Iterable[str]) -> bool:
    """The finding names code of its lines and a concrete failure."""
    said = " ".join(filter(None, (finding.title, finding.message)))
    words = code_words(lines)
    names_code = any(re.search(rf"(?<![A-Za-z0-9_]){re.escape(w)}(?![A-Za-z0-9_])", said) for w in words)
    return names_code and bool(_FAILURE.search(said))


def calibrated(finding: Finding, lines: Iterable[str], policy: Policy) -> Finding:
    """`finding` at the severity `policy` allows: a model warning without a rule that does not earn
    its severity becomes a suggestion (`minor`). Detectors, rule checks and cited rules pass."""
    if (policy == "keep" or finding.source != "llm" or finding.rule_id or finding.severity not in FLAGGING):
        return finding
    if policy == "grounded" and grounded(finding, lines):
        return finding
    why = "kept as a suggestion: it names no code of its line and concrete failure" if policy == "grounded" \
        else "kept as a suggestion: model warnings without a rule do not count"
    return finding.model_copy(update={"severity": "minor", "message": f"{finding.message} ({why})".strip()})
