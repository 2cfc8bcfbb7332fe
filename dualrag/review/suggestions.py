"""One-click suggestions: does a finding's `replacement` apply to the change?

A replacement is the new text of lines `line`..`end_line` of the new file. It is kept (and later
published as a GitLab/GitHub ```suggestion block and a SARIF fix) only when

1. every target line is a new-side line (added or context) of one hunk of the diff: a platform
   applies a suggestion only to lines its diff shows;
2. the result differs from those lines (beyond trailing whitespace) and elides nothing (`...`);
3. for Java and XML, the edited text has no more ERROR/missing nodes than before (the whole new
   file when the repository is at hand, else the hunk's new side, whose cut edges stay the same).

Anything else is demoted: the replacement is dropped and, when the finding has no prose
suggestion, its text becomes one (a reader still sees what the reviewer proposed).
Small models often drop the indentation: the replacement is re-indented to the target's.
"""

from __future__ import annotations

import textwrap
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from dualrag.diff.model import ChangeSet
from dualrag.findings import Finding
from dualrag.languages.syntax import syntax_errors

MAX_LINES = 50  # a longer rewrite is no one-click fix
_ELISIONS = ("...", "…")
Reader = Callable[[str], "bytes | None"]


@dataclass(frozen=True)
class _Hunk:
    language: str
    lines: dict[int, str]  # new-side line number -> text (added and context lines)


class SuggestionCheck:
    """The diff's new side, per file and hunk, to check replacements against."""

    def __init__(self, changes: ChangeSet, read_file: Reader | None = None) -> None:
        self._hunks: dict[str, list[_Hunk]] = {}
        self._read = read_file
        self._files: dict[str, list[str] | None] = {}
        for f in changes.reviewable:
            if f.binary:
                continue
            self._hunks[f.path] = [_Hunk(f.language, {ln.new_no: ln.text for ln in h.lines
                                                      if ln.kind != "-" and ln.new_no is not None})
                                   for h in f.hunks]

    def check(self, f: Finding) -> tuple[str | None, str | None]:
        """(the replacement as it applies, None) or (None, why it does not)."""
        if f.replacement is None:
            return None, None
        end = f.end_line or f.line
        if end - f.line + 1 > MAX_LINES:
            return None, "too many lines"
        hunk = next((h for h in self._hunks.get(f.path, ()) if all(n in h.lines for n in range(f.line, end + 1))), None)
        if hunk is None:
            return None, "target lines not in the diff"
        old = [hunk.lines[n] for n in range(f.line, end + 1)]
        new = _reindent(f.replacement, old)
        if len(new) > MAX_LINES:
            return None, "too many lines"
        if [x.rstrip() for x in new] == [x.rstrip() for x in old]:
            return None, "no change"
        if any(e in "\n".join(new) and e not in "\n".join(old) for e in _ELISIONS):
            return None, "elided code"
        if not self._parses(f, hunk, old, new):
            return None, "does not parse"
        return "\n".join(new), None

    def _parses(self, f: Finding, hunk: _Hunk, old: list[str], new: list[str]) -> bool:
        end = f.end_line or f.line
        whole = self._file(f.path)
        if whole is not None and whole[f.line - 1:end] == old:
            before, start = whole, f.line - 1
        else:  # the hunk's new side: both versions share the same cut edges
            first = min(hunk.lines)
            before, start = [hunk.lines[n] for n in sorted(hunk.lines)], f.line - first
        after = before[:start] + new + before[start + len(old):]
        errors_before = syntax_errors(hunk.language, "\n".join(before))
        if errors_before is None:
            return True  # no grammar: nothing to check
        return (syntax_errors(hunk.language, "\n".join(after)) or 0) <= errors_before

    def _file(self, path: str) -> list[str] | None:
        if self._read is None:
            return None
        if path not in self._files:
            try:
                data = self._read(path)
            except Exception:  # noqa: BLE001 - an unreadable file only means the fragment is parsed
                data = None
            self._files[path] = data.decode("utf-8", "replace").splitlines() if data else None
        return self._files[path]


def _reindent(replacement: str, old: list[str]) -> list[str]:
    """The replacement's lines, shifted so its least indented line sits at the target's indentation."""
    lines = textwrap.dedent(replacement.replace("\r\n", "\n").strip("\n")).split("\n")
    indented = [x for x in old if x.strip()]
    base = min((x[: len(x) - len(x.lstrip())] for x in indented), key=len, default="")
    return [base + x if x.strip() else "" for x in lines]


def check_suggestions(findings: Sequence[Finding], changes: ChangeSet, *,
                      read_file: Reader | None = None) -> tuple[list[Finding], Counter]:
    """Findings whose replacements apply (normalised) or are demoted to prose; why each was demoted."""
    checker = SuggestionCheck(changes, read_file)
    out: list[Finding] = []
    demoted: Counter = Counter()
    for f in findings:
        applied, why = checker.check(f)
        if f.replacement is None or applied == f.replacement:
            out.append(f)
        elif applied is not None:
            out.append(f.model_copy(update={"replacement": applied}))
        else:
            demoted[why or "does not apply"] += 1
            out.append(f.model_copy(update={"replacement": None, "suggestion": f.suggestion or f.replacement}))
    return out, demoted
