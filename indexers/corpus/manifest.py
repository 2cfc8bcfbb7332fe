"""A built corpus on disk: `<root>/<language>/<package>/` holding that package's source files of
that language, `<root>/manifest.json` saying what each folder is (Debian package, version, files,
lines, when) and the lines per language, and `<root>/.apt-<suite>/` apt's private state (hidden:
the corpus reader skips hidden folders)."""

from __future__ import annotations

import json
import os
from datetime import UTC, datetime
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, ValidationError, computed_field

from dualrag.config.paths import user_cache_dir

from .apt import CorpusError

MANIFEST = "manifest.json"
FORMAT = "dualrag-corpus/1"


def default_corpus_dir() -> Path:
    """Where `dualrag corpus build` writes unless told: `~/.cache/dualrag/corpus` (the cache folder
    of the XDG convention: `$XDG_CACHE_HOME` when set)."""
    return user_cache_dir() / "corpus"


def shown_path(path: Path) -> str:
    """A path as a person writes it: the home folder as `~`."""
    try:
        return "~/" + path.relative_to(Path.home()).as_posix()
    except ValueError:
        return str(path)


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


class PackageEntry(BaseModel):
    model_config = ConfigDict(extra="ignore")

    language: str
    package: str  # as asked for (its folder's name)
    source: str  # Debian's source package
    version: str
    tarball: str
    download_bytes: int = 0  # the upstream tarball's size
    only: list[str] = Field(default_factory=list)  # folders of the upstream tree kept (empty: all)
    tests_skipped: bool = False
    files: int
    lines: int
    bytes: int
    skipped: dict[str, int] = Field(default_factory=dict)
    date: str


class LanguageTotals(BaseModel):
    packages: int = 0
    files: int = 0
    lines: int = 0


class Manifest(BaseModel):
    model_config = ConfigDict(extra="ignore")

    format: str = FORMAT
    mirror: str = ""
    suite: str = ""
    updated: str = ""
    packages: list[PackageEntry] = Field(default_factory=list)

    @computed_field  # type: ignore[prop-decorator]
    @property
    def languages(self) -> dict[str, LanguageTotals]:
        """Packages, files and lines per language (written into the file for readers of it)."""
        totals: dict[str, LanguageTotals] = {}
        for entry in self.packages:
            t = totals.setdefault(entry.language, LanguageTotals())
            t.packages, t.files, t.lines = t.packages + 1, t.files + entry.files, t.lines + entry.lines
        return dict(sorted(totals.items()))

    def find(self, language: str, package: str) -> PackageEntry | None:
        return next((e for e in self.packages if e.language == language and e.package == package), None)

    def put(self, entry: PackageEntry) -> None:
        self.packages = [e for e in self.packages if (e.language, e.package) != (entry.language, entry.package)]
        self.packages.append(entry)
        self.packages.sort(key=lambda e: (e.language, e.package))
        self.updated = entry.date


def package_folder(root: Path, language: str, package: str) -> Path:
    return root / language / package


def read_manifest(root: Path) -> Manifest | None:
    """The manifest of a built corpus at `root`; None when there is none; CorpusError when the file
    is there but is not one (it is never overwritten then: it may be someone else's)."""
    path = root / MANIFEST
    if not path.is_file():
        return None
    try:
        data = json.loads(path.read_bytes())
        if not isinstance(data, dict) or not str(data.get("format", "")).startswith("dualrag-corpus/"):
            raise ValueError("no dualrag-corpus format")
        manifest = Manifest.model_validate(data)
    except (ValueError, ValidationError, OSError) as exc:
        raise CorpusError(f"{path} is not a dualrag corpus manifest ({type(exc).__name__}): move it away or "
                          f"choose another --dir") from None
    if manifest.format != FORMAT:
        raise CorpusError(f"{path}: corpus format {manifest.format!r}, this dualrag reads {FORMAT!r}")
    return manifest


def is_built_corpus(folder: Path) -> bool:
    """Whether `folder` is the root of a `dualrag corpus build` (it has our manifest)."""
    try:
        return read_manifest(folder) is not None
    except CorpusError:
        return False


def write_manifest(root: Path, manifest: Manifest) -> Path:
    """Written whole or not at all (a temporary file renamed over the old one)."""
    path = root / MANIFEST
    tmp = path.with_suffix(".json.tmp")
    tmp.write_text(json.dumps(manifest.model_dump(mode="json"), indent=2, ensure_ascii=False) + "\n",
                   encoding="utf-8")
    os.replace(tmp, path)
    return path
