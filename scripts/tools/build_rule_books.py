#!/usr/bin/env python3
"""Build and render the public Java rule books used to evaluate rule retrieval (issue 24, item 2).

    .venv/bin/python -m scripts.tools.build_rule_books build [--pmd DIR] [--errorprone DIR] [--androidlint DIR]
    .venv/bin/python -m scripts.tools.build_rule_books render --out DIR [--books pmd,...] [--structures docx,md,pdf]
    .venv/bin/python -m scripts.tools.build_rule_books check [--books ...] [--structures ...] [--out DIR] [--show N]

Books (data committed under scripts/tools/rule_books/<book>/: rules.jsonl and SOURCE.md):

- ``pmd``: PMD's Java rules (pmd/pmd, pmd-java/src/main/resources/category/java/*.xml), BSD-style;
- ``errorprone``: Error Prone bug patterns (google/error-prone, docs/bugpattern/**/*.md with the
  summary and severity of the @BugPattern annotation), Apache-2.0;
- ``androidlint``: Android Lint checks with Java examples (googlesamples/android-custom-lint-rules,
  docs/checks/*.md.html), Apache-2.0.

``build`` rebuilds a book's rules.jsonl and SOURCE.md from a local snapshot: a bare git directory
(as the ``fetch`` tool leaves it, read at HEAD) or a checkout. It is deterministic: same snapshot,
same bytes. Each rule: id, title, prose (the explanation with every code block removed), level,
category, violating and compliant (lists of Java examples), source (path in the repository).

``render`` writes a book as Word (a Heading 1 per category, a Heading 2 "<id>: <title>" per rule,
prose paragraphs), PDF (reportlab; bold category and rule heading lines, wrapped body text, a
running header and page footer, rules flowing over page breaks) and Markdown (``#`` category,
``##`` rule). Only the prose is rendered: the examples are the queries and never appear in a
document.

``check`` renders and segments every document with ``indexers.rules.segment`` and prints, per book
and structure, rules, units, and the share of rules found in exactly one unit that holds no other
rule's anchor (an anchor is the first whitespace-free characters of a rule's rendered prose, at
least 32 and as many more as make it unique in the book; see ``anchors``).

For the evaluation script::

    from scripts.tools.build_rule_books import BOOKS, STRUCTURES, anchors, load_book, render
    rules = load_book("pmd")                    # list of rule dicts, as in rules.jsonl
    path = render("pmd", "pdf", out_dir)        # Path of out_dir/pmd.pdf
"""

from __future__ import annotations

import argparse
import html
import json
import random
import re
import subprocess
import sys
import unicodedata
import xml.etree.ElementTree as ET
from collections import Counter
from collections.abc import Callable
from pathlib import Path

from scripts.tools.pdf_flow import PdfFlow, rendered_text

BOOK_DIR = Path(__file__).resolve().parent / "rule_books"
BOOKS = ("pmd", "errorprone", "androidlint")
STRUCTURES = {"docx": "docx", "md": "md", "pdf": "pdf"}  # structure -> file extension
TITLES = {
    "pmd": "PMD Java Rules",
    "errorprone": "Error Prone Bug Patterns",
    "androidlint": "Android Lint Checks (Java)",
    "codeql": "CodeQL Java Queries",  # built by scripts/tools/rule_books/codeql/build.py
    "ruff": "Ruff Python Rules",  # built by scripts/tools/rule_books/ruff/build.py
}
ANCHOR_CHARS = 32
MAX_EXAMPLE_CHARS = 6000  # longer examples (whole test files) are left out of a rule's list
MAX_RULES = 300
SAMPLE_SEED = 24

# --------------------------------------------------------------------------------- snapshots


