"""One vocabulary on the command line: `--repo` is a folder everywhere, one option per concept,
defaults shown in --help, and every user error one `dualrag: error: ...` line with exit 2."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from dualrag.cli import main
from dualrag.cli.main import cli


def run(args: list[str], capsys) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as info:
        main(args)
    out, err = capsys.readouterr()
    return info.value.code, out, err


def help_of(*command: str) -> str:
    result = CliRunner().invoke(cli, [*command, "--help"], terminal_width=200)
    assert result.exit_code == 0, result.output
    return " ".join(result.output.split())


def test_review_fail_on_shows_its_default():
    text = help_of("review")
    assert "--fail-on" in text and "default: never" in text and "DUALRAG_FAIL_ON" in text


def test_feedback_names_the_repository_key_apart_from_the_repo_folder():
    text = help_of("feedback", "list")
    assert "--repository KEY" in text and "--repo " not in text  # the old name works, hidden
    for command in (("review",), ("gitlab", "review"), ("github", "review")):
        assert "--repo DIR" in help_of(*command), command  # a folder wherever --repo appears
    github = help_of("github", "review")
    assert "--repository OWNER/NAME" in github and "checkout folder is --repo" in github


def test_a_repository_name_given_as_repo_is_said_plainly(capsys, monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("GITHUB_TOKEN", "t")
    code, out, err = run(["github", "review", "--repo", "acme/shop", "--repository", "acme/shop", "--pr", "1"], capsys)
    assert code == 2 and out == ""
    assert err.splitlines() == ["dualrag: error: --repo is the checkout folder and 'acme/shop' is none; the "
                                "platform's repository is --repository OWNER/NAME"]


def test_kb_drop_without_a_name_fails_like_every_user_error(capsys, tmp_path):
    code, out, err = run(["kb", "drop", "--store", str(tmp_path / "store")], capsys)
    assert code == 2 and out == ""
    assert len(err.splitlines()) == 1 and err.startswith("dualrag: error: name the knowledge base to drop (indexed in ")


def test_clicks_own_errors_are_one_line_in_our_style(capsys):
    code, out, err = run(["review", "--fail-on", "sometimes"], capsys)
    assert code == 2 and len(err.splitlines()) == 1
    assert err.startswith("dualrag: error: invalid value for '--fail-on'") and "(see 'dualrag review --help')" in err
    code, _, err = run(["models", "verify"], capsys)
    assert code == 2 and err.startswith("dualrag: error: missing argument") and not err.rstrip().endswith(".")
    code, _, err = run(["kb"], capsys)  # a group alone: its help, not an error line
    assert code == 2 and "Commands:" in err and "dualrag: error" not in err
