"""The GitLab include (templates/dualrag-review.yml) and the GitHub workflow (examples/ci/) as a
merge-request pipeline runs them: validated against GitLab's CI schema and SchemaStore's workflow
schema, inputs interpolated the way GitLab does, the script lines in one bash with the variables the
platform sets, dualrag installed by the job's own pip line from a git URL of this project, the
loopback GitLab/GitHub and OpenAI doubles on the other end. A real decision comes back, and no
variable is exported empty."""

from __future__ import annotations

import json
import re
import subprocess
import textwrap
import time
from pathlib import Path
from typing import Any

import pytest
import yaml
from ci_schemas import load_yaml12, schema_errors
from gitlab_inputs import InputError, render
from install_support import CHECKOUT, clean_env, fresh_venv
from vcs_fakes import FakeGitHub, FakeGitLab  # tests/vcs, on the path through conftest.py
from vcs_support import DIFF, GH_TOKEN, TOKEN

from dualrag.rulebook import load_bundled
from dualrag.testing.fake_llm import FakeOpenAI

TEMPLATE = CHECKOUT / "templates" / "dualrag-review.yml"
WORKFLOW = CHECKOUT / "examples" / "ci" / "github-actions.yml"
DOCS = CHECKOUT / "docs" / "ci.md"
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


def _docs_yaml() -> list[Any]:
    """The YAML examples of docs/ci.md's GitLab section as a reader copies them (the list item's
    indentation removed)."""
    text = DOCS.read_text(encoding="utf-8").split("\n## GitHub Actions", 1)[0]
    blocks = re.findall(r"^[ \t]*```yaml\n(.*?)^[ \t]*```", text, re.DOTALL | re.MULTILINE)
    assert len(blocks) >= 2, "docs/ci.md: the include and the publishing job"
    return [yaml.safe_load(textwrap.dedent(block)) for block in blocks]


def _docs_include() -> dict[str, Any]:
    [block] = [b for b in _docs_yaml() if "include" in b]
    [include] = block["include"]
    assert include["remote"].endswith("/-/raw/main/templates/dualrag-review.yml")  # this file
    return include


def test_the_include_validates_against_gitlabs_ci_schema():
    """GitLab's own CI schema (its pipeline editor's), on the file as committed (both YAML documents)
    and on what the including project gets: defaults, every input set, the docs' inputs; and on the
    docs' own YAML (the `include:` and the publishing job)."""
    text = TEMPLATE.read_text(encoding="utf-8")
    header, _, body = text.partition("\n---\n")
    inputs = yaml.safe_load(header)["spec"]["inputs"]
    every = {"model": "anthropic:claude-sonnet-4-6", "provider-base-url": "http://llm.internal:8000/v1",
             "api-key-variable": "ANTHROPIC_API_KEY", "gitlab-token-variable": "BOT_TOKEN", "store": "/cache/store",
             "qdrant-url": "http://qdrant:6333", "fail-on": "never", "image": "registry.example/dualrag/runner:1",
             "source": "dualrag==0.1.0", "ref": "v0.1.0", "stage": "review"}
    assert set(every) == set(inputs)  # a new input is set here too
    documents = {
        "header as committed": yaml.safe_load(header),
        "job as committed": yaml.safe_load(body),
        "rendered with the defaults": render(text, {"source": SOURCE}),
        "rendered with every input set": render(text, every),
        "rendered with the docs' inputs": render(text, _docs_include()["inputs"]),
        **{f"docs/ci.md example {i + 1}": block for i, block in enumerate(_docs_yaml())},
    }
    problems = {name: schema_errors("gitlab-ci", doc) for name, doc in documents.items()}
    assert not any(problems.values()), {name: errs for name, errs in problems.items() if errs}


def test_gitlabs_schema_rejects_what_the_editor_rejects():
    """The schema check can fail: the issue's `allow_failure: {exit_codes: []}`, a misspelt key, a
    script line that YAML read as a mapping (an unquoted `: `), an input default of the wrong type."""
    job = render(TEMPLATE.read_text(encoding="utf-8"), {"source": SOURCE})["dualrag-review"]
    assert schema_errors("gitlab-ci", {"dualrag-review": job}) == []
    for broken, why in [({**job, "allow_failure": {"exit_codes": []}}, "allow_failure"),
                        ({**job, "artefacts": job["artifacts"]}, "artefacts"),
                        ({**job, "script": [{"echo decision": "$X"}]}, "script")]:
        errors = schema_errors("gitlab-ci", {"dualrag-review": broken})
        assert errors and any(why in e for e in errors), errors
    assert schema_errors("gitlab-ci", {"spec": {"inputs": {"n": {"type": "number", "default": "3"}}}})
    with pytest.raises(InputError, match="unknown keys: defualt"):  # GitLab's own check, past the schema
        render("spec:\n  inputs:\n    x:\n      defualt: ''\n---\njob: {script: [x]}\n", {})


def test_the_workflow_validates_against_the_github_workflow_schema():
    workflow = load_yaml12(WORKFLOW.read_text(encoding="utf-8"))
    assert schema_errors("github-workflows", workflow) == []
    # the check can fail: YAML 1.1 reads `on:` as true, and a job needs `runs-on`
    assert schema_errors("github-workflows", yaml.safe_load(WORKFLOW.read_text(encoding="utf-8")))
    jobs = {name: {k: v for k, v in job.items() if k != "runs-on"} for name, job in workflow["jobs"].items()}
    assert schema_errors("github-workflows", {**workflow, "jobs": jobs})


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


