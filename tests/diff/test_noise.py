"""The noise filter: every rule, its reason, and that migrations and keep patterns win."""

from __future__ import annotations

import pytest

from dualrag.config import NoiseConfig, load_settings
from dualrag.diff import ingest
from dualrag.source.noise import NoiseFilter, is_migration


def reason_of(diff: bytes, settings) -> str | None:
    changes = ingest(diff, settings)
    assert len(changes.files) == 1
    return changes.files[0].skipped_reason


def added_file(make_git_file, path: str, text: str) -> bytes:
    return make_git_file(path, None, text.encode("utf-8"))


LOCK_FILES = [
    "package-lock.json", "web/npm-shrinkwrap.json",          # npm
    "yarn.lock", "web/app/yarn.lock",                         # yarn
    "pnpm-lock.yaml",                                         # pnpm
    "bun.lock", "bun.lockb",                                  # bun
    "Cargo.lock", "crates/core/Cargo.lock",                   # Cargo
    "go.sum",                                                 # go
    "poetry.lock",                                            # poetry
    "Pipfile.lock",                                           # Pipfile
    "flake.lock",                                             # nix flake
]


@pytest.mark.parametrize("path", LOCK_FILES)
def test_lock_files(settings, make_git_file, path):
    assert reason_of(added_file(make_git_file, path, "{}\n"), settings) == "lock file"


@pytest.mark.parametrize("path", ["package.json", "Cargo.toml", "go.mod", "Pipfile", "pyproject.toml"])
def test_manifests_next_to_lock_files_are_reviewed(settings, make_git_file, path):
    assert reason_of(added_file(make_git_file, path, "x = 1\n"), settings) is None


@pytest.mark.parametrize("path", ["gradle/wrapper/gradle-wrapper.jar", ".mvn/wrapper/maven-wrapper.jar"])
def test_wrapper_jars(settings, path):
    assert NoiseFilter(settings.noise).reason(path, "other") == "build-tool wrapper jar"
    # A mode change carries no binary marker, so the wrapper rule itself decides through ingest.
    diff = f"diff --git a/{path} b/{path}\nold mode 100644\nnew mode 100755\n".encode()
    assert reason_of(diff, settings) == "build-tool wrapper jar"


def test_binary_wrapper_jar_is_skipped_as_binary(settings):
    path = "gradle/wrapper/gradle-wrapper.jar"
    diff = f"diff --git a/{path} b/{path}\nindex 1..2 100644\nBinary files a/{path} and b/{path} differ\n"
    assert reason_of(diff.encode(), settings) == "binary file"


@pytest.mark.parametrize(("path", "folder"), [
    ("vendor/github.com/pkg/errors/errors.go", "vendor"),
    ("web/node_modules/lodash/index.js", "node_modules"),
    ("third_party/zlib/zlib.h", "third_party"),
    ("ios/Pods/Alamofire/Source.swift", "Pods"),
    ("static/bower_components/jq/jq.js", "bower_components"),
])
def test_vendored_trees(settings, make_git_file, path, folder):
    assert reason_of(added_file(make_git_file, path, "x\n"), settings) == f"vendored tree ({folder}/)"


@pytest.mark.parametrize("path", ["src/vendor.go", "src/vendoring/Tool.java", "node_modules_test.py"])
def test_names_that_only_look_vendored_are_reviewed(settings, make_git_file, path):
    assert reason_of(added_file(make_git_file, path, "x\n"), settings) is None


@pytest.mark.parametrize("path", ["static/app.min.js", "static/site.min.css", "lib/jquery-min.js"])
def test_minified_by_name(settings, make_git_file, path):
    assert reason_of(added_file(make_git_file, path, "var a=1;\n"), settings) == "minified asset"


@pytest.mark.parametrize("path", ["static/app.js", "static/site.css"])
def test_minified_by_content(settings, make_git_file, path):
    long = "a" * 5000
    assert reason_of(added_file(make_git_file, path, f"x\n{long}\n"), settings) == (
        "minified content (a line of 5000 characters)"
    )


def test_minified_content_threshold_is_1000_characters(settings, make_git_file):
    assert reason_of(added_file(make_git_file, "a.js", "b" * 1000 + "\n"), settings) is None
    assert reason_of(added_file(make_git_file, "a.js", "b" * 1001 + "\n"), settings) == (
        "minified content (a line of 1001 characters)"
    )