class Snapshot:
    """Files of a repository snapshot: a bare git directory (read at HEAD) or a checkout."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.bare = (self.path / "HEAD").is_file() and (self.path / "objects").is_dir()
        git_dir = self.path if self.bare else self.path / ".git"
        self.commit = self._git(git_dir, "rev-parse", "HEAD").strip() if git_dir.exists() else "unknown"
        self.git_dir = git_dir

    @staticmethod
    def _git(git_dir: Path, *args: str) -> str:
        return subprocess.run(["git", f"--git-dir={git_dir}", *args], check=True, capture_output=True,
                              text=True, encoding="utf-8").stdout

    def files(self, prefix: str) -> list[str]:
        if self.bare:
            out = self._git(self.git_dir, "ls-tree", "-r", "--name-only", "HEAD", "--", prefix)
            return sorted(line for line in out.splitlines() if line)
        base = self.path / prefix
        return sorted(str(p.relative_to(self.path)) for p in base.rglob("*") if p.is_file())

    def read(self, path: str) -> str:
        if self.bare:
            return self._git(self.git_dir, "show", f"HEAD:{path}")
        return (self.path / path).read_text(encoding="utf-8")


# ------------------------------------------------------------------------------- shared text

_FENCE = re.compile(r"^\s*(```+|~~~+)")
_MD_LINK = re.compile(r"!?\[([^\]]*)\]\((?:[^()]|\([^)]*\))*\)")
_MD_HEADING = re.compile(r"^\s*#{1,6}\s+(.*?)\s*#*\s*$")
_TABLE = re.compile(r"^\s*\|.*\|\s*$|^\s*-{3,}\s*(\|\s*-{3,}\s*)+$|^\s*\S.*\s\|\s.*\|")
_LIST = re.compile(r"^\s*(?:[-*+]|\d{1,2}[.)])\s+")
_JAVA_HINT = re.compile(r"[;{}]|@\w+|\b(class|void|new|return|import|public|private|static)\b")


def dedent(text: str) -> str:
    lines = text.expandtabs(4).splitlines()
    while lines and not lines[0].strip():
        lines.pop(0)
    while lines and not lines[-1].strip():
        lines.pop()
    indent = min((len(line) - len(line.lstrip()) for line in lines if line.strip()), default=0)
    return "\n".join(line[indent:].rstrip() for line in lines)


def split_markdown(text: str) -> list[tuple[str, str, str]]:
    """Markdown into ("text", paragraph-source, "") and ("code", body, info-string) pieces in order."""
    pieces: list[tuple[str, str, str]] = []
    prose: list[str] = []
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        m = _FENCE.match(lines[i])
        if m:
            fence, info = m.group(1), lines[i].strip()[len(m.group(1)):].strip()
            body = []
            i += 1
            while i < len(lines) and not lines[i].strip().startswith(fence[:3]):
                body.append(lines[i])
                i += 1
            pieces.append(("text", "\n".join(prose), ""))
            prose = []
            pieces.append(("code", dedent("\n".join(body)), info))
        else:
            prose.append(lines[i])
        i += 1
    pieces.append(("text", "\n".join(prose), ""))
    return [p for p in pieces if p[0] == "code" or p[1].strip()]


def prose_paragraphs(text: str) -> list[str]:
    """Explanatory paragraphs of a Markdown fragment without code: links become their text,
    sub-headings plain paragraphs, list items paragraphs of their own, tables and indented code
    blocks are dropped, inline code keeps its backticks."""
    paragraphs: list[str] = []
    current: list[str] = []
    in_list_item = False

    def flush() -> None:
        if current:
            paragraphs.append(" ".join(" ".join(current).split()))
            current.clear()

    previous_blank = True
    for raw in text.splitlines():
        line = raw.rstrip()
        if not line.strip():
            flush()
            previous_blank, in_list_item = True, False
            continue
        if _TABLE.match(line):
            flush()
            previous_blank = False
            continue
        if previous_blank and raw.startswith("    ") and not in_list_item and not _LIST.match(line):
            # an indented code block (Markdown): not prose
            continue
        heading = _MD_HEADING.match(line)
        if heading:
            flush()
            current.append(re.sub(r"^\d{1,2}[.)]\s+", "", heading.group(1)))  # "### 1. Eliminate fall through"
            flush()
            previous_blank = False
            continue
        if _LIST.match(line):
            flush()
            in_list_item = True
            current.append("- " + _LIST.sub("", line, count=1))
        else:
            current.append(line.strip())
        previous_blank = False
    flush()
    out = []
    for paragraph in paragraphs:
        paragraph = _MD_LINK.sub(lambda m: m.group(1), paragraph)
        paragraph = re.sub(r"<[^>]+>", "", paragraph) if "<" in paragraph and ">" in paragraph else paragraph
        paragraph = re.sub(r"\s+", " ", paragraph).strip()
        if re.sub(r"[-*\s]", "", paragraph):
            out.append(paragraph)
    return out


def looks_like_java(code: str, info: str) -> bool:
    lang = info.split()[0].lower() if info.split() else ""
    if lang:
        return lang == "java"
    return bool(_JAVA_HINT.search(code)) and not code.lstrip().startswith(("<", "$", "-", "{\"", "bazel"))


def humanise(name: str) -> str:
    words = re.sub(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])", " ", name).split()
    return " ".join([words[0]] + [w if w.isupper() and len(w) > 1 else w.lower() for w in words[1:]])


# example classification from the source's own markers ------------------------------------

_BAD_NOTE = re.compile(
    r"\b(not ok|not okay|not good|not allowed|not recommended|not preferred|bad|wrong|violation|violates|"
    r"noncompliant|non-compliant|incorrect|unsafe|avoid|don'?t|do not|flagged|reported|error|bug|"
    r"problem|mistake|should be|should not|shouldn'?t|never|forbidden|dangerous|unnecessary|useless|"
    r"redundant|missing|triggers?)\b", re.IGNORECASE)
_GOOD_NOTE = re.compile(
    r"\b(good|ok|okay|fine|preferred|prefer|better|correct|compliant|allowed|valid|recommended|"
    r"no violation|not flagged|not reported|fixed|safe)\b", re.IGNORECASE)
_COMMENT = re.compile(r"//\s*(.*)$|/\*\s*(.*?)\s*\*/", re.MULTILINE)


def comment_verdicts(code: str) -> Counter:
    """Count of "bad" and "good" marker comments in an example (e.g. `// bad`, `// ok`)."""
    verdicts: Counter = Counter()
    for m in _COMMENT.finditer(code):
        note = (m.group(1) or m.group(2) or "").strip()
        if not note:
            continue
        if _BAD_NOTE.search(note):
            verdicts["bad"] += 1
        elif _GOOD_NOTE.match(note) or re.match(r"^(this is |that'?s )?(good|ok|okay|fine|better|correct)\b", note, re.IGNORECASE):
            verdicts["good"] += 1
    return verdicts


# --------------------------------------------------------------------------------------- PMD

PMD_DIR = "pmd-java/src/main/resources/category/java"
_PMD_NS = "{http://pmd.sourceforge.net/ruleset/2.0.0}"


def _pmd_prose(description: str) -> list[str]:
    text = dedent(description)
    text = re.sub(r"\{%\s*rule\s+\"?(?:[\w/]+/)?(\w+)\"?\s*%\}", r"\1", text)
    text = re.sub(r"\{%\s*jdoc(?:_package)?\s+(?:\w+::)?(?:[\w]+\.)*([\w#]+)\s*%\}", r"\1", text)
    text = text.replace("${pmd.website.baseurl}/", "")
    return prose_paragraphs("\n".join(piece for kind, piece, _ in split_markdown(text) if kind == "text"))


def build_pmd(snapshot: Snapshot) -> tuple[list[dict], dict]:
    """Every non-deprecated Java rule with an example; an example is compliant when its marker
    comments are all "good" ones (`// ok`, `// good`, `// preferred`...), violating otherwise
    (including examples that show both: they hold the violating code)."""
    rules, stats = [], Counter()
    for path in snapshot.files(PMD_DIR):
        if not path.endswith(".xml"):
            continue
        root = ET.fromstring(snapshot.read(path))
        category = root.get("name", Path(path).stem)
        for rule in root.iter(f"{_PMD_NS}rule"):
            stats["rules_in_source"] += 1
            if rule.get("deprecated") == "true" or rule.get("ref"):
                stats["deprecated"] += 1
                continue
            name = rule.get("name")
            description = rule.findtext(f"{_PMD_NS}description") or ""
            violating, compliant = [], []
            for example in rule.findall(f"{_PMD_NS}example"):
                code = dedent(example.text or "")
                if not code.strip():
                    continue
                verdicts = comment_verdicts(code)
                if verdicts["good"] and not verdicts["bad"]:
                    compliant.append(code)
                else:
                    stats["mixed_examples"] += bool(verdicts["good"] and verdicts["bad"])
                    violating.append(code)
            if not violating:
                stats["dropped_no_violating"] += 1
                continue
            prose = _pmd_prose(description)
            if not prose:
                stats["dropped_no_prose"] += 1
                continue
            priority = rule.findtext(f"{_PMD_NS}priority")
            rules.append({
                "id": name,
                "title": humanise(name),
                "prose": "\n\n".join(prose),
                "level": f"Priority {priority.strip()}" if priority else None,
                "category": category,
                "message": rule.get("message"),
                "violating": violating,
                "compliant": compliant,
                "source": path,
            })
    return rules, dict(stats)


# -------------------------------------------------------------------------------- Error Prone

EP_DOCS = "docs/bugpattern"
EP_CHECKS = "core/src/main/java/com/google/errorprone/bugpatterns"
_EP_ANNOTATION = re.compile(r"^@BugPattern\((.*?)\)\s*\n(?:@[\w.]+(?:\([^)]*\))?\s*\n)*\s*(?:public\s+)?(?:final\s+)?"
                            r"(?:abstract\s+)?(?:class|interface)\s+(\w+)", re.DOTALL | re.MULTILINE)
_STRING_CONCAT = re.compile(r'"((?:[^"\\]|\\.)*)"')

EP_GOOD_CUE = re.compile(
    r"(\binstead\b(?!\s+of)|\bprefer\b|\bpreferred\b|\bshould be (written|replaced|rewritten|changed)|"
    r"\bcorrect(ed|ly)?\b|\bfix(ed)?\b|\bbetter\b|\brecommended\b|\brewrit|\breplace(d)? (it|this|them)? ?with\b|"
    r"\bsafer\b|\bdo this\b|\bsolution\b|\binstead:|\buse (this|the following)\b|\bcan be (written|simplified)\b|"
    r"\bfollowing (is|are) (fine|ok|okay|correct|safe)\b|\bafter:|(?:not|n't) (?:trigger|flag|warn|be flagged|be reported)|"
    r"(?:^|[,;:]\s*)(?:add|use|write|make|call|declare|replace|remove|pass|mark|annotate)\b|\b(is|are) (fine|ok|okay|safe|correct)\b|\bclearer\b|\bidiomatic\b|\bsuppress)",
    re.IGNORECASE)
EP_BAD_CUE = re.compile(
    r"(\binstead of\b|\bfor example\b|\bconsider\b|\bsuch as\b|\be\.g\.|\bbug\b|\bbuggy\b|\bwrong\b|\bincorrect\b|"
    r"\bproblem\b|\bdon'?t\b|\bdo not\b|\bavoid\b|\bmistake\b|\bsurprising\b|\bthe following\b|\bflag(s|ged)?\b|"
    r"\bbroken\b|\bunsafe\b|\berror\b|\bfails?\b|\bbefore:|\bnot\b(?!\s+(?:trigger|flag|warn|be flagged|be reported))|\bconfusing\b|\bthis code\b|\bwarn)", re.IGNORECASE)
_EP_CODE_BAD = re.compile(r"//\s*(BUG: Diagnostic|bad|wrong|error|incorrect|don'?t|noncompliant|oops|broken|"
                          r"this is (a bug|wrong|bad))", re.IGNORECASE)
_EP_CODE_GOOD = re.compile(r"//\s*(good|ok|okay|fine|better|correct|fixed|preferred|compliant)\b", re.IGNORECASE)


def _ep_annotations(snapshot: Snapshot) -> dict[str, dict]:
    """Bug pattern name -> summary, severity, tags, Java source path, from @BugPattern annotations."""
    found: dict[str, dict] = {}
    for path in snapshot.files(EP_CHECKS):
        if not path.endswith(".java"):
            continue
        source = snapshot.read(path)
        if "@BugPattern(" not in source:
            continue
        for m in _EP_ANNOTATION.finditer(source):
            body, cls = m.group(1), m.group(2)
            name_m = re.search(r'\bname\s*=\s*"([^"]+)"', body)
            summary_m = re.search(r"\bsummary\s*=\s*((?:\"(?:[^\"\\]|\\.)*\"\s*\+?\s*)+)", body)
            severity_m = re.search(r"\bseverity\s*=\s*(?:\w+\.)?(ERROR|WARNING|SUGGESTION)", body)
            tags = re.findall(r"StandardTags\.(\w+)", body)
            summary = "".join(_STRING_CONCAT.findall(summary_m.group(1))) if summary_m else ""
            summary = summary.encode().decode("unicode_escape") if "\\" in summary else summary
            found.setdefault(name_m.group(1) if name_m else cls, {
                "summary": summary, "severity": severity_m.group(1) if severity_m else None,
                "tags": tags, "java": path})
    return found


def _ep_classify(prose_before: str, code: str) -> str | None:
    """"violating", "compliant" or None (unclear) for a code block of a bug-pattern page: the
    block's own marker comments first, then the sentence just before it."""
    bad, good = bool(_EP_CODE_BAD.search(code)), bool(_EP_CODE_GOOD.search(code))
    if bad:
        return "violating"
    if good:
        return "compliant"
    lead = " ".join(prose_before.split())[-240:]
    lead_sentence = re.split(r"(?<=[.!?])\s+(?=[A-Z])", lead)[-1] if lead else ""
    if re.search(r"@SuppressWarnings|\bsuppress", lead_sentence, re.IGNORECASE) or "@SuppressWarnings" in code:
        return None
    if re.match(r"^\W*(to|over|rather than|than|not|instead of|versus|vs\.?)\b", lead_sentence, re.IGNORECASE):
        return "violating"  # "prefer this: ... to this:"
    if len(lead_sentence) < 60 and re.search(r"\b(don'?t|do not|never)\b", lead_sentence, re.IGNORECASE):
        return "violating"  # "Don't do this:"
    cues = sorted([(m.start(), "compliant") for m in EP_GOOD_CUE.finditer(lead_sentence)
                   if not re.match(r"instead of", m.group(0), re.IGNORECASE)]
                  + [(m.start(), "violating") for m in EP_BAD_CUE.finditer(lead_sentence)])
    return cues[-1][1] if cues else None  # the sentence's last cue decides


