"""A repository's `.dualrag.toml` for the review service (issue 29, item 5): read through the API
from the merge request's target side, layered with the service's own settings.

- **Where from.** The diff base (`MRState.base_sha`: GitLab's `diff_refs.base_sha`, GitHub's base
  commit), never the head: the head is the change under review, and its author must not get to
  steer its review. Unknown base: the file is not read (a warning), as in CI.
- **Layering.** As in the CI stage (`cli/options.py`): the repository's file sits under what the
  operator set (the service's config file and `DUALRAG_*`, i.e. the fields set in `defaults`) and
  over everything the operator left at its default. So a team tunes its own review, and the
  operator's choices stay policy.
- **Trust.** The same rules as CI (`config/trust.py`): keys that choose a host or a secret are
  dropped. A shared worker adds what one repository must not choose for the others
  (`SERVICE_OWNED`): the service's own section, the store and its server, the embedder (the shared
  store's vectors), the models and their endpoints (the operator runs and pays for them), paths on
  the worker, and whose feedback is read; and a cap (`LOWER_ONLY`) may be lowered, not raised.
  Each ignored key is named in one warning. Secrets come only from the environment.
- **Failures.** No file: the defaults. A file that is not valid TOML, too large, or has a bad
  value: `ConfigError` naming the file, the commit and the key (a `UserError`: the job fails
  once, it is not retried). A platform that does not answer: the `VcsError` propagates (retried).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from pydantic import ValidationError

from dualrag.config import CONFIG_FILE_NAME, Settings
from dualrag.config.settings import deep_update
from dualrag.config.trust import MAX_CONFIG_BYTES, RepositoryConfig, repository_config
from dualrag.errors import ConfigError
from dualrag.vcs.http import VcsRejected
from dualrag.vcs.state import Adapter, MRState

log = logging.getLogger("dualrag.service")

# Tables and keys a repository's file never sets in the service (dotted; a table covers its keys).
SERVICE_OWNED = ("service", "store", "qdrant", "embedding", "llm", "rerank.model_dir", "rules.mining_corpus",
                 "feedback.repository")
# Caps a repository may lower but not raise: they spend the service's model and machine time.
LOWER_ONLY = ("limits.max_chunks", "limits.max_llm_calls", "limits.max_cost_usd")


def repository_settings(adapter: Adapter, state: MRState, defaults: Settings, *,
                        warn: Callable[[str], None] | None = None) -> Settings:
    """`defaults` with the repository's `.dualrag.toml` of the MR's target side layered in.
    `warn`: where a line about ignored keys goes (default: the `dualrag.service` logger)."""
    warn = warn or log.warning
    ref = state.base_sha
    if not ref:
        warn(f"the target commit is unknown: the repository's {CONFIG_FILE_NAME} is not read")
        return defaults
    origin = f"'{CONFIG_FILE_NAME}' at {ref[:12]} (the target side)"
    try:
        data = adapter.read_file(CONFIG_FILE_NAME, ref, MAX_CONFIG_BYTES)
    except VcsRejected as exc:  # above the cap: refused before parsing, as in CI
        raise ConfigError(f"{origin}: configuration file above {MAX_CONFIG_BYTES / 1e6:g} MB ({exc})") from None
    if data is None:
        return defaults
    repo = repository_config(data, origin)  # ConfigError on a file that is not TOML
    values, owned = _without_owned(repo.values, defaults)
    ignored = [*repo.ignored, *owned]
    if ignored:
        warn(f"{origin}: ignored {', '.join(ignored)}: the service's configuration and the environment decide "
             "these, not a repository")
    return layered(defaults, RepositoryConfig(origin, values, tuple(ignored)))


def layered(defaults: Settings, repo: RepositoryConfig) -> Settings:
    """The repository's values under the fields set in `defaults`, over the built-in defaults."""
    operator = defaults.model_dump(exclude_unset=True)
    try:
        # model_validate, not the constructor: no environment is read again, `defaults` holds it
        return Settings.model_validate(deep_update(repo.values, operator))
    except ValidationError as exc:
        err = exc.errors()[0]
        key = ".".join(str(p) for p in err["loc"])
        problem = "unknown key" if err["type"] == "extra_forbidden" else err["msg"].lower()
        raise ConfigError(f"{problem}: '{key}' in {repo.origin}") from None


def _without_owned(values: dict[str, Any], defaults: Settings) -> tuple[dict[str, Any], list[str]]:
    """(values without the service's keys and with raised caps taken back, the keys dropped)."""
    out = _copy(values)
    dropped: list[str] = []
    for dotted in SERVICE_OWNED:
        *parents, last = dotted.split(".")
        table = _table(out, parents)
        if isinstance(table, dict) and last in table:
            del table[last]
            dropped.append(dotted)
    for dotted in LOWER_ONLY:
        *parents, last = dotted.split(".")
        table = _table(out, parents)
        if not isinstance(table, dict) or last not in table:
            continue
        ours = _get(defaults, dotted)
        theirs = table[last]
        if ours is not None and (theirs is None or (isinstance(theirs, int | float) and theirs > ours)):
            del table[last]
            dropped.append(f"{dotted} (above the service's {ours:g})")
    return out, dropped


def _copy(values: dict[str, Any]) -> dict[str, Any]:
    return {k: _copy(v) if isinstance(v, dict) else v for k, v in values.items()}


def _table(values: dict[str, Any], path: list[str]) -> Any:
    node: Any = values
    for part in path:
        node = node.get(part) if isinstance(node, dict) else None
    return node


def _get(settings: Settings, dotted: str) -> Any:
    node: Any = settings
    for part in dotted.split("."):
        node = getattr(node, part, None)
    return node
