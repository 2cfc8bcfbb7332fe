"""VCS adapters: post a Review to a GitLab merge request or a GitHub pull request and keep its
threads in step on re-review (ARCHITECTURE.md, stage 7).

Platform-neutral logic lives in small modules (markers, anchoring, replies, sync, http); the
platform modules (gitlab, github) only translate to and from REST calls.
"""

from dualrag.vcs.model import PriorFinding, ThreadState

__all__ = ["PriorFinding", "ThreadState"]
