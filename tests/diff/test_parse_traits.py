"""Ingest traits: statuses, line numbers, line endings, encodings, paths, input styles."""

from __future__ import annotations

import difflib

import pytest

from dualrag.diff import FileStatus, ingest
from dualrag.diff.model import FileDiff
from dualrag.errors import DiffError

# ---------------------------------------------------------------------------- helpers


def file_lines(data: bytes, encoding: str = "utf-8") -> list[str]:
    """A file's lines as the model gives them: decoded, line ending removed."""
    return [line.rstrip("\r\n") for line in data.decode(encoding).splitlines(keepends=True)]


def assert_numbers_match(fd: FileDiff, old: bytes, new: bytes, encoding: str = "utf-8") -> None:
    """Every line of every hunk sits at the right old and new line number."""
    old_lines, new_lines = file_lines(old, encoding), file_lines(new, encoding)
    seen = 0
    for hunk in fd.hunks:
        for line in hunk.lines:
            seen += 1
            assert line.kind in "+- "
            if line.kind in " -":
                assert line.old_no is not None and old_lines[line.old_no - 1] == line.text
            else:
                assert line.old_no is None
            if line.kind in " +":
                assert line.new_no is not None and new_lines[line.new_no - 1] == line.text
            else:
                assert line.new_no is None
    assert seen > 0


def expected_changes(old: bytes, new: bytes) -> tuple[set[int], set[int]]:
    """1-based numbers of removed old lines and added new lines, as difflib's matcher sees them."""
    a, b = old.splitlines(keepends=True), new.splitlines(keepends=True)
    removed, added = set(), set()
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b).get_opcodes():
        if tag in ("replace", "delete"):
            removed.update(range(i1 + 1, i2 + 1))
        if tag in ("replace", "insert"):
            added.update(range(j1 + 1, j2 + 1))
    return removed, added


def only(changes) -> FileDiff:
    assert len(changes.files) == 1, changes.files
    return changes.files[0]


OLD_JAVA = "".join(f"    int v{i} = {i};\n" for i in range(1, 41)).encode()
NEW_JAVA = (
    OLD_JAVA.replace(b"v3 = 3", b"v3 = 33")
    .replace(b"    int v20 = 20;\n", b"")
    .replace(b"    int v30 = 30;\n", b"    int v30 = 30;\n    int extra = 1;\n    int more = 2;\n")
)

# ---------------------------------------------------------------------------- statuses


def test_added_file(settings, make_git_file):
    new = b"one\ntwo\nthree\n"
    fd = only(ingest(make_git_file("src/New.java", None, new), settings))
    assert (fd.path, fd.old_path, fd.status) == ("src/New.java", None, FileStatus.ADDED)
    assert (fd.added, fd.removed, fd.language) == (3, 0, "java")
    assert [(line.kind, line.old_no, line.new_no) for line in fd.hunks[0].lines] == [
        ("+", None, 1), ("+", None, 2), ("+", None, 3)
    ]


def test_deleted_file_keeps_its_old_path(settings, make_git_file):
    old = b"a\nb\n"
    fd = only(ingest(make_git_file("lib/gone.py", old, None), settings))
    assert (fd.path, fd.old_path, fd.status) == ("lib/gone.py", "lib/gone.py", FileStatus.DELETED)
    assert (fd.added, fd.removed) == (0, 2)
    assert [line.old_no for line in fd.hunks[0].removed] == [1, 2]


def test_modified_file_counts_and_numbers(settings, make_git_file):
    fd = only(ingest(make_git_file("src/A.java", OLD_JAVA, NEW_JAVA), settings))
    removed, added = expected_changes(OLD_JAVA, NEW_JAVA)
    assert fd.status is FileStatus.MODIFIED and fd.old_path is None
    assert (fd.added, fd.removed) == (len(added), len(removed))
    assert {line.new_no for h in fd.hunks for line in h.added} == added
    assert {line.old_no for h in fd.hunks for line in h.removed} == removed
    assert_numbers_match(fd, OLD_JAVA, NEW_JAVA)


def test_renamed_with_similarity_and_hunks(settings, make_git_file):
    diff = make_git_file("src/Old.java", OLD_JAVA, NEW_JAVA, new_path="src/New.java", similarity=87)
    fd = only(ingest(diff, settings))
    assert (fd.path, fd.old_path, fd.status, fd.similarity) == (
        "src/New.java", "src/Old.java", FileStatus.RENAMED, 87
    )
    assert_numbers_match(fd, OLD_JAVA, NEW_JAVA)


