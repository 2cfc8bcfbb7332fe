"""API calls and VCS-layer time per review, against the loopback GitLab and GitHub servers.

A 50-finding merge request (10 files x 5 findings): first review, a second run on the same
commit (must write nothing), and a re-review after a push that fixes 5 findings and adds 3
(must touch only those).

    .venv/bin/python -m evaluation.bench.publish
"""

from __future__ import annotations

import argparse
import time

from dualrag.config import load_settings
from dualrag.findings import Finding
from dualrag.review.model import Decision, Review
from dualrag.source.review_source import ReviewSource
from dualrag.vcs.github import GitHubAdapter, GitHubTarget
from dualrag.vcs.gitlab import GitLabAdapter, GitLabTarget
from dualrag.vcs.stage import run_stage
from tests.vcs.vcs_fakes import FakeGitHub, FakeGitLab

TOKEN = "bench-token-0123456789"
FILES, PER_FILE = 10, 5


def make_diff(version: int) -> str:
    out = []
    for f in range(FILES):
        lines = [f"+  int v{f}_{i} = {i if version == 1 or i >= 1 or f >= 5 else 99};" for i in range(PER_FILE + 1)]
        if version == 2 and f < 3:
            lines.append(f"+  int extra{f} = 0;")
        out.append(f"diff --git a/src/F{f}.java b/src/F{f}.java\nnew file mode 100644\n--- /dev/null\n"
                   f"+++ b/src/F{f}.java\n@@ -0,0 +1,{len(lines)} @@\n" + "\n".join(lines) + "\n")
    return "".join(out)


def findings(version: int) -> list[Finding]:
    out = []
    for f in range(FILES):
        for i in range(PER_FILE):
            if version == 2 and f < 5 and i == 0:
                continue  # fixed on the second push
            out.append(Finding(path=f"src/F{f}.java", line=i + 1, severity="minor", category="quality",
                               rule_id=f"R{i}", title=f"Issue {i}", message=f"Problem {i} in file {f}.", source="llm"))
        if version == 2 and f < 3:
            out.append(Finding(path=f"src/F{f}.java", line=PER_FILE + 2, severity="major", category="quality",
                               rule_id="NEW", title="New issue", message="Introduced by the push.", source="llm"))
    return out


def reviewer(version):
    return lambda changes, _source, _priors, _glass, _info: Review.of_changes(
        changes, decision=Decision.MINOR_ISSUES, findings=findings(version))


def bench(name, server_cls, make_adapter):
    settings = load_settings(None)
    server = server_cls(TOKEN, diff=make_diff(1))
    rows = []
    try:
        for label, version, head in (("first review", 1, "a" * 40), ("same commit again", 1, "a" * 40),
                                     ("re-review after push", 2, "c" * 40)):
            server.set_diff(make_diff(version), head_sha=head)
            adapter = make_adapter(server)
            start = time.perf_counter()
            _, r = run_stage(adapter, reviewer(version), settings, source=ReviewSource(make_diff(version).encode()))
            total = time.perf_counter() - start
            rows.append((label, adapter.client.calls, adapter.client.writes, adapter.client.elapsed_s * 1000,
                         total * 1000, r))
    finally:
        server.close()
    print(f"\n{name} (50-finding merge request, loopback server)")
    print(f"{'run':24} {'API calls':>9} {'writes':>6} {'VCS ms':>8} {'total ms':>9}  posted kept resolved")
    for label, calls, writes, vcs_ms, total_ms, r in rows:
        print(f"{label:24} {calls:9d} {writes:6d} {vcs_ms:8.1f} {total_ms:9.1f}  {r.posted:6d} {r.kept:4d} "
              f"{r.resolved_fixed:8d}")


def main(argv: list[str] | None = None) -> None:
    argparse.ArgumentParser(description=__doc__.split("\n\n")[0]).parse_args(argv)
    bench("GitLab", FakeGitLab, lambda s: GitLabAdapter(GitLabTarget(s.url, s.project, s.iid), TOKEN))
    bench("GitHub", FakeGitHub, lambda s: GitHubAdapter(GitHubTarget(s.url, s.repo, s.number), TOKEN))
    print("\nwrites: calls that change the merge request; a GraphQL query (GitHub review threads) is a read, a mutation a write.")


if __name__ == "__main__":
    main()
