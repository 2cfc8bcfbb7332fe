"""The layers of ARCHITECTURE.md, checked on the imports themselves (ast, every import in every
function included): foundations never import a stage, and among themselves only downwards (the
tiers below: the language packs hand their grammars down to `parsing/`, which never looks a
language up); stages never import what sits above them; the online pipeline never imports the
offline indexers; nothing shipped imports `evaluation/` or `scripts/`; inside `evaluation/` the
rooms import the core and the rule books below them, never the tools above them (the tiers below);
and no module imports itself back through others (no import circles, `evaluation/` and `scripts/`
included).

The layer map is written once, here; `evaluation/tools/import_graph.py` prints the house from it."""

from __future__ import annotations

import ast
from collections.abc import Iterable, Mapping
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

# Foundations, lowest tier first: a foundation may import its own tier and the tiers below it.
# `dualrag` names the root package only (its `__version__`); every other module is mapped by name.
FOUNDATION_TIERS: list[tuple[str, tuple[str, ...]]] = [
    ("kernel", ("dualrag", "dualrag.errors", "dualrag.progress", "dualrag.findings", "dualrag.units",
                "dualrag.priors", "dualrag.feedback", "dualrag.config", "dualrag._bundled", "dualrag.prompts",
                "dualrag.tokens", "dualrag.edi", "dualrag.source.encoding", "dualrag.testing")),
    ("parsing", ("dualrag.parsing",)),
    ("languages", ("dualrag.languages",)),
    ("services", ("dualrag.source", "dualrag.rulebook", "dualrag.scoped_query", "dualrag.embedding", "dualrag.rerank", "dualrag.store")),
]
# The stages are listed in the order of the flow (ARCHITECTURE.md, "One direction"): ingest, checks
# (detectors, validators, injection), chunks (and their caps), context. A stage may import the
# stages before it, never one after it.
STAGES = ("dualrag.diff", "dualrag.checks", "dualrag.chunking", "dualrag.retrieval")
LAYERS: list[tuple[str, tuple[str, ...]]] = [
    ("foundation", tuple(p for _, prefixes in FOUNDATION_TIERS for p in prefixes)),
    ("stage", STAGES),
    ("review", ("dualrag.review", "dualrag.llm")),
    ("publish", ("dualrag.publish", "dualrag.vcs")),
    ("top", ("dualrag.cli", "dualrag.pipeline", "dualrag.__main__", "dualrag.service")),
]
OFFLINE = "indexers"  # writes through the foundations; only the CLI reaches both sides
EVALUATION = "evaluation"  # measurement and maintenance: imports the product, and nothing shipped imports it
SCRIPTS = "scripts"  # the shell entry points: no Python module may live or be imported there
PACKAGES = ("dualrag", OFFLINE, EVALUATION, SCRIPTS)
# Inside evaluation/, lowest tier first: a module imports its own tier and the tiers below it.
EVALUATION_TIERS: list[tuple[str, tuple[str, ...]]] = [
    ("core", ("evaluation", "evaluation.core")),
    ("books", ("evaluation.books",)),
    ("rooms", ("evaluation.retrieval", "evaluation.review", "evaluation.languages", "evaluation.bench",
               "evaluation.rerank", "evaluation.mining", "evaluation.safety")),
    ("tools", ("evaluation.tools",)),
]
# Data that happens to be Python: the independent files are code samples written to break rules.
DATA = ("evaluation/mining/independent/*/files",)
RANK = {name: rank for rank, (name, _) in enumerate(LAYERS)}


def _longest(module: str, groups: Iterable[tuple[str, tuple[str, ...]]]) -> str | None:
    """The name of the group holding the longest prefix of `module` (the root `dualrag`: itself only)."""
    best: tuple[int, str] | None = None
    for name, prefixes in groups:
        for prefix in prefixes:
            hit = module == prefix or (prefix != "dualrag" and module.startswith(prefix + "."))
            if hit and (best is None or len(prefix) > best[0]):
                best = (len(prefix), name)
    return best[1] if best else None


def layer_of(module: str) -> str | None:
    for special, layer in ((OFFLINE, "offline"), (EVALUATION, "evaluation"), (SCRIPTS, "scripts")):
        if module == special or module.startswith(special + "."):
            return layer
    return _longest(module, LAYERS)


def tier_of(module: str) -> int | None:
    """The place of a foundation module's tier, lowest first (None: not a foundation)."""
    name = _longest(module, FOUNDATION_TIERS)
    return None if name is None else [n for n, _ in FOUNDATION_TIERS].index(name)


