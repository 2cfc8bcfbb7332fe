"""A local git repository: the diffs a review takes from it, the files and blobs it holds.

Git is asked for a diff in a fixed shape whatever the user's git config says: a/ b/
prefixes, no colour, no external diff drivers, renames and copies detected.
"""

from __future__ import annotations

import os
import subprocess
import tempfile
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from dualrag.errors import DiffError, SourceError
from dualrag.source.paths import unsafe_reason

INDEX = ":"  # GitRepo.read_file ref for the staged version (the index)
MAX_ATTRIBUTES_BYTES = 1_000_000  # a larger .gitattributes on the target side is not applied

_GIT_DIFF = [
    "-c", "core.quotepath=on", "-c", "diff.noprefix=false", "-c", "diff.mnemonicPrefix=false",
    "diff", "--no-color", "--no-ext-diff", "--no-textconv", "--find-renames", "--find-copies",
    "--src-prefix=a/", "--dst-prefix=b/",
]
# Local work never includes dualrag's own folder (the default store): not even when it was
# committed or staged before it ignored itself (dualrag.store writes `.dualrag/.gitignore`).
OWN_FOLDER = ".dualrag"
_LOCAL_WORK = ("--", ":(top)", f":(top,exclude){OWN_FOLDER}")


@dataclass(frozen=True, slots=True)
class TreeEntry:
    mode: str
    blob: str
    path: str


