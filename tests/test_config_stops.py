"""Configuration that cannot work stops the review with exit 2 and one line, before the work;
a review where every configured model failed says so on stderr (issue #16, item 4)."""

from __future__ import annotations

import json
import socket

import pytest

from dualrag.testing.fake_llm import FakeOpenAI
from tests.cli_run import run_cli as run

JAVA = (b"diff --git a/src/App.java b/src/App.java\nindex 1..2 100644\n--- a/src/App.java\n+++ b/src/App.java\n"
        b"@@ -1,3 +1,3 @@\n class App {\n-  int a = 1;\n+  int a = 2;\n }\n")



@pytest.fixture
def diff_file(tmp_path):
    path = tmp_path / "change.diff"
    path.write_bytes(JAVA)
    return path


def one_line(code, err, fragment):
    assert code == 2 and err.count("\n") == 1 and "Traceback" not in err, err
    assert fragment in err, err


def closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]  # nothing listens once the socket is closed


def test_missing_provider_keys_stop_before_any_work(diff_file, capsys, monkeypatch):
    for name in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN", "ANTHROPIC_BASE_URL"):
        monkeypatch.delenv(name, raising=False)
    code, _, err = run(["review", "--diff-file", str(diff_file), "--llm", "anthropic:claude-sonnet-4-6"], capsys)
    one_line(code, err, "no API key for anthropic")
    code, _, err = run(["review", "--diff-file", str(diff_file), "--llm", "openai:gpt-4.1-mini"], capsys)
    one_line(code, err, "no API key for openai")


def test_an_unknown_embedder_stops(diff_file, capsys, monkeypatch):
    monkeypatch.setenv("DUALRAG_EMBEDDING__MODEL", "no-such-embedder")
    code, _, err = run(["review", "--diff-file", str(diff_file)], capsys)
    one_line(code, err, "unknown embedder 'no-such-embedder'")


def test_an_unreachable_qdrant_url_stops_after_a_short_timeout(diff_file, capsys, monkeypatch):
    monkeypatch.setenv("DUALRAG_QDRANT__URL", f"http://127.0.0.1:{closed_port()}")
    code, _, err = run(["review", "--diff-file", str(diff_file)], capsys)
    one_line(code, err, "cannot reach Qdrant at http://127.0.0.1:")


def test_a_store_that_is_a_file_stops(diff_file, capsys, tmp_path):
    (tmp_path / "afile").write_text("x")
    code, _, err = run(["review", "--diff-file", str(diff_file), "--store", str(tmp_path / "afile")], capsys)
    one_line(code, err, "is not a directory")


@pytest.mark.parametrize("where", ["missing/r.json", "."])
def test_an_unwritable_report_stops_before_the_review(diff_file, capsys, tmp_path, monkeypatch, where):
    monkeypatch.setenv("DUALRAG_EMBEDDING__MODEL", "no-such-embedder")  # the review itself would fail later
    code, _, err = run(["review", "--diff-file", str(diff_file), "-o", str(tmp_path / where)], capsys)
    one_line(code, err, "cannot write report to")


def test_every_reviewer_failing_is_said_on_stderr_and_can_fail_the_job(diff_file, capsys, tmp_path):
    with FakeOpenAI() as oai:
        oai.responder = lambda req: oai.error(500, "boom")
        config = tmp_path / "dualrag.toml"
        config.write_text(f'[llm]\nmodel = "openai:gpt-4.1-mini"\n[llm.openai]\nbase_url = "{oai.base_url}"\n'
                          'local = false\n[llm.resilience]\nmax_attempts = 1\nbackoff_base_s = 0\n'
                          '[retrieval]\nenabled = false\n')
        args = ["review", "--diff-file", str(diff_file), "--config", str(config), "--format", "json"]
        code, out, err = run(args + ["--fail-on", "no_verdict"], capsys)
    assert code == 3 and json.loads(out)["decision"] == "no_verdict"
    assert "dualrag: warning: every reviewer failed" in err
