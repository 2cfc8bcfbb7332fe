"""The CLI contract: sources (file, stdin, git range, staged, worktree), formats, output, errors."""

from __future__ import annotations

import io
import json
import subprocess
import sys

import pytest

from dualrag.cli import main

MODIFY = (b"diff --git a/src/App.java b/src/App.java\nindex 1111111..2222222 100644\n"
          b"--- a/src/App.java\n+++ b/src/App.java\n@@ -1,3 +1,4 @@\n class App {\n-  int a;\n"
          b"+  int b;\n+  int c;\n }\n")
LOCK = (b"diff --git a/package-lock.json b/package-lock.json\nindex 1..2 100644\n"
        b"--- a/package-lock.json\n+++ b/package-lock.json\n@@ -1 +1 @@\n-{}\n+{ }\n")
FILE_KEYS = {"path", "old_path", "status", "language", "encoding", "added", "removed", "skipped_reason"}


def run(args, capsys, stdin: bytes | None = None, monkeypatch=None):
    if stdin is not None:
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(stdin)))
    with pytest.raises(SystemExit) as info:
        main(args)
    out, err = capsys.readouterr()
    return info.value.code, out, err


def run_json(args, capsys, **kw) -> dict:
    code, out, err = run([*args, "--format", "json"], capsys, **kw)
    assert (code, err) == (0, ""), err
    return json.loads(out)


@pytest.fixture
def diff_file(in_tmp):
    path = in_tmp / "change.diff"
    path.write_bytes(MODIFY + LOCK)
    return path


# ---------------------------------------------------------------------------- diff file / stdin


def test_json_contract(diff_file, capsys):
    data = run_json(["review", "--diff-file", str(diff_file)], capsys)
    assert data["decision"] == "no_verdict"
    assert data["findings"] == []
    assert (data["project_type"], data["risk_tier"]) == ("java", "trivial")
    assert isinstance(data["timings"], dict) and "ingest" in data["timings"]
    app, lock = data["files"]
    assert FILE_KEYS <= set(app)
    assert {k: app[k] for k in FILE_KEYS} == {
        "path": "src/App.java", "old_path": None, "status": "modified", "language": "java",
        "encoding": "utf-8", "added": 2, "removed": 1, "skipped_reason": None,
    }
    assert (lock["path"], lock["skipped_reason"]) == ("package-lock.json", "lock file")


def test_stdin(in_tmp, capsys, monkeypatch):
    data = run_json(["review", "--diff-file", "-"], capsys, stdin=MODIFY, monkeypatch=monkeypatch)
    assert [f["path"] for f in data["files"]] == ["src/App.java"]


def test_stdin_as_subprocess_keeps_bytes(in_tmp):
    gb = "// 订单\n".encode("gb18030")
    diff = (b"diff --git a/A.java b/A.java\nnew file mode 100644\nindex 0..1\n--- /dev/null\n"
            b"+++ b/A.java\n@@ -0,0 +1,2 @@\n+" + gb + b"+x\r\n")
    proc = subprocess.run([sys.executable, "-m", "dualrag", "review", "--diff-file", "-", "--format", "json"],
                          input=diff, capture_output=True, cwd=in_tmp, check=False)
    assert proc.returncode == 0, proc.stderr
    (f,) = json.loads(proc.stdout)["files"]
    assert (f["path"], f["encoding"], f["newline"], f["added"]) == ("A.java", "gb18030", "mixed", 2)


def test_text_format(diff_file, capsys):
    code, out, err = run(["review", "--diff-file", str(diff_file), "--format", "text"], capsys)
    assert (code, err) == (0, "")
    assert out.startswith("dualrag review")
    assert "decision: no_verdict" in out and "risk tier: trivial" in out
    assert "files: 1 reviewed, 1 skipped" in out
    assert "src/App.java" in out and "lock file" in out
    assert "\x1b[" not in out  # no colour when not on a terminal


def test_markdown_format(diff_file, capsys):
    code, out, _ = run(["review", "--diff-file", str(diff_file), "--format", "markdown"], capsys)
    assert code == 0
    assert out.startswith("## dualrag review\n")
    assert "| `src/App.java` | modified | java | +2 -1 |  |" in out
    assert "| `package-lock.json` | modified | json | +1 -1 | lock file (not certain: entries added or removed" in out


def test_output_file(diff_file, capsys, in_tmp):
    target = in_tmp / "report.json"
    code, out, err = run(["review", "--diff-file", str(diff_file), "--format", "json", "-o", str(target)], capsys)
    assert (code, out, err) == (0, "", "")
    assert json.loads(target.read_text(encoding="utf-8"))["files"][0]["path"] == "src/App.java"


def test_output_to_missing_folder_is_an_error(diff_file, capsys, in_tmp):
    code, _, err = run(["review", "--diff-file", str(diff_file), "--output", str(in_tmp / "no" / "r.txt")], capsys)
    assert code == 2 and err.startswith("dualrag: error: cannot write report to ") and err.count("\n") == 1


