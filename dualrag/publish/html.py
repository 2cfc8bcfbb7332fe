"""`--format html`: one self-contained page (CSS and JS inline, no request of any kind) to look at
a review: the decision, the findings (by severity, then file), the walkthrough (collapsed on a large
change), each file's diff with its findings under their lines,
per chunk the rules and code retrieved with their scores and what was pruned, the reviewers and
how they ended, tokens, cost and timings.

Everything comes from the `Review`; the diff lines come from the `ChangeSet` it was made from
(without one, findings are listed per file without their diff). The template is
`templates/report.html.j2`, rendered by Jinja2 with autoescaping on: every string from the
change, the rules or a model is text, never markup.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources

from dualrag.diff.model import ChangeSet
from dualrag.findings import Finding
from dualrag.review.model import FileReport, Review

MAX_FILE_ROWS = 20_000  # a generated file this long is shown cut (its findings still listed)
_SEVERITY_ORDER = ("critical", "major", "minor", "info")
PATH_CHARS = 72  # a path longer than this is shown cut in the middle (its whole text in the title)
OPEN_WALKTHROUGH_FILES = 20  # a walkthrough of more files starts collapsed, under the findings


@dataclass(frozen=True, slots=True)
class Row:
    kind: str  # "+", "-", " " or "@" (a hunk header)
    old: int | None
    new: int | None
    text: str
    findings: tuple[int, ...] = ()  # indexes into review.findings, shown under this line


@dataclass(slots=True)
class FileView:
    index: int
    report: FileReport
    rows: list[Row] = field(default_factory=list)
    findings: list[int] = field(default_factory=list)
    unplaced: list[int] = field(default_factory=list)  # findings on no line the diff shows
    cut: int = 0  # rows left out past MAX_FILE_ROWS


def _file_views(review: Review, changes: ChangeSet | None) -> list[FileView]:
    by_path: dict[str, list[int]] = {}
    for i, f in enumerate(review.findings):
        by_path.setdefault(f.path, []).append(i)
    diffs = {f.path: f for f in changes.files} if changes is not None else {}
    views = []
    for n, report in enumerate(review.files):
        view = FileView(n, report, findings=by_path.get(report.path, []))
        at_line: dict[int, list[int]] = {}
        for i in view.findings:
            at_line.setdefault(review.findings[i].line, []).append(i)
        diff = diffs.get(report.path)
        placed: set[int] = set()
        if diff is not None and not diff.binary and report.skipped_reason is None:
            for h in diff.hunks:
                if len(view.rows) >= MAX_FILE_ROWS:
                    view.cut += len(h.lines) + 1
                    continue
                view.rows.append(Row("@", None, None, f"@@ -{h.old_start},{h.old_len} +{h.new_start},{h.new_len} @@ "
                                                      f"{h.header}".rstrip()))
                for ln in h.lines:
                    here = tuple(at_line.get(ln.new_no, ())) if ln.new_no is not None and ln.kind != "-" else ()
                    placed.update(here)
                    view.rows.append(Row(ln.kind, ln.old_no, ln.new_no, ln.text, here))
        view.unplaced = [i for i in view.findings if i not in placed]
        views.append(view)
    return views


def _by_importance(findings: list[Finding]) -> list[int]:
    """Indexes of `findings` by severity (critical first), then file and line: what matters on top."""
    rank = {s: n for n, s in enumerate(_SEVERITY_ORDER)}
    return sorted(range(len(findings)), key=lambda i: (rank.get(findings[i].severity, len(rank)),
                                                       findings[i].path, findings[i].line, i))


def middle(path: str, width: int = PATH_CHARS) -> str:
    """`path` on one line of at most `width` characters: the file name whole, the folders cut in
    the middle with an ellipsis (`src/main/…/service/OrderService.java`). The page shows the whole
    path as the element's title."""
    if len(path) <= width:
        return path
    head, _, name = path.rpartition("/")
    if len(name) + 2 >= width:
        return "…" + path[-(width - 1):]
    keep = width - len(name) - 2  # "…/" before the name
    front = (keep + 1) // 2
    return f"{head[:front]}…{head[len(head) - (keep - front):] if keep - front else ''}/{name}"


def _counts(findings: list[Finding]) -> list[tuple[str, int]]:
    counts = {s: 0 for s in _SEVERITY_ORDER}
    for f in findings:
        counts[f.severity] = counts.get(f.severity, 0) + 1
    return [(s, n) for s, n in counts.items() if n]


@lru_cache(maxsize=1)
def _template():
    import jinja2

    env = jinja2.Environment(autoescape=True, undefined=jinja2.StrictUndefined, trim_blocks=True,
                             lstrip_blocks=True)
    env.filters["middle"] = middle
    source = resources.files("dualrag.publish").joinpath("templates", "report.html.j2").read_text(encoding="utf-8")
    return env.from_string(source)


def render_html(review: Review, changes: ChangeSet | None = None) -> str:
    files = _file_views(review, changes)
    walkthrough_files = sum(1 for f in review.walkthrough.files if not f.skipped) if review.walkthrough else 0
    return _template().render(
        review=review, files=files, findings=review.findings, counts=_counts(review.findings),
        reviewed=sum(1 for f in review.files if f.skipped_reason is None), with_diff=changes is not None,
        usage=review.usage, walkthrough=review.walkthrough, order=_by_importance(review.findings),
        walkthrough_open=walkthrough_files <= OPEN_WALKTHROUGH_FILES, walkthrough_files=walkthrough_files,
    )
