"""Whether an example of a rule page shows the violation or the fix, from the source's own markers:
the example's comments (`// bad`, `// ok`, `// BUG: Diagnostic`) and the sentence that leads into it
("Prefer this: ... to this:", "Don't do this:"). Error Prone's pages taught the cues; the CodeQL and
Ruff builders read their pages with the same `classify`."""

from __future__ import annotations

import re
from collections import Counter

_BAD_NOTE = re.compile(
    r"\b(not ok|not okay|not good|not allowed|not recommended|not preferred|bad|wrong|violation|violates|"
    r"noncompliant|non-compliant|incorrect|unsafe|avoid|don'?t|do not|flagged|reported|error|bug|"
    r"problem|mistake|should be|should not|shouldn'?t|never|forbidden|dangerous|unnecessary|useless|"
    r"redundant|missing|triggers?)\b", re.IGNORECASE)
_GOOD_NOTE = re.compile(
    r"\b(good|ok|okay|fine|preferred|prefer|better|correct|compliant|allowed|valid|recommended|"
    r"no violation|not flagged|not reported|fixed|safe)\b", re.IGNORECASE)
_COMMENT = re.compile(r"//\s*(.*)$|/\*\s*(.*?)\s*\*/", re.MULTILINE)


def comment_verdicts(code: str) -> Counter:
    """Count of "bad" and "good" marker comments in an example (e.g. `// bad`, `// ok`)."""
    verdicts: Counter = Counter()
    for m in _COMMENT.finditer(code):
        note = (m.group(1) or m.group(2) or "").strip()
        if not note:
            continue
        if _BAD_NOTE.search(note):
            verdicts["bad"] += 1
        elif _GOOD_NOTE.match(note) or re.match(r"^(this is |that'?s )?(good|ok|okay|fine|better|correct)\b", note, re.IGNORECASE):
            verdicts["good"] += 1
    return verdicts


EP_GOOD_CUE = re.compile(
    r"(\binstead\b(?!\s+of)|\bprefer\b|\bpreferred\b|\bshould be (written|replaced|rewritten|changed)|"
    r"\bcorrect(ed|ly)?\b|\bfix(ed)?\b|\bbetter\b|\brecommended\b|\brewrit|\breplace(d)? (it|this|them)? ?with\b|"
    r"\bsafer\b|\bdo this\b|\bsolution\b|\binstead:|\buse (this|the following)\b|\bcan be (written|simplified)\b|"
    r"\bfollowing (is|are) (fine|ok|okay|correct|safe)\b|\bafter:|(?:not|n't) (?:trigger|flag|warn|be flagged|be reported)|"
    r"(?:^|[,;:]\s*)(?:add|use|write|make|call|declare|replace|remove|pass|mark|annotate)\b|\b(is|are) (fine|ok|okay|safe|correct)\b|\bclearer\b|\bidiomatic\b|\bsuppress)",
    re.IGNORECASE)
EP_BAD_CUE = re.compile(
    r"(\binstead of\b|\bfor example\b|\bconsider\b|\bsuch as\b|\be\.g\.|\bbug\b|\bbuggy\b|\bwrong\b|\bincorrect\b|"
    r"\bproblem\b|\bdon'?t\b|\bdo not\b|\bavoid\b|\bmistake\b|\bsurprising\b|\bthe following\b|\bflag(s|ged)?\b|"
    r"\bbroken\b|\bunsafe\b|\berror\b|\bfails?\b|\bbefore:|\bnot\b(?!\s+(?:trigger|flag|warn|be flagged|be reported))|\bconfusing\b|\bthis code\b|\bwarn)", re.IGNORECASE)
_EP_CODE_BAD = re.compile(r"//\s*(BUG: Diagnostic|bad|wrong|error|incorrect|don'?t|noncompliant|oops|broken|"
                          r"this is (a bug|wrong|bad))", re.IGNORECASE)
_EP_CODE_GOOD = re.compile(r"//\s*(good|ok|okay|fine|better|correct|fixed|preferred|compliant)\b", re.IGNORECASE)


def classify(prose_before: str, code: str) -> str | None:
    """"violating", "compliant" or None (unclear) for a code block of a rule page: the
    block's own marker comments first, then the sentence just before it."""
    bad, good = bool(_EP_CODE_BAD.search(code)), bool(_EP_CODE_GOOD.search(code))
    if bad:
        return "violating"
    if good:
        return "compliant"
    lead = " ".join(prose_before.split())[-240:]
    lead_sentence = re.split(r"(?<=[.!?])\s+(?=[A-Z])", lead)[-1] if lead else ""
    if re.search(r"@SuppressWarnings|\bsuppress", lead_sentence, re.IGNORECASE) or "@SuppressWarnings" in code:
        return None
    if re.match(r"^\W*(to|over|rather than|than|not|instead of|versus|vs\.?)\b", lead_sentence, re.IGNORECASE):
        return "violating"  # "prefer this: ... to this:"
    if len(lead_sentence) < 60 and re.search(r"\b(don'?t|do not|never)\b", lead_sentence, re.IGNORECASE):
        return "violating"  # "Don't do this:"
    cues = sorted([(m.start(), "compliant") for m in EP_GOOD_CUE.finditer(lead_sentence)
                   if not re.match(r"instead of", m.group(0), re.IGNORECASE)]
                  + [(m.start(), "violating") for m in EP_BAD_CUE.finditer(lead_sentence)])
    return cues[-1][1] if cues else None  # the sentence's last cue decides

