"""The pre-commit hooks of `.pre-commit-hooks.yaml` (issue 17): pre-commit's own manifest check
accepts them; each `entry` runs the way pre-commit runs it — split like a shell command, no file
names appended (`pass_filenames: false`), in the repository's root — in a real git repository with
staged and unstaged work; and pre-commit itself installs the hook from a git clone of this project
into its own virtualenv and runs it from `git commit`.

That install is offline: no index, and dualrag's dependencies and build backend come from this
environment through PYTHONPATH (a view of site-packages without dualrag), so dualrag itself can only
come from the clone."""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
import yaml
from install_support import CHECKOUT, clean_env
from pre_commit.clientlib import load_config, load_manifest

HOOKS = CHECKOUT / ".pre-commit-hooks.yaml"
DOCS = CHECKOUT / "docs" / "ci.md"
# https://pre-commit.com/#confining-hooks-to-run-at-certain-stages
STAGES = {"commit-msg", "post-checkout", "post-commit", "post-merge", "post-rewrite", "pre-commit",
          "pre-merge-commit", "pre-push", "pre-rebase", "prepare-commit-msg", "manual"}
KEYS = {"id", "name", "entry", "language", "files", "exclude", "types", "types_or", "exclude_types",
        "always_run", "fail_fast", "verbose", "pass_filenames", "require_serial", "description",
        "language_version", "minimum_pre_commit_version", "args", "stages", "additional_dependencies"}


def hooks() -> dict[str, dict]:
    data = yaml.safe_load(HOOKS.read_text(encoding="utf-8"))
    assert isinstance(data, list)
    return {h["id"]: h for h in data}