def build_errorprone(snapshot: Snapshot) -> tuple[list[dict], dict]:
    annotations = _ep_annotations(snapshot)
    rules, stats = [], Counter()
    for path in snapshot.files(EP_DOCS):
        if not path.endswith(".md"):
            continue
        stats["pages"] += 1
        name = Path(path).stem
        meta = annotations.get(name)
        if not meta or not meta["summary"]:
            stats["dropped_no_annotation"] += 1
            continue
        text = snapshot.read(path)
        text = re.sub(r"^---\n.*?\n---\n", "", text, flags=re.DOTALL)  # front matter, if any
        pieces = split_markdown(text)
        prose_parts, violating, compliant = [], [], []
        last_text = ""
        for kind, body, info in pieces:
            if kind == "text":
                prose_parts.append(body)
                last_text = body
                continue
            if not looks_like_java(body, info):
                stats["non_java_blocks"] += 1
                continue
            verdict = _ep_classify(last_text, body)
            if verdict is None and not violating and not compliant:
                verdict = "violating"  # the page's first example illustrates the pattern
            if verdict == "violating":
                violating.append(body)
            elif verdict == "compliant":
                compliant.append(body)
            else:
                stats["unclassified_blocks"] += 1
        if not violating:
            stats["dropped_no_violating"] += 1
            continue
        prose = prose_paragraphs("\n\n".join(prose_parts))
        if not prose:
            stats["dropped_no_prose"] += 1
            continue
        folder = Path(path).parent.name
        rules.append({
            "id": name,
            "title": " ".join(meta["summary"].split()),
            "prose": "\n\n".join(prose),
            "level": meta["severity"],
            "category": meta["severity"] or "UNKNOWN",
            "group": folder if folder != "bugpattern" else None,
            "tags": meta["tags"],
            "violating": violating,
            "compliant": compliant,
            "source": path,
            "checker_source": meta["java"],
        })
    return rules, dict(stats)


