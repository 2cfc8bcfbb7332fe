"""The clean corpus a mined detector of one language is verified on, under the `[rules]` settings.

`[rules] mining_corpus` names either the root of a `dualrag corpus build` (it holds the build's
`manifest.json`; the language's subfolder is the corpus, none when the build has no such language)
or a plain folder (read as it is: the
corpus reader keeps the language's own files). Unset, the default build folder
(`~/.cache/dualrag/corpus`) is used when a build put that language there. Nothing is fetched here.
"""

from __future__ import annotations

from pathlib import Path

from dualrag.config.rules import RulesConfig
from indexers.corpus.manifest import default_corpus_dir, is_built_corpus, read_manifest, shown_path


def clean_corpus_folder(rules: RulesConfig, language: str) -> Path | None:
    """The folder of clean `language` code for mining, or None (no corpus: that check is not run).
    FileNotFoundError when `mining_corpus` names no folder."""
    if rules.mining_corpus:
        folder = Path(rules.mining_corpus).expanduser()
        if not folder.is_dir():
            raise FileNotFoundError(f"mining corpus {folder}: not a folder")
        return _language_folder(folder, language) if is_built_corpus(folder) else folder
    root = default_corpus_dir()
    return _language_folder(root, language) if is_built_corpus(root) else None


def _language_folder(root: Path, language: str) -> Path | None:
    manifest = read_manifest(root)
    folder = root / language
    return folder if manifest is not None and language in manifest.languages and folder.is_dir() else None


def describe_corpus(folder: Path, language: str, lines: int) -> str:
    """`clean corpus: ~/.cache/dualrag/corpus (java 357,760 lines)`, for `index rules` to print
    (a build's language folder is shown as its root)."""
    shown = folder.parent if folder.name == language and is_built_corpus(folder.parent) else folder
    return f"clean corpus: {shown_path(shown)} ({language} {lines:,} lines)"
