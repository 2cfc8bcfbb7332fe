"""Debian source packages through apt with a private configuration: its own source list (one
`deb-src` line for the chosen mirror), package lists, caches and archives, all under one folder,
so the machine's apt sources and caches are never read or written and only that mirror is contacted.
`apt-get source --print-uris` reads the package's files and hashes from the signed index, and apt's
downloader (`apt-helper download-file`) fetches the upstream tarball and checks it against that
hash; nothing is built or installed, and dpkg-dev is not needed."""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

from dualrag.errors import UserError

DEBIAN_MIRROR = "http://deb.debian.org/debian"
DEBIAN_SUITE = "bookworm"
DEBIAN_KEYRING = Path("/usr/share/keyrings/debian-archive-keyring.gpg")
APT_HELPER = Path("/usr/lib/apt/apt-helper")  # apt's downloader (in the apt package since 1.1)
TIMEOUT_S = 600  # one apt-get call: a slow mirror, a large tarball


class CorpusError(UserError):
    """A corpus build that cannot go on: the message says why, in one line."""


class UnknownPackage(CorpusError):
    """No source package of that name (nor one building a binary package of that name)."""


class PackageFailed(CorpusError):
    """One package could not be had (not on the mirror, a damaged or unsafe tarball): the build
    goes on with the others and fails at its end."""


@dataclass(frozen=True)
class SourceFile:
    name: str
    url: str
    size: int
    hash: str  # `SHA256:...`, from the signed index: apt checks the download against it


@dataclass(frozen=True)
class SourcePackage:
    """What the index says of one source package (nothing downloaded yet)."""

    requested: str  # as asked for: a source or binary package name
    source: str
    version: str  # without an epoch, as in the file names
    files: tuple[SourceFile, ...]

    def upstream(self) -> SourceFile:
        """The upstream tarball (`.orig.tar.*`; a native package's only tarball)."""
        tarballs = [f for f in self.files if re.search(r"\.tar(\.\w+)?$", f.name)]
        orig = [f for f in tarballs if ".orig.tar" in f.name]
        native = [f for f in tarballs if ".debian.tar" not in f.name and ".orig-" not in f.name]
        chosen = orig or native
        if not chosen:
            raise CorpusError(f"{self.requested}: no upstream tarball in Debian's source package {self.source}")
        return chosen[0]


