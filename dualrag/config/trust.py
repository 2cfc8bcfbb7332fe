"""Which configuration a repository may give: everything that steers the review, nothing that
routes data or names a secret.

A repository's `.dualrag.toml` is written by whoever can push to it, and in a merge request by
the author of the change. So a key that chooses a host or a secret (`base_url`, `url`, `api_key`,
`headers`, any `*_env`, `*_token`, `*_secret`, `*_password`) is taken only from the environment,
the command line or a `--config` file outside the repository; in a repository file it is
ignored with a warning, even on the target branch (`load_settings(repository=...)`).
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field
from typing import Any

from dualrag.errors import ConfigError

MAX_CONFIG_BYTES = 1_000_000  # a configuration file is a few KB; more is refused, not parsed
# tables whose keys are names (models, reviewers, domains), not settings
_NAMED_TABLES = frozenset({"llm.models", "llm.reviewers", "llm.fallbacks", "chunking.windows", "retrieval.domains"})
_ROUTING = re.compile(r"(?:^|_)(?:url|urls|env|api_key|key|headers|token|secret|password|host|endpoint)$")


def is_routing_key(name: str) -> bool:
    """A key that chooses where data goes or which secret is read."""
    return bool(_ROUTING.search(name.lower()))


def _strip(values: dict[str, Any], prefix: str, removed: list[str]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in values.items():
        path = f"{prefix}.{key}" if prefix else str(key)
        if prefix not in _NAMED_TABLES and is_routing_key(str(key)):
            removed.append(path)
        elif isinstance(value, dict):
            out[key] = _strip(value, path, removed)
        else:
            out[key] = value
    return out


@dataclass(frozen=True)
class RepositoryConfig:
    """A repository's configuration file, as far as it may steer the review: `values` without
    the routing keys, which `ignored` names (dotted)."""

    origin: str  # "'.dualrag.toml' at 1a2b3c4d5e6f" or a path: where the values came from
    values: dict[str, Any] = field(default_factory=dict)
    ignored: tuple[str, ...] = ()

    def warning(self) -> str | None:
        if not self.ignored:
            return None
        return (f"{self.origin}: ignored {', '.join(self.ignored)}: keys that choose a host or a secret are read "
                "only from the environment, the command line or a --config file outside the repository")


def parse_config_text(data: bytes, origin: str) -> dict[str, Any]:
    if len(data) > MAX_CONFIG_BYTES:
        raise ConfigError(f"{origin}: configuration file of {len(data) / 1e6:.1f} MB, above "
                          f"{MAX_CONFIG_BYTES / 1e6:g} MB")
    try:
        return tomllib.loads(data.decode("utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{origin}: not valid TOML: {exc}") from None


def repository_config(data: bytes, origin: str) -> RepositoryConfig:
    removed: list[str] = []
    values = _strip(parse_config_text(data, origin), "", removed)
    return RepositoryConfig(origin=origin, values=values, ignored=tuple(removed))
