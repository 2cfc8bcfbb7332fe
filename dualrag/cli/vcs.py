"""`dualrag gitlab review` and `dualrag github review`: the merge-request pipeline stage.

Both read their target from the CI environment (flags override), review the change, post inline
comments and one summary, set the approval, and keep threads in step on re-review. Tokens come
only from the environment and never appear in output. `--fail-on` exits 3 on a blocking decision.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import click

from dualrag.cli.options import (
    BLOCKING_EXIT,
    check_writable,
    config_option,
    debug_option,
    fail_on_option,
    load_cli_settings,
    model_options,
    options_group,
    store_option,
    warn_if_unreviewed,
)
from dualrag.config import Settings
from dualrag.errors import SourceError, UserError
from dualrag.feedback import FeedbackScope, repository_key
from dualrag.publish.render import render
from dualrag.review.decision import at_or_above
from dualrag.review.model import Review
from dualrag.source.git import GitRepo
from dualrag.vcs.http import RetryPolicy
from dualrag.vcs.model import PublishResult
from dualrag.vcs.stage import DEFAULT_BREAK_GLASS, ReviewFn
from dualrag.vcs.state import MRState

_common = options_group(
    click.option("--repo", metavar="DIR", help="CI checkout to take the diff from (default: $CI_PROJECT_DIR "
                 "or $GITHUB_WORKSPACE when it is a git repository; else the API diff)."),
    click.option("--api-diff", is_flag=True, help="Take the diff from the platform API even with a checkout."),
    config_option,
    store_option,
    model_options,
    fail_on_option(default="never"),
    click.option("--break-glass", "break_glass", metavar="PHRASE", default=DEFAULT_BREAK_GLASS,
                 envvar="DUALRAG_BREAK_GLASS", show_default=True,
                 help="A comment with this forces approval when its author is not the MR's, has the [vcs] "
                      "access, and wrote it on the head commit ('' disables)."),
    click.option("--dry-run", is_flag=True, help="Read the merge request and plan, write nothing."),
    click.option("--sarif", "sarif_out", metavar="FILE", help="Also write a SARIF 2.1.0 report."),
    click.option("--codequality", "cq_out", metavar="FILE", help="Also write a GitLab Code Quality report."),
    click.option("--json", "json_out", metavar="FILE", help="Also write the review JSON."),
    click.option("--markdown", "md_out", metavar="FILE", help="Also write the Markdown summary."),
    click.option("--html", "html_out", metavar="FILE",
                 help="Also write the HTML report; the summary links it (GitLab: keep FILE as a job artifact; "
                      "GitHub: upload it as an artifact of the run)."),
    click.option("--telemetry", metavar="FILE", envvar="DUALRAG_TELEMETRY",
                 help="Append JSONL events (LLM requests, usage, publish, break glass) to FILE."),
    click.option("--retries", type=click.IntRange(1, 10), default=4, show_default=True,
                 help="Attempts per API call on 409/429/5xx."),
    click.option("--retry-budget", type=click.FloatRange(0), default=60.0, show_default=True,
                 help="Seconds all retries of one run may wait."),
    click.option("--timeout", type=click.FloatRange(1), default=30.0, show_default=True,
                 help="Seconds per API call."),
    debug_option,
)


def _token(name: str) -> str:
    token = os.environ.get(name, "").strip()
    if not token:
        raise UserError(f"no token: set {name} (a masked CI/CD variable or secret)")
    return token


def _require(value: str | None, what: str, env: str) -> str:
    if not value:
        raise UserError(f"{what} unknown: set {env} (run in a merge-request pipeline) or pass the flag")
    return value


def _checkout(repo: str | None, api_diff: bool, env: str) -> GitRepo | None:
    if api_diff:
        return None
    path = repo or os.environ.get(env)
    if not path:
        return None
    if repo and not os.path.isdir(repo) and re.fullmatch(r"[\w.-]+(/[\w.-]+)+", repo):  # `--repo acme/shop`
        where = "--repository OWNER/NAME" if env == "GITHUB_WORKSPACE" else "--project-id"
        raise UserError(f"--repo is the checkout folder and '{repo}' is none; the platform's repository is {where}")
    try:
        return GitRepo(path)
    except SourceError:
        if repo:
            raise
        return None


def _feedback_scope(settings: Settings, project: str, mr: str) -> FeedbackScope | None:
    """The repository whose feedback this MR reads and adds to: `[feedback] repository`, else the project path."""
    key = repository_key(settings.feedback.repository or project)
    return FeedbackScope(key, mr) if key and settings.feedback.enabled else None


def _review_fn(settings: Settings, sink, feedback: FeedbackScope | None = None) -> ReviewFn:
    """The review function of the stage (tests put a fixed reviewer in its place)."""
    from dualrag.pipeline import RunHooks, mr_review_fn

    return mr_review_fn(settings, hooks=RunHooks(telemetry=sink), feedback=feedback)


def _run(adapter, settings: Settings, git: GitRepo | None, base_sha: str | None, *, fail_on, break_glass, dry_run,
         sarif_out, cq_out, json_out, md_out, html_out, telemetry, feedback: FeedbackScope | None = None,
         state: MRState | None = None) -> int:
    from dualrag.llm.telemetry import JsonlSink
    from dualrag.pipeline import review_merge_request
    from dualrag.vcs.report import report_url

    for path in (sarif_out, cq_out, json_out, md_out, html_out):
        check_writable(path)
    sink = JsonlSink(telemetry) if telemetry else None
    try:
        run = review_merge_request(adapter, settings, git=git, base_sha=base_sha, state=state,
                                   break_glass=break_glass, dry_run=dry_run, sink=sink, feedback=feedback,
                                   report_url=report_url(adapter.platform, html_out),
                                   review_fn=_review_fn(settings, sink, feedback))
    finally:
        adapter.client.close()
        if sink:
            sink.close()
    review, result = run.review, run.result
    for path, fmt in ((sarif_out, "sarif"), (cq_out, "codequality"), (json_out, "json"), (md_out, "markdown"),
                      (html_out, "html")):
        if path:
            try:
                Path(path).write_text(render(review, fmt, changes=run.changes), encoding="utf-8")
            except OSError as exc:
                raise UserError(f"cannot write report to {path}: {exc.strerror}") from None
    _print(adapter.platform, result, adapter, list(run.notes), dry_run, review)
    warn_if_unreviewed(review)
    if fail_on != "never" and at_or_above(result.decision, fail_on):
        click.echo(f"dualrag: decision {result.decision} fails the job (--fail-on {fail_on})", err=True)
        return BLOCKING_EXIT
    return 0


def _print(platform: str, r: PublishResult, adapter, notes: list[str], dry_run: bool, review: Review) -> None:
    c = adapter.client
    verb = "would post" if dry_run else "posted"
    click.echo(f"dualrag {platform}: decision {r.decision} · {verb} {r.posted} · kept {r.kept} · "
               f"resolved {r.resolved_fixed} fixed + {r.resolved_by_reply} by reply · reopened {r.reopened} · "
               f"answered {r.answered} · conceded {r.conceded} · unanchored {len(r.unanchored)} · "
               f"summary {r.summary} · approval {r.approval} · {c.calls} API calls ({c.writes} writes) "
               f"in {c.elapsed_s * 1000:.0f} ms")
    if review.usage.calls:
        u = review.usage
        cost = f" · ${u.cost_usd:.4f}" if u.cost_usd else ""
        click.echo(f"dualrag {platform}: this run {u.calls} LLM request(s) · {u.input_tokens} tokens in "
                   f"(cache read {u.cache_read_tokens}) · {u.output_tokens} out{cost}")
    if r.break_glass:
        click.echo(f"dualrag {platform}: break glass by @{r.break_glass.author} on {r.break_glass.commit[:12]} "
                   f"(note {r.break_glass.note_id}): approval forced")
    for note in notes + r.notes:  # for the operator: the MR summary leaves them out
        click.echo(f"note: {note}", err=True)


def _settings(git: GitRepo | None, token_env: str, config_file: str | None, store: str | None, llm: str | None,
              offline: bool, reranker: str | None, base: str | None = None) -> Settings:
    # A custom --token-env variable may start with DUALRAG_ without being a setting.
    return load_cli_settings(config_file, git, store=store, llm=llm, offline=offline, reranker=reranker,
                             allowed_env=(token_env,), base=base, ci=True)


def _target_settings(adapter, repo: str | None, env: str, token_env: str, config_file: str | None,
                     store: str | None, llm: str | None, offline: bool, reranker: str | None,
                     base_sha: str | None) -> tuple[Settings, MRState]:
    """The settings of the MR stage: the repository's configuration from the target side (the MR's
    diff base), never from the checkout, which is the change under review. The checkout is used
    for reading it even with --api-diff. The trusted layers were checked before any API call."""
    try:
        state = adapter.load()
    except BaseException:
        adapter.client.close()
        raise
    config_repo = _checkout(repo, False, env)
    base = base_sha or state.base_sha or None
    if config_repo is not None and base is not None:
        try:
            base = config_repo.verify_ref(base)
        except SourceError:
            click.echo(f"dualrag: warning: the target commit {base[:12]} is not in the checkout: the repository's "
                       "configuration is not read", err=True)
            config_repo = None
    return _settings(config_repo, token_env, config_file, store, llm, offline, reranker, base=base), state


@click.group()
def gitlab() -> None:
    """GitLab merge requests (run in a merge-request pipeline)."""


@gitlab.command("review")
@click.option("--server-url", envvar="CI_SERVER_URL", metavar="URL", help="GitLab URL [$CI_SERVER_URL].")
@click.option("--project-id", envvar="CI_PROJECT_ID", metavar="ID", help="Project id or path [$CI_PROJECT_ID].")
@click.option("--mr-iid", envvar="CI_MERGE_REQUEST_IID", type=int, metavar="IID",
              help="Merge request IID [$CI_MERGE_REQUEST_IID].")
@click.option("--base-sha", envvar="CI_MERGE_REQUEST_DIFF_BASE_SHA", metavar="SHA",
              help="Diff base [$CI_MERGE_REQUEST_DIFF_BASE_SHA]; default: the MR's diff_refs.")
@click.option("--token-env", default="DUALRAG_GITLAB_TOKEN", show_default=True, metavar="NAME",
              help="Environment variable holding the API token.")
@_common
@click.pass_context
def gitlab_review(ctx, server_url, project_id, mr_iid, base_sha, token_env, repo, api_diff, config_file, store,
                  llm, offline, reranker, retries, retry_budget, timeout, **kw) -> None:
    """Review the merge request of this pipeline and publish to it."""
    from dualrag.vcs.gitlab import GitLabAdapter, GitLabTarget

    target = GitLabTarget(_require(server_url, "GitLab URL", "CI_SERVER_URL"),
                          _require(project_id, "project", "CI_PROJECT_ID"),
                          int(_require(str(mr_iid) if mr_iid else None, "merge request", "CI_MERGE_REQUEST_IID")))
    git = _checkout(repo, api_diff, "CI_PROJECT_DIR")
    _settings(None, token_env, config_file, store, llm, offline, reranker)  # a bad flag or variable: exit 2 now
    adapter = GitLabAdapter(target, _token(token_env), retry=RetryPolicy(attempts=retries, budget_s=retry_budget),
                            timeout_s=timeout)
    settings, state = _target_settings(adapter, repo, "CI_PROJECT_DIR", token_env, config_file, store, llm, offline,
                                       reranker, base_sha)
    project = os.environ.get("CI_PROJECT_PATH") or str(target.project_id)
    ctx.exit(_run(adapter, settings, git, base_sha, feedback=_feedback_scope(settings, project, f"!{target.mr_iid}"),
                  state=state, **kw))


@click.group()
def github() -> None:
    """GitHub pull requests (run in a pull_request workflow)."""


@github.command("review")
@click.option("--api-url", envvar="GITHUB_API_URL", default="https://api.github.com", show_default=True,
              metavar="URL", help="API URL [$GITHUB_API_URL].")
@click.option("--repository", envvar="GITHUB_REPOSITORY", metavar="OWNER/NAME",
              help="The GitHub repository (the checkout folder is --repo) [$GITHUB_REPOSITORY].")
@click.option("--pr", "pr_number", type=int, metavar="N", help="Pull request number (default: from $GITHUB_EVENT_PATH).")
@click.option("--bot", default="github-actions[bot]", envvar="DUALRAG_GITHUB_BOT", show_default=True,
              help="Login the token posts as (its comments are dualrag's).")
@click.option("--token-env", default="GITHUB_TOKEN", show_default=True, metavar="NAME",
              help="Environment variable holding the API token.")
@_common
@click.pass_context
def github_review(ctx, api_url, repository, pr_number, bot, token_env, repo, api_diff, config_file, store,
                  llm, offline, reranker, retries, retry_budget, timeout, **kw) -> None:
    """Review the pull request of this workflow run and publish to it."""
    from dualrag.vcs.github import GitHubAdapter, GitHubTarget, pr_number_from_event

    number = pr_number or pr_number_from_event(os.environ.get("GITHUB_EVENT_PATH"))
    target = GitHubTarget(api_url, _require(repository, "repository", "GITHUB_REPOSITORY"), number)
    git = _checkout(repo, api_diff, "GITHUB_WORKSPACE")
    _settings(None, token_env, config_file, store, llm, offline, reranker)  # a bad flag or variable: exit 2 now
    adapter = GitHubAdapter(target, _token(token_env), bot=bot,
                            retry=RetryPolicy(attempts=retries, budget_s=retry_budget), timeout_s=timeout)
    settings, state = _target_settings(adapter, repo, "GITHUB_WORKSPACE", token_env, config_file, store, llm, offline,
                                       reranker, None)
    ctx.exit(_run(adapter, settings, git, None, feedback=_feedback_scope(settings, target.repository, f"#{number}"),
                  state=state, **kw))

