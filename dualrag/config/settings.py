"""One typed configuration object: `.dualrag.toml` < environment `DUALRAG_*` < CLI flags.

Nested keys use sections in TOML (`[tier] trivial_max_lines = 5`) and a double
underscore in the environment (`DUALRAG_TIER__TRIVIAL_MAX_LINES=5`). The object is
passed down explicitly; no module keeps settings of its own.
"""

from __future__ import annotations

import os
from collections.abc import Collection
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Literal

from pydantic import Field, ValidationError, model_validator
from pydantic_settings import (
    BaseSettings,
    NoDecode,
    PydanticBaseSettingsSource,
    SettingsConfigDict,
)

from dualrag.config.chunking import ChunkingConfig
from dualrag.config.embedding import EmbeddingConfig
from dualrag.config.ingest import NoiseConfig, TierConfig
from dualrag.config.limits import LimitsConfig
from dualrag.config.llm import LLMConfig
from dualrag.config.retrieval import RerankConfig, RetrievalConfig
from dualrag.config.review import ReviewConfig
from dualrag.config.rules import RulesConfig
from dualrag.config.service import GITHUB_SECRET_ENV, GITLAB_SECRET_ENV, ServiceConfig
from dualrag.config.store import StoreConfig
from dualrag.config.vcs import FeedbackConfig, VcsConfig
from dualrag.errors import ConfigError

if TYPE_CHECKING:
    from dualrag.config.trust import RepositoryConfig

CONFIG_FILE_NAME = ".dualrag.toml"
ENV_PREFIX = "DUALRAG_"
# Keys that moved to their one home (config/deprecated.py moves them and says so on the progress
# channel): that module is loaded only for a configuration that still uses one of them.
MOVED_KEYS = (("chunking", "windows"), ("retrieval", "output_tokens"))


class Settings(BaseSettings):
    model_config = SettingsConfigDict(
        env_prefix=ENV_PREFIX, env_nested_delimiter="__", extra="forbid", frozen=True
    )

    format: Literal["text", "markdown", "json"] = Field(
        "text", description="report format when --format does not name one (html, sarif and codequality only by flag)")
    store: Path = Field(Path(".dualrag/store"), description="folder of the embedded Qdrant store (--store); "
                                                              "unused with [qdrant] url")
    noise: NoiseConfig = NoiseConfig()
    tier: TierConfig = TierConfig()
    limits: LimitsConfig = LimitsConfig()
    chunking: ChunkingConfig = ChunkingConfig()
    embedding: EmbeddingConfig = EmbeddingConfig()
    qdrant: StoreConfig = StoreConfig()
    rerank: RerankConfig = RerankConfig()
    retrieval: RetrievalConfig = RetrievalConfig()
    vcs: VcsConfig = VcsConfig()
    review: ReviewConfig = ReviewConfig()
    rules: RulesConfig = RulesConfig()
    feedback: FeedbackConfig = FeedbackConfig()
    service: ServiceConfig = ServiceConfig()
    # NoDecode: DUALRAG_LLM=openai:gpt-4.1-mini is a plain string, not JSON.
    llm: Annotated[LLMConfig, NoDecode] = LLMConfig()

    @model_validator(mode="before")
    @classmethod
    def _deprecated_keys(cls, values: Any) -> Any:
        if isinstance(values, dict) and any(isinstance(values.get(t), dict) and k in values[t] for t, k in MOVED_KEYS):
            from dualrag.config.deprecated import move_deprecated

            return move_deprecated(values)
        return values


def find_config_file(root: Path | None) -> Path | None:
    """The `.dualrag.toml` of a repository root (or the working directory), if there is one."""
    candidate = (root or Path.cwd()) / CONFIG_FILE_NAME
    return candidate if candidate.is_file() else None


def load_settings(config_file: Path | None = None, *, allowed_env: Collection[str] = (),
                  repository: RepositoryConfig | None = None, **overrides: Any) -> Settings:
    """Layer the repository's configuration (`repository`: already stripped of routing keys,
    config/trust.py), the TOML file (trusted: outside the repository), the environment and
    explicit overrides (CLI flags), in that order.
    Nested overrides merge into their section (`chunking={"budget": 8000}` keeps the file's other
    chunking keys). `allowed_env`: DUALRAG_* names that are not settings but legitimately set
    (e.g. a token variable named by --token-env).

    Raises ConfigError naming the offending key and where it came from.
    """
    file_values = _read_toml(config_file) if config_file else {}
    _check_env_names(Settings, NON_SETTING_ENV | {name.upper() for name in allowed_env})
    overrides = {k: v for k, v in overrides.items() if v is not None}

    class _Layered(Settings):
        @classmethod
        def settings_customise_sources(
            cls,
            settings_cls: type[BaseSettings],
            init_settings: PydanticBaseSettingsSource,
            env_settings: PydanticBaseSettingsSource,
            dotenv_settings: PydanticBaseSettingsSource,
            file_secret_settings: PydanticBaseSettingsSource,
        ) -> tuple[PydanticBaseSettingsSource, ...]:
            env = _ModelOnlyLLM(env_settings)
            sources: list[PydanticBaseSettingsSource] = [init_settings, env]
            if config_file:
                sources.append(_Values(settings_cls, file_values))
            if repository is not None:
                sources.append(_Values(settings_cls, repository.values))
            return tuple(sources)

    try:
        layered = _Layered(**overrides)
    except ValidationError as exc:
        err_loc = [str(part) for part in exc.errors()[0]["loc"]]
        if repository is not None and _has_key(repository.values, err_loc) and not _has_key(file_values, err_loc):
            raise ConfigError(_describe(exc, repository.values, repository.origin, overrides)) from None
        raise ConfigError(_describe(exc, file_values, config_file, overrides)) from None
    return layered


