"""The README and docs/ hold together: the README is short and starts with the two commands, every
relative link (file and `#anchor`, by GitHub's anchor rules) resolves, every `DUALRAG_*` variable and
TOML key they name is a setting (and every setting is documented: docs/configuration.md is generated
from the settings, and this test regenerates it), and every figure in the README and on every page
of docs/ sits in a section that names the command that printed it and the date of the run.

The convention: a section (the text under a heading) that holds a figure has a
`Command: \\`...\\`` line naming a harness under `evaluation/` (or a script under `scripts/`) and a `Date:` line with an ISO date; in a
table with a `command` column, each row names its own command there instead.

A figure is a decimal, a percentage, a ratio like 3/5, or a number with a unit (ms, s, KB, MB, GB, x),
outside code. Numbers that are not measurements are allowed in two ways only: pages whose numbers
are all constants by nature are left out (`REFERENCE`: the settings reference generated from the
code, the EDI format's specification), and a section may list its constants (a setting's default,
a limit, a version, a format fact, a test's floor) in one HTML comment, `<!-- constants: 5 s, 3.11 -->`;
each listed figure is exempt in that section, any other figure there still needs its command."""

from __future__ import annotations

import re
import tomllib
import unicodedata
from collections.abc import Iterator
from pathlib import Path

import pytest

from dualrag.config import NON_SETTING_ENV, Settings, load_settings
from dualrag.config.reference import render, sections
from dualrag.config.settings import ENV_PREFIX, MOVED_KEYS

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
DOCS = sorted([README, *(ROOT / "docs").rglob("*.md")])
# Pages whose numbers are all constants: generated from the settings, or a format's specification.
REFERENCE = {"docs/configuration.md", "docs/edi-format.md"}
MEASURED = [p for p in DOCS if p.relative_to(ROOT).as_posix() not in REFERENCE]
EXAMPLE = ROOT / "examples" / "dualrag.toml"
MAX_README_LINES = 300
TWO_COMMANDS = ["scripts/demo.sh    # set up, then review the bundled example merge requests on the embedded defaults",
                "scripts/test.sh    # set up, then run the test suite"]
# DUALRAG_* names that are neither settings nor read by dualrag: a GitHub Actions repository variable
# the workflow's install step reads (docs/ci.md).
CI_ONLY = frozenset({"DUALRAG_SOURCE"})
FILE_SUFFIXES = ("toml", "md", "py", "yml", "yaml", "json", "jsonl", "txt", "sh", "pdf", "docx")


# ------------------------------------------------------------------------------------------ reading


def prose(text: str) -> str:
    """`text` without fenced code blocks (their lines kept empty, so line numbers hold)."""
    out, fence = [], None
    for line in text.split("\n"):
        marker = re.match(r"^\s*(`{3,}|~{3,})", line)
        if fence is None and marker:
            fence = marker.group(1)
            out.append("")
        elif fence is not None:
            if line.strip().startswith(fence):
                fence = None
            out.append("")
        else:
            out.append(line)
    return "\n".join(out)


def code_blocks(text: str, language: str) -> Iterator[str]:
    yield from re.findall(rf"^```{language}\n(.*?)^```", text, flags=re.DOTALL | re.MULTILINE)


def code_spans(text: str) -> list[str]:
    return [" ".join(span.split()) for span in re.findall(r"(?<!`)`([^`]+)`(?!`)", prose(text))]


