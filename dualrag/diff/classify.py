"""Project type and risk tier of a change: which review path it takes and how deep."""

from __future__ import annotations

from collections.abc import Sequence

from dualrag import languages as language_packs
from dualrag.config import TierConfig
from dualrag.diff.model import FileDiff, ProjectType, RiskTier
from dualrag.source.patterns import PathPatterns


def project_type(files: Sequence[FileDiff]) -> ProjectType:
    """The project type the reviewed files' language packs give, the highest priority winning:
    any EDI file makes an EDI change (EDI wins over Java), else a .java file makes Java."""
    found = language_packs.project_type(f.language for f in files if f.reviewable)
    try:
        return ProjectType(found)
    except ValueError:  # a third-party pack's type the reviewers do not know: generic review
        return ProjectType.GENERIC


class TierRules:
    def __init__(self, config: TierConfig):
        self._config = config
        self._sensitive = PathPatterns(config.sensitive_paths, ignore_case=True)

    def sensitive(self, path: str) -> bool:
        return self._sensitive.match(path)

    def tier(self, files: Sequence[FileDiff]) -> tuple[RiskTier, tuple[str, ...]]:
        """The tier and the reasons that forced it, counted over the files that get reviewed."""
        c = self._config
        reviewed = [f for f in files if f.reviewable]
        lines = sum(f.changed_lines for f in reviewed)
        size = sum(len(f.section) for f in reviewed)  # diff text, so one huge line is not "1 line"
        count = len(reviewed)
        reasons: list[str] = []
        sensitive = [f.path for f in reviewed if self.sensitive(f.path)]
        if sensitive:
            more = f" (+{len(sensitive) - 1} more)" if len(sensitive) > 1 else ""
            reasons.append(f"security-sensitive path: {sensitive[0]}{more}")
        if count > c.full_above_files:
            reasons.append(f"{count} files (> {c.full_above_files})")
        reasons += _content_reasons(reviewed)
        if reasons:
            return RiskTier.FULL, tuple(reasons)
        if count <= c.max_files and lines <= c.trivial_max_lines and size <= c.trivial_max_bytes:
            return RiskTier.TRIVIAL, ()
        if count <= c.max_files and lines <= c.lite_max_lines and size <= c.lite_max_bytes:
            return RiskTier.LITE, ()
        if count <= c.max_files and lines <= c.lite_max_lines:  # the size decided
            return RiskTier.FULL, (f"{size:,} characters of diff text in {count} files (> {c.lite_max_bytes:,})",)
        return RiskTier.FULL, (f"{lines} changed lines in {count} files",)


def _content_reasons(files: Sequence[FileDiff]) -> list[str]:
    """What the text itself says about risk: lines too long to read whole, hidden characters."""
    reasons = []
    if sampled := [f for f in files if f.sampled_lines]:
        longest = max(f.longest_line for f in sampled)
        reasons.append(f"lines of up to {longest:,} characters reviewed as a sample: {sampled[0].path}"
                       + (f" (+{len(sampled) - 1} more)" if len(sampled) > 1 else ""))
    if hidden := [f for f in files if f.hidden_chars]:
        reasons.append(f"control or bidirectional characters in the change: {hidden[0].path}"
                       + (f" (+{len(hidden) - 1} more)" if len(hidden) > 1 else ""))
    return reasons
