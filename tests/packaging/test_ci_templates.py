"""The GitLab include (templates/dualrag-review.yml) and the GitHub workflow (examples/ci/) as a
merge-request pipeline runs them: inputs interpolated the way GitLab does, the script lines in one
bash with the variables the platform sets, dualrag installed from the wheel by the job itself, the
loopback GitLab/GitHub and OpenAI doubles on the other end. A real decision comes back, and no
variable is exported empty."""

from __future__ import annotations

import json
import re
import subprocess
import time
from pathlib import Path

import pytest
import yaml
from gitlab_inputs import InputError, render
from install_support import CHECKOUT, Wheelhouse, clean_env, fresh_venv
from vcs_fakes import FakeGitHub, FakeGitLab  # tests/vcs, on the path through conftest.py
from vcs_support import DIFF, GH_TOKEN, TOKEN

from dualrag.rulebook import load_bundled
from dualrag.testing.fake_llm import FakeOpenAI

TEMPLATE = CHECKOUT / "templates" / "dualrag-review.yml"
WORKFLOW = CHECKOUT / "examples" / "ci" / "github-actions.yml"
KEY = "sk-test-key-0123456789"
SOURCE = "https://gitlab.example/tools/dualrag"  # the one input without a default: where dualrag comes from
OURS = ("DUALRAG_", "OPENAI_", "ANTHROPIC_")  # what the job may export; none of it empty


def gitlab_mr_variables(server: FakeGitLab, project_dir: Path) -> dict[str, str]:
    """Predefined variables of a merge-request pipeline (docs.gitlab.com, predefined variables),
    empty ones included: GitLab exports some empty, as a project may leave a variable empty."""
    return {
        "CI": "true", "GITLAB_CI": "true", "CI_PIPELINE_SOURCE": "merge_request_event",
        "CI_SERVER_URL": server.url, "CI_API_V4_URL": f"{server.url}/api/v4", "CI_PROJECT_ID": server.project,
        "CI_PROJECT_PATH": "acme/shop", "CI_PROJECT_DIR": str(project_dir), "CI_COMMIT_SHA": "h" * 40,
        "CI_MERGE_REQUEST_IID": str(server.iid), "CI_MERGE_REQUEST_PROJECT_ID": server.project,
        "CI_MERGE_REQUEST_DIFF_BASE_SHA": "b" * 40, "CI_MERGE_REQUEST_TITLE": "Add Util",
        "CI_MERGE_REQUEST_DESCRIPTION": "", "CI_MERGE_REQUEST_SOURCE_BRANCH_SHA": "", "CI_JOB_TOKEN": "job-token",
        "GIT_DEPTH": "0",
    }


def run_job(config: dict, env: dict[str, str], cwd: Path) -> tuple[subprocess.CompletedProcess[str], dict[str, str]]:
    """The job's script lines in one bash, as the runner runs them (stop at the first failure);
    returns the result and the environment the last line ran with."""
    dump = cwd.parent / "job-env"
    script = "\n".join(["set -eo pipefail", *config["dualrag-review"]["script"], f"env -0 > '{dump}'"])
    proc = subprocess.run(["bash", "-c", script], check=False, cwd=cwd, env=env, capture_output=True, text=True, timeout=600)
    exported = dump.read_text().split("\0") if dump.exists() else []
    return proc, dict(item.split("=", 1) for item in exported if "=" in item)


def empty_ours(env: dict[str, str]) -> list[str]:
    return sorted(k for k, v in env.items() if k.startswith(OURS) and not v)


def approve_all() -> FakeOpenAI:
    server = FakeOpenAI(lambda request: server.chat('{"findings": []}'))
    return server


# ---------------------------------------------------------------------------- rendering, options


def test_renderer_follows_gitlab_input_rules():
    text = TEMPLATE.read_text(encoding="utf-8")
    job = render(text, {"stage": "review", "model": "openai:x", "source": SOURCE})["dualrag-review"]
    assert job["stage"] == "review" and job["image"] == "python:3.12"  # with git: installs from `source`
    assert 'put DUALRAG_LLM "openai:x"' in job["script"][0]
    with pytest.raises(InputError, match="`source` input: required value has not been provided"):
        render(text, {})  # GitLab refuses the pipeline, naming the input, before any job starts
    with pytest.raises(InputError, match="unknown input"):
        render(text, {"modell": "openai:x"})
    with pytest.raises(InputError, match="list of options"):
        render(text, {"fail-on": "sometimes"})
    assert "$[[" not in json.dumps(render(text, {"source": SOURCE}))


