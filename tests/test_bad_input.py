"""Bad input: exit 2 with exactly one stderr line and no traceback; unsafe paths are data."""

from __future__ import annotations

import builtins
import io
import json
import os
import random
import sys

import pytest

from dualrag.diff import FileStatus, ingest
from dualrag.source.paths import clean, unquote, unsafe_reason
from tests.cli_run import run_cli as run

GOOD = b"diff --git a/a.txt b/a.txt\nindex 1..2 100644\n--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-a\n+b\n"



def assert_one_line_error(code, out, err, fragment):
    assert code == 2
    assert out == ""
    assert err.startswith("dualrag: error: ")
    assert err.endswith("\n") and err.count("\n") == 1
    assert "Traceback" not in err
    assert fragment in err


def write(folder, name, data: bytes):
    path = folder / name
    path.write_bytes(data)
    return path


# ---------------------------------------------------------------------------- diff files


def test_missing_file(in_tmp, capsys):
    assert_one_line_error(*run(["review", "--diff-file", "nope.diff"], capsys), "diff file not found: nope.diff")


def test_directory_as_diff_file(in_tmp, capsys):
    (in_tmp / "folder").mkdir()
    assert_one_line_error(*run(["review", "--diff-file", "folder"], capsys), "diff file is a directory: folder")


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() == 0, reason="root reads any file")
def test_unreadable_file(in_tmp, capsys):
    path = write(in_tmp, "locked.diff", GOOD)
    path.chmod(0)
    assert_one_line_error(*run(["review", "--diff-file", str(path)], capsys), "cannot read diff file")


@pytest.mark.parametrize(("data", "fragment"), [
    (random.Random(1234).randbytes(4096), "not a unified diff"),
    (b"\n".join(random.Random(5).randbytes(60) for _ in range(50)), "not a unified diff"),
    (b"\x00" * 100, "not a unified diff"),
    ("--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n".encode("utf-16"), "not a unified diff"),
    (b"Dear team,\nplease have a look at my change.\nThanks!\n", "not a unified diff"),
    (b"diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1,3 +1,3 @@\n a\n-b\n", "Hunk is shorter"),
    (b"diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1,3 +1,3 @@\n a\n-b\n+c\n", "Hunk is shorter"),
    (b"diff --cc x\nindex 1,2..3\n--- a/x\n+++ b/x\n@@@ -1 -1 +1 @@@\n- a\n +b\n", "combined diff"),
])
def test_not_a_readable_diff(in_tmp, capsys, data, fragment):
    path = write(in_tmp, "bad.diff", data)
    assert_one_line_error(*run(["review", "--diff-file", str(path)], capsys), fragment)


def test_truncated_hunk_names_the_line(in_tmp, capsys):
    data = GOOD + b"diff --git a/b.txt b/b.txt\n--- a/b.txt\n+++ b/b.txt\n@@ -1,4 +1,4 @@\n x\n-y\n+z\n"
    code, out, err = run(["review", "--diff-file", str(write(in_tmp, "t.diff", data))], capsys)
    assert_one_line_error(code, out, err, "malformed diff near line ")
    assert "Hunk is shorter" in err


def test_diff_over_the_size_limit(in_tmp, capsys, monkeypatch):
    monkeypatch.setenv("DUALRAG_LIMITS__MAX_DIFF_MB", "0.001")  # 1000 bytes
    big = GOOD + b"diff --git a/b.txt b/b.txt\n--- a/b.txt\n+++ b/b.txt\n@@ -1 +1 @@\n-a\n+" + b"x" * 1000 + b"\n"
    assert len(big) > 1000
    path = write(in_tmp, "big.diff", big)
    assert_one_line_error(*run(["review", "--diff-file", str(path)], capsys), "limits.max_diff_mb")
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(big)))
    assert_one_line_error(*run(["review", "--diff-file", "-"], capsys), "standard input")
    # Just under the limit passes.
    small = write(in_tmp, "small.diff", GOOD)
    assert len(GOOD) < 1000
    code, _, err = run(["review", "--diff-file", str(small)], capsys)
    assert (code, err) == (0, "")


def test_ingest_refuses_over_the_limit_itself():
    from dualrag.config import load_settings
    from dualrag.errors import DiffError

    s = load_settings(None, limits={"max_diff_mb": 0.0001})  # 100 bytes
    with pytest.raises(DiffError, match="above the limit"):
        ingest(GOOD * 3, s)


