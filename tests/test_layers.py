"""The layers of ARCHITECTURE.md, checked on the imports themselves (ast, every import in every
function included): foundations never import a stage, stages never import what sits above them,
the online pipeline never imports the offline indexers, and no two modules import each other.

The layer map is written once, here."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

# Lowest first. A module belongs to the longest prefix that names it.
# The stages are listed in the order of the flow (ARCHITECTURE.md, "One direction"): ingest, checks
# (detectors, validators, injection), chunks (and their caps), context. A stage may import the
# stages before it, never one after it.
STAGES = ("dualrag.diff", "dualrag.checks", "dualrag.chunking", "dualrag.retrieval")
LAYERS: list[tuple[str, tuple[str, ...]]] = [
    ("foundation", ("dualrag", "dualrag.config", "dualrag.source", "dualrag.findings", "dualrag.units",
                    "dualrag.errors", "dualrag.rulebook", "dualrag.store", "dualrag.embedding", "dualrag.rerank",
                    "dualrag.parsing", "dualrag.tokens", "dualrag.edi", "dualrag.languages")),
    ("stage", STAGES),
    ("review", ("dualrag.review", "dualrag.llm")),
    ("publish", ("dualrag.publish", "dualrag.vcs")),
    ("top", ("dualrag.cli", "dualrag.pipeline", "dualrag.__main__", "dualrag.testing", "dualrag.service")),
]
OFFLINE = "indexers"  # writes through the foundations; only the CLI reaches both sides
RANK = {name: rank for rank, (name, _) in enumerate(LAYERS)}


def layer_of(module: str) -> str | None:
    if module == OFFLINE or module.startswith(OFFLINE + "."):
        return "offline"
    best: tuple[int, str] | None = None
    for name, prefixes in LAYERS:
        for prefix in prefixes:
            if (module == prefix or module.startswith(prefix + ".")) and (best is None or len(prefix) > best[0]):
                best = (len(prefix), name)
    return best[1] if best else None


def stage_of(module: str) -> int | None:
    """The place of a stage module's stage in the flow (None: not a stage module)."""
    return next((i for i, prefix in enumerate(STAGES) if module == prefix or module.startswith(prefix + ".")), None)


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports(path: Path) -> set[str]:
    """Every dualrag/indexers module `path` imports, relative imports resolved."""
    module = module_name(path)
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                names = [".".join(base + ([node.module] if node.module else []))]
            else:
                names = [node.module or ""]
            names += [f"{names[0]}.{alias.name}" for alias in node.names]  # `from pkg import module`
        else:
            continue
        found.update(n for n in names if n.split(".")[0] in ("dualrag", OFFLINE))
    return found


def sources() -> list[Path]:
    return sorted([*(ROOT / "dualrag").rglob("*.py"), *(ROOT / OFFLINE).rglob("*.py")])


def known_modules() -> set[str]:
    return {module_name(p) for p in sources()}


def violation(source: str, target: str) -> str | None:
    src, dst = layer_of(source), layer_of(target)
    if src is None or dst is None:
        return None
    if src == "offline":
        return None if dst in ("foundation", "offline") else f"the offline side imports the {dst} layer"
    if dst == "offline":
        return None if src == "top" else "the online pipeline imports indexers/"
    if RANK[dst] > RANK[src]:
        return f"{src} imports {dst}"
    if src == dst == "stage" and (later := stage_of(target)) > (earlier := stage_of(source)):
        return f"stage {STAGES[earlier]} imports {STAGES[later]}, a stage after it"
    return None


def test_imports_point_down_only():
    modules = known_modules()
    wrong = []
    for path in sources():
        source = module_name(path)
        for target in imports(path):
            if target in modules and target != source and (why := violation(source, target)):
                wrong.append(f"{source} -> {target}: {why}")
    assert not wrong, "\n".join(sorted(wrong))


def test_no_two_modules_import_each_other():
    modules = known_modules()
    graph = {module_name(p): {t for t in imports(p) if t in modules} for p in sources()}
    pairs = sorted({tuple(sorted((a, b))) for a, targets in graph.items() for b in targets
                    if b != a and a in graph.get(b, set()) and not (a.startswith(b + ".") or b.startswith(a + "."))})
    assert not pairs, pairs


@pytest.mark.parametrize(("source", "target", "expected"), [
    ("dualrag.config", "dualrag.llm.factory", "foundation imports review"),
    ("dualrag.parsing.symbols", "dualrag.diff.model", "foundation imports stage"),
    ("indexers.code", "dualrag.retrieval.code", "the offline side imports the stage layer"),
    ("dualrag.review.stage", "indexers.rules", "the online pipeline imports indexers/"),
    ("dualrag.cli.knowledge", "indexers.rules", None),
    ("dualrag.retrieval.stage", "dualrag.store", None),
    ("dualrag.checks.detectors", "dualrag.chunking.model", "stage dualrag.checks imports dualrag.chunking, a stage after it"),
    ("dualrag.diff.ingest", "dualrag.retrieval", "stage dualrag.diff imports dualrag.retrieval, a stage after it"),
    ("dualrag.chunking.stage", "dualrag.diff.model", None),
    ("dualrag.retrieval.stage", "dualrag.chunking", None),
    ("dualrag.checks.screen", "dualrag.checks.injection", None),
])
def test_the_map_judges_as_written(source, target, expected):
    assert violation(source, target) == expected


def test_loading_the_configuration_loads_no_stage():
    """`import dualrag.config` is what every stage does first: it must not pull any stage in."""
    import subprocess
    import sys

    code = "import sys, dualrag.config; print('\\n'.join(m for m in sys.modules if m.startswith('dualrag')))"
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    above = [m for m in loaded if layer_of(m) not in (None, "foundation")]
    assert not above, above
    assert "dualrag.config.llm" in loaded  # the sections are really there