# ---------------------------------------------------------------------------- the real thing


@pytest.mark.wheel
def test_gitlab_include_installs_from_the_project_and_reviews(deps_view: Path, project_repository: Path, tmp_path):
    """The include as docs/ci.md shows it: `source` is the dualrag project's git URL (here a file://
    clone of this working tree), installed by the job's own pip line from git at `ref`."""
    bin_dir = fresh_venv(tmp_path / "venv", deps_view)  # python:3.12: python, pip and git, no dualrag
    source = project_repository
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


def _installed_from(bin_dir: Path) -> dict[str, Any]:
    """What pip recorded about where the venv's dualrag came from (PEP 610 direct_url.json)."""
    [record] = (bin_dir.parent / "lib").glob("python*/site-packages/dualrag-*.dist-info/direct_url.json")
    return json.loads(record.read_text(encoding="utf-8"))


@pytest.mark.wheel
def test_github_workflow_installs_from_a_git_url_and_reviews(deps_view: Path, project_repository: Path, tmp_path):
    """The workflow's run steps as written, DUALRAG_SOURCE in docs/ci.md's git form (a file:// clone
    of this working tree at `main` in place of github.com at a tag), a fresh venv as setup-python
    leaves it, the real default embedder, loopback GitHub and OpenAI."""
    documented = re.search(r"`(dualrag @ git\+https://github\.com/<owner>/dualrag@<tag>)`",
                           DOCS.read_text(encoding="utf-8"))
    assert documented, "docs/ci.md: the DUALRAG_SOURCE example"
    source = documented.group(1).replace("https://github.com/<owner>/dualrag", project_repository.as_uri())
    source = source.replace("<tag>", "main")
    bin_dir = fresh_venv(tmp_path / "venv", deps_view)
    (bin_dir / "pip").write_text('#!/bin/sh\nexec "$(dirname "$0")/python" -m pip "$@"\n')  # setup-python's pip
    (bin_dir / "pip").chmod(0o755)
    workspace = tmp_path / "workspace"
    workspace.mkdir()
    event = tmp_path / "event.json"
    github, llm = FakeGitHub(GH_TOKEN, diff=DIFF), approve_all()
    event.write_text(json.dumps({"pull_request": {"number": github.number}}))
    with llm:
        try:
            workflow = load_yaml12(WORKFLOW.read_text(encoding="utf-8"))
            secrets = {"secrets.GITHUB_TOKEN": GH_TOKEN, "secrets.OPENAI_API_KEY": KEY,
                       "vars.DUALRAG_SOURCE": source}  # the repository variable
            env = clean_env(bin_dir, tmp_path / "home", CI="true", GITHUB_ACTIONS="true",
                            GITHUB_EVENT_NAME="pull_request", GITHUB_EVENT_PATH=str(event),
                            GITHUB_API_URL=github.url, GITHUB_REPOSITORY=github.repo, GITHUB_WORKSPACE=str(workspace),
                            OPENAI_BASE_URL=llm.base_url,  # a self-hosted runner's endpoint: no network here
                            # dualrag only from the git URL; its dependencies and the build backend from the
                            # test environment (a runner has them from PyPI)
                            PIP_NO_INDEX="1", PIP_NO_BUILD_ISOLATION="0")  # pip reads it inverted: 0 = off
            runs = [step for step in workflow["jobs"]["review"]["steps"] if "run" in step]  # the rest: the runner's
            assert [s["run"].split()[:2] for s in runs] == [["pip", "install"], ["dualrag", "github"]]
            started = time.perf_counter()
            for step in runs:
                step_env = {k: _github_expressions(str(v), secrets) for k, v in (step.get("env") or {}).items()}
                proc = subprocess.run(["bash", "-eo", "pipefail", "-c", step["run"]], check=False, cwd=workspace,
                                      env={**env, **step_env}, capture_output=True, text=True, timeout=600)
                assert proc.returncode == 0, proc.stdout + proc.stderr
                if step is runs[0]:
                    origin = _installed_from(bin_dir)  # installed by the step, from the git URL
                    assert origin["url"] == project_repository.as_uri() and origin["vcs_info"]["vcs"] == "git"
                    assert origin["vcs_info"]["requested_revision"] == "main"
            print(f"workflow with install from git: {time.perf_counter() - started:.1f} s")
            decision = re.search(r"decision (\w+)", proc.stdout)
            assert decision and decision.group(1) != "no_verdict" and llm.requests, proc.stdout
            assert github.summary_comments() and (workspace / "dualrag.sarif").is_file()
            assert re.search(r"indexed \d+ bundled rules", proc.stderr), proc.stderr  # the real default embedder
        finally:
            github.close()


def test_github_workflow_stops_at_the_install_naming_the_variable(tmp_path):
    [install] = [s for s in load_yaml12(WORKFLOW.read_text(encoding="utf-8"))["jobs"]["review"]["steps"]
                 if "pip install" in s.get("run", "")]
    proc = subprocess.run(["bash", "-eo", "pipefail", "-c", install["run"]], check=False, cwd=tmp_path,
                          env={"PATH": "/usr/bin:/bin", "DUALRAG_SOURCE": ""}, capture_output=True, text=True)
    assert proc.returncode != 0 and "set the repository variable DUALRAG_SOURCE" in proc.stderr
