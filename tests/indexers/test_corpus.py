"""`dualrag corpus build|stats` and the corpus folder mining reads: safe unpacking of real tarballs
made here, the manifest, the build over a loopback Debian mirror (real apt-get, apt's downloader and
gpg signatures; no network), its errors, and which folder a language's corpus is."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from dualrag.config.rules import RulesConfig
from indexers.corpus import Caps, CorpusError, Manifest, Selection, UnsafeTarball, read_manifest, unpack_sources
from indexers.corpus.build import ensure_room
from indexers.corpus.manifest import PackageEntry, is_built_corpus, write_manifest
from indexers.mining import load_corpus
from indexers.mining.corpus_root import clean_corpus_folder, describe_corpus
from tests.cli_run import run_cli

from .debian_mirror import DebianMirror, make_tarball

JAVA = Selection((".java",))
MAIN = b"package a;\n\nclass Main {\n    int x;\n}"  # 5 lines, the last without a newline
APT = all(shutil.which(tool) for tool in ("apt-get", "gpg")) and Path("/usr/lib/apt/apt-helper").is_file()
needs_apt = pytest.mark.skipif(not APT, reason="apt-get, apt-helper and gpg are needed for the loopback mirror")


# ------------------------------------------------------------------------------------------ unpacking


@pytest.mark.parametrize("suffix", [".gz", ".bz2", ".xz"])
def test_only_the_languages_files_are_kept_under_the_top_folder(tmp_path, suffix):
    tarball = make_tarball(tmp_path / f"lib_1.0.orig.tar{suffix}", {
        "lib-1.0/src/main/a/Main.java": MAIN, "lib-1.0/src/test/a/MainTest.java": b"class MainTest {}\n",
        "lib-1.0/pom.xml": b"<project/>\n", "lib-1.0/.github/Ci.java": b"class Ci {}\n",
        "lib-1.0/src/main/a/Notes.java.txt": b"not java\n"})
    got = unpack_sources(tarball, tmp_path / "out", JAVA)
    kept = sorted(p.relative_to(tmp_path / "out").as_posix() for p in (tmp_path / "out").rglob("*") if p.is_file())
    assert kept == ["src/main/a/Main.java", "src/test/a/MainTest.java"]
    assert (got.files, got.lines, got.bytes) == (2, 6, len(MAIN) + 18)
    assert got.skipped == {"hidden folder": 1}
    assert (tmp_path / "out" / "src/main/a/Main.java").read_bytes() == MAIN


@pytest.mark.parametrize("name", ["../escape.java", "lib-1.0/../../escape.java", "/tmp/escape.java"])
def test_a_member_that_leaves_the_tree_refuses_the_whole_tarball(tmp_path, name):
    tarball = make_tarball(tmp_path / "bad.tar.gz", {"lib-1.0/Good.java": MAIN, name: b"class Escape {}\n"})
    with pytest.raises(UnsafeTarball, match="unsafe member name"):
        unpack_sources(tarball, tmp_path / "deep" / "out", JAVA)
    assert not (tmp_path / "deep" / "out").exists()  # nothing of it kept
    assert not list(tmp_path.rglob("escape.java")) and not Path("/tmp/escape.java").exists()


def test_links_are_never_created_so_nothing_lands_outside(tmp_path):
    outside = tmp_path / "outside"
    outside.mkdir()
    tarball = make_tarball(tmp_path / "links.tar.gz", {"lib-1.0/Good.java": MAIN, "lib-1.0/dir/Through.java": MAIN},
                           links={"lib-1.0/Link.java": "/etc/passwd", "lib-1.0/dir": str(outside)})
    got = unpack_sources(tarball, tmp_path / "out", JAVA)
    assert got.files == 2 and got.skipped == {"link or special file": 1}  # Link.java; `dir` is a folder name
    assert not any(p.is_symlink() for p in (tmp_path / "out").rglob("*"))
    assert (tmp_path / "out" / "dir" / "Through.java").is_file() and not any(outside.iterdir())


def test_caps_skip_a_huge_file_and_refuse_a_huge_or_crowded_tarball(tmp_path):
    files = {"lib-1.0/Small.java": MAIN, "lib-1.0/Generated.java": b"//\n" * 400}
    tarball = make_tarball(tmp_path / "big.tar.gz", files)
    got = unpack_sources(tarball, tmp_path / "a", JAVA, Caps(file_bytes=1000))
    assert got.files == 1 and got.skipped == {"larger than 1,000 bytes": 1}
    with pytest.raises(UnsafeTarball, match="more than 1,100 bytes of sources"):
        unpack_sources(tarball, tmp_path / "b", JAVA, Caps(kept_bytes=1100))
    with pytest.raises(UnsafeTarball, match="more than 1 entries"):
        unpack_sources(tarball, tmp_path / "c", JAVA, Caps(members=1))
    assert not (tmp_path / "b").exists() and not (tmp_path / "c").exists()


def test_sql_test_code_is_left_out_and_only_keeps_some_folders(tmp_path):
    tarball = make_tarball(tmp_path / "pg.tar.xz", {
        "pg-15/contrib/cube/cube--1.0.sql": b"CREATE FUNCTION f() RETURNS int AS 'SELECT 1' LANGUAGE sql;\n",
        "pg-15/contrib/cube/sql/cube.sql": b"SELECT '1'::cube;\n",  # a pg_regress input: its output is below
        "pg-15/contrib/cube/expected/cube_1.out": b"...\n",
        "pg-15/src/sql/admin/install.sql": b"CREATE TABLE t (id int);\n",  # `sql/` without an expected output
        "pg-15/src/test/regress/sql/boom.sql": b"SELECT 1/0;\n"})
    sql = Selection((".sql",), skip_tests=True)
    unpack_sources(tarball, tmp_path / "all", sql)
    kept = sorted(p.relative_to(tmp_path / "all").as_posix() for p in (tmp_path / "all").rglob("*.sql"))
    assert kept == ["contrib/cube/cube--1.0.sql", "src/sql/admin/install.sql"]
    got = unpack_sources(tarball, tmp_path / "contrib", Selection((".sql",), only=("contrib",)))
    assert got.files == 2  # tests kept when not skipped, nothing outside contrib/


def test_a_damaged_tarball_is_one_packages_failure(tmp_path):
    broken = tmp_path / "broken.tar.gz"
    whole = make_tarball(tmp_path / "ok.tar.gz", {"a-1/A.java": MAIN, "a-1/B.java": MAIN}).read_bytes()
    broken.write_bytes(whole[:len(whole) // 2])
    with pytest.raises(CorpusError, match="broken.tar.gz"):
        unpack_sources(broken, tmp_path / "out", JAVA)
    assert not (tmp_path / "out").exists()


# ------------------------------------------------------------------------------------------ manifest


def _entry(language: str, package: str, lines: int, version: str = "1.0-1") -> PackageEntry:
    return PackageEntry(language=language, package=package, source=package, version=version, tarball="t.tar.gz",
                        files=lines // 10, lines=lines, bytes=lines * 30, date="2025-01-01T00:00:00+00:00")


def test_the_manifest_sums_lines_per_language_and_replaces_a_package(tmp_path):
    manifest = Manifest(mirror="http://m", suite="bookworm")
    for entry in (_entry("java", "b", 100), _entry("java", "a", 50), _entry("sql", "pg", 7)):
        manifest.put(entry)
    manifest.put(_entry("java", "b", 300, "2.0-1"))
    write_manifest(tmp_path, manifest)
    data = json.loads((tmp_path / "manifest.json").read_text(encoding="utf-8"))
    assert data["languages"] == {"java": {"packages": 2, "files": 35, "lines": 350},
                                 "sql": {"packages": 1, "files": 0, "lines": 7}}
    back = read_manifest(tmp_path)
    assert back is not None and [(e.package, e.version) for e in back.packages] == \
        [("a", "1.0-1"), ("b", "2.0-1"), ("pg", "1.0-1")]


def test_someone_elses_manifest_is_not_a_corpus(tmp_path):
    (tmp_path / "manifest.json").write_text('{"name": "my web app", "icons": []}', encoding="utf-8")
    assert not is_built_corpus(tmp_path)
    with pytest.raises(CorpusError, match="not a dualrag corpus manifest"):
        read_manifest(tmp_path)


def test_a_disk_without_room_is_refused_before_downloading(tmp_path):
    with pytest.raises(CorpusError, match="disk full: .* MB free under .*needs about"):
        ensure_room(tmp_path / "not" / "yet", 10**18)
    ensure_room(tmp_path, 1)


# ------------------------------------------------------------------------------------------ building


@pytest.fixture
def mirror(tmp_path):
    if not APT:
        pytest.skip("apt-get, apt-helper and gpg are needed for the loopback mirror")
    mirror = DebianMirror(tmp_path / "mirror")
    mirror.add("commons-thing", "2.1-1", {"src/main/org/Thing.java": MAIN, "src/main/org/Other.java": MAIN + b"\n",
                                          "pom.xml": b"<project/>\n"}, binary="libcommons-thing-java")
    mirror.add("pylib", "0.3-2", {"pylib/__init__.py": b"x = 1\n", "docs/Doc.java": MAIN})
    mirror.add("gone", "1.0-1", {"Gone.java": MAIN}, publish_upstream=False)
    yield mirror.start()
    mirror.stop()


def build(mirror: DebianMirror, folder: Path, capsys, *args: str):
    return run_cli(["corpus", "build", "--dir", str(folder), "--mirror", mirror.url, "--keyring", str(mirror.keyring),
                    *args], capsys)


@needs_apt
def test_build_fetches_keeps_the_languages_files_and_reruns_incrementally(mirror, tmp_path, capsys):
    corpus = tmp_path / "corpus"
    code, out, err = build(mirror, corpus, capsys, "--language", "java", "--packages", "libcommons-thing-java")
    assert code == 0, err
    assert "java/libcommons-thing-java: fetched commons-thing 2.1-1, 2 files, 10 lines" in err
    assert out.startswith(f"{corpus}: java 10 lines")
    package = corpus / "java" / "libcommons-thing-java"
    assert sorted(p.relative_to(package).as_posix() for p in package.rglob("*") if p.is_file()) == \
        ["src/main/org/Other.java", "src/main/org/Thing.java"]
    assert mirror.downloads() == ["commons-thing_2.1.orig.tar.gz"]  # the upstream tarball only
    entry = read_manifest(corpus).find("java", "libcommons-thing-java")
    assert (entry.source, entry.version, entry.tarball, entry.files, entry.lines) == \
        ("commons-thing", "2.1-1", "commons-thing_2.1.orig.tar.gz", 2, 10)

    code, _, err = build(mirror, corpus, capsys, "--language", "python", "--packages", "pylib")
    assert code == 0 and "python/pylib: fetched pylib 0.3-2, 1 files, 1 lines" in err
    before = len(mirror.requests)
    code, out, err = build(mirror, corpus, capsys, "--language", "java", "--packages", "libcommons-thing-java")
    assert code == 0 and "java/libcommons-thing-java: present (commons-thing 2.1-1" in err
    assert len(mirror.requests) == before  # nothing asked of the mirror: not even its index
    assert "java 10 lines, python 1 lines" in out

    mirror.add("commons-thing", "2.2-1", {"src/main/org/Thing.java": MAIN}, binary="libcommons-thing-java")
    code, _, err = build(mirror, corpus, capsys, "--language", "java", "--packages", "libcommons-thing-java")
    assert code == 0 and "present (commons-thing 2.1-1" in err  # the index here is the old one
    code, _, err = build(mirror, corpus, capsys, "--refresh", "--language", "java", "--packages",
                         "libcommons-thing-java")
    assert code == 0, err
    assert "java/libcommons-thing-java: updated commons-thing 2.2-1, 1 files, 5 lines" in err
    assert not (corpus / "java" / "libcommons-thing-java" / "src/main/org/Other.java").exists()

    code, out, _ = run_cli(["corpus", "stats", "--dir", str(corpus)], capsys)
    assert code == 0
    assert "java: 5 lines in 1 files of 1 package(s)" in out and "python: 1 lines in 1 files of 1 package(s)" in out
    shutil.rmtree(corpus / "python" / "pylib")
    _, out, _ = run_cli(["corpus", "stats", "--dir", str(corpus)], capsys)
    assert "pylib" in out and "MISSING (rebuild)" in out


@needs_apt
def test_unknown_packages_stop_the_build_before_anything_is_fetched(mirror, tmp_path, capsys):
    code, out, err = build(mirror, tmp_path / "c", capsys, "--language", "java", "--packages",
                           "libcommons-thing-java,no-such-thing,nor-this")
    assert code == 2 and out == ""
    assert err.strip().splitlines()[-1] == ("dualrag: error: unknown Debian source package(s) in bookworm: no-such-thing, nor-this "
                           "(nothing was fetched; `--refresh` fetches the index anew)")
    assert mirror.downloads() == [] and not (tmp_path / "c" / "java").exists()


@needs_apt
def test_a_package_the_mirror_lacks_fails_alone(mirror, tmp_path, capsys):
    code, out, err = build(mirror, tmp_path / "c", capsys, "--language", "java", "--packages",
                           "gone,libcommons-thing-java")
    assert code == 2 and out.startswith(f"{tmp_path / 'c'}: java 10 lines")
    assert "java/gone: not fetched: gone: download from" in err and "404" in err
    assert "dualrag: error: 1 of 2 package(s) not fetched: java/gone (the rest is in place)" in err
    assert [e.package for e in read_manifest(tmp_path / "c").packages] == ["libcommons-thing-java"]
    assert not (tmp_path / "c" / "java" / "gone").exists()


@needs_apt
def test_an_index_signed_by_another_key_is_refused(mirror, tmp_path, capsys):
    mirror.publish(sign_with_another_key=True)
    code, _, err = build(mirror, tmp_path / "c", capsys, "--language", "java", "--packages", "libcommons-thing-java")
    assert code == 2 and "dualrag: error: Debian mirror http://127.0.0.1:" in err and "unreachable or refused" in err
    assert "Traceback" not in err and mirror.downloads() == []


@needs_apt
def test_an_unreachable_mirror_is_one_line(tmp_path, capsys):
    code, _, err = run_cli(["corpus", "build", "--dir", str(tmp_path / "c"), "--mirror", "http://127.0.0.1:9/debian",
                            "--language", "java"], capsys)
    progress, error = err.strip().splitlines()
    assert code == 2 and progress == "fetching the bookworm source index from http://127.0.0.1:9/debian"
    assert error.startswith("dualrag: error: Debian mirror http://127.0.0.1:9/debian (bookworm) unreachable")
    assert "Connection refused" in error


def test_without_apt_the_build_says_so(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("PATH", str(tmp_path))  # no apt-get on it
    code, _, err = run_cli(["corpus", "build", "--dir", str(tmp_path / "c"), "--language", "java"], capsys)
    assert code == 2 and err.startswith("dualrag: error: apt not found (apt-get, apt-helper)")


@pytest.mark.parametrize(("args", "message"), [
    (["--language", "cobol"], "unknown language 'cobol': one of "),
    (["--language", "java,sql", "--packages", "x"], "--packages needs exactly one --language"),
    (["--language", "xml"], "no curated packages for xml: name them with --packages"),
])
def test_build_arguments_are_checked_first(tmp_path, capsys, args, message):
    code, _, err = run_cli(["corpus", "build", "--dir", str(tmp_path / "c"), *args], capsys)
    assert code == 2 and message in err and not (tmp_path / "c").exists()


def test_stats_without_a_corpus(tmp_path, capsys):
    code, _, err = run_cli(["corpus", "stats", "--dir", str(tmp_path)], capsys)
    assert code == 2 and "no corpus at" in err and "dualrag corpus build" in err


# ------------------------------------------------------------------------------------------ the folder mining reads


@pytest.fixture
def built(tmp_path) -> Path:
    root = tmp_path / "built"
    for language, name, text in (("java", "lib", "class A {}\nclass B {}\n"), ("python", "pylib", "x = 1\n")):
        folder = root / language / name
        folder.mkdir(parents=True)
        (folder / ("A.java" if language == "java" else "a.py")).write_text(text, encoding="utf-8")
    manifest = Manifest()
    manifest.put(_entry("java", "lib", 2))
    manifest.put(_entry("python", "pylib", 1))
    write_manifest(root, manifest)
    return root


def test_a_configured_build_root_gives_each_language_its_folder(built):
    rules = RulesConfig(mining_corpus=str(built))
    assert clean_corpus_folder(rules, "java") == built / "java"
    assert clean_corpus_folder(rules, "python") == built / "python"
    assert clean_corpus_folder(rules, "kotlin") is None  # the build has none: no corpus check for it
    corpus = load_corpus(clean_corpus_folder(rules, "java"), "java")
    assert corpus.lines == 2 and describe_corpus(built / "java", "java", corpus.lines) == \
        f"clean corpus: {built} (java 2 lines)"


def test_a_configured_plain_folder_is_read_as_it_is(tmp_path, built):
    plain = tmp_path / "plain"
    plain.mkdir()
    (plain / "manifest.json").write_text("{}", encoding="utf-8")  # not ours: still a plain folder
    assert clean_corpus_folder(RulesConfig(mining_corpus=str(plain)), "java") == plain
    assert clean_corpus_folder(RulesConfig(mining_corpus=str(built / "java")), "sql") == built / "java"
    with pytest.raises(FileNotFoundError, match="not a folder"):
        clean_corpus_folder(RulesConfig(mining_corpus=str(tmp_path / "nowhere")), "java")


def test_unset_the_default_build_is_used_when_it_has_the_language(tmp_path, monkeypatch, built):
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)  # the convention's default: ~/.cache
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert clean_corpus_folder(RulesConfig(), "java") is None  # nothing built: no corpus
    default = tmp_path / "home" / ".cache" / "dualrag" / "corpus"
    default.parent.mkdir(parents=True)
    shutil.copytree(built, default)
    assert clean_corpus_folder(RulesConfig(), "java") == default / "java"
    assert clean_corpus_folder(RulesConfig(), "sql") is None
    assert describe_corpus(default / "java", "java", 357_760) == \
        "clean corpus: ~/.cache/dualrag/corpus (java 357,760 lines)"


def test_mining_options_read_each_language_its_own_folder_of_a_build(built):
    from indexers.mining import options_from_config

    options = options_from_config(RulesConfig(mining_corpus=str(built)))
    assert options.corpus.language == "java" and options.corpus.lines == 2
    python = options.corpus_for("python")
    assert python is not None and python.language == "python" and python.lines == 1
    assert options.corpus_for("python") is python  # read once
    assert options.corpus_for("kotlin") is None  # the build has none: that check is not run