# ---------------------------------------------------------------------------- git sources


def test_unknown_git_ref(repo, in_tmp, capsys):
    repo.commit("base", {"a.txt": "a\n"})
    code, out, err = run(["review", "--repo", str(repo.root), "--base", "no-such-branch"], capsys)
    assert_one_line_error(code, out, err, "unknown git ref 'no-such-branch'")


def test_unknown_head_ref(repo, in_tmp, capsys):
    repo.commit("base", {"a.txt": "a\n"})
    code, out, err = run(["review", "--repo", str(repo.root), "--base", "main", "--head", "v9.9"], capsys)
    assert_one_line_error(code, out, err, "unknown git ref 'v9.9'")


def test_ref_that_looks_like_an_option(repo, in_tmp, capsys):
    repo.commit("base", {"a.txt": "a\n"})
    code, out, err = run(["review", "--repo", str(repo.root), "--base=--output=/tmp/x"], capsys)
    assert_one_line_error(code, out, err, "unknown git ref '--output=/tmp/x'")


def test_base_in_a_repo_without_commits(repo, in_tmp, capsys):
    code, out, err = run(["review", "--repo", str(repo.root), "--base", "main"], capsys)
    assert_one_line_error(code, out, err, "unknown git ref 'main'")


def test_not_a_git_repository(tmp_path, in_tmp, capsys, monkeypatch, git_env):
    plain = tmp_path / "plain"
    plain.mkdir()
    monkeypatch.setenv("GIT_CEILING_DIRECTORIES", str(tmp_path))
    code, out, err = run(["review", "--repo", str(plain), "--worktree"], capsys)
    assert_one_line_error(code, out, err, f"not a git repository: {plain}")


def test_repo_path_missing(tmp_path, in_tmp, capsys):
    code, out, err = run(["review", "--repo", str(tmp_path / "nowhere"), "--staged"], capsys)
    assert_one_line_error(code, out, err, "repository path does not exist or is not a folder")


def test_unknown_config_key(in_tmp, capsys):
    (in_tmp / ".dualrag.toml").write_text("[limits]\nmax_diff_gb = 1\n", encoding="utf-8")
    path = write(in_tmp, "ok.diff", GOOD)
    assert_one_line_error(*run(["review", "--diff-file", str(path)], capsys), "unknown key: 'limits.max_diff_gb'")


# ---------------------------------------------------------------------------- unsafe paths


@pytest.mark.parametrize(("path", "reason"), [
    ("/etc/passwd", "absolute path"),
    ("\\windows\\system.ini", "absolute path"),
    ("C:\\boot.ini", "absolute path"),
    ("c:/boot.ini", "absolute path"),
    ("../outside.txt", "path climbs out with '..'"),
    ("src/../../outside.txt", "path climbs out with '..'"),
    ("src\\..\\..\\x", "path climbs out with '..'"),
    ("a\x00b", "path contains a NUL byte"),
    ("", "empty path"),
])
def test_unsafe_reason(path, reason):
    assert unsafe_reason(path) == reason


@pytest.mark.parametrize("path", ["src/a..b.txt", "..hidden/x", "a/.../b", "normal/path.txt"])
def test_safe_paths(path):
    assert unsafe_reason(path) is None


def test_unquote_and_clean():
    assert unquote('"a/caf\\303\\251.txt"') == "a/café.txt"
    assert unquote('"a/tab\\there\\"q\\\\"') == 'a/tab\there"q\\'
    assert clean('"b/caf\\303\\251 x.txt"') == "café x.txt"
    assert clean("/dev/null") is None
    assert clean("b/a/b.txt") == "a/b.txt"  # only the first prefix goes


@pytest.fixture
def open_spy(monkeypatch):
    """Every file name opened while the fixture is active."""
    opened: list[str] = []
    real_open, real_os_open = builtins.open, os.open

    def spy_open(file, *args, **kwargs):
        opened.append(str(file))
        return real_open(file, *args, **kwargs)

    def spy_os_open(path, *args, **kwargs):
        opened.append(str(path))
        return real_os_open(path, *args, **kwargs)

    monkeypatch.setattr(builtins, "open", spy_open)
    monkeypatch.setattr(io, "open", spy_open)
    monkeypatch.setattr(os, "open", spy_os_open)
    return opened


