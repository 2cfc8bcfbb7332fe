"""The corpus the language packs are measured on: the packages of lang_corpus/packages.txt (PyPI
sdists with `pip download`, npm tarballs with `npm pack`; provenance and licences in
lang_corpus/SOURCE.md), each fetched in two versions into a cache, plus git snapshots given by hand
(MyBatis and Spring Boot projects: no registry ships them). A `Tree` is one project's new version as
a git repository (the code indexer reads git trees) with its real diffs: old -> new version, or the
last commits of a snapshot's history that touch the packs' files."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import tarfile
from dataclasses import dataclass, field
from pathlib import Path

LIST = Path(__file__).resolve().parent / "lang_corpus" / "packages.txt"
PACK_LANGUAGES = ("python", "kotlin", "mybatis", "spring-yaml", "spring-properties", "sql")


@dataclass
class Tree:
    name: str
    root: Path  # the new version, a git repository (for the code index)
    diffs: list[tuple[str, bytes, Path]] = field(default_factory=list)  # (label, unified diff, new tree)
    source: str = ""


# ------------------------------------------------------------------------------------------ corpus


def _run(cmd: list[str], cwd: Path | None = None, check: bool = True) -> subprocess.CompletedProcess:
    return subprocess.run(cmd, cwd=cwd, check=check, capture_output=True)


def _git_tree(path: Path) -> None:
    """Make an extracted tree a git repository with one commit (the indexer reads git trees)."""
    if (path / ".git").exists():
        return
    env_args = ["-c", "user.email=eval@dualrag", "-c", "user.name=eval"]
    _run(["git", "init", "-q", str(path)])
    _run(["git", *env_args, "-C", str(path), "add", "-A", "-f"])
    _run(["git", *env_args, "-C", str(path), "commit", "-q", "-m", "corpus", "--no-verify"])


def _extract(archive: Path, into: Path) -> Path:
    if into.exists():
        return into
    tmp = into.with_name(into.name + ".tmp")
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir(parents=True)
    with tarfile.open(archive) as tar:
        tar.extractall(tmp, filter="data")
    kids = [p for p in tmp.iterdir()]
    top = kids[0] if len(kids) == 1 and kids[0].is_dir() else tmp
    top.rename(into) if top != tmp else tmp.rename(into)
    shutil.rmtree(tmp, ignore_errors=True)
    return into


def _fetch(registry: str, name: str, version: str, cache: Path) -> Path:
    dest = cache / "src" / f"{registry}-{name}-{version}"
    if dest.exists():
        return dest
    dl = cache / "dl" / registry
    dl.mkdir(parents=True, exist_ok=True)
    if registry == "pypi":
        _run([sys.executable, "-m", "pip", "download", "-q", "--no-deps", "--no-binary", ":all:", "-d", str(dl),
              f"{name}=={version}"])
        norm = re.sub(r"[-_.]+", "[-_.]", name)
        archive = next(p for p in dl.iterdir() if re.fullmatch(rf"(?i){norm}-{re.escape(version)}\.tar\.gz", p.name))
    else:
        out = _run(["npm", "pack", "--silent", f"{name}@{version}", "--pack-destination", str(dl)]).stdout
        archive = dl / out.decode().strip().splitlines()[-1]
    return _extract(archive, dest)


def _diff(old: Path, new: Path, globs: tuple[str, ...]) -> bytes:
    out = subprocess.run(["git", "diff", "--no-index", "--no-color", "-M", "--", str(old), str(new)],
                         capture_output=True, check=False).stdout  # exit 1: the trees differ
    # paths relative to the trees
    text = out.decode("utf-8", "surrogateescape")
    text = text.replace(f"a{old}/", "a/").replace(f"b{new}/", "b/").replace(f"a/{old}/", "a/").replace(
        f"b/{new}/", "b/")
    files = re.split(r"(?m)^(?=diff --git )", text)
    keep = [f for f in files if f.startswith("diff --git ") and any(
        re.search(g, f.split("\n", 1)[0]) for g in globs)]
    return "".join(keep).encode("utf-8", "surrogateescape")


_LANG_GLOBS = (r"\.py\b", r"\.kt\b", r"\.java\b", r"\.xml\b", r"application[^/ ]*\.(ya?ml|properties)\b", r"\.sql\b")


def registry_trees(cache: Path) -> list[Tree]:
    trees = []
    for line in LIST.read_text().splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        registry, name, old, new = line.split()
        try:
            new_dir = _fetch(registry, name, new, cache)
            old_dir = _fetch(registry, name, old, cache)
        except (subprocess.CalledProcessError, StopIteration) as exc:
            print(f"  {registry} {name}: not fetched ({exc})", file=sys.stderr)
            continue
        _git_tree(new_dir)
        tree = Tree(name, new_dir, source=f"{registry} {name} {new}")
        tree.diffs.append((f"{name} {old}->{new}", _diff(old_dir, new_dir, _LANG_GLOBS), new_dir))
        trees.append(tree)
    return trees


def snapshot_trees(specs: list[str], cache: Path, commits: int) -> list[Tree]:
    trees = []
    for spec in specs:
        name, _, rest = spec.partition("=")
        gitdir, _, commit = rest.partition("@")
        commit = commit or "HEAD"
        full = _run(["git", "--git-dir", gitdir, "rev-parse", commit]).stdout.decode().strip()
        dest = cache / "src" / f"gh-{name.replace('/', '+')}-{full[:8]}"
        if not dest.exists():
            dest.mkdir(parents=True)
            archive = subprocess.run(["git", "--git-dir", gitdir, "archive", full], capture_output=True, check=True).stdout
            subprocess.run(["tar", "-x", "-C", str(dest)], input=archive, check=True)
        _git_tree(dest)
        tree = Tree(name, dest, source=f"snapshot {name}@{full[:8]}")
        # real diffs: the latest commits touching the packs' files, each applied to its own new tree
        log = _run(["git", "--git-dir", gitdir, "log", "--format=%H", "--no-merges", full, "--", "*.xml", "*.yml",
                    "*.yaml", "*.properties", "*.kt", "*.py", "*.sql"]).stdout.decode().split()
        for sha in log[:commits]:
            diff = _run(["git", "--git-dir", gitdir, "diff", "--no-color", "-M", f"{sha}^", sha], check=False).stdout
            if not diff:
                continue
            at = cache / "src" / f"gh-{name.replace('/', '+')}-at-{sha[:8]}"
            if not at.exists():
                got = subprocess.run(["git", "--git-dir", gitdir, "archive", sha], capture_output=True, check=False)
                if got.returncode:  # a snapshot may lack old objects: that commit is left out
                    continue
                at.mkdir(parents=True)
                subprocess.run(["tar", "-x", "-C", str(at)], input=got.stdout, check=True)
            tree.diffs.append((f"{name} {sha[:8]}", diff, at))
        trees.append(tree)
    return trees