# ------------------------------------------------------------------------------- Android Lint

LINT_DOCS = "docs/checks"
_LINT_FIELD = re.compile(r"^(\w[\w ]*)\n:\s+(.*)$", re.MULTILINE)
_LINT_FENCE = re.compile(r"^~{3,}([\w ]*)$")


def build_androidlint(snapshot: Snapshot) -> tuple[list[dict], dict]:
    """Checks whose extracted example holds a Java source file. The example is the first unit test
    of the check, the code lint reports on: violating. No compliant examples in this source."""
    rules, stats = [], Counter()
    for path in snapshot.files(LINT_DOCS):
        if not path.endswith(".md.html") or "/" in path[len(LINT_DOCS) + 1:]:
            continue
        text = snapshot.read(path)
        if "\nId\n:" not in text:
            continue
        stats["checks"] += 1
        fields: dict[str, str] = {}
        for m in _LINT_FIELD.finditer(text):
            fields.setdefault(m.group(1).strip(), m.group(2).strip())
        rule_id = fields.get("Id", "").strip("`")
        # the prose: after the metadata list, up to the first "(##)" section
        body_start = text.find("\n\n", text.find("\nTests\n") if "\nTests\n" in text else text.find("\nImplementation\n") + 1)
        head_end = text.find("(##)", body_start)
        prose_md = text[body_start: head_end if head_end > 0 else len(text)]
        example_part = text[head_end:text.find("(##) Suppressing", head_end)] if head_end > 0 else ""
        violating = []
        lines = example_part.splitlines()
        i = 0
        while i < len(lines):
            m = _LINT_FENCE.match(lines[i])
            if m:
                info = m.group(1).split()
                j = i + 1
                while j < len(lines) and not _LINT_FENCE.match(lines[j]):
                    j += 1
                if info and info[0] == "java":
                    code = html.unescape("\n".join(lines[i + 1:j]))
                    if len(code) <= MAX_EXAMPLE_CHARS:
                        violating.append(code)
                    else:
                        stats["examples_too_long"] += 1
                i = j + 1
            else:
                i += 1
        if not violating:
            stats["dropped_no_java_example"] += 1
            continue
        prose_md = html.unescape(prose_md)
        prose_md = "\n".join(line for line in prose_md.splitlines() if not _LINT_FENCE.match(line))
        prose = prose_paragraphs("\n".join(p for kind, p, _ in split_markdown(prose_md) if kind == "text"))
        prose = [p for p in prose if not p.startswith("!!!")]
        if not prose:
            stats["dropped_no_prose"] += 1
            continue
        rules.append({
            "id": rule_id,
            "title": html.unescape(fields.get("Summary", rule_id)),
            "prose": "\n\n".join(prose),
            "level": fields.get("Severity"),
            "category": fields.get("Category", "Other"),
            "violating": violating,
            "compliant": [],
            "source": path,
        })
    return rules, dict(stats)


