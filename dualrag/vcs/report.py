"""Where CI publishes the HTML report of a run (`gitlab review --html FILE`, `github review
--html FILE`), so the MR summary can link it.

- GitLab: a job artifact is served at `$CI_JOB_URL/artifacts/file/<path in the project>` (the
  job must keep the file as an artifact; GitLab shows HTML there when Pages serves artifacts,
  else it offers the download);
- GitHub: artifacts belong to the workflow run, listed on its page:
  `$GITHUB_SERVER_URL/$GITHUB_REPOSITORY/actions/runs/$GITHUB_RUN_ID`.

No link without the variables, or for a file outside the GitLab project folder (not an artifact).
"""

from __future__ import annotations

import os
import posixpath
from collections.abc import Mapping
from pathlib import Path
from urllib.parse import quote


def report_url(platform: str, html_path: str | None, environ: Mapping[str, str] | None = None) -> str | None:
    if not html_path:
        return None
    env = os.environ if environ is None else environ
    if platform == "gitlab":
        job = env.get("CI_JOB_URL", "").strip().rstrip("/")
        relative = _in_project(html_path, env.get("CI_PROJECT_DIR", "").strip())
        if not job or relative is None:
            return None
        return f"{job}/artifacts/file/{quote(relative)}"
    if platform == "github":
        server = (env.get("GITHUB_SERVER_URL", "").strip() or "https://github.com").rstrip("/")
        repository, run = env.get("GITHUB_REPOSITORY", "").strip(), env.get("GITHUB_RUN_ID", "").strip()
        if not repository or not run.isdigit():
            return None
        return f"{server}/{quote(repository)}/actions/runs/{run}"
    return None


def _in_project(path: str, project_dir: str) -> str | None:
    """The path as an artifact path (relative to the project folder, posix), or None when it is not
    inside it. A relative path is taken from the working directory (the job runs in the project)."""
    p = Path(path)
    if p.is_absolute() or project_dir:
        base = Path(project_dir) if project_dir else Path.cwd()
        try:
            p = (p if p.is_absolute() else Path.cwd() / p).resolve().relative_to(base.resolve())
        except (ValueError, OSError):
            return None
    relative = posixpath.normpath(p.as_posix())
    if relative in (".", "") or relative.startswith("../") or relative == "..":
        return None
    return relative