def test_hunkless_rename_at_full_similarity(settings):
    diff = (b"diff --git a/docs/old name.md b/docs/new.md\nsimilarity index 100%\n"
            b"rename from docs/old name.md\nrename to docs/new.md\n")
    fd = only(ingest(diff, settings))
    assert (fd.path, fd.old_path, fd.status, fd.similarity) == (
        "docs/new.md", "docs/old name.md", FileStatus.RENAMED, 100
    )
    assert (fd.added, fd.removed, fd.hunks, fd.encoding, fd.newline) == (0, 0, (), None, None)


def test_copied_file(settings):
    diff = (b"diff --git a/conf/a.yml b/conf/b.yml\nsimilarity index 95%\ncopy from conf/a.yml\n"
            b"copy to conf/b.yml\nindex 1111111..2222222 100644\n--- a/conf/a.yml\n+++ b/conf/b.yml\n"
            b"@@ -1,2 +1,2 @@\n key: 1\n-name: a\n+name: b\n")
    fd = only(ingest(diff, settings))
    assert (fd.path, fd.old_path, fd.status, fd.similarity) == (
        "conf/b.yml", "conf/a.yml", FileStatus.COPIED, 95
    )
    assert (fd.added, fd.removed) == (1, 1)


def test_mode_only_change(settings):
    diff = b"diff --git a/bin/run.sh b/bin/run.sh\nold mode 100644\nnew mode 100755\n"
    fd = only(ingest(diff, settings))
    assert (fd.status, fd.old_mode, fd.new_mode) == (FileStatus.MODE_CHANGED, "100644", "100755")
    assert (fd.added, fd.removed, fd.hunks) == (0, 0, ())


def test_mode_change_with_content_is_modified(settings):
    diff = (b"diff --git a/bin/run.sh b/bin/run.sh\nold mode 100644\nnew mode 100755\n"
            b"index 1111111..2222222\n--- a/bin/run.sh\n+++ b/bin/run.sh\n@@ -1 +1 @@\n-echo a\n+echo b\n")
    fd = only(ingest(diff, settings))
    assert fd.status is FileStatus.MODIFIED
    assert (fd.old_mode, fd.new_mode, fd.added, fd.removed) == ("100644", "100755", 1, 1)


@pytest.mark.parametrize("body", [
    b"index 1111111..2222222 100644\nBinary files a/img/logo.png and b/img/logo.png differ\n",
    b"index 1111111..2222222 100644\nGIT binary patch\nliteral 5\nMcmZ?wbhEHbP+0y<\n\nliteral 3\n"
    b"KcmZ?wbn^fW6aWDR\n\n",
])
def test_binary_files_are_flagged_and_skipped(settings, body):
    fd = only(ingest(b"diff --git a/img/logo.png b/img/logo.png\n" + body, settings))
    assert fd.binary is True
    assert fd.skipped_reason == "binary file"
    assert (fd.path, fd.added, fd.removed, fd.encoding, fd.hunks) == ("img/logo.png", 0, 0, None, ())


def test_binary_next_to_text_keeps_both(settings, make_git_file):
    diff = (b"diff --git a/a.bin b/a.bin\nnew file mode 100644\nindex 0000000..1111111\n"
            b"Binary files /dev/null and b/a.bin differ\n" + make_git_file("b.txt", b"x\n", b"y\n"))
    a, b = ingest(diff, settings).files
    assert (a.path, a.status, a.binary) == ("a.bin", FileStatus.ADDED, True)
    assert (b.path, b.status, b.binary, b.added, b.removed) == ("b.txt", FileStatus.MODIFIED, False, 1, 1)


# ---------------------------------------------------------------------------- line numbers


def test_line_numbers_from_real_git_diff(settings, repo):
    old = b"".join(b"line %d\n" % i for i in range(1, 61))
    new_lines = old.splitlines(keepends=True)
    del new_lines[9:12]                      # drop 10..12
    new_lines.insert(30, b"inserted A\n")    # insert in the middle
    new_lines[50] = b"changed line\n"
    new_lines.append(b"tail\n")
    new = b"".join(new_lines)
    repo.commit("v1", {"f.txt": old})
    repo.commit("v2", {"f.txt": new})
    diff = repo.git("diff", "--no-color", "HEAD~1", "HEAD").encode()
    fd = only(ingest(diff, settings))
    assert_numbers_match(fd, old, new)
    removed, added = expected_changes(old, new)
    assert (fd.added, fd.removed) == (len(added), len(removed))
    assert len(fd.hunks) >= 3