class GitRepo:
    """A local git repository: diffs are taken from it, files and blobs read from it."""

    def __init__(self, path: str | Path):
        self.path = Path(path)
        if not self.path.is_dir():
            raise SourceError(f"repository path does not exist or is not a folder: {path}")
        try:
            top = self._git("rev-parse", "--show-toplevel").decode().strip()
        except SourceError:
            raise SourceError(f"not a git repository: {path}") from None
        self.root = Path(top)

    def verify_ref(self, ref: str) -> str:
        """The commit id `ref` names; SourceError when it names none."""
        if ref.startswith("-"):
            raise SourceError(f"unknown git ref '{ref}' in {self.path}")
        try:
            return self._git("rev-parse", "--verify", "--quiet", f"{ref}^{{commit}}").decode().strip()
        except SourceError:
            raise SourceError(f"unknown git ref '{ref}' in {self.path}") from None

    def diff_range(self, base: str, head: str, limit: int) -> bytes:
        """What `head` changes since its merge base with `base`, as a merge request shows it.
        Attributes (`-diff`, `binary`) are those of `base`'s `.gitattributes` files, not the
        checkout's: a change must not turn its own files into "binary", unread ones."""
        base_id, head_id = self.verify_ref(base), self.verify_ref(head)
        with self._attributes_of(base_id) as (tree, env):
            return self._git("-C", tree, *_GIT_DIFF, f"{base_id}...{head_id}", "--", limit=limit, env=env)

    @contextmanager
    def _attributes_of(self, commit: str) -> Iterator[tuple[str, dict[str, str]]]:
        """(a folder to run git in, an environment) in which git reads attributes from `commit`'s
        `.gitattributes` files only: a scratch work tree holding just those files, and an empty
        index (git 2.39 has no --attr-source; git must run inside that work tree)."""
        git_dir = self._git("rev-parse", "--absolute-git-dir").decode().strip()
        listing = self._git("-C", str(self.root), "ls-tree", "-r", "-z", "--name-only", commit)
        names = [n.decode("utf-8", "surrogateescape") for n in listing.split(b"\0")
                 if n == b".gitattributes" or n.endswith(b"/.gitattributes")]
        with tempfile.TemporaryDirectory(prefix="dualrag-attr-") as scratch:
            for name in names:
                if unsafe_reason(name):
                    continue
                data = self.read_file(commit, name, MAX_ATTRIBUTES_BYTES)
                if data is not None:
                    target = Path(scratch, "tree", name)
                    target.parent.mkdir(parents=True, exist_ok=True)
                    target.write_bytes(data)
            Path(scratch, "tree").mkdir(exist_ok=True)
            yield str(Path(scratch, "tree")), {**os.environ, "GIT_DIR": git_dir, "GIT_WORK_TREE": str(Path(scratch, "tree")),
                   "GIT_INDEX_FILE": str(Path(scratch, "index"))}

    def has_path(self, ref: str, path: str) -> bool:
        """Whether `path` (a file or a folder) exists in commit `ref`."""
        if ref.startswith("-") or unsafe_reason(path):
            return False
        return self._ok("-C", str(self.root), "cat-file", "-e", f"{ref}:{path.strip('/')}")

    def commit_messages(self, base: str, head: str, limit: int = 50) -> tuple[str, ...]:
        """The messages of the commits `head` adds since its merge base with `base`, newest first."""
        base_id, head_id = self.verify_ref(base), self.verify_ref(head)
        out = self._git("log", f"--max-count={limit}", "--format=%B%x00", f"{base_id}..{head_id}", limit=1_000_000)
        return tuple(m.strip() for m in out.decode("utf-8", "replace").split("\x00") if m.strip())

    def has_commits(self) -> bool:
        return self._ok("rev-parse", "--verify", "--quiet", "HEAD")

    def diff_staged(self, limit: int) -> bytes:
        return self._git(*_GIT_DIFF, "--cached", *_LOCAL_WORK, limit=limit)

    def diff_worktree(self, limit: int) -> bytes:
        """Everything not yet committed: staged and unstaged changes plus untracked files."""
        has_head = self.has_commits()
        tracked = self._git(*_GIT_DIFF, "HEAD" if has_head else "--cached", *_LOCAL_WORK, limit=limit)
        parts = [tracked]
        size = len(tracked)
        # From the root, like the tracked diff: paths stay repository-relative and untracked
        # files outside a --repo subfolder are not lost.
        root = ("-C", str(self.root))
        untracked = self._git(*root, "ls-files", "--others", "--exclude-standard", "-z", *_LOCAL_WORK).split(b"\0")
        for name in filter(None, untracked):
            # --no-index exits 1 when the files differ, which for /dev/null they always do.
            part = self._git(
                *root, *_GIT_DIFF, "--no-index", "--", "/dev/null", name.decode("utf-8", "surrogateescape"),
                limit=limit - size, ok_codes=(0, 1),
            )
            parts.append(part)
            size += len(part)
        return b"".join(parts)

    def read_file(self, ref: str | None, path: str, limit: int | None = None) -> bytes | None:
        """The bytes of repository-relative `path` at commit `ref`, in the index (ref ":"), or
        in the working tree (ref None). None when the file is absent there, not a regular file,
        or larger than `limit`; SourceError for a path that could leave the repository."""
        reason = unsafe_reason(path)
        if reason:
            raise SourceError(f"refusing to read {path!r}: {reason}")
        if ref is None:
            target = self.root / path
            try:
                real = target.resolve(strict=True)
            except (OSError, RuntimeError):
                return None
            # A symlink in the tree must not lead a reader out of the repository.
            if not real.is_relative_to(self.root.resolve()) or not real.is_file():
                return None
            if limit is not None and real.stat().st_size > limit:
                return None
            return real.read_bytes()
        if ref.startswith("-"):
            raise SourceError(f"unknown git ref '{ref}' in {self.path}")
        spec = f":{path}" if ref == INDEX else f"{ref}:{path}"
        root = ("-C", str(self.root))
        if not self._ok(*root, "cat-file", "-e", spec):
            return None
        if limit is not None:
            size = int(self._git(*root, "cat-file", "-s", spec).strip() or 0)
            if size > limit:
                return None
        return self._git(*root, "cat-file", "blob", spec)

    def list_tree(self, commit: str) -> list[TreeEntry]:
        """Every file of `commit` with its mode and blob hash."""
        out = self._git("-C", str(self.root), "ls-tree", "-r", "-z", "--full-tree", commit)
        entries = []
        for item in filter(None, out.split(b"\0")):
            meta, _, path = item.partition(b"\t")
            mode, _kind, blob = meta.decode().split()
            entries.append(TreeEntry(mode, blob, path.decode("utf-8", "surrogateescape")))
        return entries

    def read_blobs(self, blobs: list[str]) -> dict[str, bytes]:
        """Blob contents by hash through one `git cat-file --batch` process."""
        if not blobs:
            return {}
        proc = subprocess.Popen(["git", "-C", str(self.root), "cat-file", "--batch"], stdin=subprocess.PIPE,
                                stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        out: dict[str, bytes] = {}
        try:
            assert proc.stdin is not None and proc.stdout is not None

            def feed() -> None:  # a writer thread: git answers while we still ask, and pipes are finite
                for b in blobs:
                    proc.stdin.write(b.encode() + b"\n")
                proc.stdin.close()

            writer = threading.Thread(target=feed, daemon=True)
            writer.start()
            for _ in blobs:
                header = proc.stdout.readline().split()
                if len(header) < 3:
                    continue
                size = int(header[2])
                out[header[0].decode()] = proc.stdout.read(size)
                proc.stdout.read(1)
            writer.join()
        finally:
            proc.wait()
        return out

    def tracked_files(self, *patterns: str) -> list[str]:
        """Repository-relative paths of the tracked files that match `patterns` (git pathspecs)."""
        out = self._git("-C", str(self.root), "ls-files", "-z", "--", *patterns)
        return [p.decode("utf-8", "surrogateescape") for p in out.split(b"\0") if p]

    def files_containing(self, word: str, *patterns: str) -> list[str]:
        """Tracked files (matching `patterns`) in which `word` occurs as a whole word."""
        out = self._git("-C", str(self.root), "grep", "-l", "-w", "-F", "-e", word, "--", *patterns, ok_codes=(0, 1))
        return [p.decode("utf-8", "surrogateescape") for p in out.splitlines()]

    def _ok(self, *args: str) -> bool:
        return subprocess.run(
            ["git", "-C", str(self.path), *args], capture_output=True, check=False
        ).returncode == 0

    def _git(self, *args: str, limit: int | None = None, ok_codes: tuple[int, ...] = (0,),
             env: dict[str, str] | None = None) -> bytes:
        try:
            proc = subprocess.Popen(
                ["git", "-C", str(self.path), *args],
                stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL, env=env,
            )
        except FileNotFoundError:
            raise SourceError("git is not installed or not on PATH") from None
        with proc:
            out = proc.stdout.read(limit + 1) if limit is not None else proc.stdout.read()
            if limit is not None and len(out) > limit:
                proc.kill()
                raise DiffError(f"git diff in {self.path} is larger than the limit of {limit / 1e6:g} MB")
            err = proc.stderr.read()
            code = proc.wait()
        if code not in ok_codes:
            message = err.decode("utf-8", "replace").strip().splitlines()
            raise SourceError(f"git {args[-1] if args else ''} failed in {self.path}: "
                              f"{message[0] if message else f'exit {code}'}")
        return out
