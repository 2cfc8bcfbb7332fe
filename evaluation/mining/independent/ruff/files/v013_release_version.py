"""Derive the release version from the repository."""

import re
import subprocess
from pathlib import Path

_TAG = re.compile(r"^v(\d+)\.(\d+)\.(\d+)$")


def latest_tag(repo: Path) -> str:
    output = subprocess.check_output(
        ["git", "describe", "--tags", "--abbrev=0"], cwd=repo, text=True
    )
    return output.strip()


def next_version(repo: Path, part: str = "patch") -> str:
    match = _TAG.match(latest_tag(repo))
    if not match:
        return "v0.1.0"
    major, minor, patch = map(int, match.groups())
    if part == "major":
        return f"v{major + 1}.0.0"
    if part == "minor":
        return f"v{major}.{minor + 1}.0"
    return f"v{major}.{minor}.{patch + 1}"


if __name__ == "__main__":
    print(next_version(Path.cwd()))
