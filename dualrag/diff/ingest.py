"""Ingest: diff bytes -> ChangeSet (files with noise verdicts, project type, risk tier)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from dualrag.config import Settings
from dualrag.diff.caps import cap_review, sampled_note
from dualrag.diff.classify import TierRules, project_type
from dualrag.diff.model import ChangeSet, FileDiff, FileStatus, ProjectType, RiskTier
from dualrag.diff.parse import parse_files
from dualrag.errors import DiffError
from dualrag.source.noise import NoiseFilter


def max_diff_bytes(settings: Settings) -> int:
    return int(settings.limits.max_diff_mb * 1_000_000)


def ingest(data: bytes, settings: Settings, *, base_has: Callable[[str], bool] | None = None) -> ChangeSet:
    """`base_has`: whether a path exists on the target side (a repository at hand); it confirms
    vendored skips (a folder the target branch already vendors). Without it they stay uncertain."""
    limit = max_diff_bytes(settings)
    if len(data) > limit:
        raise DiffError(
            f"diff is {len(data) / 1e6:.1f} MB, above the limit of "
            f"{settings.limits.max_diff_mb:g} MB (limits.max_diff_mb)"
        )
    if not data.strip():
        return ChangeSet(files=(), project_type=ProjectType.GENERIC, risk_tier=RiskTier.TRIVIAL)
    limits = settings.limits
    noise = NoiseFilter(settings.noise)
    capped, notes = cap_review(parse_files(data, noise, limits), limits)
    files = tuple(_confirm_vendored(f, noise, base_has) for f in capped)
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


def _confirm_vendored(f: FileDiff, noise: NoiseFilter, base_has: Callable[[str], bool] | None) -> FileDiff:
    """A vendored skip is certain when the file's folder is vendored on the target side already and
    the file did not move there from outside the vendored tree."""
    if base_has is None or not f.unread or not (f.skipped_reason or "").startswith("vendored tree"):
        return f
    skip = noise.verdict(f.path, f.language)
    root = skip.where if skip is not None and skip.kind == "vendored" else None
    if root is None:
        return f
    if f.status in (FileStatus.RENAMED, FileStatus.COPIED) and not (f.old_path or "").startswith(root + "/"):
        return replace(f, skip_doubt=f"moved into the vendored tree from {f.old_path}")
    folder = f.path.rpartition("/")[0]
    try:
        known = base_has(folder)
    except Exception:  # noqa: BLE001 - an unreadable target side confirms nothing
        known = False
    if not known:
        return replace(f, skip_doubt=f"{folder}/ is not vendored on the target branch")
    return replace(f, skip_certain=True, skip_doubt=None, unread=False)