def slug(heading: str) -> str:
    """GitHub's anchor of a heading: its text without markup, lower case, every character but letters,
    digits, marks, `_`, `-` and spaces dropped, spaces as hyphens."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading)
    text = text.replace("`", "").lower()
    kept = "".join(c for c in text if c.isalnum() or c in " -_" or unicodedata.category(c).startswith("M"))
    return kept.replace(" ", "-")


def anchors(path: Path) -> set[str]:
    found: set[str] = set()
    counts: dict[str, int] = {}
    for line in prose(path.read_text(encoding="utf-8")).split("\n"):
        if m := re.match(r"^#{1,6}\s+(.*?)\s*#*\s*$", line):
            base = slug(m.group(1))
            n = counts.get(base, 0)
            counts[base] = n + 1
            found.add(base if n == 0 else f"{base}-{n}")
    return found


def links(path: Path) -> list[str]:
    text = re.sub(r"(?<!`)`[^`\n]+`(?!`)", "", prose(path.read_text(encoding="utf-8")))
    return re.findall(r"\]\(([^)\s]+)\)", text)


# ------------------------------------------------------------------------------------------ settings

def _names(name: str, field) -> set[str]:
    """A key and the other names it accepts (`window` for `context_window`)."""
    alias = field.validation_alias
    choices = getattr(alias, "choices", None) or ([alias] if isinstance(alias, str) else [])
    return {name, *(c for c in choices if isinstance(c, str))}


SECTIONS = {section: set().union(*(_names(n, f) for n, f in plain)) for section, _, plain in sections(Settings)}
MOVED = {f"{table}.{key}" for table, key in MOVED_KEYS}
# Keys whose value is a table of names the user chooses (`[llm] reviewers = { security = "..." }`):
# `llm.reviewers.security` names one entry.
TABLES = {f"{section}.{name}" if section else name for section, _, plain in sections(Settings)
          for name, field in plain if "dict" in str(field.annotation)} | {"llm.models"}


def named(path: str) -> str:
    """`llm.models."openai:local".window` -> `llm.models."PROVIDER:MODEL".window` (a name the user chooses)."""
    return re.sub(r'^llm\.models\.(?:"[^"]*"|[^.]+)', 'llm.models."PROVIDER:MODEL"', path)


def is_key(path: str) -> bool:
    path = named(path)
    section, _, key = path.rpartition(".")
    return key in SECTIONS.get(section, set()) or path in MOVED or section in TABLES - {"llm.models"}


def is_section(path: str) -> bool:
    return (named(path) in SECTIONS and named(path) != "") or path in TABLES


def env_exists(name: str) -> bool:
    if name in NON_SETTING_ENV or name in CI_ONLY:
        return True
    parts = name[len(ENV_PREFIX):].lower().split("__")
    path = ".".join(parts)
    return is_key(path) or is_section(path)


def toml_problems(values: dict, path: str = "") -> list[str]:
    wrong = []
    for key, value in values.items():
        dotted = f"{path}.{key}" if path else key
        if path == "llm.models":
            dotted = f'llm.models."{key}"'
        if is_key(dotted):
            continue
        if isinstance(value, dict) and is_section(dotted):
            wrong += toml_problems(value, dotted)
        else:
            wrong.append(dotted)
    return wrong


def mentioned_keys(text: str) -> Iterator[str]:
    """Keys a text names in code spans: `[section] key ...`, `[section]`, `section.key`."""
    for span in code_spans(text):
        if m := re.match(r'^\[([a-z_][a-z_.]*(?:\."[^"]+")?)\](?:\s+([a-z_]+))?(?:\s*=.*)?$', span):
            yield f"{m.group(1)}.{m.group(2)}" if m.group(2) else f"[{m.group(1)}]"
        elif ((m := re.match(r"^([a-z_]+)(\.[a-z_]+)+$", span)) and m.group(1) in SECTIONS
              and span.rsplit(".", 1)[-1] not in FILE_SUFFIXES):
            yield span


# ------------------------------------------------------------------------------------------ figures

FIGURE = re.compile(r"(?<![\w.-])\d+\.\d+|\d+(?:\.\d+)?\s?%|\b\d+/\d+\b|\b\d+(?:\.\d+)?\s?(?:ms|s|MB|KB|GB|x)\b")
COMMAND = re.compile(r"^Command: `[^`]*\b(?:evaluation|scripts)[./]")
DATE = re.compile(r"^Date: .*\b\d{4}-\d{2}-\d{2}\b")
CONSTANTS = re.compile(r"^<!-- constants: (.*?) -->$")


def section_problems(text: str) -> list[str]:
    """The sections of a page that hold a figure without naming its command and date."""
    wrong = []
    title, lines = "(top)", []
    for line in [*prose(text).split("\n"), "# (end)"]:
        if line.startswith("#"):
            wrong += _check(title, lines)
            title, lines = line.lstrip("# "), []
        else:
            lines.append(line)
    return wrong


def _figures(line: str, constants: set[str]) -> list[str]:
    """The figures of a line outside its code spans and the section's listed constants."""
    text = re.sub(r"(?<!`)`[^`]+`(?!`)", "", line)
    for constant in constants:
        text = re.sub(rf"(?<![\w.]){re.escape(constant)}(?![\w.])", "", text)
    return FIGURE.findall(text)


