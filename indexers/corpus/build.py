"""`dualrag corpus build`: Debian source packages into a clean corpus, incrementally.

Every name is looked up in the index first (no download), so an unknown package stops the build
before anything is fetched. A package already there at the index's version is left alone; one
that is new or changed is downloaded, unpacked beside its old folder, and swapped in, and the
manifest is rewritten after each package: an interrupted build keeps everything it finished."""

from __future__ import annotations

import errno
import shutil
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from dualrag import languages

from .apt import CorpusError, PackageFailed, PrivateApt, SourcePackage, UnknownPackage
from .curated import SKIP_TESTS, Pick
from .manifest import Manifest, PackageEntry, now, package_folder, read_manifest, write_manifest
from .tarball import DEFAULT_CAPS, Caps, Selection, unpack_sources

MARGIN_BYTES = 64 << 20  # free space kept beyond a package's download and its unpacked sources
UNPACKED_RATIO = 10  # sources kept per byte of tarball, at most (commons-lang3: 6.5 MB from 0.66 MB of xz)


@dataclass(frozen=True)
class Outcome:
    language: str
    package: str
    status: str  # fetched | updated | present | failed
    entry: PackageEntry | None  # None: failed
    seconds: float
    error: str = ""


def source_suffixes(language: str) -> tuple[str, ...]:
    """The file endings of a language (its pack's), or CorpusError for a language without a pack."""
    pack = languages.pack_for(language)
    if pack is None or not pack.extensions:
        known = ", ".join(p.name for p in languages.packs() if p.extensions)
        raise CorpusError(f"unknown language {language!r}: one of {known}")
    return tuple(pack.extensions)


def build_corpus(root: Path, wanted: Sequence[tuple[str, Pick]], apt: PrivateApt, *, refresh: bool = False,
                 caps: Caps = DEFAULT_CAPS, say: Callable[[str], None] = lambda _: None) -> list[Outcome]:
    """Each (language, package) of `wanted` under `root`; what happened to each, in order."""
    selections = {(language, pick): Selection(source_suffixes(language), pick.only, language in SKIP_TESTS)
                  for language, pick in wanted}
    apt.require()
    manifest = read_manifest(root) if root.exists() else None
    manifest = manifest or Manifest()
    with _disk_errors(root):
        root.mkdir(parents=True, exist_ok=True)
        fresh = refresh or not apt.has_lists()
        if fresh:
            say(f"fetching the {apt.suite} source index from {apt.mirror}")
            apt.update()

        def kept(language: str, pick: Pick) -> PackageEntry | None:
            """The package as built before, when it was built the same way and is still there."""
            entry = manifest.find(language, pick.package)
            same = entry is not None and (entry.only, entry.tests_skipped) == \
                (list(pick.only), selections[language, pick].skip_tests)
            return entry if same and package_folder(root, language, pick.package).is_dir() else None

        # The index changes only when it is fetched: until then a package built is current (no lookup).
        todo = [(language, pick) for language, pick in wanted if fresh or kept(language, pick) is None]
        located = dict(zip(todo, _locate_all(apt, todo), strict=True))
        manifest.mirror, manifest.suite = apt.mirror, apt.suite
        outcomes = []
        for language, pick in wanted:
            name, before, package = pick.package, kept(language, pick), located.get((language, pick))
            if before is not None and (package is None or package.version == before.version):
                outcomes.append(Outcome(language, name, "present", before, 0.0))
                say(describe(outcomes[-1]))
                continue
            assert package is not None
            start = time.perf_counter()
            try:
                entry = _fetch(root, language, package, apt, selections[language, pick], caps)
            except PackageFailed as exc:
                outcomes.append(Outcome(language, name, "failed", None, time.perf_counter() - start, str(exc)))
                say(describe(outcomes[-1]))
                continue
            status = "fetched" if manifest.find(language, name) is None else "updated"
            manifest.put(entry)
            write_manifest(root, manifest)
            outcomes.append(Outcome(language, name, status, entry, time.perf_counter() - start))
            say(describe(outcomes[-1]))
        if not (root / "manifest.json").exists():
            write_manifest(root, manifest)
    return outcomes


def describe(outcome: Outcome) -> str:
    e = outcome.entry
    head = f"{outcome.language}/{outcome.package}: "
    if e is None:
        return head + f"not fetched: {outcome.error}"
    what = f"{e.source} {e.version}, {e.files:,} files, {e.lines:,} lines"
    if outcome.status == "present":
        return head + f"present ({what})"
    return head + f"{outcome.status} {what} in {outcome.seconds:.1f}s"


def _locate_all(apt: PrivateApt, wanted: Sequence[tuple[str, Pick]]) -> list[SourcePackage]:
    """Every package looked up before any is fetched; all unknown names in one error."""
    located: list[SourcePackage | None] = []
    unknown: list[str] = []
    for _, pick in wanted:
        try:
            located.append(apt.locate(pick.package))
        except UnknownPackage:
            unknown.append(pick.package)
            located.append(None)
    if unknown:
        raise CorpusError(f"unknown Debian source package(s) in {apt.suite}: {', '.join(unknown)} "
                          f"(nothing was fetched; `--refresh` fetches the index anew)")
    return [p for p in located if p is not None]


def _fetch(root: Path, language: str, package: SourcePackage, apt: PrivateApt, selection: Selection,
           caps: Caps) -> PackageEntry:
    upstream = package.upstream()
    ensure_room(root, upstream.size + min(UNPACKED_RATIO * upstream.size, caps.kept_bytes) + MARGIN_BYTES)
    download = apt.folder / "download" / package.source
    shutil.rmtree(download, ignore_errors=True)
    try:
        tarball = apt.download(package, download)
        folder = package_folder(root, language, package.requested)
        partial = folder.with_name(folder.name + ".partial")
        shutil.rmtree(partial, ignore_errors=True)
        unpacked = unpack_sources(tarball, partial, selection, caps)
        if folder.exists():
            shutil.rmtree(folder)
        partial.rename(folder)
    finally:
        shutil.rmtree(download, ignore_errors=True)  # the tarballs: the corpus keeps only sources
    return PackageEntry(language=language, package=package.requested, source=package.source,
                        version=package.version, tarball=upstream.name, download_bytes=upstream.size,
                        only=list(selection.only), tests_skipped=selection.skip_tests, files=unpacked.files,
                        lines=unpacked.lines, bytes=unpacked.bytes, skipped=unpacked.skipped, date=now())


def ensure_room(folder: Path, needed: int) -> None:
    """CorpusError unless the disk holding `folder` has `needed` bytes free."""
    probe = folder
    while not probe.exists():
        probe = probe.parent
    free = shutil.disk_usage(probe).free
    if free < needed:
        raise CorpusError(f"disk full: {free / 1e6:,.0f} MB free under {probe}, this package needs about "
                          f"{needed / 1e6:,.0f} MB (choose another --dir or free space)")


@contextmanager
def _disk_errors(root: Path) -> Iterator[None]:
    """A full disk (or one we may not write) in one line; what was finished stays in the manifest."""
    try:
        yield
    except OSError as exc:
        if exc.errno in (errno.ENOSPC, errno.EDQUOT):
            raise CorpusError(f"disk full while writing under {root}: {exc.strerror}") from None
        if exc.errno in (errno.EACCES, errno.EROFS, errno.EPERM):
            raise CorpusError(f"cannot write under {root}: {exc.strerror} ({exc.filename})") from None
        raise