class PrivateApt:
    """apt-get with every state, cache and source folder under `folder`."""

    def __init__(self, folder: Path, *, mirror: str = DEBIAN_MIRROR, suite: str = DEBIAN_SUITE,
                 keyring: Path | None = None):
        self.folder, self.mirror, self.suite = folder, mirror.rstrip("/"), suite
        self.keyring = keyring if keyring is not None else (DEBIAN_KEYRING if DEBIAN_KEYRING.is_file() else None)
        self.apt_get = shutil.which("apt-get")

    def options(self) -> list[str]:
        f = self.folder
        pairs = {
            "Dir::Etc::SourceList": f / "etc/sources.list", "Dir::Etc::SourceParts": f / "etc/sources.list.d",
            "Dir::Etc::Preferences": f / "etc/preferences", "Dir::Etc::PreferencesParts": f / "etc/preferences.d",
            "Dir::State::Lists": f / "lists", "Dir::Cache": f / "cache", "Dir::Cache::Archives": f / "archives",
            "Dir::Cache::pkgcache": "", "Dir::Cache::srcpkgcache": "",  # no binary caches: nothing shared
            "Acquire::Languages": "none", "Acquire::Retries": "1", "Acquire::http::Timeout": "30",
        }
        if os.geteuid() == 0:  # as root apt downloads as `_apt`, who may not write under a private folder
            pairs["APT::Sandbox::User"] = "root"
        return [arg for key, value in pairs.items() for arg in ("-o", f"{key}={value}")]

    def require(self) -> None:
        """CorpusError unless apt is on this machine."""
        if self.apt_get is None or not APT_HELPER.is_file():
            raise CorpusError("apt not found (apt-get, apt-helper): `dualrag corpus build` fetches Debian's source "
                              "packages with apt (a Debian or Ubuntu machine); elsewhere point [rules] mining_corpus "
                              "at a folder of clean code")

    def _prepare(self) -> None:
        self.require()
        for sub in ("lists/partial", "archives/partial", "cache", "etc/sources.list.d", "etc/preferences.d"):
            (self.folder / sub).mkdir(parents=True, exist_ok=True)
        signed = f" [signed-by={self.keyring}]" if self.keyring else ""
        (self.folder / "etc/sources.list").write_text(f"deb-src{signed} {self.mirror} {self.suite} main\n",
                                                      encoding="utf-8")

    def has_lists(self) -> bool:
        """Whether this mirror's source index of the suite was fetched (apt names a list after its URI)."""
        lists = self.folder / "lists"
        where = re.sub(r"^\w+://([^@/]*@)?", "", self.mirror).replace("/", "_")
        prefix = f"{where}_dists_{self.suite}_main_source_Sources"
        return lists.is_dir() and any(p.name.startswith(prefix) for p in lists.iterdir())

    def update(self) -> None:
        """Fetch the source index of the suite from the mirror (a signed InRelease, checked by apt)."""
        self._prepare()
        result = self._run(["update"], cwd=self.folder)
        failed = result.returncode != 0 or re.search(r"^(E|W): .*(Failed to fetch|failed to download|"
                                                     r"not signed|NO_PUBKEY|does not have a Release)",
                                                     result.stderr, re.MULTILINE)
        if failed or not self.has_lists():
            raise CorpusError(f"Debian mirror {self.mirror} ({self.suite}) unreachable or refused: "
                              f"{_apt_message(result.stderr) or 'no source index was fetched'}")

    def locate(self, package: str) -> SourcePackage:
        """The files of a source package (or of the source package that builds a binary package of
        that name), from the index already fetched: no download."""
        self._prepare()
        result = self._run(["source", "--print-uris", package], cwd=self.folder)
        if result.returncode != 0:
            message = _apt_message(result.stderr)
            if "Unable to find a source package" in message or "Unable to locate" in message:
                raise UnknownPackage(f"unknown Debian source package {package} (suite {self.suite}): "
                                  f"see `apt-cache search` or packages.debian.org")
            raise CorpusError(f"{package}: apt-get source failed: {message}")
        files = tuple(SourceFile(name, url, int(size), digest) for url, name, size, digest in
                      re.findall(r"^'([^']+)' (\S+) (\d+) (\S+)", result.stdout, re.MULTILINE))
        dsc = next((f for f in files if f.name.endswith(".dsc")), None)
        if dsc is None:
            raise CorpusError(f"{package}: apt listed no .dsc for it")
        source, version = dsc.name[:-len(".dsc")].split("_", 1)
        return SourcePackage(package, source, version, files)

    def download(self, package: SourcePackage, into: Path) -> Path:
        """The package's upstream tarball (the only file the corpus needs) downloaded into `into` by
        apt's own downloader, which checks it against the index's hash; its path."""
        upstream = package.upstream()
        into.mkdir(parents=True, exist_ok=True)
        tarball = into / upstream.name
        result = self._run(["download-file", upstream.url, str(tarball), upstream.hash], cwd=into, tool=APT_HELPER)
        if result.returncode != 0 or not tarball.is_file():
            message = _apt_message(result.stderr) or "the upstream tarball was not downloaded"
            if "No space left" in message:
                raise CorpusError(f"disk full under {into}: {message}")
            if "404" in message:
                message += " (the mirror lacks it, or the index is older than the mirror: `--refresh`)"
            raise PackageFailed(f"{package.requested}: download from {self.mirror} failed: {message}")
        return tarball

    def _run(self, args: list[str], *, cwd: Path, tool: Path | None = None) -> subprocess.CompletedProcess[str]:
        assert self.apt_get is not None
        command = [str(tool or self.apt_get), *self.options(), "-q", *args]
        try:
            return subprocess.run(command, cwd=cwd, capture_output=True, text=True, timeout=TIMEOUT_S, check=False)
        except subprocess.TimeoutExpired:
            raise CorpusError(f"apt-get timed out after {TIMEOUT_S}s: {shlex.join(args)} "
                              f"(mirror {self.mirror})") from None


def _apt_message(stderr: str) -> str:
    """apt's first error line (else its first warning), without the `E: ` prefix."""
    lines = [line.strip() for line in stderr.splitlines() if line.strip()]
    for prefix in ("E: ", "W: ", "Err:"):
        found = [line for line in lines if line.startswith(prefix)]
        if found:
            return found[0][len(prefix):].strip()
    return lines[0] if lines else ""
