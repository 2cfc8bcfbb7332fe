"""The source files of one language out of an upstream tarball, safely.

Nothing is extracted by `tarfile` itself: each regular member the `Selection` keeps (the
language's endings, optionally some folders only, optionally no test code) is read and written by
us, under the destination, after every name is checked (no absolute path, no `..`, nothing that
lands outside). Links, devices and folders are never
created (a link could point out of the tree), hidden folders are left out (the corpus reader skips
them too), the tarball's one top folder (`commons-io-2.11.0-src/`) is dropped, and caps bound what a
hostile or broken tarball can cost: a file above `file_bytes` is skipped (generated code, data), and
more than `kept_bytes` kept or `members` entries refuse the tarball."""

from __future__ import annotations

import lzma
import re
import shutil
import tarfile
import zlib
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from .apt import PackageFailed

CHUNK = 1 << 16
# What a truncated or corrupt gzip/bz2/xz tarball raises while it is read (bz2: OSError).
DAMAGED = (tarfile.TarError, EOFError, zlib.error, lzma.LZMAError, OSError)


@dataclass(frozen=True)
class Caps:
    file_bytes: int = 1 << 20  # a larger source file is generated code or data: skipped
    kept_bytes: int = 512 << 20  # all the files kept from one tarball
    members: int = 300_000  # entries in one tarball


DEFAULT_CAPS = Caps()


class UnsafeTarball(PackageFailed):
    """The tarball breaks a safety rule or a cap; nothing of it is kept."""


@dataclass
class Unpacked:
    files: int = 0
    lines: int = 0
    bytes: int = 0
    skipped: dict[str, int] = field(default_factory=dict)  # why -> how many members

    def skip(self, why: str) -> None:
        self.skipped[why] = self.skipped.get(why, 0) + 1


TEST_FOLDERS = frozenset({"test", "tests", "testing", "regress", "t", "expected", "results"})


@dataclass(frozen=True)
class Selection:
    """Which members are kept: the language's endings; with `only`, under these folders of the
    tarball; with `skip_tests`, not test code (a folder named as tests are, or a pg_regress input
    `x/sql/name.sql` whose output `x/expected/name.out` the tarball holds: SQL tests exercise
    errors on purpose, so they are not clean code)."""

    suffixes: tuple[str, ...]
    only: tuple[str, ...] = ()
    skip_tests: bool = False

    def reason_to_skip(self, path: PurePosixPath, regress_inputs: set[tuple[PurePosixPath, str]]) -> str | None:
        """None to keep `path` (relative to the tarball's top folder); else why not ("" for a path
        that was never wanted: another language, outside `only`)."""
        if not path.parts or not path.name.endswith(self.suffixes):
            return ""
        if self.only and not any(path.is_relative_to(prefix) for prefix in self.only):
            return ""
        if any(part.startswith(".") for part in path.parts):
            return "hidden folder"
        if self.skip_tests and (TEST_FOLDERS.intersection(path.parts[:-1]) or
                                (path.parent.name == "sql" and (path.parent.parent, path.stem) in regress_inputs)):
            return "test code"
        return None


def unpack_sources(tarball: Path, dest: Path, selection: Selection, caps: Caps = DEFAULT_CAPS) -> Unpacked:
    """The files of `tarball` that `selection` keeps, written under `dest` (a folder that must not
    exist yet; on any error it is removed again, so a package is there whole or not at all)."""
    if dest.exists():
        raise FileExistsError(f"{dest} exists")
    dest.mkdir(parents=True)
    try:
        return _unpack(tarball, dest, selection, caps)
    except BaseException:
        shutil.rmtree(dest, ignore_errors=True)
        raise


