"""Ingest: diff bytes -> ChangeSet (files with noise verdicts, project type, risk tier)."""

from __future__ import annotations

from dataclasses import replace

from dualrag.config import Settings
from dualrag.diff.caps import cap_review, sampled_note
from dualrag.diff.classify import TierRules, project_type
from dualrag.diff.model import ChangeSet, FileDiff, ProjectType, RiskTier
from dualrag.diff.parse import parse_files
from dualrag.errors import DiffError
from dualrag.source.noise import NoiseFilter
from dualrag.source.review_source import ReviewSource
from dualrag.source.skips import media_mismatch
from dualrag.source.target import Reader, TargetSide


def max_diff_bytes(settings: Settings) -> int:
    return int(settings.limits.max_diff_mb * 1_000_000)


def ingest(data: bytes, settings: Settings, *, target: TargetSide | None = None,
           read_file: Reader | None = None) -> ChangeSet:
    """`target`: the branch the change goes into, when a repository or the platform's API is at
    hand; it confirms skips (source/noise.py). Without it no vendored or generated skip is certain.
    `read_file`: the change's own files, to check that a binary media file is what its type says."""
    limit = max_diff_bytes(settings)
    if len(data) > limit:
        raise DiffError(
            f"diff is {len(data) / 1e6:.1f} MB, above the limit of "
            f"{settings.limits.max_diff_mb:g} MB (limits.max_diff_mb)"
        )
    if not data.strip():
        return ChangeSet(files=(), project_type=ProjectType.GENERIC, risk_tier=RiskTier.TRIVIAL)
    limits = settings.limits
    capped, notes = cap_review(parse_files(data, lambda changed: NoiseFilter(settings.noise, target, changed), limits),
                               limits)
    files = tuple(_check_media(f, read_file) for f in capped)
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



def ingest_source(source: ReviewSource, settings: Settings) -> ChangeSet:
    """`ingest` of what a review reads: its diff, checked against its target side and its files."""
    return ingest(source.diff, settings, target=source.target(), read_file=source.read_file)


def _check_media(f: FileDiff, read_file: Reader | None) -> FileDiff:
    """A binary image, font or document skipped for certain stays so only when its bytes (at the
    head, when they can be read) are of its type: a `.png` holding text or a script is held."""
    if not (f.binary and f.skip_certain) or read_file is None:
        return f
    try:
        data = read_file(f.path)
    except Exception:  # noqa: BLE001 - unreadable: the type cannot be checked
        data = None
    why = "its bytes could not be read to check its type" if data is None else media_mismatch(f.path, data)
    return f if why is None else replace(f, skip_certain=False, skip_doubt=why, unread=True)
