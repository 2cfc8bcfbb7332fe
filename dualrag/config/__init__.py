"""One typed configuration object: `.dualrag.toml` < environment `DUALRAG_*` < CLI flags.

Every section lives here, one module per concern, on one base class (`section.Section`), so
the foundation never imports a stage to learn its settings: `import dualrag.config` loads
pydantic and these modules only. `Settings` gathers the sections; `load_settings` layers them.
"""

from dualrag.config.chunking import ChunkingConfig
from dualrag.config.embedding import Bm25Config, EmbeddingConfig
from dualrag.config.ingest import NoiseConfig, TierConfig
from dualrag.config.limits import LimitsConfig
from dualrag.config.llm import LLMConfig, ModelCapability, ModelSpec
from dualrag.config.retrieval import RerankConfig, RetrievalConfig
from dualrag.config.review import ReviewConfig
from dualrag.config.section import Section
from dualrag.config.service import ServiceConfig
from dualrag.config.settings import (
    CONFIG_FILE_NAME,
    ENV_PREFIX,
    NON_SETTING_ENV,
    Settings,
    find_config_file,
    load_settings,
)
from dualrag.config.store import StoreConfig
from dualrag.config.vcs import FeedbackConfig, VcsConfig

__all__ = [
    "CONFIG_FILE_NAME", "ENV_PREFIX", "NON_SETTING_ENV", "Bm25Config", "ChunkingConfig", "EmbeddingConfig", "FeedbackConfig",
    "LLMConfig", "LimitsConfig", "ModelCapability", "ModelSpec", "NoiseConfig", "RerankConfig",
    "RetrievalConfig", "ReviewConfig", "Section", "ServiceConfig", "Settings", "StoreConfig", "TierConfig", "VcsConfig", "find_config_file",
    "load_settings",
]