def test_long_lines_in_other_languages_are_not_minified(settings, make_git_file):
    assert reason_of(added_file(make_git_file, "data/fixture.json", "c" * 5000 + "\n"), settings) is None


def test_long_removed_line_does_not_make_minified(settings, make_git_file):
    diff = make_git_file("a.js", b"d" * 5000 + b"\n", b"short();\n")
    assert reason_of(diff, settings) is None


@pytest.mark.parametrize("path", ["dist/main.bundle.js", "dist/vendor.chunk.css", "out/app.bundle.mjs"])
def test_bundles(settings, make_git_file, path):
    assert reason_of(added_file(make_git_file, path, "x\n"), settings) == "bundle"


@pytest.mark.parametrize("path", ["dist/app.js.map", "dist/site.css.map", "out/index.ts.map"])
def test_source_maps(settings, make_git_file, path):
    assert reason_of(added_file(make_git_file, path, "{}\n"), settings) == "source map"


@pytest.mark.parametrize("path", ["target/generated-sources/Foo.java", "src/__generated__/schema.ts"])
def test_generated_folders_need_a_marker_in_the_file(settings, make_git_file, path):
    """A folder name alone costs an attacker nothing: code there without a marker is reviewed."""
    folder = path.split("/")[-2]
    assert reason_of(added_file(make_git_file, path, "class Backdoor { }\n"), settings) is None
    marked = added_file(make_git_file, path, "// @generated by protoc\nclass Foo { }\n")
    assert reason_of(marked, settings) == f"generated (marker '@generated' in line 1 in folder {folder}/)"


@pytest.mark.parametrize("marker", ["@generated", "DO NOT EDIT", "Code generated by"])
def test_generated_marker_in_first_line(settings, make_git_file, marker):
    text = f"// {marker} by the schema tool\npackage x;\n"
    assert reason_of(added_file(make_git_file, "src/X.java", text), settings) == (
        f"generated (marker '{marker}' in line 1)"
    )


def test_generated_marker_is_case_insensitive(settings, make_git_file):
    text = "package x;\n/* do not edit: written by a tool */\n"
    assert reason_of(added_file(make_git_file, "src/X.java", text), settings) == (
        "generated (marker 'DO NOT EDIT' in line 2)"
    )


def test_marker_in_line_5_counts_but_not_in_line_6(settings, make_git_file):
    lines = [f"line {i}" for i in range(1, 12)]
    at5 = lines.copy()
    at5[4] = "# @generated"
    at6 = lines.copy()
    at6[5] = "# @generated"
    assert settings.noise.marker_lines == 5
    assert reason_of(added_file(make_git_file, "a.py", "\n".join(at5) + "\n"), settings) == (
        "generated (marker '@generated' in line 5)"
    )
    assert reason_of(added_file(make_git_file, "a.py", "\n".join(at6) + "\n"), settings) is None


def test_marker_in_line_50_of_an_added_file_is_not_generated(settings, make_git_file):
    lines = [f"int v{i};" for i in range(1, 61)]
    lines[49] = "// DO NOT EDIT the table below by hand"
    assert reason_of(added_file(make_git_file, "src/T.java", "\n".join(lines) + "\n"), settings) is None


def test_marker_in_line_50_of_a_modified_file_is_not_generated(settings, make_git_file):
    old = [f"int v{i};" for i in range(1, 61)]
    old[49] = "// Code generated by hand, honestly"
    new = old.copy()
    new[51] = "int changed;"
    diff = make_git_file("src/T.java", ("\n".join(old) + "\n").encode(), ("\n".join(new) + "\n").encode())
    assert b"Code generated by" in diff  # the marker is in the diff, as context
    assert reason_of(diff, settings) is None


def test_marker_seen_in_context_of_a_hunk_at_line_1(settings, make_git_file):
    old = "// @generated\npackage x;\nint a;\n"
    new = "// @generated\npackage x;\nint b;\n"
    diff = make_git_file("src/G.java", old.encode(), new.encode())
    assert reason_of(diff, settings) == "generated (marker '@generated' in line 1)"


def test_configured_markers_and_marker_lines(make_git_file):
    s = load_settings(None, noise={"generated_markers": ["AUTOGEN"], "marker_lines": 2})
    assert reason_of(added_file(make_git_file, "a.c", "x\n/* AUTOGEN */\n"), s) == (
        "generated (marker 'AUTOGEN' in line 2)"
    )
    assert reason_of(added_file(make_git_file, "a.c", "x\ny\n/* AUTOGEN */\n"), s) is None
    assert reason_of(added_file(make_git_file, "a.c", "// @generated\n"), s) is None


