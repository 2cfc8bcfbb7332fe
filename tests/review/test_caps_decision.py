"""A change read only as a sample is never approved; --explain must name a folder."""

from __future__ import annotations

import pytest

from dualrag.errors import UserError
from dualrag.review.decision import Coverage, decide
from dualrag.review.model import Decision
from dualrag.review.stage import explain_folder


def test_a_sampled_file_gives_no_verdict():
    full = Coverage(llm_configured=True, llm_ran=True, complete=True)
    assert decide([], full)[0] is Decision.APPROVED
    decision, reasons = decide([], Coverage(llm_configured=True, llm_ran=True, complete=True,
                                            sampled=("data/seed.sql",)))
    assert decision is Decision.NO_VERDICT and "data/seed.sql" in reasons[0]


def test_explain_folder(tmp_path):
    assert explain_folder(tmp_path / "new" / "deep").is_dir()
    a_file = tmp_path / "prompts.txt"
    a_file.write_text("x")
    with pytest.raises(UserError, match="not a folder"):
        explain_folder(a_file)
    with pytest.raises(UserError, match="cannot create"):
        explain_folder(a_file / "below")