BUILDERS: dict[str, Callable[[Snapshot], tuple[list[dict], dict]]] = {
    "pmd": build_pmd, "errorprone": build_errorprone, "androidlint": build_androidlint}

REPOS = {"pmd": "pmd/pmd", "errorprone": "google/error-prone",
         "androidlint": "googlesamples/android-custom-lint-rules", "codeql": "github/codeql", "ruff": "astral-sh/ruff"}


def sample(rules: list[dict], limit: int = MAX_RULES, seed: int = SAMPLE_SEED) -> list[dict]:
    """At most `limit` rules: whole categories drawn in a seeded order until the next would pass
    the limit (a category is never split), then the rules in source order."""
    if len(rules) <= limit:
        return rules
    by_category: dict[str, list[dict]] = {}
    for rule in rules:
        by_category.setdefault(rule["category"], []).append(rule)
    order = sorted(by_category)
    random.Random(seed).shuffle(order)
    kept: set[str] = set()
    total = 0
    for category in order:
        if total + len(by_category[category]) <= limit:
            kept.add(category)
            total += len(by_category[category])
    return [r for r in rules if r["category"] in kept]


# ------------------------------------------------------------------------------ book files


def book_path(book: str) -> Path:
    return BOOK_DIR / book / "rules.jsonl"


def load_book(name: str) -> list[dict]:
    """The rules of book `name` (one of BOOKS) in document order, as stored in rules.jsonl."""
    path = book_path(name)
    if not path.is_file():
        raise FileNotFoundError(f"no rule book {name!r} at {path}; choose from {', '.join(BOOKS)}")
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def write_book(book: str, rules: list[dict]) -> None:
    path = book_path(book)
    path.parent.mkdir(parents=True, exist_ok=True)
    rules = sorted(rules, key=lambda r: (r["category"], r["id"]))
    with path.open("w", encoding="utf-8", newline="\n") as out:
        for rule in rules:
            out.write(json.dumps(rule, ensure_ascii=False, sort_keys=False) + "\n")


# -------------------------------------------------------------------------------- rendering

_LATIN1_FIX = {"\u2192": "->", "\u2190": "<-", "\u2264": "<=", "\u2265": ">=", "\u2260": "!=", "\u2026": "...",
               "\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"', "\u2013": "-", "\u2014": "-",
               "\u00a0": " ", "\u2022": "-", "\u2212": "-", "\u00d7": "x"}


def plain(text: str) -> str:
    """A prose paragraph as the documents show it: no backticks or emphasis markers, ASCII-safe
    (the PDF's standard fonts)."""
    text = text.replace("`", "")
    text = re.sub(r"(?<![\w*])\*\*?(?=\S)(.+?)(?<=\S)\*\*?(?![\w*])", r"\1", text)
    text = re.sub(r"(?<!\w)__?(?=\S)(.+?)(?<=\S)__?(?!\w)", r"\1", text)
    text = "".join(_LATIN1_FIX.get(ch, ch) for ch in text)
    text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
    return " ".join(text.split())


MAX_HEADING_TITLE = 90  # a longer title (Error Prone's one-sentence summaries) goes under the heading


def rule_heading(rule: dict) -> str:
    """"<id>: <title>", or the id alone when the title is a long sentence (it then opens the body)."""
    title = plain(rule["title"])
    return plain(rule["id"]) if len(title) > MAX_HEADING_TITLE else f"{plain(rule['id'])}: {title}"


def rule_paragraphs(rule: dict) -> list[str]:
    return [p for p in (plain(p) for p in rule["prose"].split("\n\n")) if p]


def body_paragraphs(rule: dict) -> list[str]:
    """What a document shows under the rule heading: the level line, a long title, the prose."""
    title = plain(rule["title"])
    lead = [level_line(rule)] if level_line(rule) else []
    if len(title) > MAX_HEADING_TITLE:
        lead.append(f"Summary: {title}")
    return lead + rule_paragraphs(rule)


def shown_examples(rule: dict) -> list[tuple[str, str]]:
    """The examples the *examples edition* shows under a rule: (heading, code) for every violating
    example but the first (the first is the query, never in the document) and every compliant one."""
    heads = [("Noncompliant Code Example", code) for code in rule["violating"][1:]]
    return heads + [("Compliant Solution", code) for code in rule.get("compliant") or []]


def code_lines(code: str) -> list[str]:
    """An example's lines as the documents show them: ASCII-safe (the PDF's standard fonts), tabs as spaces."""
    text = "".join(_LATIN1_FIX.get(ch, ch) for ch in code.expandtabs(4))
    text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
    return [line.rstrip() for line in text.strip("\n").splitlines()]


def level_line(rule: dict) -> str | None:
    return f"Level: {rule['level']}" if rule.get("level") else None


def categories(rules: list[dict]) -> dict[str, list[dict]]:
    grouped: dict[str, list[dict]] = {}
    for rule in rules:
        grouped.setdefault(rule["category"], []).append(rule)
    return grouped


def intro(book: str, examples: bool = False) -> str:
    shown = ("each rule's code examples but its first violating one are included" if examples
             else "code examples are not included")
    return f"{TITLES[book]}. Rule descriptions from {REPOS[book]} (see SOURCE.md for the licence), rendered for evaluation; {shown}."


def _write_docx(path: Path, book: str, rules: list[dict], examples: bool = False) -> None:
    import docx
    from docx.shared import Pt

    document = docx.Document()
    document.sections[0].header.paragraphs[0].text = TITLES[book]
    document.add_heading(TITLES[book], 0)
    document.add_paragraph(intro(book, examples))
    for category, members in categories(rules).items():
        document.add_heading(plain(category), 1)
        for rule in members:
            document.add_heading(rule_heading(rule), 2)
            for paragraph in body_paragraphs(rule):
                document.add_paragraph(paragraph)
            for head, code in shown_examples(rule) if examples else ():
                document.add_heading(head, 3)
                for line in code_lines(code):  # one paragraph a line, in a monospaced run, as editors paste code
                    run = document.add_paragraph().add_run(line)
                    run.font.name, run.font.size = "Courier New", Pt(9)
    document.save(str(path))