def test_the_template_passes_only_options_the_commands_know():
    from dualrag.cli.main import cli

    script = "\n".join(render(TEMPLATE.read_text(encoding="utf-8"), {"source": SOURCE})["dualrag-review"]["script"])
    for words in (("gitlab", "review"), ("index", "rules")):
        command = cli.commands[words[0]].commands[words[1]]
        known = {opt for param in command.params for opt in param.opts}
        [call] = re.findall(rf"dualrag {' '.join(words)}((?:[ \t]+(?:--[a-z-]+|\"[^\"]*\"|[\w.-]+))*)", script)
        used = set(re.findall(r"--[a-z-]+", call))
        assert used and used <= known, used - known


def test_empty_inputs_export_nothing_empty(tmp_path):
    """Default inputs, a project variable left empty, an image that brings dualrag and its store."""
    stub = tmp_path / "image-bin"
    stub.mkdir()
    (stub / "dualrag").write_text("#!/bin/sh\nexit 0\n")  # the image's dualrag: no install attempted
    (stub / "dualrag").chmod(0o755)
    server = FakeGitLab(TOKEN, diff=DIFF)
    try:
        project = tmp_path / "project"
        project.mkdir()
        env = clean_env(stub, tmp_path / "home", **gitlab_mr_variables(server, project), OPENAI_BASE_URL="",
                        DUALRAG_LLM="", DUALRAG_STORE="/opt/dualrag/store", PIP_NO_INDEX="1")
        proc, job_env = run_job(render(TEMPLATE.read_text(encoding="utf-8"), {"source": SOURCE}), env, project)
    finally:
        server.close()
    assert proc.returncode == 0, proc.stderr
    assert empty_ours(job_env) == []
    assert "OPENAI_BASE_URL" not in job_env and "DUALRAG_LLM" not in job_env
    assert job_env["DUALRAG_STORE"] == "/opt/dualrag/store"  # the image's store, kept


def test_the_job_follows_gitlabs_schema_rules():
    """The rules of GitLab's CI schema (app/assets/javascripts/editor/schema/ci.json) that the job's
    keys meet: `allow_failure` is a boolean or `exit_codes` with at least one code; artifact paths and
    cache paths are non-empty lists of strings; `rules` entries are mappings; every input has a
    `description` or an `options` list, and `default`s are strings for string inputs."""
    text = TEMPLATE.read_text(encoding="utf-8")
    header = yaml.safe_load(text.partition("\n---\n")[0])
    for name, rule in header["spec"]["inputs"].items():
        assert set(rule) <= {"default", "description", "options", "regex", "type"}, name
        assert "default" not in rule or isinstance(rule["default"], str), name
    job = render(text, {"source": SOURCE})["dualrag-review"]
    allow = job.get("allow_failure", False)
    assert isinstance(allow, bool) or (isinstance(allow, dict) and set(allow) == {"exit_codes"} and (
        isinstance(allow["exit_codes"], int) or (allow["exit_codes"] and all(isinstance(c, int) for c in allow["exit_codes"]))))
    assert job["artifacts"]["paths"] and all(isinstance(x, str) for x in job["artifacts"]["paths"])
    assert job["cache"]["paths"] and all(isinstance(r, dict) for r in job["rules"])
    assert set(job) <= {"stage", "image", "rules", "variables", "cache", "script", "artifacts", "allow_failure"}


def _install_line(source: str, tmp_path: Path, **env: str) -> list[str]:
    """What the job's install step runs for `source`, with a `python` that records its arguments."""
    stub = tmp_path / "stub-bin"
    stub.mkdir(exist_ok=True)
    (stub / "python").write_text('#!/bin/sh\nprintf "%s\\n" "$@" > "$(dirname "$0")/args"\n')
    (stub / "python").chmod(0o755)
    script = render(TEMPLATE.read_text(encoding="utf-8"), {"source": source, "ref": "v1.2"})["dualrag-review"]["script"]
    [install] = [step for step in script if "pip install" in step]
    subprocess.run(["bash", "-eo", "pipefail", "-c", install], check=True, cwd=tmp_path,
                   env={"PATH": f"{stub}:/usr/bin:/bin", **env})
    return (stub / "args").read_text().splitlines()


