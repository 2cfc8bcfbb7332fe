"""Long steps off a terminal (a CI log, a file): plain `dualrag:` lines with counts and elapsed time,
at least every few seconds while a step runs -- also when the step reports nothing for a while
(one long embedding call, a write) -- and nothing for a quick step."""

from __future__ import annotations

import re
import time

import pytest

import dualrag.progress
from dualrag.cli import main
from dualrag.progress import Ticker


def test_a_step_that_reports_nothing_still_says_where_it_is():
    now, said = [0.0], []
    ticker = Ticker(said.append, 4.0, clock=lambda: now[0], beat_s=None)
    ticker("embedding rules", 0, 82)
    for second in range(1, 15):  # one long call: no report for 14 s
        now[0] = second
        ticker.beat()
    ticker("embedding rules", 82, 82)
    assert said == ["embedding rules 0/82, 4.0 s", "embedding rules 0/82, 8.0 s", "embedding rules 0/82, 12 s",
                    "embedding rules 82/82, done in 14 s"]


def test_a_quick_step_says_nothing_and_a_stage_without_counts_says_its_time():
    now, said = [0.0], []
    ticker = Ticker(said.append, 4.0, clock=lambda: now[0], beat_s=None)
    ticker("read", 0, 10)
    now[0] = 3.9
    ticker.beat()
    ticker("read", 10, 10)
    ticker("segmenting rules.pdf", 0, 0)
    now[0] = 8.0
    ticker.beat()
    assert said == ["segmenting rules.pdf, 4.1 s"]


def test_the_heartbeat_thread_speaks_while_one_call_blocks():
    said: list[str] = []
    with Ticker(said.append, 0.2, beat_s=0.05) as ticker:
        ticker("write", 0, 500)
        time.sleep(1.0)  # a write that reports nothing
        ticker("write", 500, 500)
    assert 3 <= len(said) <= 7, said
    assert said[-1].startswith("write 500/500, done in")
    count = len(said)
    time.sleep(0.3)
    assert len(said) == count  # closed: silent


class SlowEmbedder:
    """The test embedder, slowed down: each batch takes 0.3 s."""

    def __init__(self, inner):
        self.inner = inner
        self.name, self.dim = inner.name, inner.dim

    def __getattr__(self, name):
        return getattr(self.inner, name)

    def embed_documents(self, texts):
        time.sleep(0.3)
        return self.inner.embed_documents(texts)


@pytest.fixture
def fast_lines(monkeypatch):
    monkeypatch.setattr(dualrag.progress, "EVERY_S", 0.2)


def lines_of(err: str) -> list[str]:
    return [line for line in err.splitlines() if line.startswith("dualrag: ")]


def test_index_rules_in_a_log_says_how_far_embedding_is(tmp_path, capsys, monkeypatch, fast_lines):
    import dualrag.cli.knowledge as knowledge
    import dualrag.store.qdrant as qdrant

    tools = knowledge._tools
    monkeypatch.setattr(knowledge, "_tools", lambda settings: (SlowEmbedder(tools(settings)[0]), tools(settings)[1]))
    monkeypatch.setattr(qdrant, "EMBED_BATCH", 4)
    rules = tmp_path / "team.md"
    rules.write_text("# Team rules\n\n" + "".join(
        f"## R-{i}: Rule number {i}\n\nAlways check the value of field {i} before use.\n\n" for i in range(12)))
    with pytest.raises(SystemExit) as info:
        main(["index", "rules", str(rules), "--kb", "progress-test", "--store", str(tmp_path / "store")])
    out, err = capsys.readouterr()
    assert info.value.code == 0, err
    said = lines_of(err)
    embedding = [line for line in said if re.match(r"dualrag: embedding rules with \S+ \d+/12, ", line)]
    assert len(embedding) >= 2, said  # 3 batches of 0.3 s, a line every 0.2 s
    assert any(line.startswith("dualrag: embedding rules with") and "done in" in line for line in said)
    assert "12 rules" in out


def test_index_code_in_a_log_says_how_far_it_is(repo, capsys, monkeypatch, fast_lines, tmp_path):
    import indexers.code

    parse = indexers.code.parse_source

    def slow_parse(path, raw):
        time.sleep(0.05)
        return parse(path, raw)

    monkeypatch.setattr(indexers.code, "parse_source", slow_parse)
    repo.commit("base", {f"src/C{i}.java": f"class C{i} {{ int f() {{ return {i}; }} }}\n" for i in range(20)})
    with pytest.raises(SystemExit) as info:
        main(["index", "code", str(repo.root), "--store", str(tmp_path / "store")])
    out, err = capsys.readouterr()
    assert info.value.code == 0, err
    said = lines_of(err)
    assert len([line for line in said if re.match(r"dualrag: (read|parse)[ ,]", line)]) >= 2, said  # ~1 s of parsing
    assert all(re.search(r", (done in )?[\d.]+ s$", line) for line in said), said  # counts and elapsed time
    assert out.startswith("indexed ")