def _write_markdown(path: Path, book: str, rules: list[dict], examples: bool = False) -> None:
    out = [f"**{TITLES[book]}**", "", intro(book, examples), ""]
    for category, members in categories(rules).items():
        out += [f"# {plain(category)}", ""]
        for rule in members:
            out += [f"## {rule_heading(rule)}", ""]
            for paragraph in body_paragraphs(rule):
                out += [paragraph, ""]
            for head, code in shown_examples(rule) if examples else ():
                out += [f"### {head}", "", f"```{rule.get('language', 'java')}", *code_lines(code), "```", ""]
    path.write_text("\n".join(out), encoding="utf-8")


_ITEM_LIKE = re.compile(r"^\s*(?:\d{1,4}\s*[.．、)）]|[(（]\s*\d{1,3}\s*[)）])")


class _PdfFlow(PdfFlow):
    """The shared flow, with paragraphs that never wrap into a line opening like a numbered item."""

    def paragraph(self, text: str, font: str = "Helvetica", size: float = 10, space_before: float = 4) -> None:
        from reportlab.lib.utils import simpleSplit

        lines = simpleSplit(text, font, size, self.text_width)
        for i in range(1, len(lines)):
            # a wrapped line must not open like a numbered item ("10. Additionally"): take the
            # previous line's last word along, as a typesetter would
            if _ITEM_LIKE.match(lines[i]) and " " in lines[i - 1]:
                head, last = lines[i - 1].rsplit(" ", 1)
                lines[i - 1], lines[i] = head, f"{last} {lines[i]}"
        for i, line in enumerate(lines):
            self.add(line, font, size, space_before=space_before if i == 0 else 0)


def _write_pdf(path: Path, book: str, rules: list[dict], examples: bool = False) -> None:
    from reportlab.lib.utils import simpleSplit

    flow = _PdfFlow(path, TITLES[book])
    flow.add(TITLES[book], "Helvetica-Bold", 18)
    flow.paragraph(intro(book, examples))
    body = flow.leading(10)
    for category, members in categories(rules).items():
        flow.add(plain(category), "Helvetica-Bold", 14, space_before=18, keep_with=flow.leading(12) + 3 * body + 14)
        for rule in members:
            heading = simpleSplit(rule_heading(rule), "Helvetica-Bold", 12, flow.text_width)
            for i, line in enumerate(heading):
                flow.add(line, "Helvetica-Bold", 12, space_before=12 if i == 0 else 0,
                         keep_with=(len(heading) - 1 - i) * flow.leading(12) + 3 * body + 4)
            for i, paragraph in enumerate(body_paragraphs(rule)):
                flow.paragraph(paragraph, space_before=0 if i == 0 else 4)
            for head, code in shown_examples(rule) if examples else ():
                flow.add(head, "Helvetica-Bold", 10, space_before=6, keep_with=2 * flow.leading(9))
                for line in code_lines(code):
                    indent = 5.4 * (len(line) - len(line.lstrip()))  # Courier 9 pt: 5.4 pt a character
                    for part in simpleSplit(line.strip(), "Courier", 9, flow.text_width - indent) or [""]:
                        flow.add(part, "Courier", 9, indent=indent)
    flow.save()


WRITERS = {"docx": _write_docx, "md": _write_markdown, "pdf": _write_pdf}


def render(book: str, structure: str, out_dir: str | Path, *, examples: bool = False) -> Path:
    """Write book `book` in `structure` ("docx", "md" or "pdf") as out_dir/<book>.<ext>; the path.
    Prose only: no example of any rule is in the document. `examples`: the *examples edition*, the
    shape of a standard that shows code under each rule (`shown_examples`: every example but each
    rule's first violating one, which stays a query), as out_dir/<book>-examples.<ext>."""
    if structure not in WRITERS:
        raise ValueError(f"unknown structure {structure!r}; choose from {', '.join(WRITERS)}")
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    path = out / f"{book}{'-examples' if examples else ''}.{STRUCTURES[structure]}"
    WRITERS[structure](path, book, load_book(book), examples)
    return path


# ---------------------------------------------------------------------------------- anchors

_WS = re.compile(r"\s+")


def squash(text: str) -> str:
    return _WS.sub("", text)


def anchors(rules: list[dict], minimum: int = ANCHOR_CHARS) -> dict[str, str]:
    """Rule id -> its anchor: the first whitespace-free characters of its rendered prose, at least
    `minimum`, extended until the anchor occurs once in the whole book (headings, summaries and
    prose of all rules). A rule whose whole prose also occurs in another rule's text (PMD copies
    InstantiableUtilityClass's criteria into ClassNamingConventions) is anchored on its heading."""
    book = "".join(squash(rule_heading(r)) + "".join(squash(p) for p in body_paragraphs(r)) for r in rules)
    result = {}
    for rule in rules:
        prose = squash(" ".join(rule_paragraphs(rule)))
        n = minimum
        while n < len(prose) and book.count(prose[:n]) > 1:
            n += 8
        result[rule["id"]] = prose[:n] if book.count(prose[:n]) == 1 else squash(rule_heading(rule))
    return result


