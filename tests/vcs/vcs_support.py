"""Shared data for the VCS tests: a two-file diff, its second push, findings, a fixed reviewer."""

from __future__ import annotations

from dualrag.config import load_settings
from dualrag.diff import ingest
from dualrag.findings import Finding
from dualrag.review.decision import Coverage, decide
from dualrag.review.model import Decision, Review

TOKEN = "glpat-SECRET-token-0123456789"
GH_TOKEN = "ghs_SECRETgithubTOKEN0123456789"

DIFF = (
    "diff --git a/src/App.java b/src/App.java\nindex 1111111..2222222 100644\n--- a/src/App.java\n+++ b/src/App.java\n"
    "@@ -1,5 +1,6 @@\n class App {\n-  int a;\n+  int b;\n+  String pw = \"secret\";\n   void run() {\n"
    "     call();\n   }\n"
    "diff --git a/src/Util.java b/src/Util.java\nnew file mode 100644\nindex 0000000..3333333\n--- /dev/null\n"
    "+++ b/src/Util.java\n@@ -0,0 +1,3 @@\n+class Util {\n+  static int x = 1;\n+}\n"
)
# The second push: the password line is gone (fixed), Util unchanged, a new line 2 in App.
DIFF2 = (
    "diff --git a/src/App.java b/src/App.java\nindex 1111111..4444444 100644\n--- a/src/App.java\n+++ b/src/App.java\n"
    "@@ -1,5 +1,6 @@\n class App {\n-  int a;\n+  int b;\n+  Object o = null;\n   void run() {\n"
    "     call();\n   }\n"
    "diff --git a/src/Util.java b/src/Util.java\nnew file mode 100644\nindex 0000000..3333333\n--- /dev/null\n"
    "+++ b/src/Util.java\n@@ -0,0 +1,3 @@\n+class Util {\n+  static int x = 1;\n+}\n"
)


def finding(path, line, severity="minor", category="quality", rule=None, title="t", message="m") -> Finding:
    return Finding(path=path, line=line, severity=severity, category=category, rule_id=rule, title=title,
                   message=message, source="llm")


PW = finding("src/App.java", 3, "major", "security", "SEC-001", "Hard-coded password", "A password literal is in code.")
CTX = finding("src/App.java", 4, "minor", "quality", None, "Method without doc", "run() has no documentation.")
UTIL = finding("src/Util.java", 2, "info", "quality", "JAVA-7", "Mutable static", "Static field x is not final.")
FAR = finding("src/App.java", 40, "minor", "quality", None, "Far away", "Outside the diff.")
NULL = finding("src/App.java", 3, "minor", "quality", "JAVA-9", "Null field", "Field o is initialised to null.")


OK = Coverage(llm_configured=True, llm_ran=True, complete=True)
_SETTINGS = load_settings(None)  # read once, before tests set CI variables


def make_review(diff: str, findings, decision=Decision.APPROVED_WITH_COMMENTS, settings=None) -> Review:
    changes = ingest(diff.encode(), settings or _SETTINGS)
    return Review.of_changes(changes, decision=decision, findings=list(findings))


class FixedReviewer:
    """A review function returning fixed findings, recording what the stage gave it. Like the real
    pipeline, it hands the decision to the coordinator's table when a break glass comes in."""

    def __init__(self, diff: str, findings, decision=Decision.APPROVED_WITH_COMMENTS):
        self.diff, self.findings, self.decision = diff, list(findings), decision
        self.priors: list = []
        self.sources: list = []
        self.break_glass = None
        self.info = None  # the author's words (ChangeInfo) the stage read from the platform

    def __call__(self, changes, source, priors, break_glass, info=None):
        self.priors, self.break_glass, self.info = list(priors), break_glass, info
        self.sources.append(source)
        decision = decide(self.findings, OK, break_glass=True)[0] if break_glass else self.decision
        return make_review(self.diff, self.findings, decision)


class ChattyReviewer(FixedReviewer):
    """Like a real run: operator notes that differ between runs (the first indexes the bundled
    rules), LLM usage that differs too (prompt caching), and notes about the change itself."""

    def __init__(self, *a, **kw):
        super().__init__(*a, **kw)
        self.runs = 0

    def __call__(self, changes, source, priors, break_glass, info=None):
        from dualrag.review.model import Usage

        review = super().__call__(changes, source, priors, break_glass, info)
        self.runs += 1
        notes = (["indexed 81 bundled rules into 'bundled'"] if self.runs == 1 else []) + [
            "reranking skipped: no reranker model", f"estimator run {self.runs}",
            "src/App.java:3 settled on an earlier push (wont_fix): not counted"]
        usage = Usage(calls=2, input_tokens=1000 + self.runs, output_tokens=50, cache_read_tokens=900 * (self.runs - 1),
                      cost_usd=0.0021 / self.runs)
        return review.model_copy(update={"notes": notes, "usage": usage})