class _Values(PydanticBaseSettingsSource):
    """Values already read (a TOML file parsed once, with its size checked)."""

    def __init__(self, settings_cls: type[BaseSettings], values: dict[str, Any]) -> None:
        super().__init__(settings_cls)
        self.values = values

    def get_field_value(self, field: Any, field_name: str) -> tuple[Any, str, bool]:
        return self.values.get(field_name), field_name, False

    def __call__(self) -> dict[str, Any]:
        return dict(self.values)


class _ModelOnlyLLM(PydanticBaseSettingsSource):
    """`DUALRAG_LLM=openai:local` names the model only: it is merged into the file's `[llm]`
    table instead of replacing it, so a local model's `[llm.models]` entry still applies.
    Nested variables (`DUALRAG_LLM__OPENAI__API_KEY_ENV=NAME`) apply beside it: the source would
    otherwise keep the plain string and drop them."""

    def __init__(self, inner: PydanticBaseSettingsSource) -> None:
        super().__init__(inner.settings_cls)
        self.inner = inner

    def get_field_value(self, field: Any, field_name: str) -> tuple[Any, str, bool]:
        return self.inner.get_field_value(field, field_name)

    def __call__(self) -> dict[str, Any]:
        values = self.inner()
        llm = values.get("llm")
        if isinstance(llm, str) and not llm.strip().startswith("{"):
            nested: dict[str, Any] = {}
            explode = getattr(self.inner, "explode_env_vars", None)
            if explode is not None:  # DUALRAG_LLM__* (a more specific variable wins over DUALRAG_LLM)
                nested = explode("llm", self.settings_cls.model_fields["llm"], getattr(self.inner, "env_vars", {}))
            values = {**values, "llm": deep_update({"model": llm.strip()}, nested)}
        return values


def deep_update(base: dict[str, Any], update: dict[str, Any]) -> dict[str, Any]:
    """`base` with `update` merged in, nested tables key by key."""
    out = dict(base)
    for key, value in update.items():
        out[key] = deep_update(out[key], value) if isinstance(value, dict) and isinstance(out.get(key), dict) else value
    return out


# DUALRAG_* variables that are read directly where they are needed, not settings:
# CI secrets and job switches of the merge-request stage, local data folders of scripts.
NON_SETTING_ENV = frozenset({
    "DUALRAG_GITLAB_TOKEN", "DUALRAG_GITHUB_TOKEN", "DUALRAG_GITHUB_BOT", "DUALRAG_FAIL_ON",
    "DUALRAG_BREAK_GLASS", "DUALRAG_TELEMETRY", "DUALRAG_CONFIG", "DUALRAG_TIKTOKEN_DIR", "DUALRAG_JAVA_SOURCES",
    GITLAB_SECRET_ENV, GITHUB_SECRET_ENV,  # the review service's webhook secrets
})


def _check_env_names(settings_cls: type[BaseSettings], not_settings: Collection[str]) -> None:
    """A DUALRAG_* variable that names no setting is a typo, not something to ignore."""
    known = set(settings_cls.model_fields)
    for name in sorted(os.environ):
        if name.upper().startswith(ENV_PREFIX) and name.upper() not in not_settings:
            key = name[len(ENV_PREFIX):].split("__", 1)[0].lower()
            if key not in known:
                raise ConfigError(f"unknown key: '{key}' in environment {name}")


def _read_toml(path: Path) -> dict[str, Any]:
    from dualrag.config.trust import MAX_CONFIG_BYTES, parse_config_text  # only when there is a file

    try:
        with path.open("rb") as fh:
            data = fh.read(MAX_CONFIG_BYTES + 1)
    except OSError as exc:
        raise ConfigError(f"cannot read config file {path}: {exc.strerror}") from None
    return parse_config_text(data, str(path))


def _describe(
    exc: ValidationError, file_values: dict, config_file: Path | str | None, overrides: dict
) -> str:
    """One line: the first bad key, what is wrong with it, and which layer supplied it."""
    err = exc.errors()[0]
    loc = [str(part) for part in err["loc"]]
    key = ".".join(loc)
    env_name = f"{ENV_PREFIX}{'__'.join(loc).upper()}"
    if loc and loc[0] in overrides:
        where = "command-line flag"
    elif any(name.upper().startswith(env_name) for name in os.environ):
        where = f"environment {env_name}"
    elif parents := [n for i in range(len(loc) - 1, 0, -1)
                     if (n := f"{ENV_PREFIX}{'__'.join(loc[:i]).upper()}") in {e.upper() for e in os.environ}]:
        where = f"environment {parents[0]}"  # DUALRAG_LLM=bogus is [llm] model
    elif _has_key(file_values, loc):
        where = str(config_file)
    else:
        where = "configuration"
    problem = "unknown key" if err["type"] == "extra_forbidden" else err["msg"].lower()
    return f"{problem}: '{key}' in {where}"


def _has_key(values: dict, loc: list[str]) -> bool:
    node: Any = values
    for part in loc:
        if not isinstance(node, dict) or part not in node:
            return False
        node = node[part]
    return True