def segmentation(book: str, structure: str, path: Path, show: int = 0) -> dict:
    """Segment a rendering with the project's segmenter; rules, units, unit-per-rule share."""
    from indexers.rules import segment

    rules = load_book(book)
    anchor = anchors(rules)
    units = segment(path, book)
    texts = [squash(u.full_text()) for u in units]
    document = squash(rendered_text(structure, path))
    missing = [r["id"] for r in rules if document.count(anchor[r["id"]]) != 1]
    clean, failures = 0, {}
    for rule in rules:
        holders = [i for i, t in enumerate(texts) if anchor[rule["id"]] in t]
        if len(holders) != 1:
            failures[rule["id"]] = f"anchor in {len(holders)} units"
            continue
        others = [r["id"] for r in rules if r is not rule and anchor[r["id"]] in texts[holders[0]]]
        if others:
            failures[rule["id"]] = f"unit {units[holders[0]].rule_id} also holds {', '.join(others[:3])}"
        else:
            clean += 1
    if show:
        print(f"--- {book}/{structure}: first {show} units")
        for unit in units[:show]:
            print(f"  {unit.rule_id} | {unit.title[:60]!r} | {unit.text[:70]!r}")
        print(f"--- {book}/{structure}: {len(failures)} failures (first {show})")
        for rid, why in list(failures.items())[:show]:
            print(f"  {rid}: {why}")
    return {"rules": len(rules), "units": len(units), "unit_per_rule": clean / len(rules) if rules else 0.0,
            "anchors_not_once_in_text": len(missing)}


# ------------------------------------------------------------------------------- SOURCE.md

SOURCE_NOTES = {
    "pmd": {
        "paths": f"`{PMD_DIR}/*.xml` (one `<rule>` each: name, message, `<description>`, `<priority>`, `<example>`)",
        "licence": "BSD-style (\"PMD's BSD-style license\", LICENSE at the repository root). Key line: "
                   "\"Redistribution and use in source and binary forms, with or without modification, are "
                   "permitted provided that ... Redistributions of source code must retain the above copyright "
                   "notice, this list of conditions and the following disclaimer.\" Copyright (c) 2003-2009, "
                   "InfoEther, LLC and the PMD contributors. The licence asks end-user documentation of a "
                   "redistribution to include: \"This product includes software developed in part by support "
                   "from the Defense Advanced Research Project Agency (DARPA)\".",
        "fields": "id = rule name; title = the name split into words; prose = `<description>` with "
                  "fenced/indented code removed and `{% rule X %}` tags replaced by the rule name; level = "
                  "\"Priority N\" from `<priority>` (1 high - 5 low); category = the ruleset name (Best "
                  "Practices, Code Style, Design, ...); message = the rule's violation message.",
        "classification": "Each `<example>` CDATA block is one example. PMD examples show the code the rule "
                          "reports, often with inline comments. An example whose marker comments are all \"good\" "
                          "ones (`// ok`, `// good`, `// preferred`, `// better`, `// correct`...) and none \"bad\" "
                          "(`// bad`, `// wrong`, `// not ok`, `// violation`, `// avoid`, `// unsafe`...) is "
                          "compliant; every other example is violating, including examples that show the bad and "
                          "the good form side by side (counted as mixed below: they hold the violating code, "
                          "as a real change would). Deprecated rules and rule references are skipped; rules "
                          "without a violating example are dropped.",
    },
    "errorprone": {
        "paths": f"`{EP_DOCS}/**/*.md` (the explanation pages) and the `@BugPattern(summary, severity, tags)` "
                 f"annotation of the checker class in `{EP_CHECKS}/**/*.java`",
        "licence": "Apache License 2.0 (COPYING at the repository root), Copyright The Error Prone Authors. "
                   "The repository has no NOTICE file; attribution: \"Error Prone, Copyright The Error Prone "
                   "Authors, licensed under the Apache License, Version 2.0\".",
        "fields": "id = the bug pattern name (the page's file name, matched to the annotation's `name` or the "
                  "class name); title = the annotation's summary; prose = the page's Markdown without code "
                  "blocks and tables (sub-headings such as FAQ questions become plain paragraphs); level and "
                  "category = severity (ERROR, WARNING, SUGGESTION); group = the docs sub-folder if any "
                  "(android, javadoc, ...); tags = StandardTags of the annotation.",
        "classification": "Each fenced Java block (``` or ```java; blocks tagged with another language and "
                          "unlabelled blocks that do not look like Java are skipped) is classified by (1) its own "
                          "marker comments: `// BUG: Diagnostic`, `// bad`, `// wrong`, `// error` -> violating, "
                          "`// good`, `// ok`, `// fixed`, `// better`, `// preferred` -> compliant; else (2) the "
                          "last sentence before it: a sentence opening with \"to this\" / \"over\" / \"rather "
                          "than\" / \"instead of\" (the second half of \"prefer this: ... to this:\") and a short "
                          "sentence with \"don't\" / \"do not\" / \"never\" -> violating; otherwise the LAST cue "
                          "word of the sentence decides: compliant cues \"instead\" (not \"instead of\"), "
                          "\"prefer\", \"better\", \"correct\", \"fix\", \"rewrite\", \"replace with\", \"is/are "
                          "fine/ok/safe\", \"clearer\", \"idiomatic\", \"After:\", \"will not trigger/flag\", an "
                          "imperative (add/use/write/replace/annotate...) opening the sentence or a clause; violating cues \"instead of\", \"Before:\", \"for "
                          "example\", \"consider\", \"such as\", \"bug\", \"wrong\", \"problem\", \"avoid\", "
                          "\"the following\", \"not\", \"fails\", \"confusing\", ...; a block shown for "
                          "suppression (@SuppressWarnings) is left out; "
                          "(3) otherwise the first Java block of a page is violating and later unclear blocks are "
                          "left out (counted as unclassified). Pages without a violating block are dropped.",
    },
    "androidlint": {
        "paths": f"`{LINT_DOCS}/*.md.html` (Markdeep pages generated from the lint checks of AOSP "
                 "and libraries: Id, Summary, Severity, Category fields, the explanation, and an Example "
                 "section with the source files of the check's first unit test)",
        "licence": "Apache License 2.0 (LICENSE at the repository root of googlesamples/android-custom-lint-rules). "
                   "The check descriptions come from the Android Open Source Project's lint checks (Apache-2.0) "
                   "and library vendors named on each page. Attribution: \"Android Lint documentation, "
                   "googlesamples/android-custom-lint-rules, licensed under the Apache License, Version 2.0\".",
        "fields": "id = the lint issue id; title = Summary; prose = the explanation between the metadata list "
                  "and the first (##) section, entities unescaped, code blocks removed; level = Severity; "
                  "category = Category (Correctness, Security, Performance, ...).",
        "classification": "The Example section's source files are the code the check reports in its first unit "
                          "test: every `java` source block there is violating (Kotlin, XML, Gradle and the lint "
                          f"output blocks are skipped; blocks over {MAX_EXAMPLE_CHARS} characters are left out). "
                          "The source has no compliant examples. Only checks with at least one Java source "
                          "block are kept.",
    },
}


