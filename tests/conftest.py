"""Shared fixtures: diffs built as bytes, real temporary git repositories, isolated settings.

Everything here is offline and self-contained: diffs are generated from inputs written
inline, and git repositories are created under pytest's tmp_path with a fixed identity
so they work on a CI machine that has no git configuration at all.
"""

from __future__ import annotations

import difflib
import os
import subprocess
from collections.abc import Callable, Sequence
from pathlib import Path

import pytest

from dualrag.config import Settings, load_settings

# ---------------------------------------------------------------------------- diffs


def split_lines(data: bytes) -> list[bytes]:
    """Lines of a file exactly as stored: endings kept ("\\r\\n", "\\n" or none on the last)."""
    return data.splitlines(keepends=True) if data else []


def unified(
    old: bytes | None,
    new: bytes | None,
    *,
    old_name: bytes = b"a/file.txt",
    new_name: bytes = b"b/file.txt",
    context: int = 3,
) -> bytes:
    """A unified diff of two byte strings, made by difflib (no "diff --git" line).

    difflib does not write git's "\\ No newline at end of file" marker, so it is added
    after every diff line whose file line had no ending.
    """
    out = bytearray()
    for line in difflib.diff_bytes(
        difflib.unified_diff,
        split_lines(old or b""),
        split_lines(new or b""),
        b"/dev/null" if old is None else old_name,
        b"/dev/null" if new is None else new_name,
        n=context,
    ):
        out += line
        if not line.endswith(b"\n"):
            out += b"\n\\ No newline at end of file\n"
    return bytes(out)


def git_file(
    path: str | bytes,
    old: bytes | None,
    new: bytes | None,
    *,
    new_path: str | bytes | None = None,
    similarity: int | None = None,
    context: int = 3,
) -> bytes:
    """One file of a git-style diff ("diff --git" header, mode lines, index line, hunks)."""
    enc = (lambda p: p if isinstance(p, bytes) else p.encode("utf-8"))
    src = enc(path)
    dst = enc(new_path) if new_path is not None else src
    head = bytearray(b"diff --git a/" + src + b" b/" + dst + b"\n")
    if old is None:
        head += b"new file mode 100644\n"
    elif new is None:
        head += b"deleted file mode 100644\n"
    if src != dst:
        head += b"similarity index %d%%\n" % (similarity if similarity is not None else 90)
        head += b"rename from " + src + b"\nrename to " + dst + b"\n"
    head += b"index 1111111..2222222" + (b" 100644\n" if old is not None and new is not None else b"\n")
    body = unified(old, new, old_name=b"a/" + src, new_name=b"b/" + dst, context=context)
    return bytes(head) + body


@pytest.fixture
def make_unified() -> Callable[..., bytes]:
    return unified


@pytest.fixture
def make_git_file() -> Callable[..., bytes]:
    return git_file


# ---------------------------------------------------------------------------- settings


def _without_dualrag_env(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in list(os.environ):
        if name.startswith("DUALRAG_"):
            monkeypatch.delenv(name)
    # the word-hashing embedder keeps indexing instant; the bundled embedders have their own
    # tests (tests/embedding)
    monkeypatch.setenv("DUALRAG_EMBEDDING__MODEL", "hash")


@pytest.fixture(scope="session")
def test_store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The store reviews in tests use, outside the checkout: the checkout's .dualrag/store must
    never receive test vectors (a real review would find them there). The bundled rules are in it
    already, as in any store after its first review, so reviews print no first-use progress."""
    from dualrag.embedding import Bm25Encoder, get_embedder
    from dualrag.retrieval.stage import index_bundled
    from dualrag.store import open_store

    path = tmp_path_factory.mktemp("dualrag") / "store"
    with pytest.MonkeyPatch.context() as mp:
        _without_dualrag_env(mp)
        cfg = load_settings(None)
        with open_store(path) as store:
            index_bundled(store, cfg.retrieval.bundled_kb, get_embedder(config=cfg.embedding),
                          Bm25Encoder(cfg.embedding.bm25))
    return path


@pytest.fixture(autouse=True)
def _isolated_env(monkeypatch: pytest.MonkeyPatch, test_store: Path) -> None:
    """No DUALRAG_* variable of the machine running the tests may leak into them."""
    _without_dualrag_env(monkeypatch)
    monkeypatch.setenv("DUALRAG_STORE", str(test_store))
    # nor the machine's clean-corpus build (~/.cache/dualrag/corpus), which mining would read
    monkeypatch.setenv("XDG_CACHE_HOME", str(test_store.parent / "xdg-cache"))


@pytest.fixture
def settings() -> Settings:
    return load_settings(None)


@pytest.fixture
def in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Run in an empty working directory, so no stray .dualrag.toml is picked up."""
    work = tmp_path / "cwd"
    work.mkdir()
    monkeypatch.chdir(work)
    return work


# ---------------------------------------------------------------------------- git

GIT_ENV = {
    "GIT_AUTHOR_NAME": "Test Author",
    "GIT_AUTHOR_EMAIL": "author@example.invalid",
    "GIT_COMMITTER_NAME": "Test Committer",
    "GIT_COMMITTER_EMAIL": "committer@example.invalid",
    "GIT_CONFIG_NOSYSTEM": "1",
}


class Repo:
    """A real git repository in a temporary folder, driven with plain git commands."""

    def __init__(self, root: Path, env: dict[str, str]):
        self.root = root
        self.env = env

    def git(self, *args: str) -> str:
        proc = subprocess.run(
            ["git", "-c", "user.name=Test", "-c", "user.email=test@example.invalid", *args],
            cwd=self.root, env=self.env, capture_output=True, check=True,
        )
        return proc.stdout.decode("utf-8", "replace")

    def write(self, name: str, data: bytes | str) -> Path:
        path = self.root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data if isinstance(data, bytes) else data.encode("utf-8"))
        return path

    def commit(self, message: str, files: dict[str, bytes | str] | None = None,
               remove: Sequence[str] = ()) -> str:
        for name, data in (files or {}).items():
            self.write(name, data)
        for name in remove:
            self.git("rm", "-q", name)
        self.git("add", "-A")
        self.git("commit", "-q", "--allow-empty", "-m", message)
        return self.git("rev-parse", "HEAD").strip()


@pytest.fixture
def git_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    """A git environment independent of the user's: fixed identity, empty global config."""
    home = tmp_path / "home"
    home.mkdir(exist_ok=True)
    values = {**GIT_ENV, "HOME": str(home), "XDG_CONFIG_HOME": str(home / ".config")}
    for name, value in values.items():
        monkeypatch.setenv(name, value)  # dualrag's own git calls see the same environment
    return {**os.environ, **values}


@pytest.fixture
def repo(tmp_path: Path, git_env: dict[str, str]) -> Repo:
    root = tmp_path / "repo"
    root.mkdir()
    r = Repo(root, git_env)
    r.git("init", "-q", "-b", "main")
    return r


# ---------------------------------------------------------------------------- LLM fakes


@pytest.fixture
def oai():
    """A loopback server that behaves like the OpenAI Chat Completions API."""
    from dualrag.testing.fake_llm import FakeOpenAI

    with FakeOpenAI() as server:
        yield server


@pytest.fixture
def ant():
    """A loopback server that behaves like the Anthropic Messages API."""
    from dualrag.testing.fake_llm import FakeAnthropic

    with FakeAnthropic() as server:
        yield server
