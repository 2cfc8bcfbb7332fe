"""A repository snapshot a rule book is built from: a bare git directory (as the `fetch` tool leaves
it, read at HEAD) or a checkout."""

from __future__ import annotations

import subprocess
from pathlib import Path


class Snapshot:
    """Files of a repository snapshot: a bare git directory (read at HEAD) or a checkout."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.bare = (self.path / "HEAD").is_file() and (self.path / "objects").is_dir()
        git_dir = self.path if self.bare else self.path / ".git"
        self.commit = self._git(git_dir, "rev-parse", "HEAD").strip() if git_dir.exists() else "unknown"
        self.git_dir = git_dir

    @staticmethod
    def _git(git_dir: Path, *args: str) -> str:
        return subprocess.run(["git", f"--git-dir={git_dir}", *args], check=True, capture_output=True,
                              text=True, encoding="utf-8").stdout

    def files(self, prefix: str) -> list[str]:
        if self.bare:
            out = self._git(self.git_dir, "ls-tree", "-r", "--name-only", "HEAD", "--", prefix)
            return sorted(line for line in out.splitlines() if line)
        base = self.path / prefix
        return sorted(str(p.relative_to(self.path)) for p in base.rglob("*") if p.is_file())

    def read(self, path: str) -> str:
        if self.bare:
            return self._git(self.git_dir, "show", f"HEAD:{path}")
        return (self.path / path).read_text(encoding="utf-8")