def evaluation_tier(module: str) -> int | None:
    """The place of an evaluation/ module's tier, lowest first (None: not in evaluation/)."""
    name = _longest(module, EVALUATION_TIERS) if module != EVALUATION else "core"
    return None if name is None else [n for n, _ in EVALUATION_TIERS].index(name)


def stage_of(module: str) -> int | None:
    """The place of a stage module's stage in the flow (None: not a stage module)."""
    return next((i for i, prefix in enumerate(STAGES) if module == prefix or module.startswith(prefix + ".")), None)


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def sources(packages: Iterable[str] = ("dualrag", OFFLINE)) -> list[Path]:
    data = {p for pattern in DATA for folder in ROOT.glob(pattern) for p in folder.rglob("*.py")}
    return sorted(p for package in packages for p in (ROOT / package).rglob("*.py") if p not in data)


def known_modules(packages: Iterable[str] = ("dualrag", OFFLINE)) -> set[str]:
    return {module_name(p) for p in sources(packages)}


def imports(path: Path, modules: set[str]) -> set[str]:
    """The modules of `modules` that the file at `path` imports."""
    return read_imports(module_name(path), path.read_text(encoding="utf-8"), modules, package=path.name == "__init__.py")


def read_imports(module: str, text: str, modules: set[str], *, package: bool = False) -> set[str]:
    """The modules of `modules` that `module` (its source `text`; `package`: an `__init__`) imports,
    relative imports resolved: `from pkg import mod` is an import of `pkg.mod`, `from pkg.mod import
    name` one of `pkg.mod` (the longest known name)."""
    home = module if package else module.rpartition(".")[0]

    def known(name: str) -> str | None:
        while name and name not in modules:
            name = name.rpartition(".")[0]
        return name or None

    found: set[str | None] = set()
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.Import):
            found.update(known(alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = home.split(".")[: len(home.split(".")) - node.level + 1]
                base = ".".join(parts + ([node.module] if node.module else []))
            for alias in node.names:
                found.add(f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else known(base))
    return {name for name in found if name and name != module}


def import_graph(packages: Iterable[str] = ("dualrag", OFFLINE)) -> dict[str, set[str]]:
    paths = sources(packages)
    modules = {module_name(p) for p in paths}
    return {module_name(p): imports(p, modules) for p in paths}


def violation(source: str, target: str) -> str | None:
    src, dst = layer_of(source), layer_of(target)
    if src is None or dst is None:
        return None
    if src == "scripts":
        return None
    if src == "evaluation":
        if dst == "scripts":
            return "evaluation/ imports scripts/"
        if dst == "evaluation" and (up := evaluation_tier(target)) > (down := evaluation_tier(source)):
            return f"evaluation tier {EVALUATION_TIERS[down][0]} imports tier {EVALUATION_TIERS[up][0]}, above it"
        return None
    if dst in ("evaluation", "scripts"):
        return f"the product imports {dst}/"
    if src == "offline":
        return None if dst in ("foundation", "offline") else f"the offline side imports the {dst} layer"
    if dst == "offline":
        return None if src == "top" else "the online pipeline imports indexers/"
    if RANK[dst] > RANK[src]:
        return f"{src} imports {dst}"
    if src == dst == "foundation" and (up := tier_of(target)) > (down := tier_of(source)):
        return f"foundation tier {FOUNDATION_TIERS[down][0]} imports tier {FOUNDATION_TIERS[up][0]}, above it"
    if src == dst == "stage" and (later := stage_of(target)) > (earlier := stage_of(source)):
        return f"stage {STAGES[earlier]} imports {STAGES[later]}, a stage after it"
    return None


def circles(graph: Mapping[str, Iterable[str]]) -> list[list[str]]:
    """Modules that import each other through any path (strongly connected components of two or
    more, Tarjan's algorithm without recursion). A module's import of its own package (the names
    its package's `__init__` gathers) is not counted: that is how a package is read, not a circle."""
    edges = {m: [t for t in ts if t in graph and not m.startswith(t + ".")] for m, ts in graph.items()}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for start in sorted(edges):
        if start in index:
            continue
        work = [(start, iter(sorted(edges[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, targets = work[-1]
            step = next(targets, None)
            if step is not None:
                if step not in index:
                    index[step] = low[step] = len(index)
                    stack.append(step)
                    on_stack.add(step)
                    work.append((step, iter(sorted(edges[step]))))
                elif step in on_stack:
                    low[node] = min(low[node], index[step])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return sorted(found)


def test_every_module_has_a_layer():
    unmapped = sorted(m for m in known_modules(PACKAGES) if layer_of(m) is None)
    assert not unmapped, f"add these to the layer map: {unmapped}"
    assert all(tier_of(m) is not None for m in known_modules() if layer_of(m) == "foundation")
    untiered = sorted(m for m in known_modules([EVALUATION]) if evaluation_tier(m) is None)
    assert not untiered, f"add these rooms to EVALUATION_TIERS: {untiered}"


def test_imports_point_down_only():
    wrong = sorted(f"{source} -> {target}: {why}" for source, targets in import_graph(PACKAGES).items()
                   for target in targets if (why := violation(source, target)))
    assert not wrong, "\n".join(wrong)


def test_no_import_circles():
    found = circles(import_graph(PACKAGES))
    assert not found, found


def test_circles_are_found():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "p.q": {"p"}, "p": {"p.q"}, "x": {"y"}, "y": {"x"}}
    assert circles(graph) == [["a", "b", "c"], ["x", "y"]]


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
    ("dualrag.parsing._ts", "dualrag.languages", "foundation tier parsing imports tier languages, above it"),
    ("dualrag.languages.outline", "dualrag.parsing.model", None),
    ("dualrag.languages.edi.symbols", "dualrag.source.encoding", None),
    ("dualrag.languages.code_symbols", "dualrag.source.language", "foundation tier languages imports tier services, above it"),
    ("dualrag.config.settings", "dualrag.parsing", "foundation tier kernel imports tier parsing, above it"),
    ("dualrag.testing.fake_llm", "dualrag.cli", "foundation imports top"),
    ("dualrag.cli", "scripts.anything", "the product imports scripts/"),
    ("dualrag.cli", "evaluation.retrieval.rules", "the product imports evaluation/"),
    ("indexers.rules", "evaluation.books", "the product imports evaluation/"),
    ("evaluation.retrieval.rules", "indexers.rules", None),
    ("evaluation.retrieval.rules", "dualrag.retrieval.rules", None),
    ("evaluation.retrieval.cases", "evaluation.books", None),
    ("evaluation.review.tune_rule_check", "evaluation.retrieval.model_examples", None),
    ("evaluation.tools.train_fusion", "evaluation.retrieval.fusion_folds", None),
    ("evaluation.core.datasets", "evaluation.books", "evaluation tier core imports tier books, above it"),
    ("evaluation.books.render", "evaluation.retrieval.cases", "evaluation tier books imports tier rooms, above it"),
    ("evaluation.rerank.calibration", "evaluation.tools.import_graph", "evaluation tier rooms imports tier tools, above it"),
    ("evaluation.bench.search", "evaluation.safety.hostile_corpus", None),
    ("evaluation.safety.injection", "evaluation.tools.chinese_probe", "evaluation tier rooms imports tier tools, above it"),
    ("evaluation.bench.search", "scripts.eval.unknown", "evaluation/ imports scripts/"),
])
def test_the_map_judges_as_written(source, target, expected):
    assert violation(source, target) == expected


def test_imports_are_read_as_python_resolves_them():
    """`from pkg import mod` is an import of the module, `from pkg import name` one of the package."""
    modules = {"dualrag.languages", "dualrag.languages.grammars", "dualrag.parsing", "dualrag.parsing.model"}
    text = ("from dualrag.languages import grammars\nfrom dualrag.languages import pack_for\n"
            "def f():\n    from .model import Member\n    import dualrag.parsing.model.deep\n")
    found = read_imports("dualrag.parsing.probe", text, modules)
    assert found == {"dualrag.languages.grammars", "dualrag.languages", "dualrag.parsing.model"}


def test_loading_the_configuration_loads_no_stage_and_little_else():
    """`import dualrag.config` is what every stage does first: it must pull no stage in, and stay
    small (issue 43: at most 15 `dualrag.*` modules; `evaluation/bench/config_imports.py` prints them)."""
    from evaluation.bench.config_imports import FLOOR, counted, probe

    loaded = probe("import dualrag.config", ROOT)["modules"]
    above = [m for m in loaded if layer_of(m) != "foundation" or tier_of(m) != 0]
    assert not above, above
    assert "dualrag.config.llm" in loaded  # the sections are really there
    assert len(counted(loaded)) <= FLOOR, counted(loaded)
