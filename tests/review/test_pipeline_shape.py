"""The pipeline reads as its stages (issue 26, item 5): `review_changes` is a short list of stage
calls, each stage a function of its own module returning its own notes in a typed result."""

from __future__ import annotations

import ast
import inspect

from dualrag import pipeline


def test_review_changes_is_a_short_list_of_stage_calls():
    source = inspect.getsource(pipeline.review_changes)
    assert len(source.splitlines()) <= 40
    called = {node.args[1].id for node in ast.walk(ast.parse(source))
              if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "run" and len(node.args) > 1
              and isinstance(node.args[1], ast.Name)}
    assert called == {"detect", "validate_edi", "chunk", "retrieve", "screen", "review_chunks", "judge"}
    assert "notes=" not in source.replace("notes=notes", "")  # no stage is handed a list to append to


def test_the_settings_are_not_rewritten_mid_run():
    source = inspect.getsource(pipeline)
    assert "settings = " not in source.replace("settings = load", "") and "model_copy" not in source
    assert ".sink =" not in source  # a shared factory is not re-pointed at a run
