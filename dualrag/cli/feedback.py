"""`dualrag feedback list|forget|stats`: what reviewers told dualrag on earlier merge requests.

Records are written by `dualrag gitlab review` / `github review` (dualrag/vcs/feedback.py) into the
store's `feedback_<repository>` collections; reviews then drop findings like the dismissed ones.
"""

from __future__ import annotations

import json
from collections import Counter

import click

from dualrag.cli.options import config_option, debug_option, load_cli_settings, renamed_option, store_option
from dualrag.errors import UserError

FMT = click.Choice(["text", "json"])
# `--repo` is a folder on every other command: the key of the recorded feedback has its own name
# (the old `--repo NAME` still works, hidden).
repo_option = renamed_option("--repository", "--repo", "repo", metavar="KEY",
                             help="Repository the feedback was recorded for, e.g. group/project (default: "
                                  "[feedback] repository, else the only one recorded).")


@click.group("feedback")
def feedback() -> None:
    """Dismissals and acceptances recorded from merge-request threads, per repository."""


def _open(config_file: str | None, store: str | None):
    from dualrag.store.feedback import open_feedback_store

    settings = load_cli_settings(config_file, store=store)
    return settings, open_feedback_store(settings.store, settings.qdrant)


def _repository(fs, settings, repo: str | None) -> str:
    from dualrag.feedback import repository_key

    known = fs.repositories()
    wanted = repository_key(repo or settings.feedback.repository) if (repo or settings.feedback.repository) else None
    if wanted is None:
        if len(known) == 1:
            return known[0]
        raise UserError(f"name the repository with --repository (recorded: {', '.join(known) or 'none'})")
    if wanted not in known:
        raise UserError(f"no feedback for repository '{wanted}' in store {fs.location} "
                        f"(recorded: {', '.join(known) or 'none'})")
    return wanted


@feedback.command("list")
@repo_option
@click.option("--rule", metavar="RULE", help="Only this rule id (or category:NAME).")
@click.option("--outcome", metavar="OUTCOME", help="Only this outcome (wont_fix, fixed, ...).")
@click.option("--format", "fmt", type=FMT, default="text", show_default=True)
@config_option
@store_option
@debug_option
def feedback_list(repo, rule, outcome, fmt, config_file, store) -> None:
    """The records of a repository, oldest first."""
    settings, fs = _open(config_file, store)
    with fs:
        key = _repository(fs, settings, repo)
        rows = fs.records(key)
    rows = [(pid, r) for pid, r, _ in rows
            if (rule is None or (r.rule_id or f"category:{r.category}") == rule)
            and (outcome is None or str(r.outcome) == outcome)]
    if fmt == "json":
        click.echo(json.dumps([{"id": pid, **r.model_dump(mode="json")} for pid, r in rows], ensure_ascii=False,
                              indent=2))
        return
    for pid, r in rows:
        click.echo(f"{pid[:8]}  {r.recorded_at[:10]}  {r.outcome!s:<16} {r.mr or '-':<6} "
                   f"{r.rule_id or 'category:' + r.category}  {r.path}: {' '.join(r.title.split())}")
    click.echo(f"{len(rows)} record(s) for {key}", err=True)


@feedback.command("forget")
@click.argument("ids", nargs=-1)
@repo_option
@click.option("--rule", metavar="RULE", help="Forget every record of this rule id (or category:NAME).")
@click.option("--all", "everything", is_flag=True, help="Forget every record of the repository.")
@config_option
@store_option
@debug_option
def feedback_forget(ids, repo, rule, everything, config_file, store) -> None:
    """Forget records by ID (or a unique prefix, as `list` shows), by --rule, or --all."""
    if not ids and rule is None and not everything:
        raise UserError("say what to forget: record IDs, --rule RULE or --all")
    settings, fs = _open(config_file, store)
    with fs:
        key = _repository(fs, settings, repo)
        gone = fs.forget(key, ids=ids, rule=rule, everything=everything)
        if everything:
            fs.drop(key)
    if not gone and not everything:
        raise UserError(f"no feedback record of '{key}' matches rule {rule}")
    click.echo(f"forgot {len(gone)} record(s) of {key}")


@feedback.command("stats")
@repo_option
@click.option("--format", "fmt", type=FMT, default="text", show_default=True)
@config_option
@store_option
@debug_option
def feedback_stats(repo, fmt, config_file, store) -> None:
    """Per repository: records by outcome, and the rules dismissed most."""
    from dualrag.feedback import DISMISSALS

    settings, fs = _open(config_file, store)
    with fs:
        keys = [_repository(fs, settings, repo)] if repo or settings.feedback.repository else fs.repositories()
        stats = []
        for key in keys:
            rows = [r for _, r, _ in fs.records(key)]
            rules = Counter(r.rule_id or f"category:{r.category}" for r in rows if r.outcome in DISMISSALS)
            stats.append({"repository": key, "records": len(rows),
                          "outcomes": dict(sorted(Counter(str(r.outcome) for r in rows).items())),
                          "merge_requests": len({r.mr for r in rows if r.mr}),
                          "most_dismissed": dict(rules.most_common(5))})
    if fmt == "json":
        click.echo(json.dumps(stats, ensure_ascii=False, indent=2))
        return
    if not stats:
        click.echo(f"no feedback recorded in {settings.store}")
    for s in stats:
        outcomes = ", ".join(f"{n} {k}" for k, n in s["outcomes"].items()) or "none"
        dismissed = ", ".join(f"{k} ({n})" for k, n in s["most_dismissed"].items()) or "none"
        click.echo(f"{s['repository']}: {s['records']} record(s) from {s['merge_requests']} MR(s): {outcomes}; "
                   f"most dismissed: {dismissed}")