def test_the_install_line_reads_the_source_as_pip_does(tmp_path):
    gitlab = {"CI_SERVER_URL": "https://gitlab.example", "CI_SERVER_PROTOCOL": "https", "CI_JOB_TOKEN": "jt-123"}
    assert _install_line(SOURCE, tmp_path, **gitlab)[-1] == \
        "dualrag @ git+https://gitlab-ci-token:jt-123@gitlab.example/tools/dualrag@v1.2"  # this GitLab: job token
    assert _install_line("https://other.example/tools/dualrag/", tmp_path, **gitlab)[-1] == \
        "dualrag @ git+https://other.example/tools/dualrag@v1.2"  # another server: no token sent there
    assert _install_line("dualrag==0.1.0", tmp_path)[-1] == "dualrag==0.1.0"  # a package registry
    wheel = "https://gitlab.example/api/v4/projects/7/packages/generic/dualrag/0.1.0/dualrag-0.1.0-py3-none-any.whl"
    assert _install_line(wheel, tmp_path, **gitlab)[-1] == wheel
    from packaging.requirements import Requirement

    req = Requirement(_install_line(SOURCE, tmp_path)[-1])  # a PEP 508 direct reference pip accepts
    assert req.name == "dualrag" and req.url == "git+https://gitlab.example/tools/dualrag@v1.2"