def test_hunk_ranges_match_header(settings, make_git_file):
    fd = only(ingest(make_git_file("a.txt", OLD_JAVA, NEW_JAVA, context=2), settings))
    for h in fd.hunks:
        olds = [line.old_no for line in h.lines if line.old_no is not None]
        news = [line.new_no for line in h.lines if line.new_no is not None]
        assert olds == list(range(h.old_start, h.old_start + h.old_len))
        assert news == list(range(h.new_start, h.new_start + h.new_len))
        assert h.new_range == (h.new_start, h.new_start + max(h.new_len, 1) - 1)


def test_no_newline_marker_is_not_a_line(settings, make_git_file):
    old, new = b"a\nb\nc", b"a\nb\nc\nd"
    diff = make_git_file("x.txt", old, new)
    assert diff.count(b"\\ No newline at end of file") == 2
    fd = only(ingest(diff, settings))
    lines = [line for h in fd.hunks for line in h.lines]
    assert not any(line.text.startswith("\\") for line in lines)
    assert [(line.kind, line.text, line.no_eol) for line in lines] == [
        (" ", "a", False), (" ", "b", False), ("-", "c", True), ("+", "c", False), ("+", "d", True)
    ]
    assert (fd.added, fd.removed) == (2, 1)
    assert_numbers_match(fd, old, new)


# ---------------------------------------------------------------------------- line endings


def test_crlf_file(settings, make_git_file):
    old = b"".join(b"row %d\r\n" % i for i in range(1, 9))
    new = old.replace(b"row 4\r\n", b"row four\r\n")
    fd = only(ingest(make_git_file("win.txt", old, new), settings))
    assert fd.newline == "crlf"
    assert all("\r" not in line.text for h in fd.hunks for line in h.lines)
    assert_numbers_match(fd, old, new)


def test_crlf_file_without_final_newline(settings, make_git_file):
    old = b"alpha\r\nbeta\r\ngamma"
    new = b"alpha\r\nBETA\r\ngamma2"
    fd = only(ingest(make_git_file("win.txt", old, new), settings))
    assert fd.newline == "crlf"
    assert [line.no_eol for line in fd.hunks[0].lines][-1] is True
    assert_numbers_match(fd, old, new)


def test_crlf_file_with_two_hunks(settings, make_git_file):
    old = b"".join(b"r%d\r\n" % i for i in range(1, 31))
    new = old.replace(b"r2\r\n", b"R2\r\n").replace(b"r28\r\n", b"R28\r\n")
    fd = only(ingest(make_git_file("win.txt", old, new), settings))
    assert len(fd.hunks) == 2
    assert fd.newline == "crlf"
    assert_numbers_match(fd, old, new)


def test_lf_file(settings, make_git_file):
    fd = only(ingest(make_git_file("unix.txt", b"a\nb\n", b"a\nc\n"), settings))
    assert fd.newline == "lf"


def test_mixed_line_endings(settings, make_git_file):
    old = b"one\r\ntwo\nthree\r\nfour\n"
    new = b"one\r\nTWO\nthree\r\nFOUR\n"
    fd = only(ingest(make_git_file("mixed.txt", old, new), settings))
    assert fd.newline == "mixed"
    assert all("\r" not in line.text for h in fd.hunks for line in h.lines)
    assert_numbers_match(fd, old, new)


# ---------------------------------------------------------------------------- encodings

JAVA_CN = "public class Order {\n    // 计算订单总额，含税\n    int total() { return 1; }\n}\n"


def test_utf8_chinese(settings, make_git_file):
    new = JAVA_CN.encode("utf-8")
    fd = only(ingest(make_git_file("src/Order.java", None, new), settings))
    assert fd.encoding == "utf-8"
    assert fd.hunks[0].lines[1].text == "    // 计算订单总额，含税"
    assert_numbers_match(fd, b"", new)


