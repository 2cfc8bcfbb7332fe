"""`scripts/` is a package tree run as `python -m scripts.<pkg>.<name>` from the checkout: no script
edits `sys.path`, every folder of Python code is a package, the scripts import each other as
`scripts....` (never by a bare sibling name), every module imports, and every script the README or
docs/ name exists where they say."""

from __future__ import annotations

import ast
import importlib
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPTS = ROOT / "scripts"
INDEPENDENT = SCRIPTS / "eval" / "independent"  # the rule books' independent files: code samples (data), not scripts
MODULES = sorted(p for p in SCRIPTS.rglob("*.py") if "__pycache__" not in p.parts and INDEPENDENT not in p.parents)


def _module(path: Path) -> str:
    return ".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")


def test_no_script_touches_sys_path():
    edits = []
    for path in MODULES:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Attribute) and node.attr == "path" and isinstance(node.value, ast.Name)
                    and node.value.id == "sys"):
                edits.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert not edits, "sys.path used under scripts/: " + ", ".join(edits)


def test_every_folder_of_python_code_is_a_package_and_nothing_sits_at_the_top():
    folders = {p.parent for p in MODULES}
    assert all((f / "__init__.py").is_file() for f in folders), sorted(str(f) for f in folders)
    assert [p.name for p in SCRIPTS.glob("*.py")] == ["__init__.py"]
    assert {p.name for p in SCRIPTS.iterdir() if p.is_dir() and p.name != "__pycache__"} == {"bench", "eval", "tools"}
    assert not list(SCRIPTS.glob("bench_*")) and not list(SCRIPTS.glob("eval_*"))


def test_scripts_import_each_other_by_their_package_path():
    own = {p.stem for p in MODULES if p.stem != "__init__"} | {p.parent.name for p in MODULES}
    bare = []
    for path in MODULES:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = ([a.name for a in node.names] if isinstance(node, ast.Import)
                     else [node.module] if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module
                     else [])
            bare += [f"{path.relative_to(ROOT)}: {n}" for n in names if n.split(".")[0] in own - {"scripts"}]
    assert not bare, bare


@pytest.mark.parametrize("name", [_module(p) for p in MODULES])
def test_every_script_module_imports(name):
    importlib.import_module(name)


def test_every_script_the_docs_name_exists():
    texts = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
    missing = []
    for doc in texts:
        text = doc.read_text(encoding="utf-8")
        for path in re.findall(r"(?<![\w./-])(scripts/[\w/.-]+\.(?:py|sh|jsonl|md|txt))", text):
            if not (ROOT / path).is_file():
                missing.append(f"{doc.name}: {path}")
        for module in re.findall(r"-m (scripts(?:\.\w+)+)(?![.\w]*\.<)", text):  # not a pattern (`scripts.eval.<name>`)
            if not (ROOT / (module.replace(".", "/") + ".py")).is_file():
                missing.append(f"{doc.name}: {module}")
    assert not missing, missing
