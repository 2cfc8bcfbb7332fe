"""A Debian mirror on loopback, as apt reads one: `dists/<suite>/InRelease` (a Release clearsigned
with a key made here), `main/source/Sources(.gz)` listing each source package's `.dsc`, upstream
and Debian tarballs with their sizes and hashes, and `pool/` serving them. Real apt-get and apt's
downloader fetch from it; the requests it saw are kept, so a test can tell what was downloaded."""

from __future__ import annotations

import gzip
import hashlib
import io
import os
import subprocess
import tarfile
import threading
import time
from dataclasses import dataclass, field
from email.utils import formatdate
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path


def make_tarball(path: Path, files: dict[str, bytes], *, links: dict[str, str] | None = None) -> Path:
    """A gzip/bz2/xz tarball (by `path`'s suffix) of `files` (name -> bytes) and symbolic `links`."""
    mode = {".gz": "w:gz", ".bz2": "w:bz2", ".xz": "w:xz"}.get(path.suffix, "w")
    with tarfile.open(path, mode) as tar:
        for name, data in files.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
        for name, target in (links or {}).items():
            info = tarfile.TarInfo(name)
            info.type, info.linkname = tarfile.SYMTYPE, target
            tar.addfile(info)
    return path


@dataclass
class DebianMirror:
    root: Path
    suite: str = "bookworm"
    gnupg: Path = field(init=False)
    keyring: Path = field(init=False)
    requests: list[str] = field(default_factory=list)
    packages: dict[str, str] = field(default_factory=dict)  # source -> Sources stanza
    _server: ThreadingHTTPServer | None = None
    _published: int = 0

    def __post_init__(self) -> None:
        self.gnupg = self.root / "gnupg"
        self.gnupg.mkdir(parents=True, mode=0o700)
        self.keyring = self.root / "mirror-keyring.gpg"
        self._gpg("--quick-generate-key", "Loopback Mirror <mirror@example.invalid>", "ed25519", "sign", "never")
        self.keyring.write_bytes(self._gpg("--export"))

    @property
    def url(self) -> str:
        assert self._server is not None
        return f"http://127.0.0.1:{self._server.server_address[1]}/debian"

    def add(self, source: str, version: str, files: dict[str, bytes], *, binary: str | None = None,
            publish_upstream: bool = True) -> None:
        """A source package whose upstream tarball holds `files` (under `source-version/`)."""
        upstream = version.split("-")[0]
        pool = self.root / "debian" / "pool" / "main" / source[0] / source
        pool.mkdir(parents=True, exist_ok=True)
        orig = make_tarball(pool / f"{source}_{upstream}.orig.tar.gz",
                            {f"{source}-{upstream}/{name}": data for name, data in files.items()})
        debian = make_tarball(pool / f"{source}_{version}.debian.tar.xz", {"debian/control": b"Source: x\n"})
        dsc = pool / f"{source}_{version}.dsc"
        dsc.write_text(f"Format: 3.0 (quilt)\nSource: {source}\nVersion: {version}\n", encoding="utf-8")
        listed = [dsc, orig, debian]
        sha = "".join(f" {hashlib.sha256(p.read_bytes()).hexdigest()} {p.stat().st_size} {p.name}\n" for p in listed)
        md5 = "".join(f" {hashlib.md5(p.read_bytes()).hexdigest()} {p.stat().st_size} {p.name}\n" for p in listed)
        self.packages[source] = (f"Package: {source}\nBinary: {binary or source}\nVersion: {version}\n"
                                 f"Maintainer: Nobody <nobody@example.invalid>\nArchitecture: all\n"
                                 f"Format: 3.0 (quilt)\nDirectory: pool/main/{source[0]}/{source}\n"
                                 f"Files:\n{md5}Checksums-Sha256:\n{sha}")
        if not publish_upstream:
            orig.unlink()
        self.publish()

    def publish(self, *, sign_with_another_key: bool = False) -> None:
        """Sources and a signed InRelease for what was added."""
        dist = self.root / "debian" / "dists" / self.suite
        (dist / "main" / "source").mkdir(parents=True, exist_ok=True)
        sources = "\n".join(self.packages.values()).encode()
        (dist / "main" / "source" / "Sources").write_bytes(sources)
        (dist / "main" / "source" / "Sources.gz").write_bytes(gzip.compress(sources, mtime=0))
        entries = "".join(f" {hashlib.sha256(p.read_bytes()).hexdigest()} {p.stat().st_size} main/source/{p.name}\n"
                          for p in sorted((dist / "main" / "source").iterdir()))
        release = (f"Origin: Loopback\nLabel: Loopback\nSuite: {self.suite}\nCodename: {self.suite}\n"
                   f"Date: {formatdate(usegmt=True)}\nArchitectures: all\nComponents: main\nSHA256:\n{entries}")
        (dist / "Release").write_text(release, encoding="utf-8")
        home = self.gnupg
        if sign_with_another_key:
            home = self.root / "other-gnupg"
            if not home.exists():
                home.mkdir(mode=0o700)
                self._gpg("--quick-generate-key", "Someone Else <else@example.invalid>", "ed25519", "sign", "never",
                          home=home)
        (dist / "InRelease").unlink(missing_ok=True)
        self._gpg("--clearsign", "-o", str(dist / "InRelease"), str(dist / "Release"), home=home)
        # Each publication a few seconds newer than the last: apt asks If-Modified-Since, to the second.
        self._published += 1
        stamp = time.time() + 5 * self._published
        for path in dist.rglob("*"):
            os.utime(path, (stamp, stamp))

    def _gpg(self, *args: str, home: Path | None = None) -> bytes:
        return subprocess.run(["gpg", "--homedir", str(home or self.gnupg), "--batch", "--quiet", "--pinentry-mode",
                               "loopback", "--passphrase", "", *args], check=True, capture_output=True).stdout

    def start(self) -> DebianMirror:
        mirror = self

        class Handler(SimpleHTTPRequestHandler):
            def do_GET(self) -> None:
                mirror.requests.append(self.path)
                super().do_GET()

            def log_message(self, *args: object) -> None:
                pass

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), partial(Handler, directory=str(self.root)))
        threading.Thread(target=self._server.serve_forever, daemon=True).start()
        return self

    def stop(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()

    def downloads(self) -> list[str]:
        """The pool files fetched so far."""
        return [p.rsplit("/", 1)[-1] for p in self.requests if "/pool/" in p]