def test_hook_definitions_are_valid():
    load_manifest(str(HOOKS))  # pre-commit's own check (`pre-commit validate-manifest`): raises if not
    defined = hooks()
    assert set(defined) == {"dualrag-review", "dualrag-review-staged"}
    scripts = tomllib.loads((CHECKOUT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["scripts"]
    for hook in defined.values():
        assert set(hook) <= KEYS, set(hook) - KEYS
        assert {"id", "name", "entry", "language"} <= set(hook)
        assert hook["language"] == "python"  # pre-commit pip-installs the repository: the wheel's package data
        assert hook["pass_filenames"] is False and hook["always_run"] is True  # it reviews the change, not files
        assert set(hook["stages"]) <= STAGES
        assert shlex.split(hook["entry"])[0] in scripts
    assert defined["dualrag-review-staged"]["stages"] == ["pre-commit"]
    assert defined["dualrag-review"]["stages"] == ["pre-push"]


def docs_config() -> dict:
    """The `.pre-commit-config.yaml` example of docs/ci.md ("Local hook")."""
    section = DOCS.read_text(encoding="utf-8").split("\n## Local hook", 1)[1]
    [block] = re.findall(r"```yaml\n(.*?)```", section, re.DOTALL)
    return yaml.safe_load(block)


def test_the_docs_config_is_valid(tmp_path):
    config = tmp_path / ".pre-commit-config.yaml"
    config.write_text(yaml.safe_dump(docs_config()), encoding="utf-8")
    [entry] = load_config(str(config))["repos"]  # pre-commit's own check (`pre-commit validate-config`)
    assert {hook["id"] for hook in entry["hooks"]} <= set(hooks())


def run_entry(hook: dict, root: Path, test_store: Path) -> subprocess.CompletedProcess[str]:
    """As pre-commit runs a hook: the entry's words (+ args), no file names, in the repository root."""
    argv = shlex.split(hook["entry"]) + list(hook.get("args", []))
    bindir = str(Path(sys.executable).parent)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DUALRAG_", "OPENAI_", "ANTHROPIC_"))}
    env.update(PATH=bindir + os.pathsep + env.get("PATH", ""), DUALRAG_STORE=str(test_store),
               DUALRAG_EMBEDDING__MODEL="hash", PRE_COMMIT="1")
    return subprocess.run(argv, cwd=root, env=env, capture_output=True, text=True, timeout=300, check=False)


@pytest.mark.parametrize("hook_id, sees_unstaged", [("dualrag-review-staged", False), ("dualrag-review", True)])
def test_hook_entry_reviews_the_work_in_a_git_repository(repo, test_store, hook_id, sees_unstaged):
    repo.commit("base", {"src/main/java/com/acme/Orders.java": "class Orders {\n  int a;\n}\n",
                         "README.md": "hello\n"})
    repo.write("src/main/java/com/acme/Orders.java", "class Orders {\n  int a;\n  int b;\n}\n")
    repo.git("add", "src/main/java/com/acme/Orders.java")
    repo.write("README.md", "hello again\n")  # not staged
    proc = run_entry(hooks()[hook_id], repo.root, test_store)
    assert proc.returncode == 0, proc.stderr  # offline, no --fail-on: it reports and never blocks
    assert "src/main/java/com/acme/Orders.java" in proc.stdout
    assert ("README.md" in proc.stdout) is sees_unstaged
    assert "Traceback" not in proc.stderr


@pytest.mark.wheel
def test_pre_commit_installs_the_hook_and_runs_it_on_a_staged_change(repo, deps_view, project_repository, tmp_path):
    """A project's .pre-commit-config.yaml (docs/ci.md's) names dualrag's repository (here a clone of
    this working tree) at a commit; `pre-commit install`, then `git commit`: pre-commit makes the hook's
    virtualenv, pip-installs the clone into it (`language: python`) and runs `dualrag review --staged`
    there, offline, with the real default embedder. With `--fail-on` as README suggests, a staged
    eval() blocks the commit; the fixed change commits, the environment reused."""
    rev = subprocess.run(["git", "-C", str(project_repository), "rev-parse", "HEAD"], check=True,
                         capture_output=True, text=True).stdout.strip()
    config = docs_config()  # as docs/ci.md shows it, with the clone and its commit for <host> and <tag>
    config["repos"][0].update(repo=str(project_repository), rev=rev)
    assert config["repos"][0]["hooks"] == [{"id": "dualrag-review-staged", "args": ["--fail-on", "significant_concerns"]}]
    repo.commit("base", {"app/util.py": "def parse(text):\n    return text\n", "README.md": "hello\n",
                         ".pre-commit-config.yaml": yaml.safe_dump(config)})
    home = tmp_path / "pre-commit-home"
    empty_bin = tmp_path / "no-dualrag-bin"
    empty_bin.mkdir()
    env = clean_env(empty_bin, tmp_path / "home", PRE_COMMIT_HOME=str(home), PYTHONPATH=str(deps_view),
                    PIP_NO_INDEX="1", PIP_NO_BUILD_ISOLATION="0")  # pip reads it inverted: 0 = off
    assert shutil.which("dualrag", path=env["PATH"]) is None  # only the hook's environment can bring it

    def git(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(["git", *args], cwd=repo.root, env=env, capture_output=True, text=True,
                              timeout=300, check=False)

    installed = subprocess.run([sys.executable, "-m", "pre_commit", "install"], cwd=repo.root, env=env,
                               capture_output=True, text=True, check=False)
    assert installed.returncode == 0, installed.stdout + installed.stderr
    repo.write("app/util.py", "def parse(text):\n    return eval(text)\n")
    repo.git("add", "app/util.py")
    repo.write("README.md", "hello again\n")  # not staged: pre-commit stashes it, the hook never sees it
    blocked = git("commit", "-q", "-m", "parse")
    out = blocked.stdout + blocked.stderr
    assert blocked.returncode != 0, out
    assert "Installing environment" in out and "PY-SEC-001" in out and "app/util.py:2" in out, out
    assert "decision significant_concerns is at or above --fail-on" in out and "README.md" not in out, out
    assert "Traceback" not in out
    [hook_bin] = home.glob("repo*/py_env-*/bin/dualrag")  # the console script of the clone's install
    assert hook_bin.is_file()
    assert repo.git("log", "--format=%s").split() == ["base"]  # nothing committed

    repo.write("app/util.py", "import ast\n\n\ndef parse(text):\n    return ast.literal_eval(text)\n")
    repo.git("add", "app/util.py")
    passed = git("commit", "-q", "-m", "parse")
    out = passed.stdout + passed.stderr
    assert passed.returncode == 0, out
    assert "Installing environment" not in out and "PY-SEC-001" not in out, out
    assert repo.git("log", "--format=%s").split() == ["parse", "base"]
