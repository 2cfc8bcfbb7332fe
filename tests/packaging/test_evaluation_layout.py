"""`evaluation/` is a package tree run as `python -m evaluation.<room>.<name>` from the checkout, and
`scripts/` keeps the shell entry points and no Python:
no module edits `sys.path`, every folder of Python code is a package, modules import each other by
their package path (never by a bare sibling name), every module imports, every harness answers
`--help`, no harness is over 300 lines, every module of the shared core serves at least three
harnesses, and every script the README or docs/ name exists where they say."""

from __future__ import annotations

import ast
import contextlib
import importlib
import inspect
import io
import re
import sys
from collections import Counter
from pathlib import Path

import pytest

from tests.test_layers import EVALUATION_TIERS, import_graph, module_name, sources

ROOT = Path(__file__).resolve().parents[2]
EVALUATION, SCRIPTS = ROOT / "evaluation", ROOT / "scripts"
MODULES = sources(["evaluation", "scripts"])  # the independent files (code samples, data) left out
SHELL_ENTRY_POINTS = {"setup.sh", "test.sh", "demo.sh", "e2e_local_llm.sh", "fetch_java_sources.sh"}
ROOMS = {prefix.split(".")[1] for _, prefixes in EVALUATION_TIERS for prefix in prefixes if "." in prefix}
MAX_LINES = 300
MAX_ROOM_LINES = 3_000  # about the biggest core stage of dualrag (python -m evaluation.tools.import_graph)


def test_no_module_touches_sys_path():
    edits = []
    for path in MODULES:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Attribute) and node.attr == "path" and isinstance(node.value, ast.Name)
                    and node.value.id == "sys"):
                edits.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert not edits, "sys.path used: " + ", ".join(edits)


def test_every_folder_of_python_code_is_a_package_and_each_room_is_mapped():
    folders = {p.parent for p in MODULES}
    assert all((f / "__init__.py").is_file() for f in folders), sorted(str(f) for f in folders)
    assert [p.name for p in EVALUATION.glob("*.py")] == ["__init__.py"]
    assert {p.name for p in EVALUATION.iterdir() if p.is_dir() and p.name != "__pycache__"} == ROOMS


def test_scripts_keeps_the_shell_entry_points_only():
    shell = {p.name for p in SCRIPTS.iterdir() if p.is_file() and p.suffix != ".py"}
    assert shell == SHELL_ENTRY_POINTS
    assert not sorted(SCRIPTS.rglob("*.py")), "Python belongs in evaluation/ (or the product)"


def test_modules_import_each_other_by_their_package_path():
    own = {p.stem for p in MODULES if p.stem != "__init__"} | {p.parent.name for p in MODULES}
    bare = []
    for path in MODULES:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = ([a.name for a in node.names] if isinstance(node, ast.Import)
                     else [node.module] if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module
                     else [])
            bare += [f"{path.relative_to(ROOT)}: {n}" for n in names if n.split(".")[0] in own - {"evaluation", "scripts"}]
    assert not bare, bare


@pytest.mark.parametrize("name", [module_name(p) for p in MODULES])
def test_every_module_imports(name):
    importlib.import_module(name)


HARNESSES = [module_name(p) for p in MODULES if re.search(r"^def main\(", p.read_text(encoding="utf-8"), re.MULTILINE)]


@pytest.mark.parametrize("name", HARNESSES)
def test_every_harness_answers_help(name, monkeypatch):
    main = importlib.import_module(name).main
    monkeypatch.setattr(sys, "argv", [name, "--help"])
    out = io.StringIO()
    with contextlib.redirect_stdout(out), pytest.raises(SystemExit) as exit_:
        main(["--help"]) if inspect.signature(main).parameters else main()
    assert exit_.value.code == 0 and out.getvalue().startswith("usage:"), out.getvalue()[:200]


def test_no_harness_is_over_300_lines_and_no_room_over_3000():
    long = {str(p.relative_to(ROOT)): n for p in MODULES if p.is_relative_to(EVALUATION)
            and (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_LINES}
    assert not long, long
    rooms = Counter()
    for p in MODULES:
        if p.is_relative_to(EVALUATION) and len(p.relative_to(EVALUATION).parts) > 1:
            rooms[p.relative_to(EVALUATION).parts[0]] += len(p.read_text(encoding="utf-8").splitlines())
    assert max(rooms.values()) <= MAX_ROOM_LINES, rooms


def test_every_module_of_the_core_serves_three_harnesses_or_more():
    graph = import_graph(["evaluation", "scripts"])
    users = Counter(target for source, targets in graph.items() if not source.startswith("evaluation.core")
                    for target in targets if target.startswith("evaluation.core."))
    core = [module_name(p) for p in (EVALUATION / "core").glob("*.py") if p.name != "__init__.py"]
    assert {m: users[m] for m in core if users[m] < 3} == {}


def test_every_script_the_docs_name_exists():
    texts = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md")), EVALUATION / "README.md"]
    missing = []
    for doc in texts:
        text = doc.read_text(encoding="utf-8")
        for path in re.findall(r"(?<![\w./-])((?:scripts|evaluation)/[\w/.-]+\.(?:py|sh|jsonl|md|txt|toml|json))", text):
            if not (ROOT / path).is_file() and not (doc.parent / path).is_file():  # docs/evaluation/*.md: a link
                missing.append(f"{doc.name}: {path}")
        for module in re.findall(r"-m ((?:scripts|evaluation)(?:\.\w+)+)(?![.\w]*\.<)", text):  # not a pattern
            base = ROOT / module.replace(".", "/")
            if not (base.with_suffix(".py").is_file() or (base / "__main__.py").is_file()):
                missing.append(f"{doc.name}: {module}")
    assert not missing, missing
