"""dualrag as users install it: the wheel built from this working tree, installed by pip into a fresh
venv outside the checkout, run with the working directory outside the checkout.

Fast and offline: the wheel is built once per session without build isolation, and its
dependencies come from this test environment's site-packages through a view that leaves dualrag
itself out. pip still resolves the wheel's declared requirements against that view (with no index:
a requirement the view cannot satisfy fails the install), but downloads nothing.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
import sysconfig
from dataclasses import dataclass
from pathlib import Path

import pytest

import dualrag

CHECKOUT = Path(__file__).resolve().parents[2]


@dataclass(frozen=True)
class Wheelhouse:
    folder: Path  # holds the built wheel only: pip --find-links
    requirement: str  # dualrag==<version>
    deps_view: Path  # this environment's site-packages without dualrag


def _working_tree_files() -> list[str]:
    """Tracked and untracked-but-not-ignored files: a fresh clone plus the uncommitted work."""
    try:
        out = subprocess.run(["git", "-C", str(CHECKOUT), "ls-files", "-z", "--cached", "--others",
                              "--exclude-standard"], capture_output=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        pytest.skip("not a git checkout: the wheel test builds from the working tree")
    return [name for name in out.decode("utf-8", "surrogateescape").split("\0") if name]


def _copy_working_tree(dest: Path) -> Path:
    for name in _working_tree_files():
        path = CHECKOUT / name
        if path.is_file():
            (dest / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(path, dest / name)
    return dest


@pytest.fixture(scope="session")
def deps_view(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """This environment's site-packages without dualrag: what a fresh venv (or a pre-commit hook's
    environment) sees in place of the index, so pip resolves dualrag's requirements offline."""
    if os.name == "nt":
        pytest.skip("venv layout of POSIX systems")
    view = tmp_path_factory.mktemp("deps") / "site-packages"
    view.mkdir()
    for entry in Path(sysconfig.get_path("purelib")).iterdir():
        name = entry.name.lower()
        if not (name.startswith(("dualrag", "indexers", "__editable__")) or name.endswith(".pth")):
            (view / entry.name).symlink_to(entry)
    return view


@pytest.fixture(scope="session")
def project_repository(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """This working tree as the dualrag project's git repository, one commit on branch `main`: what
    a `source` / `DUALRAG_SOURCE` git URL or a pre-commit `repo:` points at (as a file:// URL)."""
    folder = _copy_working_tree(tmp_path_factory.mktemp("dualrag-project"))
    git = ["git", "-C", str(folder), "-c", "user.name=t", "-c", "user.email=t@example.com"]
    subprocess.run([*git, "init", "-q", "-b", "main"], check=True)
    subprocess.run([*git, "add", "-A"], check=True)
    subprocess.run([*git, "commit", "-q", "-m", "dualrag"], check=True)
    return folder


@pytest.fixture(scope="session")
def wheelhouse(tmp_path_factory: pytest.TempPathFactory, deps_view: Path) -> Wheelhouse:
    root = tmp_path_factory.mktemp("wheel")
    src = _copy_working_tree(root / "src")  # a copy: the build writes build/ and *.egg-info, never into the checkout
    folder = root / "dist"
    # with setuptools at hand (Python 3.11 venvs) no download; else pip fetches the build backend
    offline = ["--no-build-isolation", "--no-index"] if importlib.util.find_spec("setuptools") else []
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", *offline, "--quiet",
                    "--disable-pip-version-check", "-w", str(folder), str(src)], check=True, capture_output=True)
    return Wheelhouse(folder, f"dualrag=={dualrag.__version__}", deps_view)


def fresh_venv(path: Path, deps_view: Path) -> Path:
    """A venv with no dualrag and no pip of its own; the dependencies (and pip) come from the view.
    Returns its bin folder."""
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(path)], check=True, capture_output=True)
    site = next(path.glob("lib/python*/site-packages"))
    (site / "_dualrag_test_deps.pth").write_text(f"{deps_view}\n", encoding="utf-8")
    return path / "bin"


def clean_env(bin_dir: Path, home: Path, **extra: str) -> dict[str, str]:
    """The environment of a user's shell: no DUALRAG_* setting, no Python variables, nothing of
    this checkout or its venv on PATH."""
    keep = {k: v for k, v in os.environ.items()
            if not k.startswith(("DUALRAG_", "PYTHON", "PIP_", "VIRTUAL_ENV", "CI_", "GITLAB_", "GITHUB_",
                                       "OPENAI_", "ANTHROPIC_"))}
    path = [p for p in os.environ.get("PATH", "").split(os.pathsep) if p and str(CHECKOUT) not in p]
    home.mkdir(parents=True, exist_ok=True)
    return {**keep, "PATH": os.pathsep.join([str(bin_dir), *path]), "HOME": str(home), **extra}
