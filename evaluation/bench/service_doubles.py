"""What evaluation/bench/service_load.py sends and serves: the documented-API platform doubles
(dualrag/testing/gitlab_api.py, github_api.py), one merge request per project or repository, and the
webhook deliveries of a load run (signed as each platform signs them, some with a bad signature),
planned in bursts over the run."""

from __future__ import annotations

import hashlib
import json
import random
import re
import time

from dualrag.service.verify import github_signature
from dualrag.testing.github_api import GitHubDouble
from dualrag.testing.gitlab_api import GitLabDouble

GL_SECRET, GH_SECRET = "load-gitlab-secret", "load-github-secret"
QUEUE = "load"


# one finding to keep per MR: the LLM double reports the password line
DIFF = ("diff --git a/src/App.java b/src/App.java\n--- a/src/App.java\n+++ b/src/App.java\n@@ -1,5 +1,6 @@\n"
        " class App {\n-  int a;\n+  int b;\n+  String pw = \"secret\";\n   void run() {\n     call();\n   }\n")
TOKEN, GH_TOKEN, BOT = "glpat-load-0123456789", "github_pat_load_0123456789", "github-actions[bot]"


class Platforms:
    """The documented-API doubles (dualrag/testing/gitlab_api.py, github_api.py), one merge request
    per GitLab project / GitHub repository, opened by its first push."""

    def __init__(self, mrs: int, unified_diffs: bool = False) -> None:
        self.gitlab, self.github = GitLabDouble(unified_diffs=unified_diffs), GitHubDouble()
        self.gitlab.add_token(TOKEN, "dualrag-bot", scopes=("api",))
        self.github.add_token(GH_TOKEN, BOT, pull_requests="write", contents="read")
        self.targets: list[tuple[str, str, int]] = []
        self.mrs: dict[str, object] = {}
        self.heads: dict[str, set[str]] = {}  # every head each MR has had
        for i in range(mrs):
            if i % 2 == 0:
                self.gitlab.add_project(100 + i, f"group/project-{100 + i}", members={"dualrag-bot": 30, "dev": 30})
                self.targets.append(("gitlab", str(100 + i), 1))
            else:
                self.github.add_repository(f"acme/r{i}", collaborators={"dev": "write"})
                self.targets.append(("github", f"acme/r{i}", 1))

    def push(self, platform: str, repo: str, head: str) -> None:
        self.heads.setdefault(repo, set()).add(head)
        mr = self.mrs.get(repo)
        double = self.gitlab if platform == "gitlab" else self.github
        if mr is not None:
            double.push(mr, DIFF, head)
        elif platform == "gitlab":
            self.mrs[repo] = double.open_merge_request(double.projects[int(repo)], 1, author="dev", diff=DIFF, head=head)
        else:
            self.mrs[repo] = double.open_pull_request(double.repos[repo], 1, author="dev", diff=DIFF, head=head)

    def stale_writes(self) -> list[str]:
        """Writes whose text names a head of their MR other than its head at that moment."""
        out = []
        for double in (self.gitlab, self.github):
            for w in double.write_log:
                repo = str(w["mr"][0])
                out += [f"{repo} {h[:12]} (head {w['head'][:12]})" for h in self.heads[repo] - {w["head"]}
                        if h[:12] in w["body"]]
        return out

    def duplicates(self) -> tuple[int, int]:
        """(finding comments posted twice, summaries beyond one per MR)."""
        duplicates = summaries = 0
        for mr in self.mrs.values():
            if hasattr(mr, "diff_notes"):
                bodies, notes = [n["body"] for n in mr.diff_notes()], mr.notes()
            else:
                bodies, notes = [c["body"] for c in mr.roots()], mr.issue_comments
            summaries += max(0, sum("dualrag:summary" in n["body"] for n in notes) - 1)
            fps = [m.group(1) for b in bodies for m in [re.search(r"dualrag:finding fp=(\S+)", b)] if m]
            duplicates += len(fps) - len(set(fps))
        return duplicates, summaries

    def close(self) -> None:
        self.gitlab.close()
        self.github.close()


# ------------------------------------------------------------------------------ deliveries


def sha(n: int) -> str:
    return hashlib.sha1(str(n).encode()).hexdigest()


def stamp(platform: str, seconds: int) -> str:
    t = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(1_780_000_000 + seconds))
    return t.replace("T", " ") + " UTC" if platform == "gitlab" else t + "Z"


def payload(platform: str, repo: str, mr: int, head: str, at: int) -> dict:
    if platform == "gitlab":
        return {"object_kind": "merge_request", "project": {"id": int(repo)},
                "object_attributes": {"iid": mr, "action": "update", "oldrev": "0" * 40, "state": "opened",
                                      "updated_at": stamp(platform, at), "last_commit": {"id": head}}}
    return {"action": "synchronize", "repository": {"full_name": repo},
            "pull_request": {"number": mr, "state": "open", "updated_at": stamp(platform, at),
                             "head": {"sha": head}, "base": {"sha": "b" * 40}}}


def request(platform: str, body: dict, *, bad: bool = False, event: str | None = None) -> tuple[str, bytes, dict]:
    data = json.dumps(body).encode()
    if platform == "gitlab":
        headers = {"X-Gitlab-Event": event or "Merge Request Hook",
                   "X-Gitlab-Token": "not-the-secret" if bad else GL_SECRET}
    else:
        headers = {"X-GitHub-Event": event or "pull_request",
                   "X-Hub-Signature-256": github_signature(data, "not-the-secret" if bad else GH_SECRET)}
    return f"/webhooks/{platform}", data, {**headers, "Content-Type": "application/json"}


def plan(targets: list[tuple[str, str, int]], total: int, seconds: float, rng: random.Random):
    """(time, kind, platform, repo, mr, head, push?) deliveries: each MR opens with its first head;
    later pushes (a new head on the platform, then its delivery); redeliveries of a delivery
    already sent; older pushes delivered late (after the newer one); bad signatures."""
    events, serial = [], 0
    bursts = [i * seconds / 5 for i in range(5)]
    heads: dict[str, list[tuple[str, int]]] = {}
    for platform, repo, mr in targets:
        serial += 1
        h = sha(serial)
        heads[repo] = [(h, 0)]
        events.append([bursts[0] + rng.random() * 0.5, "push", platform, repo, mr, h, 0])
    for burst in bursts[1:]:
        for platform, repo, mr in rng.sample(targets, k=len(targets) // 3):
            serial += 1
            h = sha(serial)
            at = len(heads[repo]) * 60
            heads[repo].append((h, at))
            events.append([burst + rng.random() * 0.5, "push", platform, repo, mr, h, at])
    sent = [e for e in events]
    while len(events) < total:
        roll = rng.random()
        t = rng.random() * seconds
        platform, repo, mr = rng.choice(targets)
        if roll < 0.55:  # a redelivery of something already announced
            e = rng.choice(sent)
            events.append([max(t, e[0] + 0.05), "redeliver", *e[2:]])
        elif roll < 0.85 and len(heads[repo]) > 1:  # an older push delivered late
            h, at = rng.choice(heads[repo][:-1])
            last = max(e[0] for e in sent if e[3] == repo)
            events.append([last + 0.1 + rng.random() * 0.5, "late", platform, repo, mr, h, at])
        else:
            events.append([t, "bad", platform, repo, mr, sha(10_000 + len(events)), 0])
    events.sort(key=lambda e: e[0])
    return events, heads
