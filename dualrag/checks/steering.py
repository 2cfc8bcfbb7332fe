"""A change to a file that steers the review is itself a finding, and never approved.

The review of a change reads its configuration, instructions and attributes from the target side
(cli/options.py, source/git.py), so an edit to them does not steer its own review; it would steer
every later one once merged. A human must look: the decision is held at `no_verdict` or worse
(`Coverage.steering`), and an edit that touches a key choosing a host or a secret is critical.
A file whose name claims it is noise (`app.min.js`, `package-lock.json`, `app.js.map`) but whose
content the noise filter would not skip is reviewed and held the same way: the name tries to hide
it from the review (docs/safety.md).
"""

from __future__ import annotations

import re

from dualrag.config import CONFIG_FILE_NAME, Settings
from dualrag.config.trust import is_routing_key
from dualrag.diff import ChangeSet
from dualrag.diff.model import FileDiff
from dualrag.findings import Finding
from dualrag.source.noise import claimed_skip

# Read by dualrag from the repository: configuration, reviewers' instructions, git attributes
# (which files git shows as binary). Instruction files are flagged by checks/injection.py too.
INSTRUCTION_NAMES = frozenset({"AGENTS.md", "REVIEW.md"})
STEERING_NAMES = frozenset({CONFIG_FILE_NAME, ".gitattributes"}) | INSTRUCTION_NAMES
_TOML_KEY = re.compile(r"""^\s*([A-Za-z0-9_\-."' ]{1,200}?)\s*=""")
_SECTIONS = frozenset(Settings.model_fields) - {"format", "store"}  # the tables of a dualrag configuration
_TOML_TABLE = re.compile(r"""^\s*\[+\s*([^\]]+?)\s*\]+""")


def _dualrag_toml(f: FileDiff) -> bool:
    """A TOML file whose changed lines open one of dualrag's sections (`[llm.openai]`, `[noise]`):
    a configuration a `--config` may name, whatever the file is called."""
    if not f.path.endswith(".toml") or not f.reviewable:
        return False
    for hunk in f.hunks:
        for line in hunk.lines:
            table = _TOML_TABLE.match(line.text) if line.kind in ("+", "-") else None
            if table and table.group(1).split(".")[0].strip(" \"'") in _SECTIONS:
                return True
    return False


def steering_files(changes: ChangeSet) -> tuple[FileDiff, ...]:
    """The files of the change that steer reviews (at any depth: a nested `.gitattributes`
    counts, and so does any TOML file with dualrag's sections, which a `--config` could name)."""
    return tuple(f for f in changes.files
                 if any(p and p.rsplit("/", 1)[-1] in STEERING_NAMES for p in (f.path, f.old_path))
                 or _dualrag_toml(f))


def forged_names(changes: ChangeSet) -> tuple[FileDiff, ...]:
    """Reviewed files whose name claims a skip their content does not bear out."""
    return tuple(f for f in changes.files if f.reviewable and f.added and claimed_skip(f.path))


def _routing_lines(f: FileDiff) -> list[int]:
    """New line numbers (0 for a removed line) of changed lines that set a routing or secret key
    or open a table of them."""
    out = []
    for hunk in f.hunks:
        for line in hunk.lines:
            if line.kind not in ("+", "-"):
                continue
            key = _TOML_KEY.match(line.text)
            table = _TOML_TABLE.match(line.text)
            found = key or table
            names = [p.strip(" \"'") for p in found.group(1).split(".")] if found else []
            if any(is_routing_key(n) for n in names):
                out.append(line.new_no or 0)
    return out


def _first_added(f: FileDiff) -> int:
    return next((ln.new_no for h in f.hunks for ln in h.lines if ln.kind == "+" and ln.new_no), 1)


def _security(f: FileDiff, line: int, severity: str, title: str, message: str) -> Finding:
    return Finding(path=f.path, line=line, severity=severity, category="security", title=title,
                   message=message + " A human must review this change.", source="detector")


def steering_findings(changes: ChangeSet) -> list[Finding]:
    out = []
    for f in steering_files(changes):
        name = f.path.rsplit("/", 1)[-1]
        if name in INSTRUCTION_NAMES and (f.old_path or f.path).rsplit("/", 1)[-1] in INSTRUCTION_NAMES:
            continue  # checks/injection.py flags the instructions themselves
        routing = _routing_lines(f) if name == CONFIG_FILE_NAME or f.path.endswith(".toml") else []
        if routing or (name == CONFIG_FILE_NAME and not f.reviewable):
            out.append(_security(
                f, next((n for n in routing if n), _first_added(f)), "critical",
                "Change to the review's endpoints or secrets",
                f"{f.path} sets keys that choose a host or a secret (base_url, url, api_key, *_env...). "
                "dualrag never takes them from a repository file; a change that adds them may try to send "
                "the CI's data or keys elsewhere."))
            continue
        what = "git attributes (which files are shown as binary)" if name == ".gitattributes" else "the review's configuration"
        out.append(_security(f, _first_added(f), "major", "Change to a file that steers the review",
                             f"{f.path} changes {what}. This review used the target branch's version; once "
                             "merged, it steers every later review."))
    out.extend(_security(f, _first_added(f), "major", "A name that claims the file is noise",
                         f"{f.path} is named as {claimed_skip(f.path)}, which a review skips, but its content is "
                         "not one: it was reviewed. A name that would hide code from the review holds the decision.")
               for f in forged_names(changes))
    return out