def test_unsafe_paths_are_reported_and_never_opened(tmp_path, in_tmp, capsys, open_spy):
    secret = tmp_path / "secret.txt"
    secret.write_text("top secret\n", encoding="utf-8")
    (in_tmp / "sub").mkdir()
    relative = "sub/../../secret.txt"  # from the working directory, this is the secret file
    assert (in_tmp / relative).resolve() == secret.resolve()
    absolute = str(secret)
    diff = (
        f"diff --git a/{relative} b/{relative}\nindex 1..2 100644\n--- a/{relative}\n+++ b/{relative}\n"
        "@@ -1 +1 @@\n-top secret\n+exposed\n"
        f"--- {absolute}\n+++ {absolute}\n@@ -1 +1 @@\n-top secret\n+exposed\n"
        "diff --git a/nul\x00name.txt b/nul\x00name.txt\nnew file mode 100644\nindex 0..1\n--- /dev/null\n"
        "+++ b/nul\x00name.txt\n@@ -0,0 +1 @@\n+x\n"
    ).encode() + GOOD
    path = write(in_tmp, "evil.diff", diff)
    open_spy.clear()
    code, out, err = run(["review", "--diff-file", str(path), "--format", "json"], capsys)
    assert (code, err) == (0, "")
    files = json.loads(out)["files"]
    assert [(f["path"], (f["skipped_reason"] or "")[:11]) for f in files] == [
        (relative, "unsafe path"), (absolute, "unsafe path"), ("nul\x00name.txt", "unsafe path"),
        ("a.txt", ""),
    ]
    assert files[0]["skipped_reason"] == "unsafe path: path climbs out with '..'"
    assert files[1]["skipped_reason"] == "unsafe path: absolute path"
    assert files[2]["skipped_reason"] == "unsafe path: path contains a NUL byte"
    assert not [name for name in open_spy if "secret" in name or "nul" in name]


def test_unsafe_old_path_of_a_rename(settings):
    diff = (b"diff --git a/../x.txt b/x.txt\nsimilarity index 100%\nrename from ../x.txt\nrename to x.txt\n")
    (f,) = ingest(diff, settings).files
    assert (f.status, f.path) == (FileStatus.RENAMED, "x.txt")
    assert f.skipped_reason == "unsafe path: path climbs out with '..'"


def test_unsafe_file_keeps_no_text(settings):
    diff = b"--- /etc/shadow\n+++ /etc/shadow\n@@ -1 +1 @@\n-root:x\n+root:y\n"
    (f,) = ingest(diff, settings).files
    assert f.skipped_reason == "unsafe path: absolute path"
    assert (f.section, f.hunks) == ("", ())


# ---------------------------------------------------------------------------- scale


def test_ten_thousand_small_files(settings):
    parts = []
    for i in range(10_000):
        folder = "vendor/lib" if i % 10 == 0 else f"src/m{i % 37}"
        parts.append(
            f"diff --git a/{folder}/F{i}.java b/{folder}/F{i}.java\nindex 1111111..2222222 100644\n"
            f"--- a/{folder}/F{i}.java\n+++ b/{folder}/F{i}.java\n@@ -1,2 +1,2 @@\n class F{i} {{\n"
            f"-  int a;\n+  int b{i};\n".encode()
        )
    changes = ingest(b"".join(parts), settings)
    assert len(changes.files) == 10_000
    assert len(changes.skipped) == 1_000
    assert all(f.skipped_reason == "vendored tree (vendor/)" for f in changes.skipped)
    assert len(changes.reviewable) == 9_000
    assert sum(f.added for f in changes.files) == 10_000
    assert sum(f.removed for f in changes.files) == 10_000
    assert changes.files[9_999].path == "src/m9/F9999.java"
    assert changes.files[9_999].hunks[0].added[0].text == "  int b9999;"
    assert changes.files[9_999].hunks[0].added[0].new_no == 2
    assert str(changes.risk_tier) == "full"
    assert changes.tier_reasons == ("9000 files (> 50)",)


def test_explain_at_an_existing_file_is_bad_input(tmp_path, capsys):
    diff = write(tmp_path, "change.diff", GOOD)
    target = write(tmp_path, "prompts.txt", b"a file")
    assert_one_line_error(*run(["review", "--diff-file", str(diff), "--explain", str(target),
                                "--store", str(tmp_path / "store")], capsys), "not a folder")
