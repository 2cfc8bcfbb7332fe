"""The pre-commit hooks of `.pre-commit-hooks.yaml` (issue 17): the definitions are what pre-commit
expects, and each `entry` runs the way pre-commit runs it — split like a shell command, no file
names appended (`pass_filenames: false`), in the repository's root, with the package's console
script on PATH — in a real git repository with staged and unstaged work.

pre-commit itself is not a dev dependency and `pre-commit try-repo` needs the network to build the
hook's environment; the console script comes from this venv instead, as `language: python`
installs it from the package."""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
import yaml
from install_support import CHECKOUT

HOOKS = CHECKOUT / ".pre-commit-hooks.yaml"
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
