"""The data dualrag ships, read from the installed package: bundled rules, the model manifest and
the prompt templates.

`knowledge/` and `models/` stay top-level folders of the repository (ARCHITECTURE.md); setup.py
maps them to the packages `dualrag._bundled.knowledge` and `dualrag._bundled.models`, so a wheel
carries them and an editable install reads them in place. Every reader goes through here, never
through a path relative to the source tree, which a wheel does not have.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from dualrag.errors import UserError

KNOWLEDGE = "dualrag._bundled.knowledge"
MODELS = "dualrag._bundled.models"


def knowledge_dir() -> Path:
    """The bundled rule folder (`knowledge/` in the repository)."""
    return _directory(KNOWLEDGE)


def model_manifest() -> Path:
    """The model manifest (`models/manifest.toml` in the repository)."""
    return _directory(MODELS) / "manifest.toml"


def prompt(name: str) -> str:
    """A prompt template, `dualrag/prompts/<name>.md`."""
    return resources.files("dualrag").joinpath("prompts", f"{name}.md").read_text(encoding="utf-8")


def _directory(package: str) -> Path:
    # Rule loading walks folders and keys rules by their relative path: that needs a real folder.
    # pip, pipx and editable installs unpack onto the file system; a zipped install would not.
    try:
        root = resources.files(package)
    except ModuleNotFoundError:
        raise UserError(f"bundled data {package} is missing from this installation of dualrag "
                        "(reinstall it: pip install --force-reinstall dualrag)") from None
    if not isinstance(root, Path):
        raise UserError(f"bundled data {package} is not on the file system ({root}); install dualrag unpacked")
    return root
