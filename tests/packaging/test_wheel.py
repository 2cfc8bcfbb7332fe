"""The wheel works without the checkout: installed into a fresh venv, run from a folder outside the
checkout, the README's review command reviews the example merge request on the embedded defaults
(bundled rules and embedder, no API key)."""

from __future__ import annotations

import shlex
import shutil
import subprocess
import sys
import zipfile

import pytest
from install_support import CHECKOUT, clean_env, fresh_venv

from dualrag.rulebook import load_bundled

pytestmark = pytest.mark.wheel


def test_the_wheel_carries_the_bundled_rules_manifest_and_prompts(wheelhouse):
    [wheel] = wheelhouse.folder.glob("dualrag-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    rules = {p.relative_to(CHECKOUT / "knowledge").as_posix() for p in (CHECKOUT / "knowledge").rglob("*.md")}
    assert rules and {f"dualrag/_bundled/knowledge/{r}" for r in rules} <= names
    assert "dualrag/_bundled/models/manifest.toml" in names
    data = {p.relative_to(CHECKOUT).as_posix() for p in (CHECKOUT / "dualrag").rglob("*")
            if p.is_file() and p.suffix not in (".py", ".pyc")}  # prompts, report templates, py.typed
    assert "dualrag/prompts/shared.md" in data and data <= names, data - names
    assert not any(n.startswith(("knowledge/", "models/", "tests/")) for n in names)  # nothing top-level


def test_readme_review_command_from_the_wheel_outside_the_checkout(wheelhouse, tmp_path):
    bin_dir = fresh_venv(tmp_path / "venv", wheelhouse.deps_view)
    subprocess.run([sys.executable, "-m", "pip", "--python", str(bin_dir / "python"), "install", "--quiet",
                    "--disable-pip-version-check", "--no-index", "--find-links", str(wheelhouse.folder),
                    wheelhouse.requirement], check=True, capture_output=True)
    readme = (CHECKOUT / "README.md").read_text(encoding="utf-8").splitlines()
    command = shlex.split(next(line for line in readme if line.startswith("dualrag review --diff-file ")).split("#")[0])
    diff = command[command.index("--diff-file") + 1]
    assert diff == "examples/partner-order-mr/change.diff"
    work = tmp_path / "project"  # the example MR's files, nothing else of the checkout
    (work / diff).parent.mkdir(parents=True)
    shutil.copy(CHECKOUT / diff, work / diff)
    env = clean_env(bin_dir, tmp_path / "home")

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(list(args), check=False, cwd=work, env=env, capture_output=True, text=True, timeout=600)

    where = run("python", "-c", "import dualrag._bundled as b; print(b.__file__); print(b.knowledge_dir())")
    assert where.returncode == 0, where.stderr
    assert all(line.startswith(str(tmp_path / "venv")) for line in where.stdout.splitlines())
    review = run(*command)  # the README's first command, as written
    assert review.returncode == 0, review.stderr
    assert "decision: significant_concerns" in review.stdout  # the detectors of the bundled rules fired
    assert "EDI-ACK-001" in review.stdout and "JAVA-MONEY-001" in review.stdout
    assert f"indexing {len(load_bundled())} bundled rules" in review.stderr  # first use, said on stderr
    assert (work / ".dualrag" / ".gitignore").is_file()
    models = run("dualrag", "models", "list")  # the model manifest
    assert models.returncode == 0 and "bge-reranker" in models.stdout, models.stderr
