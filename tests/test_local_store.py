"""The default store is local data: it ignores itself in git, local-work reviews never read it, the
first review says on stderr that it is indexing, `index rules --bundled` does that ahead, and the
test suite never writes into the checkout's store."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest

from dualrag.cli import main
from dualrag.cli.console import line_progress
from dualrag.rulebook import load_bundled
from dualrag.source.git import GitRepo

CHECKOUT = Path(__file__).resolve().parent.parent
BUNDLED = len(load_bundled())  # the rules under knowledge/
JAVA = (b"diff --git a/src/App.java b/src/App.java\nindex 1111111..2222222 100644\n"
        b"--- a/src/App.java\n+++ b/src/App.java\n@@ -1,3 +1,4 @@\n class App {\n-  int a;\n"
        b"+  int b;\n+  int c;\n }\n")


def run(args: list[str], capsys) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as info:
        main(args)
    out, err = capsys.readouterr()
    return info.value.code, out, err


def test_the_suite_uses_a_store_outside_the_checkout(test_store):
    store = Path(os.environ["DUALRAG_STORE"])
    assert store == test_store and CHECKOUT not in store.resolve().parents


def test_the_default_store_ignores_itself_and_local_reviews_skip_it(repo, capsys, monkeypatch):
    monkeypatch.delenv("DUALRAG_STORE")
    monkeypatch.chdir(repo.root)
    repo.commit("base", {"a.txt": "a\n"})
    repo.write("a.txt", "a2\n")
    code, _, err = run(["index", "rules", "--bundled"], capsys)  # creates .dualrag/store in the repository
    assert code == 0, err
    assert (repo.root / ".dualrag" / ".gitignore").read_text().splitlines()[-1] == "*"
    repo.git("add", "-A")
    assert repo.git("diff", "--cached", "--name-only").split() == ["a.txt"]  # `git add -A` left it out
    code, out, err = run(["review", "--repo", ".", "--worktree", "--format", "json"], capsys)
    assert code == 0, err
    assert [f["path"] for f in json.loads(out)["files"]] == ["a.txt"]


def test_a_store_committed_before_it_ignored_itself_is_still_not_local_work(repo):
    repo.commit("base", {"a.txt": "a\n"})
    repo.write(".dualrag/store/meta.json", "{}\n")
    repo.write(".dualrag.toml", "[noise]\n")  # the config file beside it is the user's work
    repo.git("add", "-f", ".dualrag", ".dualrag.toml")
    repo.write(".dualrag/store/other.json", "{}\n")
    git = GitRepo(repo.root)
    for diff in (git.diff_staged(10**6), git.diff_worktree(10**6)):
        assert b".dualrag.toml" in diff and b".dualrag/" not in diff


def test_a_store_folder_of_its_own_ignores_itself(tmp_path, capsys):
    code, _, err = run(["index", "rules", "--bundled", "--store", str(tmp_path / "kb")], capsys)
    assert code == 0, err
    assert (tmp_path / "kb" / ".gitignore").is_file()


def test_a_url_given_as_store_folder_is_refused_not_created(in_tmp, capsys):
    code, _, err = run(["index", "rules", "--bundled", "--store", "http://qdrant:6333"], capsys)
    assert code == 2 and "DUALRAG_QDRANT__URL" in err
    assert list(in_tmp.iterdir()) == []


def test_first_use_says_it_indexes_on_stderr_once(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("DUALRAG_STORE", str(tmp_path / "fresh"))
    diff = tmp_path / "c.diff"
    diff.write_bytes(JAVA)
    code, _, err = run(["review", "--diff-file", str(diff), "--format", "json"], capsys)
    assert code == 0
    lines = err.splitlines()
    assert lines[0].startswith(f"dualrag: indexing {BUNDLED} bundled rules into ") and "index rules --bundled" in lines[0]
    assert lines[1].startswith(f"dualrag: indexed {BUNDLED} bundled rules in ") and len(lines) == 2
    code, _, err = run(["review", "--diff-file", str(diff), "--format", "json"], capsys)
    assert (code, err) == (0, "")


def test_index_rules_bundled_ahead_of_the_first_review(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("DUALRAG_STORE", str(tmp_path / "ahead"))
    code, out, err = run(["index", "rules", "--bundled"], capsys)
    assert code == 0 and out.startswith(f"bundled: {BUNDLED} bundled rules in ") and f"indexing {BUNDLED} bundled rules" in err
    code, out, err = run(["kb", "stats", "--format", "json"], capsys)
    assert [(kb["kb"], kb["rules"]) for kb in json.loads(out)] == [("bundled", BUNDLED)]
    diff = tmp_path / "c.diff"
    diff.write_bytes(JAVA)
    assert run(["review", "--diff-file", str(diff), "--format", "json"], capsys)[::2] == (0, "")
    code, _, err = run(["index", "rules", "--bundled", "x.md"], capsys)
    assert code == 2 and "--bundled alone" in err


# ------------------------------------------------------------------------- output off a terminal


def test_text_report_is_not_wrapped_in_a_pipe(tmp_path, capsys):
    long_name = "src/main/java/com/example/" + "very_long_folder_name/" * 8 + "Service.java"
    diff = JAVA.replace(b"src/App.java", long_name.encode())
    path = tmp_path / "c.diff"
    path.write_bytes(diff)
    code, out, _ = run(["review", "--diff-file", str(path)], capsys)
    assert code == 0 and not sys.stdout.isatty()
    assert len(long_name) > 160  # a terminal's report folds it at 160 columns
    assert any(line.startswith(long_name + " ") for line in out.splitlines())  # the file row is one line


def test_line_progress_is_quiet_for_quick_steps_then_one_line_per_interval(capsys):
    now = [0.0]
    report = line_progress(5.0, clock=lambda: now[0], beat_s=None)
    for done in range(1, 4):  # a quick step says nothing
        report("read", done, 3)
    for second, done in ((1, 1), (6, 50), (7, 60), (12, 90), (13, 100)):
        now[0] = 100 + second
        report("parse", done, 100)
    report("write", 0, 0)
    assert capsys.readouterr().err.splitlines() == [
        "dualrag: parse 50/100, 5.0 s", "dualrag: parse 90/100, 11 s", "dualrag: parse 100/100, done in 12 s",
    ]
