"""A finding's fingerprint: a stable identity across pushes, so a re-review knows what it said.

fingerprint = sha256(rule or category | path | normalised code of the finding's lines | message gist)

- the line *numbers* are not part of it: code moving down the file keeps its findings;
- the code is normalised (whitespace collapsed, trailing comments kept) so re-indenting does not
  count as a new problem, while editing the flagged code does;
- the message gist is the first words of the message with numbers, quotes and punctuation
  removed, so small rewording by an LLM does not change the identity.

`loose_key` leaves the gist out: the adapters match on the fingerprint first, then on the loose
key, so an LLM that rewords a finding between runs still lands on the same thread.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence

from dualrag.findings import Finding

_WS = re.compile(r"\s+")
_WORD = re.compile(r"[^\W\d_]+", re.UNICODE)
GIST_WORDS = 8
_STOP = frozenset("a an the this that is are be to of in on for and or it its with".split())


def normalise_code(lines: Sequence[str]) -> str:
    """Collapse whitespace inside each line and drop blank lines."""
    out = [_WS.sub(" ", line).strip() for line in lines]
    return "\n".join(line for line in out if line)


def message_gist(text: str, words: int = GIST_WORDS) -> str:
    """The first `words` content words of a message, lower-cased, without numbers or quotes."""
    found = [w for w in _WORD.findall(text.lower()) if w not in _STOP]
    return " ".join(found[:words])


def _digest(*parts: str) -> str:
    h = hashlib.sha256()
    for part in parts:
        h.update(part.encode("utf-8", "surrogatepass"))
        h.update(b"\x1f")
    return h.hexdigest()[:20]


def finding_rule(finding: Finding) -> str:
    return finding.rule_id or f"category:{finding.category}"


def fingerprint(finding: Finding, code_lines: Sequence[str] = ()) -> str:
    """The exact identity of a finding; `code_lines` are the new-file lines it points at."""
    return _digest(finding_rule(finding), finding.path, normalise_code(code_lines),
                   message_gist(finding.message or finding.title))


def loose_key(finding: Finding, code_lines: Sequence[str] = ()) -> str:
    """The identity without the message gist (same rule, same file, same code)."""
    return _digest(finding_rule(finding), finding.path, normalise_code(code_lines))