@pytest.mark.parametrize("content", [b"", b"  \n\t\n\r\n"])
def test_empty_diff_is_nothing_to_review(in_tmp, capsys, content):
    path = in_tmp / "empty.diff"
    path.write_bytes(content)
    code, out, err = run(["review", "--diff-file", str(path)], capsys)
    assert (code, err) == (0, "")
    assert "nothing to review" in out
    data = run_json(["review", "--diff-file", str(path)], capsys)
    assert (data["files"], data["decision"]) == ([], "no_verdict")
    assert "nothing to review" in data["notes"]


def test_all_files_skipped_is_nothing_to_review(in_tmp, capsys):
    path = in_tmp / "lock.diff"
    path.write_bytes(LOCK)
    data = run_json(["review", "--diff-file", str(path)], capsys)
    assert data["notes"] == ["nothing to review: all 1 files were skipped"]


# ---------------------------------------------------------------------------- git sources


@pytest.fixture
def branched(repo):
    """main: base -> main-only; feature (checked out): base -> feature change."""
    repo.commit("base", {"shared.txt": "one\ntwo\n", "src/App.java": "class App {}\n"})
    repo.git("checkout", "-q", "-b", "feature")
    repo.commit("feature", {"src/App.java": "class App { int x; }\n", "src/New.java": "class New {}\n"})
    repo.git("checkout", "-q", "main")
    repo.commit("main moves on", {"shared.txt": "one\nTWO\n", "main_only.txt": "m\n"})
    repo.git("checkout", "-q", "feature")
    return repo


def test_repo_base_uses_the_merge_base(branched, capsys, in_tmp):
    data = run_json(["review", "--repo", str(branched.root), "--base", "main"], capsys)
    assert sorted((f["path"], f["status"]) for f in data["files"]) == [
        ("src/App.java", "modified"), ("src/New.java", "added")
    ]


def test_repo_base_and_head(branched, capsys, in_tmp):
    branched.git("checkout", "-q", "main")
    data = run_json(["review", "--repo", str(branched.root), "--base", "main", "--head", "feature"], capsys)
    assert sorted(f["path"] for f in data["files"]) == ["src/App.java", "src/New.java"]
    # The other way round: what main adds since the branch point.
    data = run_json(["review", "--repo", str(branched.root), "--base", "feature", "--head", "main"], capsys)
    assert sorted(f["path"] for f in data["files"]) == ["main_only.txt", "shared.txt"]


def test_repo_base_with_commit_ids(branched, capsys, in_tmp):
    base = branched.git("rev-parse", "main").strip()
    head = branched.git("rev-parse", "feature").strip()
    data = run_json(["review", "--repo", str(branched.root), "--base", base[:10], "--head", head], capsys)
    assert sorted(f["path"] for f in data["files"]) == ["src/App.java", "src/New.java"]


def test_repo_from_a_subfolder(branched, capsys, in_tmp):
    data = run_json(["review", "--repo", str(branched.root / "src"), "--base", "main"], capsys)
    assert sorted(f["path"] for f in data["files"]) == ["src/App.java", "src/New.java"]


def test_repo_ignores_user_diff_config(branched, capsys, in_tmp):
    branched.git("config", "diff.noprefix", "true")
    branched.git("config", "diff.renames", "false")
    branched.git("config", "color.diff", "always")
    data = run_json(["review", "--repo", str(branched.root), "--base", "main"], capsys)
    assert sorted(f["path"] for f in data["files"]) == ["src/App.java", "src/New.java"]


def test_repo_rename_detected(repo, capsys, in_tmp):
    body = "".join(f"line {i}\n" for i in range(30))
    repo.commit("base", {"old/Name.java": body})
    (repo.root / "new").mkdir()
    repo.git("mv", "old/Name.java", "new/Name.java")
    data = run_json(["review", "--repo", str(repo.root), "--staged"], capsys)
    (f,) = data["files"]
    assert (f["path"], f["old_path"], f["status"], f["similarity"]) == ("new/Name.java", "old/Name.java", "renamed", 100)


def test_repo_staged(repo, capsys, in_tmp):
    repo.commit("base", {"a.txt": "a\n", "b.txt": "b\n"})
    repo.write("a.txt", "a2\n")
    repo.git("add", "a.txt")
    repo.write("b.txt", "b2\n")        # unstaged
    repo.write("c.txt", "untracked\n")  # untracked
    data = run_json(["review", "--repo", str(repo.root), "--staged"], capsys)
    assert [(f["path"], f["added"], f["removed"]) for f in data["files"]] == [("a.txt", 1, 1)]


