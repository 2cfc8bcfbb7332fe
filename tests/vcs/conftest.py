from __future__ import annotations

import pytest

from dualrag.config import load_settings


@pytest.fixture
def settings():
    return load_settings(None)