def _check(title: str, lines: list[str]) -> list[str]:
    wrong, free, command_column = [], [], None
    constants = {c.strip() for m in map(CONSTANTS.match, lines) if m for c in re.split(r",\s+", m.group(1))}
    lines = [line for line in lines if not CONSTANTS.match(line)]
    for line in lines:
        if line.startswith("|"):
            cells = [c.strip().lower() for c in line.strip("|").split("|")]
            if command_column is None and "command" in cells:
                command_column = cells.index("command")
                continue
            if set(line) <= set("|-: "):
                continue
            if command_column is not None and _figures(line, constants):
                row = [c.strip() for c in line.strip("|").split("|")]
                if not re.search(r"\b(?:evaluation|scripts)[./]", row[command_column] if command_column < len(row) else ""):
                    wrong.append(f"{title}: a table row without its command: {line[:80]}")
                continue
        else:
            command_column = None
        if not COMMAND.match(line) and not DATE.match(line) and _figures(line, constants):
            free.append(line)
    if free and not any(COMMAND.match(line) for line in lines):
        wrong.append(f"{title}: figures without a `Command:` line ({free[0][:60]}...)")
    if (free or any(line.startswith("|") and _figures(line, constants) for line in lines)) \
            and not any(DATE.match(line) for line in lines):
        wrong.append(f"{title}: figures without a `Date:` line")
    return wrong


# ------------------------------------------------------------------------------------------ tests


def test_readme_is_short_and_starts_with_the_two_commands():
    lines = README.read_text(encoding="utf-8").split("\n")
    assert len(lines) <= MAX_README_LINES, len(lines)
    first = [i for i, line in enumerate(lines) if line.strip()]
    assert lines[first[0]].startswith("# ") and lines[first[1]] == "```bash"
    assert lines[first[1] + 1:first[1] + 3] == TWO_COMMANDS and lines[first[1] + 3] == "```"
    for script in ("scripts/demo.sh", "scripts/test.sh"):
        assert (ROOT / script).is_file()


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_resolves(doc):
    broken = []
    for target in links(doc):
        if re.match(r"^[a-z]+:", target):
            continue
        file, _, anchor = target.partition("#")
        path = (doc.parent / file).resolve() if file else doc
        if not path.exists():
            broken.append(f"{target}: no such file")
        elif anchor and path.suffix == ".md" and anchor not in anchors(path):
            broken.append(f"{target}: no heading {anchor!r} in {path.relative_to(ROOT)}")
    assert not broken, broken


def test_configuration_page_is_what_the_settings_say():
    committed = (ROOT / "docs" / "configuration.md").read_text(encoding="utf-8")
    assert committed == render(EXAMPLE.read_text(encoding="utf-8")), (
        "docs/configuration.md is stale: python -m dualrag.config.reference --example examples/dualrag.toml "
        "> docs/configuration.md")


def test_every_setting_says_what_it_does():
    missing = [f"{section}.{name}" for section, _, plain in sections(Settings) for name, field in plain
               if not (field.description or "").strip()]
    assert not missing, missing


