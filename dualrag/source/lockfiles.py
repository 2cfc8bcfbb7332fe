"""Lock files: their names, the manifest each sits beside, and the shape of their lines.

A name is not a lock file: `package-lock.json` holding JavaScript, or a `Cargo.lock` in a Java
package, is code wearing a lock file's name. A file with a lock file's name is noise only when
1. it sits where its tool writes it: at the repository top, or beside its manifest (on the target
   branch or in the change; `package.json` for `package-lock.json`...), and
2. every line the change adds fits the lock format's line grammar (pretty-printed JSON, TOML,
   YAML, `go.sum`, Gradle's lockfile, Gemfile.lock, mix.lock), not merely its name.
Whether the skip is certain (only versions up) is decided after, from the changed lines
(`source.skips.lock_change`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

_STRING = r'"(?:[^"\\]|\\.)*"'
_JSON_VALUE = rf'(?:{_STRING}|-?\d[\d.eE+-]*|true|false|null|\{{\s*\}}|\[\s*\]|\{{|\[)'
_JSON_LINE = re.compile(rf'^\s*(?:(?:{_STRING}\s*:\s*)?{_JSON_VALUE}\s*,?|[}}\]]\s*,?)\s*$')
_TOML_VALUE = rf"(?:{_STRING}|'[^']*'|-?\d[\w.:+-]*|true|false|\[.*|\{{.*\}}\s*,?)"
_TOML_LINE = re.compile(
    rf"^\s*(?:#.*|\[\[?[\w.\-\" ]+\]\]?|[\w.\-\"]+\s*=\s*{_TOML_VALUE}|{_STRING},?|\{{.*\}},?|\],?)\s*$")
_YAML_LINE = re.compile(r"^\s*(?:#.*|-\s+\S.*|-|['\"]?[^\s:#'\"][^:#]*['\"]?:(?:\s+\S.*)?)\s*$")
_YARN_V1_LINE = re.compile(r"^(?:#.*|\S.*:|\s+[\w@./\-\"]+(?:\s+\S.*)?:?)\s*$")
_GO_SUM_LINE = re.compile(r"^\S+ v[\w.+\-]+(?:/go\.mod)? h1:[A-Za-z0-9+/=]+$")
_GRADLE_LINE = re.compile(r"^(?:#.*|[\w.\-]+:[\w.\-]+:[\w.+\-]+=[\w,\-]*|empty=[\w,\-]*)$")
_GEMFILE_LINE = re.compile(r"^(?:[A-Z][A-Z ]*|\s+\S.*)$")
_MIX_LINE = re.compile(r'^(?:%\{|\}|\s+"[\w\-]+":\s*\{.*\},?)$')

_JSON, _TOML, _YAML = (_JSON_LINE,), (_TOML_LINE,), (_YAML_LINE,)
# name (lower case) -> (manifests beside it, line grammars; a line fits when one matches)
LOCK_FILES: dict[str, tuple[tuple[str, ...], tuple[re.Pattern[str], ...]]] = {
    "package-lock.json": (("package.json",), _JSON),
    "npm-shrinkwrap.json": (("package.json",), _JSON),
    "yarn.lock": (("package.json",), (_YARN_V1_LINE, _YAML_LINE)),
    "pnpm-lock.yaml": (("package.json",), _YAML),
    "bun.lock": (("package.json",), _JSON),
    "bun.lockb": (("package.json",), ()),  # binary: the binary rule decides
    "cargo.lock": (("Cargo.toml",), _TOML),
    "go.sum": (("go.mod",), (_GO_SUM_LINE,)),
    "poetry.lock": (("pyproject.toml",), _TOML),
    "uv.lock": (("pyproject.toml",), _TOML),
    "pdm.lock": (("pyproject.toml",), _TOML),
    "pipfile.lock": (("Pipfile",), _JSON),
    "flake.lock": (("flake.nix",), _JSON),
    "composer.lock": (("composer.json",), _JSON),
    "gemfile.lock": (("Gemfile", "gems.rb"), (_GEMFILE_LINE,)),
    "gradle.lockfile": (("build.gradle", "build.gradle.kts", "settings.gradle", "settings.gradle.kts"), (_GRADLE_LINE,)),
    "packages.lock.json": ((), _JSON),  # beside a *.csproj: no fixed name to look for
    "pubspec.lock": (("pubspec.yaml",), _YAML),
    "mix.lock": (("mix.exs",), (_MIX_LINE,)),
}
MAX_SHAPE_LINES = 200_000  # past this the lines are not checked one by one: not a lock file's shape


def manifests_of(name: str) -> tuple[str, ...]:
    return LOCK_FILES[name.lower()][0]


def misfit(name: str, added: Iterable[str]) -> str | None:
    """The first added line that does not fit the lock format of `name`, or None when all fit."""
    grammars = LOCK_FILES[name.lower()][1]
    if not grammars:
        return None
    for n, line in enumerate(added):
        if n >= MAX_SHAPE_LINES or len(line) > 2_000:
            return line[:80]
        if line.strip() and not any(g.match(line) for g in grammars):
            return line
    return None