# ---------------------------------------------------------------------------- migrations


@pytest.mark.parametrize("path", [
    "src/main/resources/db/V1__init.sql",
    "db/V2_1__add_users.sql",
    "db/U2__undo_users.sql",
    "db/R__refresh_views.sql",
    "src/main/java/db/V3__Backfill.java",
    "src/main/resources/db.changelog-master.xml",
    "config/changelog-2024.yaml",
    "app/migrations/0001_initial.py",
    "db/migrate/20240101_create_orders.rb",
])
def test_migrations_are_never_skipped(settings, make_git_file, path):
    assert is_migration(path)
    text = "-- @generated by the tool. DO NOT EDIT. Code generated by x\n" + "y\n" * 3
    assert reason_of(added_file(make_git_file, path, text), settings) is None


def test_migration_wins_over_vendored_tree(settings, make_git_file):
    assert reason_of(added_file(make_git_file, "vendor/lib/migrations/1.sql", "x\n"), settings) is None


@pytest.mark.parametrize("path", ["src/Version1.sql", "V1_init.sql", "docs/migration-guide.md"])
def test_not_migrations(path):
    assert not is_migration(path)


def test_not_a_migration_with_marker_is_skipped(settings, make_git_file):
    text = "-- @generated\nselect 1;\n"
    assert reason_of(added_file(make_git_file, "sql/report.sql", text), settings) == (
        "generated (marker '@generated' in line 1)"
    )


# ---------------------------------------------------------------------------- configured


def test_extra_patterns(make_git_file):
    s = load_settings(None, noise={"extra_patterns": ["*.snap", "docs/api/"]})
    assert reason_of(added_file(make_git_file, "ui/__snapshots__/a.snap", "x\n"), s) == (
        "matches noise pattern '*.snap'"
    )
    assert reason_of(added_file(make_git_file, "docs/api/index.md", "x\n"), s) == (
        "matches noise pattern 'docs/api/'"
    )
    assert reason_of(added_file(make_git_file, "docs/guide.md", "x\n"), s) is None


def test_keep_patterns_win_over_every_rule(make_git_file):
    s = load_settings(None, noise={"keep_patterns": ["vendor/ours/", "package-lock.json", "*.min.js"],
                                   "extra_patterns": ["vendor/ours/keep.txt"]})
    for path in ("vendor/ours/lib.go", "vendor/ours/keep.txt", "package-lock.json", "a/b.min.js"):
        assert reason_of(added_file(make_git_file, path, "// @generated\n"), s) is None, path
    assert reason_of(added_file(make_git_file, "vendor/theirs/lib.go", "x\n"), s) == "vendored tree (vendor/)"


def test_noise_filter_without_patterns_reviews_plain_code():
    f = NoiseFilter(NoiseConfig())
    assert f.reason("src/Main.java", "java", ["package x;"], 80) is None


# ---------------------------------------------------------------------------- through ingest


def test_every_skipped_file_is_in_the_changeset_with_its_reason(settings, make_git_file):
    files = {
        "src/Main.java": ("class Main {}\n", None),
        "package-lock.json": ("{}\n", "lock file"),
        "vendor/x/y.go": ("package y\n", "vendored tree (vendor/)"),
        "static/app.min.js": ("a\n", "minified asset"),
        "dist/app.js.map": ("{}\n", "source map"),
        "gen/Api.java": ("// @generated\nclass Api {}\n", "generated (marker '@generated' in line 1)"),
        "db/V1__init.sql": ("-- DO NOT EDIT\ncreate table t(id int);\n", None),
    }
    diff = b"".join(added_file(make_git_file, path, text) for path, (text, _) in files.items())
    diff += b"diff --git a/logo.png b/logo.png\nindex 1..2 100644\nBinary files a/logo.png and b/logo.png differ\n"
    changes = ingest(diff, settings)
    got = {f.path: f.skipped_reason for f in changes.files}
    assert got == {**{p: r for p, (_, r) in files.items()}, "logo.png": "binary file"}
    assert {f.path for f in changes.reviewable} == {"src/Main.java", "db/V1__init.sql"}
    assert len(changes.skipped) == 6
    assert all(f.hunks == () for f in changes.skipped)  # skipped files never get parsed