def _project_repository(folder: Path) -> Path:
    """This working tree as the dualrag project's git repository (what `source` points at), branch main."""
    import shutil

    from install_support import _working_tree_files

    for name in _working_tree_files():
        path = CHECKOUT / name
        if path.is_file():
            (folder / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(path, folder / name)
    git = ["git", "-C", str(folder), "-c", "user.name=t", "-c", "user.email=t@example.com"]
    subprocess.run([*git, "init", "-q", "-b", "main"], check=True)
    subprocess.run([*git, "add", "-A"], check=True)
    subprocess.run([*git, "commit", "-q", "-m", "dualrag"], check=True)
    return folder


# ---------------------------------------------------------------------------- the real thing


@pytest.mark.wheel
def test_gitlab_include_installs_from_the_project_and_reviews(wheelhouse: Wheelhouse, tmp_path):
    """The include as docs/ci.md shows it: `source` is the dualrag project's git URL (here a file://
    clone of this working tree), installed by the job's own pip line from git at `ref`."""
    bin_dir = fresh_venv(tmp_path / "venv", wheelhouse)  # python:3.12: python, pip and git, no dualrag
    source = _project_repository(tmp_path / "dualrag-project")
    project = tmp_path / "project"
    project.mkdir()
    gitlab, llm = FakeGitLab(TOKEN, diff=DIFF), approve_all()
    with llm:
        try:
            config = render(TEMPLATE.read_text(encoding="utf-8"), {
                "source": source.as_uri(), "model": "openai:gpt-4.1-mini", "provider-base-url": llm.base_url,
                "api-key-variable": "LLM_API_KEY",
            })  # `ref` as default: main
            env = clean_env(
                bin_dir, tmp_path / "home", **gitlab_mr_variables(gitlab, project),
                DUALRAG_GITLAB_TOKEN=TOKEN, LLM_API_KEY=KEY,  # masked CI/CD variables
                OPENAI_BASE_URL="", ANTHROPIC_BASE_URL="",  # left empty in the project settings
                # no index: the dependencies come from the test environment (a CI image has them from
                # PyPI), and so does the build backend; dualrag itself only from `source`
                PIP_NO_INDEX="1", PIP_NO_BUILD_ISOLATION="0",  # pip reads it inverted: 0 = --no-build-isolation
            )
            started = time.perf_counter()
            proc, job_env = run_job(config, env, project)
            took = time.perf_counter() - started
            assert (bin_dir / "dualrag").is_file(), proc.stderr  # installed by the job, from git
            assert proc.returncode == 0, proc.stdout + proc.stderr
            review = json.loads((project / "dualrag-review.json").read_text())
            assert review["decision"] not in ("no_verdict", None), proc.stdout + proc.stderr
            assert llm.requests and all(r.headers.get("authorization") == f"Bearer {KEY}" for r in llm.requests)
            assert f"decision {review['decision']}" in proc.stdout and len(gitlab.summary_notes()) == 1
            assert (project / "gl-code-quality-report.json").is_file() and (project / "dualrag.sarif").is_file()
            assert "<html" in (project / "dualrag-report.html").read_text(encoding="utf-8")  # --html, an artifact
            assert f"dualrag: indexing {len(load_bundled())} bundled rules" in proc.stderr  # index rules --bundled, on stderr
            # with the real default embedder: the bundled rules' vectors ship with the package
            indexed = re.search(r"indexed \d+ bundled rules in ([\d.]+) s", proc.stderr)
            assert indexed and float(indexed.group(1)) < 10, proc.stderr
            print(f"job with install from git: {took:.1f} s; {indexed.group(0)}")
            assert empty_ours(job_env) == [] and job_env["OPENAI_BASE_URL"] == llm.base_url
            assert job_env["OPENAI_API_KEY"] == KEY and "ANTHROPIC_BASE_URL" not in job_env

            # the next pipeline: dualrag is there now (as in an image), so nothing is installed
            config = render(TEMPLATE.read_text(encoding="utf-8"), {
                "source": (tmp_path / "nothing-here").as_uri(), "model": "openai:gpt-4.1-mini",
                "provider-base-url": llm.base_url, "api-key-variable": "LLM_API_KEY"})
            again, _ = run_job(config, env, project)
            assert again.returncode == 0, again.stderr
            assert "indexing" not in again.stderr and "posted 0" in again.stdout
        finally:
            gitlab.close()


def _github_expressions(text: str, values: dict[str, str]) -> str:
    """`${{ secrets.X }}` and the like, for the expressions the workflow's run steps use."""
    return re.sub(r"\$\{\{\s*([\w.]+)\s*\}\}", lambda m: values[m.group(1)], text)


@pytest.mark.wheel
def test_github_workflow_installs_the_wheel_and_reviews(wheelhouse: Wheelhouse, tmp_path):
    bin_dir = fresh_venv(tmp_path / "venv", wheelhouse)
    (bin_dir / "pip").write_text('#!/bin/sh\nexec "$(dirname "$0")/python" -m pip "$@"\n')  # setup-python's pip
    (bin_dir / "pip").chmod(0o755)
    workspace = tmp_path / "workspace"
    workspace.mkdir()
    event = tmp_path / "event.json"
    github, llm = FakeGitHub(GH_TOKEN, diff=DIFF), approve_all()
    event.write_text(json.dumps({"pull_request": {"number": github.number}}))
    with llm:
        try:
            workflow = yaml.safe_load(WORKFLOW.read_text(encoding="utf-8"))
            secrets = {"secrets.GITHUB_TOKEN": GH_TOKEN, "secrets.OPENAI_API_KEY": KEY,
                       "vars.DUALRAG_SOURCE": "dualrag"}  # the repository variable: here, the built wheel
            env = clean_env(bin_dir, tmp_path / "home", CI="true", GITHUB_ACTIONS="true",
                            GITHUB_EVENT_NAME="pull_request", GITHUB_EVENT_PATH=str(event),
                            GITHUB_API_URL=github.url, GITHUB_REPOSITORY=github.repo, GITHUB_WORKSPACE=str(workspace),
                            OPENAI_BASE_URL=llm.base_url,  # a self-hosted runner's endpoint: no network here
                            DUALRAG_EMBEDDING__MODEL="hash",
                            PIP_NO_INDEX="1", PIP_FIND_LINKS=str(wheelhouse.folder))
            for step in workflow["jobs"]["review"]["steps"]:
                if "run" not in step:
                    continue  # checkout, setup-python, upload: the runner's part
                step_env = {k: _github_expressions(str(v), secrets) for k, v in (step.get("env") or {}).items()}
                proc = subprocess.run(["bash", "-eo", "pipefail", "-c", step["run"]], check=False, cwd=workspace,
                                      env={**env, **step_env}, capture_output=True, text=True, timeout=600)
                assert proc.returncode == 0, proc.stdout + proc.stderr
            decision = re.search(r"decision (\w+)", proc.stdout)
            assert decision and decision.group(1) != "no_verdict" and llm.requests, proc.stdout
            assert github.summary_comments() and (workspace / "dualrag.sarif").is_file()
        finally:
            github.close()
