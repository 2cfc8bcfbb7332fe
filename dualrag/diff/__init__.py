"""Ingest stage: read a diff, take it apart, drop noise, classify it (ARCHITECTURE.md, stage 1)."""

from dualrag.diff.hunks import DiffLine, Hunk
from dualrag.diff.ingest import ingest, ingest_source
from dualrag.diff.model import ChangeSet, FileDiff, FileStatus, ProjectType, RiskTier

__all__ = [
    "ChangeSet", "DiffLine", "FileDiff", "FileStatus", "Hunk", "ProjectType", "RiskTier", "ingest",
    "ingest_source",
]
