"""The base of every configuration section: frozen (passed down, never changed) and strict
(an unknown key is a typo that must be reported, not ignored)."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict


class Section(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
