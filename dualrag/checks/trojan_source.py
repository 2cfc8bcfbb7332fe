"""Characters that make code read differently from what it is.

Bidirectional controls (Trojan Source, CVE-2021-42574) reorder how a line is displayed: a
reviewer, human or model, reads `if (admin)` where the compiler sees a comment. Severity:

- **critical** for the embedding, override and isolate controls (U+202A-202E, U+2066-2069) in a
  code file: they can reorder tokens across a whole line, code has no need of them (an RTL string
  can be written with escapes), and the review cannot know what it approved — a false alarm
  costs one look, a miss costs a hidden backdoor;
- **major** for the directional marks (U+200E, U+200F, U+061C) and for any control in a prose
  file: marks only change the direction of neutral characters next to them, and RTL text uses
  them legitimately.

Unicode tag characters (U+E0000-E007F) spell text no screen shows; a model reads it. Any run
outside an emoji flag is a finding (major): the injection check reads what it spells.
"""

from __future__ import annotations

from dualrag.checks.text_spans import PROSE_SUFFIXES
from dualrag.checks.unicode_text import BIDI_CONTROLS, BIDI_OVERRIDES, hidden_tag_text
from dualrag.diff.model import ChangeSet
from dualrag.findings import Finding


def _added(changes: ChangeSet):
    for f in changes.reviewable:
        if f.binary:
            continue
        for h in f.hunks:
            for line in h.lines:
                if line.kind == "+" and line.new_no is not None and not line.text.isascii():
                    yield f.path, line.new_no, line.text


def trojan_source_findings(changes: ChangeSet) -> list[Finding]:
    out = []
    for path, line, text in _added(changes):
        found = sorted({c for c in text if c in BIDI_CONTROLS})
        if not found:
            continue
        code = not path.lower().endswith(PROSE_SUFFIXES)
        severe = code and any(c in BIDI_OVERRIDES for c in found)
        names = ", ".join(f"U+{ord(c):04X}" for c in found)
        out.append(Finding(
            path=path, line=line, severity="critical" if severe else "major", category="security",
            title="Bidirectional control characters (Trojan Source)",
            message=f"The added line holds {names}: it is displayed in a different order than it is compiled "
                    "or run, so what reviewers read is not what it does. Remove them (use escapes in strings) "
                    "or have a human read the raw bytes.",
            source="detector"))
    return out


def hidden_text_findings(changes: ChangeSet) -> list[Finding]:
    out = []
    for path, line, text in _added(changes):
        spelled = hidden_tag_text(text)
        if spelled:
            shown = " ".join(spelled)[:80].encode("unicode_escape").decode("ascii")
            out.append(Finding(
                path=path, line=line, severity="major", category="security",
                title="Invisible text (Unicode tag characters)",
                message=f"The added line spells invisible text a model reads: {shown!r}. A human must review it.",
                source="detector"))
    return out