def test_repo_worktree(repo, capsys, in_tmp):
    repo.commit("base", {".gitignore": "*.log\nbuild/\n", "a.txt": "a\n", "b.txt": "b\n"})
    repo.write("a.txt", "a2\n")                       # unstaged change
    repo.write("s.txt", "staged\n")
    repo.git("add", "s.txt")                          # staged new file
    repo.write("u.txt", "untracked\nfile\n")          # untracked
    repo.write("sub dir/naïve.txt", "x\n")            # untracked, quoted name
    repo.write("debug.log", "ignored\n")              # ignored
    repo.write("build/out.txt", "ignored\n")          # ignored folder
    repo.git("rm", "-q", "b.txt")                     # staged deletion
    data = run_json(["review", "--repo", str(repo.root), "--worktree"], capsys)
    got = sorted((f["path"], f["status"], f["added"], f["removed"]) for f in data["files"])
    assert got == [
        ("a.txt", "modified", 1, 1), ("b.txt", "deleted", 0, 1), ("s.txt", "added", 1, 0),
        ("sub dir/naïve.txt", "added", 1, 0), ("u.txt", "added", 2, 0),
    ]


def test_repo_worktree_from_a_subfolder_keeps_repo_paths(repo, capsys, in_tmp):
    repo.commit("base", {"sub/t.txt": "t\n"})
    repo.write("sub/t.txt", "t2\n")
    repo.write("sub/u.txt", "u\n")
    repo.write("top.txt", "top\n")
    data = run_json(["review", "--repo", str(repo.root / "sub"), "--worktree"], capsys)
    assert sorted(f["path"] for f in data["files"]) == ["sub/t.txt", "sub/u.txt", "top.txt"]


def test_repo_worktree_without_commits(repo, capsys, in_tmp):
    repo.write("first.txt", "hello\n")
    repo.write("staged.txt", "s\n")
    repo.git("add", "staged.txt")
    data = run_json(["review", "--repo", str(repo.root), "--worktree"], capsys)
    assert sorted((f["path"], f["status"]) for f in data["files"]) == [
        ("first.txt", "added"), ("staged.txt", "added")
    ]


def test_repo_worktree_clean_is_nothing_to_review(repo, capsys, in_tmp):
    repo.commit("base", {"a.txt": "a\n"})
    code, out, err = run(["review", "--repo", str(repo.root), "--worktree"], capsys)
    assert (code, err) == (0, "")
    assert "nothing to review" in out


def test_repo_diff_over_the_limit(repo, capsys, in_tmp, monkeypatch):
    repo.commit("base", {"a.txt": "a\n"})
    repo.write("a.txt", "x" * 5000 + "\n")
    monkeypatch.setenv("DUALRAG_LIMITS__MAX_DIFF_MB", "0.001")
    code, out, err = run(["review", "--repo", str(repo.root), "--worktree"], capsys)
    assert (code, out) == (2, "")
    assert "larger than the limit" in err and err.count("\n") == 1


# ---------------------------------------------------------------------------- usage and --debug


@pytest.mark.parametrize("args", [
    ["review"],
    ["review", "--diff-file", "x.diff", "--repo", "."],
    ["review", "--diff-file", "x.diff", "--staged"],
    ["review", "--repo", "{repo}"],
    ["review", "--repo", "{repo}", "--staged", "--worktree"],
    ["review", "--repo", "{repo}", "--staged", "--head", "HEAD"],
    ["review", "--diff-file", "x.diff", "--format", "xml"],
    ["review", "--no-such-flag"],
])
def test_usage_errors_exit_2_with_one_line(repo, capsys, in_tmp, args):
    repo.commit("base", {"a.txt": "a\n"})
    args = [a.replace("{repo}", str(repo.root)) for a in args]
    code, out, err = run(args, capsys)
    assert (code, out) == (2, "")
    assert err.startswith("dualrag: error: ") and err.count("\n") == 1


def test_version(capsys):
    code, out, _ = run(["--version"], capsys)
    assert code == 0 and "0.1.0" in out


def test_debug_prints_traceback_and_keeps_exit_2(in_tmp, capsys):
    with pytest.raises(SystemExit) as exc:
        main(["review", "--diff-file", "missing.diff", "--debug"])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert "Traceback (most recent call last)" in err
    assert "SourceError: diff file not found: missing.diff" in err


def test_debug_shows_traceback_subprocess(in_tmp):
    cmd = [sys.executable, "-m", "dualrag", "review", "--diff-file", "missing.diff"]
    plain = subprocess.run(cmd, capture_output=True, cwd=in_tmp, check=False)
    assert plain.returncode == 2
    assert plain.stderr == b"dualrag: error: diff file not found: missing.diff\n"
    debug = subprocess.run([*cmd, "--debug"], capture_output=True, cwd=in_tmp, check=False)
    assert debug.returncode == 2
    assert b"Traceback (most recent call last)" in debug.stderr
    assert b"SourceError: diff file not found: missing.diff" in debug.stderr


def test_entry_point_end_to_end_json(in_tmp):
    path = in_tmp / "c.diff"
    path.write_bytes(MODIFY)
    proc = subprocess.run([sys.executable, "-m", "dualrag", "review", "--diff-file", str(path), "--format", "json"],
                          capture_output=True, cwd=in_tmp, check=False)
    assert (proc.returncode, proc.stderr) == (0, b"")
    data = json.loads(proc.stdout)
    assert (data["decision"], data["findings"], data["files"][0]["path"]) == ("no_verdict", [], "src/App.java")
