"""The target side of a change (the branch it goes into), as far as the skip rules ask it.

Whatever the change's author writes (a file, its name, its first lines, a manifest beside it) can
say "skip me"; only the target branch can confirm it. So the noise filter asks here: does a folder
exist there, is a folder a module root there (it holds a build manifest), which paths does the
target's root `.gitattributes` mark `linguist-vendored` or `linguist-generated`, and what did a
file's first lines say there. Without a repository or a platform API at hand nothing is confirmed.

Answers are memoised: one ingest asks about the same folders many times.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from dualrag.source.gitattributes import LinguistAttributes

Reader = Callable[[str], "bytes | None"]
MAX_ATTRIBUTES_BYTES = 1_000_000  # a larger .gitattributes is not applied
HEAD_BYTES = 4_000  # enough for a file's first lines

# Build manifests: a folder holding one on the target branch is a module root, where a vendor
# folder or a lock file belongs (Go, PHP, Ruby, npm, Cargo, Maven, Gradle, Python, CocoaPods,
# Bower, Bazel, CMake, Dart, Elixir, Swift).
MANIFESTS = (
    "go.mod", "composer.json", "Gemfile", "package.json", "Cargo.toml", "pom.xml", "build.gradle",
    "build.gradle.kts", "settings.gradle", "settings.gradle.kts", "pyproject.toml", "setup.py", "Podfile",
    "bower.json", "WORKSPACE", "MODULE.bazel", "CMakeLists.txt", "pubspec.yaml", "mix.exs", "Package.swift",
)


@dataclass
class TargetSide:
    """`has(path)`: does a file or folder exist on the target; `read(path)`: a file's bytes there.
    Either may be None (not known: a bare diff file)."""

    has: Callable[[str], bool] | None = None
    read: Reader | None = None
    _memo: dict[tuple[str, str], object] = field(default_factory=dict, repr=False)

    @property
    def known(self) -> bool:
        return self.has is not None or self.read is not None

    def exists(self, path: str) -> bool | None:
        """Whether `path` exists on the target (None: cannot tell)."""
        return self._cached("exists", path, self._exists)

    def _exists(self, path: str) -> bool | None:
        try:
            if self.has is not None:
                return bool(self.has(path))
            if self.read is not None:
                return self.read(path) is not None
        except Exception:  # noqa: BLE001 - an unreadable target side confirms nothing
            return False
        return None

    def module_root(self, folder: str) -> bool:
        """`folder` ("" for the repository top) holds a build manifest on the target branch."""
        if not folder:
            return True
        return bool(self._cached("module", folder, lambda f: any(self.exists(f"{f}/{m}") for m in MANIFESTS)))

    def head(self, path: str) -> list[str] | None:
        """The first lines of `path` on the target branch; None when it is not there (or unknown)."""
        return self._cached("head", path, self._head)

    def _head(self, path: str) -> list[str] | None:
        data = self._read(path)
        return None if data is None else data[:HEAD_BYTES].decode("utf-8", "replace").split("\n")[:10]

    def attributes(self) -> LinguistAttributes:
        """The linguist overrides of the target's root `.gitattributes` (empty when none)."""
        return self._cached("attributes", "", lambda _: LinguistAttributes.parse(
            (self._read(".gitattributes", MAX_ATTRIBUTES_BYTES) or b"").decode("utf-8", "replace")))

    def _read(self, path: str, limit: int | None = None) -> bytes | None:
        if self.read is None:
            return None
        try:
            data = self.read(path)
        except Exception:  # noqa: BLE001 - as if absent
            return None
        return None if data is None or (limit is not None and len(data) > limit) else data

    def _cached(self, kind: str, key: str, compute: Callable[[str], object]):
        if (kind, key) not in self._memo:
            self._memo[(kind, key)] = compute(key)
        return self._memo[(kind, key)]