def _unpack(tarball: Path, dest: Path, selection: Selection, caps: Caps) -> Unpacked:
    out = Unpacked()
    try:
        archive = tarfile.open(tarball, "r:*")  # noqa: SIM115 - closed by the `with` below
    except DAMAGED as exc:
        raise PackageFailed(f"{tarball.name}: not a tarball this Python can read ({exc})") from None
    with archive:
        members = _members(archive, tarball, caps)
        names = [safe_name(m.name, tarball) for m in members]  # every name checked before anything is written
        strip = 1 if _one_top_folder(names) else 0
        relatives = [PurePosixPath(*name.parts[strip:]) for name in names]
        outputs = {(p.parent.parent, re.sub(r"_\d+$", "", p.stem)) for p in relatives
                   if p.parent.name == "expected" and p.suffix == ".out"}
        root = dest.resolve()
        for member, relative in zip(members, relatives, strict=True):
            why = selection.reason_to_skip(relative, outputs)
            if why is None and not member.isfile():
                why = "" if member.isdir() else "link or special file"  # never created: a link may point out
            if why is None and member.size > caps.file_bytes:
                why = f"larger than {caps.file_bytes:,} bytes"
            if why is not None:
                if why:
                    out.skip(why)
                continue
            if out.bytes + member.size > caps.kept_bytes:
                raise UnsafeTarball(f"{tarball.name}: more than {caps.kept_bytes:,} bytes of sources")
            target = root.joinpath(*relative.parts)
            if not target.resolve().is_relative_to(root):  # a folder name that resolves elsewhere
                raise UnsafeTarball(f"{tarball.name}: member {member.name!r} lands outside the corpus folder")
            try:
                out.lines += _copy(archive, member, target)
            except FileExistsError:  # a name the tarball holds twice: the first one is kept
                out.skip("duplicate name")
                continue
            except _Damaged as exc:
                raise PackageFailed(f"{tarball.name}: a damaged tarball ({exc.__cause__})") from None
            out.files += 1
            out.bytes += member.size
    return out


def _members(archive: tarfile.TarFile, tarball: Path, caps: Caps) -> list[tarfile.TarInfo]:
    members: list[tarfile.TarInfo] = []
    try:
        for member in archive:
            members.append(member)
            if len(members) > caps.members:
                raise UnsafeTarball(f"{tarball.name}: more than {caps.members:,} entries")
    except DAMAGED as exc:
        raise PackageFailed(f"{tarball.name}: a damaged tarball ({exc})") from None
    return members


def safe_name(name: str, tarball: Path) -> PurePosixPath:
    """A member's name as a relative path, or UnsafeTarball: absolute, `..`, or a drive letter."""
    path = PurePosixPath(name.replace("\\", "/"))
    if path.is_absolute() or ".." in path.parts or (path.parts and ":" in path.parts[0]):
        raise UnsafeTarball(f"{tarball.name}: unsafe member name {name!r} (absolute or with '..')")
    return PurePosixPath(*[p for p in path.parts if p not in ("", ".")])


def _one_top_folder(names: list[PurePosixPath]) -> bool:
    """Whether every member sits in one folder (an upstream tarball's `name-version/`)."""
    firsts = {name.parts[0] for name in names if name.parts}
    return len(firsts) == 1 and any(len(name.parts) > 1 for name in names) and all(name.parts for name in names)


def _copy(archive: tarfile.TarFile, member: tarfile.TarInfo, target: Path) -> int:
    """The member's bytes into `target` (a new regular file); its line count."""
    source = archive.extractfile(member)
    if source is None:
        return 0
    target.parent.mkdir(parents=True, exist_ok=True)
    lines, last = 0, b"\n"
    with source, open(target, "xb") as sink:  # "x": never through a file or link already there
        while chunk := _read(source):
            sink.write(chunk)
            lines += chunk.count(b"\n")
            last = chunk[-1:]
    return lines + (0 if last == b"\n" else 1)


class _Damaged(Exception):
    """Reading the tarball failed (told apart from writing, whose OSError may be a full disk)."""


def _read(source) -> bytes:
    try:
        return source.read(CHUNK)
    except DAMAGED as exc:
        raise _Damaged from exc