def write_source_md(book: str, snapshot: Snapshot, rules: list[dict], stats: dict, total: int, *,
                    notes: dict | None = None, language: str = "Java", rebuild: str | None = None,
                    fewer: str = f"whole categories sampled with seed {SAMPLE_SEED} up to {MAX_RULES}") -> None:
    """SOURCE.md of a book; `notes` (paths, licence, fields, classification), `rebuild` (the
    command lines) and `fewer` (why fewer rules were kept) for the books built outside this module."""
    notes = notes or SOURCE_NOTES[book]
    violating = sum(len(r["violating"]) for r in rules)
    compliant = sum(len(r["compliant"]) for r in rules)
    cats = Counter(r["category"] for r in rules)
    rebuild = rebuild or f"    .venv/bin/python -m scripts.tools.build_rule_books build --{book} PATH   # bare git dir or checkout"
    lines = [
        f"# {TITLES[book]} (`{book}`)",
        "",
        f"- Repository: https://github.com/{REPOS[book]}",
        f"- Commit: `{snapshot.commit}`",
        f"- Paths: {notes['paths']}",
        f"- Licence: {notes['licence']}",
        ("- Use: the projects' own documentation, used as evaluation data under their licences; it is not "
         "shipped in the dualrag package."),
        "",
        "## Fields",
        "",
        notes["fields"],
        "",
        "## How examples were classified",
        "",
        notes["classification"],
        "",
        "## Counts",
        "",
        f"- Rules with a violating {language} example: {total}; kept: {len(rules)}"
        + (f" ({fewer})" if total > len(rules) else ""),
        f"- Violating examples: {violating}; compliant examples: {compliant}",
        f"- Rules with at least one compliant example: {sum(bool(r['compliant']) for r in rules)}",
        "- Categories: " + ", ".join(f"{c} {n}" for c, n in sorted(cats.items())),
        "- Build figures: " + ", ".join(f"{k} {v}" for k, v in sorted(stats.items())),
        "",
        "## Rebuild",
        "",
        rebuild,
        "    .venv/bin/python -m scripts.tools.build_rule_books render --books " + book + " --out DIR",
        "    .venv/bin/python -m scripts.tools.build_rule_books check --books " + book,
        "",
    ]
    (BOOK_DIR / book / "SOURCE.md").write_text("\n".join(lines), encoding="utf-8")


# ------------------------------------------------------------------------------------- main


def build(book: str, snapshot_path: Path) -> None:
    snapshot = Snapshot(snapshot_path)
    rules, stats = BUILDERS[book](snapshot)
    total = len(rules)
    rules = sample(rules)
    write_book(book, rules)
    write_source_md(book, snapshot, load_book(book), stats, total)
    size = book_path(book).stat().st_size
    print(f"{book}: {len(rules)} rules (of {total}), "
          f"{sum(len(r['violating']) for r in rules)} violating / {sum(len(r['compliant']) for r in rules)} "
          f"compliant examples, {size / 1e6:.2f} MB; commit {snapshot.commit}; {stats}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    p_build = sub.add_parser("build", help="rebuild rules.jsonl and SOURCE.md from local snapshots")
    for book in BOOKS:
        p_build.add_argument(f"--{book}", type=Path, metavar="DIR", help=f"snapshot of {REPOS[book]}")
    for name in ("render", "check"):
        p = sub.add_parser(name)
        p.add_argument("--books", default=",".join(BOOKS))
        p.add_argument("--structures", default=",".join(STRUCTURES))
        p.add_argument("--out", type=Path, required=name == "render")
        if name == "check":
            p.add_argument("--show", type=int, default=0)
            p.add_argument("--json", type=Path)
    args = parser.parse_args()

    if args.command == "build":
        chosen = [b for b in BOOKS if getattr(args, b)]
        if not chosen:
            parser.error("give at least one snapshot: " + " ".join(f"--{b} DIR" for b in BOOKS))
        for book in chosen:
            build(book, getattr(args, book))
        return 0

    books = [b.strip() for b in args.books.split(",") if b.strip()]
    structures = [s.strip() for s in args.structures.split(",") if s.strip()]
    if args.command == "render":
        for book in books:
            for structure in structures:
                print(render(book, structure, args.out))
        return 0

    import tempfile

    results: dict[str, dict] = {}
    with tempfile.TemporaryDirectory(prefix="dualrag-rule-books-") as tmp:
        out = args.out or Path(tmp)
        print(f"{'book':12}{'structure':>10}{'rules':>8}{'units':>8}{'unit/rule':>11}{'anchor!=1':>11}")
        for book in books:
            for structure in structures:
                path = render(book, structure, out)
                f = segmentation(book, structure, path, args.show)
                results[f"{book}/{structure}"] = f
                print(f"{book:12}{structure:>10}{f['rules']:8d}{f['units']:8d}{f['unit_per_rule']:11.3f}"
                      f"{f['anchors_not_once_in_text']:11d}")
    if args.json:
        args.json.write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