def test_the_annotated_example_is_a_valid_configuration():
    assert not toml_problems(tomllib.loads(EXAMPLE.read_text(encoding="utf-8")))
    settings = load_settings(EXAMPLE)
    assert settings.review.rule_checks == 3 and settings.llm.models["openai:local"].context_window == 16384


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_variable_and_key_the_docs_name_is_a_setting(doc):
    text = doc.read_text(encoding="utf-8")
    wrong = [f"environment {name}" for name in sorted(set(re.findall(r"\bDUALRAG_[A-Z0-9_]*[A-Z0-9]", text)))
             if not env_exists(name)]
    for key in mentioned_keys(text):
        ok = is_section(key.strip("[]")) if key.startswith("[") else is_key(key)
        if not ok:
            wrong.append(f"key {key}")
    for block in code_blocks(text, "toml"):
        values = tomllib.loads(block)
        if not {"project", "build-system", "tool"} & set(values):
            wrong += [f"TOML block: {key}" for key in toml_problems(values)]
    assert not wrong, wrong


@pytest.mark.parametrize("page", MEASURED, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_figure_names_its_command_and_date(page):
    problems = section_problems(page.read_text(encoding="utf-8"))
    assert not problems, "\n".join(problems)


# ------------------------------------------------------------------------------------------ the checks checked


def test_anchors_follow_githubs_rules():
    assert slug("Where the code differs from ARCHITECTURE.md") == "where-the-code-differs-from-architecturemd"
    assert slug("`[llm.models.\"PROVIDER:MODEL\"]`") == "llmmodelsprovidermodel"
    assert slug("Rule retrieval, book by book") == "rule-retrieval-book-by-book"
    assert slug("Measured (evaluation/bench/publish.py, 50 findings)") == "measured-evaluationbenchpublishpy-50-findings"
    assert slug("规则 检查") == "规则-检查"


def test_unknown_names_are_caught():
    assert env_exists("DUALRAG_QDRANT__URL") and env_exists("DUALRAG_LLM") and env_exists("DUALRAG_GITLAB_TOKEN")
    assert not env_exists("DUALRAG_QDRANT__URI") and not env_exists("DUALRAG_NOPE")
    assert list(mentioned_keys("set `[review] rule_checks = 0` or `retrieval.rule_floor`; `[tier]`")) == [
        "review.rule_checks", "retrieval.rule_floor", "[tier]"]
    assert not is_key("review.rule_check") and is_key('llm.models."openai:x".window'.replace("window", "context_window"))
    assert toml_problems({"review": {"walkthrough": True, "walkthru": 1}, "retrieval": {"domains": {"a": ["b"]}}}) == [
        "review.walkthru"]


def test_a_figure_without_its_command_is_caught():
    bad = "# Page\n\n## Run\n\nrecall 0.75 on pmd\n"
    assert len(section_problems(bad)) == 2
    good = "## Run\n\nCommand: `.venv/bin/python -m evaluation.retrieval.rules`\nDate: 2026-12-02\n\nrecall 0.75 on pmd\n"
    assert section_problems(good) == []
    table = ("## T\n\nDate: 2026-11-29\n\n| what | command | figure |\n|---|---|---|\n"
             "| a | `.venv/bin/python -m evaluation.bench.ingest` | 21.2 MB/s |\n| b | by hand | 0.5 |\n")
    assert section_problems(table) == ["T: a table row without its command: | b | by hand | 0.5 |"]


def test_only_listed_constants_and_code_are_not_figures():
    page = ("## Limits\n\n<!-- constants: 5 s, 1 MB -->\n\nA request waits `timeout` (5 s); a file holds at "
            "most 1 MB; `--sample 0.5` samples.\n")
    assert section_problems(page) == []
    measured = page + "The check took 35 s.\n"
    assert section_problems(measured) == [
        "Limits: figures without a `Command:` line (The check took 35 s....)", "Limits: figures without a `Date:` line"]
    elsewhere = page + "\n## Next\n\nA request waits 5 s.\n"
    assert len(section_problems(elsewhere)) == 2
    assert {p.relative_to(ROOT).as_posix() for p in MEASURED} >= {"README.md", "docs/service.md", "docs/limits.md"}
    assert not {p.relative_to(ROOT).as_posix() for p in MEASURED} & REFERENCE