def test_gb18030_chinese_comment(settings, make_git_file):
    old = JAVA_CN.encode("gb18030")
    new = JAVA_CN.replace("return 1", "return 2").encode("gb18030")
    with pytest.raises(UnicodeDecodeError):
        old.decode("utf-8")  # the premise: these bytes are not UTF-8
    fd = only(ingest(make_git_file("src/Order.java", old, new), settings))
    assert fd.encoding == "gb18030"
    assert_numbers_match(fd, old, new, encoding="gb18030")
    assert "    // 计算订单总额，含税" in [line.text for line in fd.hunks[0].lines]


@pytest.mark.parametrize("text", [
    "Grüße aus Köln\n",  # valid GB18030 too: the reading is rejected for its non-CJK characters
    "// Überprüfung der Größe für das Café\n",
    "résumé: déjà vu, señor\n",
])
def test_latin1_text(settings, make_git_file, text):
    data = text.encode("latin-1")
    fd = only(ingest(make_git_file("notes.txt", None, data), settings))
    assert fd.encoding == "latin-1"
    assert fd.hunks[0].lines[0].text == text.rstrip("\n")


def test_latin1_trap_premise():
    """The first case above is the trap the decoder guards against: GB18030 accepts it."""
    misread = "Grüße aus Köln\n".encode("latin-1").decode("gb18030")
    assert misread != "Grüße aus Köln\n"


def test_utf8_file_next_to_gb18030_file(settings, make_git_file):
    utf8 = JAVA_CN.encode("utf-8")
    gb = JAVA_CN.replace("Order", "Legacy").encode("gb18030")
    diff = make_git_file("src/Order.java", None, utf8) + make_git_file("src/Legacy.java", None, gb)
    a, b = ingest(diff, settings).files
    assert (a.path, a.encoding, b.path, b.encoding) == (
        "src/Order.java", "utf-8", "src/Legacy.java", "gb18030"
    )
    assert_numbers_match(a, b"", utf8)
    assert_numbers_match(b, b"", gb, encoding="gb18030")


# ---------------------------------------------------------------------------- paths


def test_git_quoted_octal_path(settings):
    diff = (b'diff --git "a/caf\\303\\251.txt" "b/caf\\303\\251.txt"\nnew file mode 100644\n'
            b'index 0000000..1111111\n--- /dev/null\n+++ "b/caf\\303\\251.txt"\n@@ -0,0 +1 @@\n+x\n')
    fd = only(ingest(diff, settings))
    assert (fd.path, fd.status, fd.added) == ("café.txt", FileStatus.ADDED, 1)
    assert fd.skipped_reason is None


def test_paths_from_real_git_with_spaces_and_accents(settings, repo):
    repo.commit("base", {"keep.txt": "k\n"})
    repo.write("my dir/file name.txt", "one\n")
    repo.write("señal ü.txt", "two\n")
    repo.git("add", "-A")
    diff = repo.git("-c", "core.quotepath=on", "diff", "--cached", "--no-color").encode()
    assert b"\\303\\261" in diff  # git did quote the accented name with octal escapes
    paths = sorted(f.path for f in ingest(diff, settings).files)
    assert paths == sorted(["my dir/file name.txt", "señal ü.txt"])


# ---------------------------------------------------------------------------- input styles


def test_plain_unified_diff_from_difflib(settings, make_unified):
    diff = make_unified(OLD_JAVA, NEW_JAVA, old_name=b"a/src/A.java", new_name=b"b/src/A.java")
    assert not diff.startswith(b"diff --git")
    fd = only(ingest(diff, settings))
    assert (fd.path, fd.status, fd.language) == ("src/A.java", FileStatus.MODIFIED, "java")
    assert_numbers_match(fd, OLD_JAVA, NEW_JAVA)


def test_plain_diff_u_with_timestamps_and_several_files(settings):
    diff = (
        b"diff -u a/x.py b/x.py\n"
        b"--- a/x.py\t2024-01-02 10:00:00.000000000 +0100\n"
        b"+++ b/x.py\t2024-01-02 11:00:00.000000000 +0100\n"
        b"@@ -1,2 +1,2 @@\n import os\n-print(1)\n+print(2)\n"
        b"diff -u a/y.py b/y.py\n"
        b"--- a/y.py\t2024-01-02 10:00:00.000000000 +0100\n"
        b"+++ b/y.py\t2024-01-02 11:00:00.000000000 +0100\n"
        b"@@ -1 +1,2 @@\n a = 1\n+b = 2\n"
    )
    x, y = ingest(diff, settings).files
    assert (x.path, x.status, x.added, x.removed) == ("x.py", FileStatus.MODIFIED, 1, 1)
    assert (y.path, y.status, y.added, y.removed) == ("y.py", FileStatus.MODIFIED, 1, 0)
    assert [(line.kind, line.new_no, line.text) for line in y.hunks[0].lines] == [
        (" ", 1, "a = 1"), ("+", 2, "b = 2")
    ]


