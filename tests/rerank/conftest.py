"""Session-scoped cross-encoder fixture folders (built once, in well under a second)."""

from __future__ import annotations

from pathlib import Path

import pytest
from rerank_fixtures import build_cross_encoder


@pytest.fixture(scope="session")
def models_root(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("rerank-models")


@pytest.fixture(scope="session")
def bert_dir(models_root) -> Path:
    """BERT style: token_type_ids input, one logit, max length 64."""
    return build_cross_encoder(models_root / "bert")


@pytest.fixture(scope="session")
def roberta_dir(models_root) -> Path:
    """XLM-R style: no token_type_ids, <pad> = 1, one logit."""
    return build_cross_encoder(models_root / "roberta", style="roberta")


@pytest.fixture(scope="session")
def two_logit_dir(models_root) -> Path:
    """BERT style with a 2-logit (softmax) head."""
    return build_cross_encoder(models_root / "two-logit", n_logits=2)
