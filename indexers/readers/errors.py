"""Errors a user can fix about a rule document: one clear line, never a traceback."""

from __future__ import annotations

from dualrag.errors import UserError


class DocumentError(UserError):
    """A rule document cannot be read: the message names the file and says what to do."""

    def __init__(self, path: object, reason: str) -> None:
        self.path = str(path)
        self.reason = reason
        super().__init__(f"{self.path}: {reason}")
