"""Configuration layering (.dualrag.toml < DUALRAG_* < CLI) and one-line errors naming the key."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from dualrag.config import CONFIG_FILE_NAME, Settings, find_config_file, load_settings
from dualrag.errors import ConfigError
from tests.cli_run import run_cli as run

SMALL_DIFF = b"diff --git a/a.txt b/a.txt\nindex 1..2 100644\n--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-a\n+b\n"


def write_toml(folder: Path, text: str) -> Path:
    path = folder / CONFIG_FILE_NAME
    path.write_text(text, encoding="utf-8")
    return path


def test_defaults(settings):
    assert settings.format == "text"
    assert (settings.tier.trivial_max_lines, settings.tier.lite_max_lines) == (10, 100)
    assert (settings.tier.max_files, settings.tier.full_above_files) == (20, 50)
    assert settings.limits.max_diff_mb == 256.0
    assert settings.noise.marker_lines == 5


def test_toml_then_env_then_overrides(tmp_path, monkeypatch):
    path = write_toml(tmp_path, 'format = "markdown"\n[tier]\ntrivial_max_lines = 3\nlite_max_lines = 50\n')
    s = load_settings(path)
    assert (s.format, s.tier.trivial_max_lines, s.tier.lite_max_lines) == ("markdown", 3, 50)

    monkeypatch.setenv("DUALRAG_TIER__TRIVIAL_MAX_LINES", "5")
    monkeypatch.setenv("DUALRAG_FORMAT", "json")
    s = load_settings(path)
    assert (s.format, s.tier.trivial_max_lines, s.tier.lite_max_lines) == ("json", 5, 50)

    s = load_settings(path, format="text", tier={"trivial_max_lines": 7})
    assert (s.format, s.tier.trivial_max_lines) == ("text", 7)
    assert s.tier.lite_max_lines == 50  # a nested override does not wipe the file's other keys


def test_none_overrides_are_ignored(tmp_path):
    path = write_toml(tmp_path, 'format = "json"\n')
    assert load_settings(path, format=None).format == "json"


def test_settings_are_frozen(settings):
    with pytest.raises(Exception):  # pydantic raises ValidationError for frozen models
        settings.format = "json"  # type: ignore[misc]
    assert isinstance(settings, Settings)


@pytest.mark.parametrize(("toml", "expected"), [
    ("[tier]\nbogus = 1\n", "unknown key: 'tier.bogus' in {path}"),
    ("bogus = 1\n", "unknown key: 'bogus' in {path}"),
    ('[tier]\ntrivial_max_lines = "many"\n', "'tier.trivial_max_lines' in {path}"),
    ("[tier]\ntrivial_max_lines = -1\n", "'tier.trivial_max_lines' in {path}"),
    ('format = "xml"\n', "'format' in {path}"),
    ("[limits]\nmax_diff_mb = 0\n", "'limits.max_diff_mb' in {path}"),
])
def test_bad_toml_names_key_and_file(tmp_path, toml, expected):
    path = write_toml(tmp_path, toml)
    with pytest.raises(ConfigError) as info:
        load_settings(path)
    message = str(info.value)
    assert message.endswith(expected.format(path=path))
    assert "\n" not in message


def test_invalid_toml(tmp_path):
    path = write_toml(tmp_path, "[tier\ntrivial_max_lines = 3\n")
    with pytest.raises(ConfigError, match="not valid TOML") as info:
        load_settings(path)
    assert str(path) in str(info.value)


def test_bad_env_value_names_the_variable(monkeypatch):
    monkeypatch.setenv("DUALRAG_TIER__TRIVIAL_MAX_LINES", "abc")
    with pytest.raises(ConfigError) as info:
        load_settings(None)
    assert str(info.value).endswith("'tier.trivial_max_lines' in environment DUALRAG_TIER__TRIVIAL_MAX_LINES")


def test_unknown_nested_env_key(monkeypatch):
    monkeypatch.setenv("DUALRAG_TIER__BOGUS", "1")
    with pytest.raises(ConfigError, match="unknown key: 'tier.bogus' in environment DUALRAG_TIER__BOGUS"):
        load_settings(None)


def test_bad_override_names_the_flag():
    with pytest.raises(ConfigError, match="'format' in command-line flag"):
        load_settings(None, format="xml")


def test_find_config_file(tmp_path):
    assert find_config_file(tmp_path) is None
    path = write_toml(tmp_path, "")
    assert find_config_file(tmp_path) == path


# ---------------------------------------------------------------------------- through the CLI



@pytest.fixture
def diff_file(tmp_path) -> Path:
    path = tmp_path / "change.diff"
    path.write_bytes(SMALL_DIFF)
    return path


@pytest.mark.parametrize(("toml", "fragment"), [
    ("[tier]\nbogus = 1\n", "unknown key: 'tier.bogus' in "),
    ('[tier]\nlite_max_lines = "x"\n', "'tier.lite_max_lines' in "),
    ("[tier\n", "not valid TOML"),
])
def test_cli_config_errors_exit_2_with_one_line(in_tmp, diff_file, capsys, toml, fragment):
    path = write_toml(in_tmp, toml)
    code, out, err = run(["review", "--diff-file", str(diff_file)], capsys)
    assert code == 2
    assert out == ""
    assert err.count("\n") == 1 and err.startswith("dualrag: error: ")
    assert fragment in err and str(path) in err


def test_cli_explicit_config_file(in_tmp, diff_file, capsys, tmp_path):
    other = tmp_path / "elsewhere.toml"
    other.write_text('format = "json"\n', encoding="utf-8")
    code, out, _ = run(["review", "--diff-file", str(diff_file), "--config", str(other)], capsys)
    assert code == 0 and out.lstrip().startswith("{")


def test_cli_missing_config_file(in_tmp, diff_file, capsys):
    code, _, err = run(["review", "--diff-file", str(diff_file), "--config", "nope.toml"], capsys)
    assert code == 2
    assert err == "dualrag: error: config file not found: nope.toml\n"


def test_cli_layers_format(in_tmp, diff_file, capsys, monkeypatch):
    write_toml(in_tmp, 'format = "markdown"\n')
    code, out, _ = run(["review", "--diff-file", str(diff_file)], capsys)
    assert code == 0 and out.startswith("## dualrag review")
    monkeypatch.setenv("DUALRAG_FORMAT", "json")
    code, out, _ = run(["review", "--diff-file", str(diff_file)], capsys)
    assert code == 0 and out.lstrip().startswith("{")
    code, out, _ = run(["review", "--diff-file", str(diff_file), "--format", "text"], capsys)
    assert code == 0 and out.startswith("dualrag review")


def test_cli_config_from_repo_root(repo, capsys, in_tmp):
    repo.commit("base", {"a.txt": "a\n"})
    write_toml(repo.root, "[tier]\nbogus = 2\n")
    repo.write("a.txt", "b\n")
    repo.git("add", "a.txt")
    code, _, err = run(["review", "--repo", str(repo.root), "--staged"], capsys)
    assert code == 2
    assert f"unknown key: 'tier.bogus' in {repo.root / CONFIG_FILE_NAME}" in err


def test_cli_unknown_config_key_as_subprocess(in_tmp, diff_file):
    write_toml(in_tmp, "[noise]\nextra = []\n")
    proc = subprocess.run([sys.executable, "-m", "dualrag", "review", "--diff-file", str(diff_file)],
                          capture_output=True, cwd=in_tmp, check=False)
    assert proc.returncode == 2
    assert proc.stdout == b""
    assert proc.stderr.count(b"\n") == 1 and b"unknown key: 'noise.extra'" in proc.stderr
    assert b"Traceback" not in proc.stderr


def test_unknown_top_level_env_key(monkeypatch):
    monkeypatch.setenv("DUALRAG_FROMAT", "json")
    with pytest.raises(ConfigError, match="unknown key: 'fromat' in environment DUALRAG_FROMAT"):
        load_settings(None)


def test_deprecated_window_table_and_answer_reserve_move_to_llm(tmp_path, caplog):
    """`[chunking] windows` and `[retrieval] output_tokens` had a second home beside `[llm]`: they
    still work, moved there with a line saying so, and the model's other capabilities stay."""
    path = write_toml(tmp_path, '[chunking]\nmodel = "mine"\nwindows = { "gpt-4o" = 64000, "mine" = 9000 }\n'
                                '[retrieval]\noutput_tokens = 2000\n')
    with caplog.at_level("WARNING", logger="dualrag.progress"):
        s = load_settings(path)
    said = " | ".join(r.getMessage() for r in caplog.records)
    assert "chunking.windows is deprecated" in said and "retrieval.output_tokens is deprecated" in said
    gpt = s.llm.capability("openai:gpt-4o")
    assert gpt.context_window == 64_000 and gpt.input_price == 2.50 and gpt.json_schema  # the rest is the model's
    assert s.llm.max_output_tokens == 2_000 and s.llm.window_of("mine") == 9_000
    assert not hasattr(s.retrieval, "output_tokens") and not hasattr(s.chunking, "windows")
    both = write_toml(tmp_path, '[retrieval]\noutput_tokens = 2000\n[llm]\nmax_output_tokens = 700\n')
    assert load_settings(both).llm.max_output_tokens == 700  # the one home wins


def test_offline_window_comes_from_the_one_capability_table():
    from dualrag.config.resolved import resolve_model

    assert resolve_model(load_settings(None, chunking={"model": "gpt-4o"}), ()).window == 128_000
    assert resolve_model(load_settings(None, chunking={"model": "claude-sonnet-4-5"}), ()).window == 200_000
    local = load_settings(None, chunking={"model": "local"}, llm={"models": {"openai:local": {"window": 16_384}}})
    assert resolve_model(local, ()).window == 16_384
    assert resolve_model(load_settings(None, chunking={"model": "unknown-7b"}), ()).window == 128_000  # window_tokens
