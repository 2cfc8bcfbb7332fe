"""Ingest: diff bytes -> ChangeSet (files with noise verdicts, project type, risk tier)."""

from __future__ import annotations

from dualrag.config import Settings
from dualrag.diff.caps import cap_review, sampled_note
from dualrag.diff.classify import TierRules, project_type
from dualrag.diff.model import ChangeSet, ProjectType, RiskTier
from dualrag.diff.parse import parse_files
from dualrag.errors import DiffError
from dualrag.source.noise import NoiseFilter


def max_diff_bytes(settings: Settings) -> int:
    return int(settings.limits.max_diff_mb * 1_000_000)


def ingest(data: bytes, settings: Settings) -> ChangeSet:
    limit = max_diff_bytes(settings)
    if len(data) > limit:
        raise DiffError(
            f"diff is {len(data) / 1e6:.1f} MB, above the limit of "
            f"{settings.limits.max_diff_mb:g} MB (limits.max_diff_mb)"
        )
    if not data.strip():
        return ChangeSet(files=(), project_type=ProjectType.GENERIC, risk_tier=RiskTier.TRIVIAL)
    limits = settings.limits
    capped, notes = cap_review(parse_files(data, NoiseFilter(settings.noise), limits), limits)
    files = tuple(capped)
    notes = [sampled_note(f, limits.max_line_chars) for f in files if f.reviewable and f.sampled_lines] + notes
    tier, reasons = TierRules(settings.tier).tier(files)
    return ChangeSet(
        files=files,
        project_type=project_type(files),
        risk_tier=tier,
        tier_reasons=reasons,
        diff_bytes=len(data),
        notes=tuple(notes),
    )