def test_plain_diff_of_new_file(settings, make_unified):
    fd = only(ingest(make_unified(None, b"hello\n", new_name=b"b/new.txt"), settings))
    assert (fd.path, fd.status, fd.added) == ("new.txt", FileStatus.ADDED, 1)


def test_format_patch_with_email_headers(settings, make_git_file):
    crlf = b"a\r\nb\r\n"
    diff = (
        b"From 4ec43db20a277089be8cbc5b8f85041227350bfc Mon Sep 17 00:00:00 2001\n"
        b"From: A U Thor <a@example.invalid>\nDate: Mon, 1 Jan 2024 00:00:00 +0000\n"
        b"Subject: [PATCH] change things\n\nBody text --- with dashes.\n---\n"
        b" src/A.java | 4 ++--\n win.txt    | 2 ++\n 2 files changed, 4 insertions(+), 2 deletions(-)\n\n"
        + make_git_file("src/A.java", OLD_JAVA, NEW_JAVA)
        + make_git_file("win.txt", None, crlf)
        + b"-- \n2.39.5\n\n"
    )
    a, w = ingest(diff, settings).files
    assert (a.path, w.path) == ("src/A.java", "win.txt")
    assert_numbers_match(a, OLD_JAVA, NEW_JAVA)
    assert_numbers_match(w, b"", crlf)
    assert (w.status, w.added, w.newline) == (FileStatus.ADDED, 2, "crlf")
    removed, added = expected_changes(OLD_JAVA, NEW_JAVA)
    assert (a.added, a.removed) == (len(added), len(removed))


def test_combined_diff_is_rejected(settings):
    diff = (b"diff --cc file.txt\nindex 1111111,2222222..3333333\n--- a/file.txt\n+++ b/file.txt\n"
            b"@@@ -1,1 -1,1 +1,1 @@@\n- a\n -b\n++c\n")
    with pytest.raises(DiffError, match="combined diff"):
        ingest(diff, settings)


def test_combined_diff_after_a_normal_file_is_rejected(settings, make_git_file):
    diff = make_git_file("ok.txt", b"a\n", b"b\n") + b"diff --combined x\n"
    with pytest.raises(DiffError, match="line 8"):
        ingest(diff, settings)


def test_real_git_format_patch(settings, repo):
    old_java = b"class A {\r\n  int a;\r\n}"
    new_java = b"class A {\r\n  int b;\r\n}"
    repo.commit("base", {"A.java": old_java, "keep.txt": "k\n"})
    repo.commit("change A", {"A.java": new_java, "added.txt": "x\ny\n"})
    patch = repo.git("format-patch", "-1", "--stdout").encode()
    assert patch.startswith(b"From ") and b"Subject: [PATCH] change A" in patch
    files = {f.path: f for f in ingest(patch, settings).files}
    assert set(files) == {"A.java", "added.txt"}
    a = files["A.java"]
    assert (a.status, a.added, a.removed, a.newline) == (FileStatus.MODIFIED, 1, 1, "crlf")
    assert_numbers_match(a, old_java, new_java)
    assert (files["added.txt"].status, files["added.txt"].added, files["added.txt"].newline) == (
        FileStatus.ADDED, 2, "lf"
    )


def test_plain_diff_of_two_names_is_one_file_not_a_rename(settings, make_unified):
    diff = make_unified(OLD_JAVA, NEW_JAVA, old_name=b"src/A.java.orig", new_name=b"src/A.java")
    fd = only(ingest(diff, settings))
    assert (fd.path, fd.old_path, fd.status) == ("src/A.java", None, FileStatus.MODIFIED)


@pytest.mark.parametrize("stray", [b"+extra\n", b"-extra\n"])
def test_hunk_longer_than_its_header_is_refused(settings, stray):
    diff = (
        b"diff --git a/x.txt b/x.txt\nindex 1..2 100644\n--- a/x.txt\n+++ b/x.txt\n"
        b"@@ -1 +1 @@\n-a\n+b\n" + stray
    )
    with pytest.raises(DiffError, match="more changed lines than its '@@' header"):
        ingest(diff, settings)
