"""The house as a newcomer sees it from its imports: the rooms (each package under `dualrag/`,
`indexers/`, `evaluation/` and `scripts/`), their size in lines, the layer each sits in (the map of
tests/test_layers.py, written once there), the arrows between rooms, and anything wrong: an arrow
up, a circle between modules, two rooms that import each other, a room bigger than the biggest
core stage.

    .venv/bin/python -m evaluation.tools.import_graph [--dot]

`--dot` prints the room graph for Graphviz instead (`| dot -Tsvg > house.svg`).
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter, defaultdict

from tests.test_layers import PACKAGES, ROOT, STAGES, circles, import_graph, layer_of, sources, violation

ORDER = ("top", "publish", "review", "stage", "foundation", "offline", "evaluation", "scripts")


def room(module: str) -> str:
    """`dualrag.review.stage` -> `dualrag.review`; a top-level module is its own room."""
    return ".".join(module.split(".")[:2])


def sizes() -> Counter[str]:
    """Lines per room (every line of its .py files; the tests are not a room)."""
    lines: Counter[str] = Counter()
    for path in sources(PACKAGES):
        parts = path.relative_to(ROOT).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        lines[room(name)] += len(path.read_text(encoding="utf-8").splitlines())
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dot", action="store_true", help="the room graph in Graphviz's language")
    args = parser.parse_args(argv)
    graph = import_graph(PACKAGES)
    lines = sizes()
    arrows: Counter[tuple[str, str]] = Counter(
        (room(a), room(b)) for a, targets in graph.items() for b in targets if room(a) != room(b))
    if args.dot:
        print("digraph house {\n  rankdir=TB; node [shape=box];")
        for name in sorted(lines):
            print(f'  "{name}" [label="{name}\\n{lines[name]:,} lines"];')
        for (a, b), n in sorted(arrows.items()):
            print(f'  "{a}" -> "{b}" [label="{n}"];')
        print("}")
        return 0

    total = sum(lines.values())
    by_top = Counter({top: sum(n for r, n in lines.items() if r.split(".")[0] == top) for top in PACKAGES})
    print(f"{total:,} lines of non-test Python: " + ", ".join(f"{t}/ {n:,} ({n / total:.0%})" for t, n in by_top.items()))
    stage_rooms = [r for r in lines if r in STAGES or r in ("dualrag.review",)]
    core = max(lines[r] for r in stage_rooms)
    print(f"\nbiggest rooms (the biggest core stage, {max(stage_rooms, key=lines.get)}, has {core:,} lines):")
    for name, n in lines.most_common(12):
        print(f"  {n:>6,}  {name:<28} {layer_of(name) or '?':<11}{'  bigger than every core stage' if n > core else ''}")

    print("\nrooms by layer, top first, with the rooms each imports (module imports counted):")
    out: defaultdict[str, list[str]] = defaultdict(list)
    for (a, b), n in sorted(arrows.items()):
        out[a].append(f"{b.removeprefix('dualrag.')} {n}")
    for layer in ORDER:
        names = sorted((r for r in lines if (layer_of(r) or layer_of(r + ".x")) == layer), key=lambda r: -lines[r])
        print(f"[{layer}]")
        for name in names:
            print(f"  {name:<26} {lines[name]:>6,}  -> {', '.join(out[name]) or '-'}")

    up = sorted(f"{a} -> {b}: {why}" for a, targets in graph.items() for b in targets if (why := violation(a, b)))
    loops = circles(graph)
    both = sorted({tuple(sorted((a, b))) for (a, b) in arrows if (b, a) in arrows})
    print(f"\narrows up: {len(up)}" + "".join(f"\n  {line}" for line in up))
    print(f"import circles between modules: {len(loops)}" + "".join(f"\n  {' <-> '.join(c)}" for c in loops))
    print(f"rooms importing each other (different modules, no circle): {len(both)}"
          + "".join(f"\n  {a} <-> {b}: " + "; ".join(_witness(graph, x, y) for x, y in ((a, b), (b, a)))
                    for a, b in both))
    return 1 if up or loops else 0


def _witness(graph: dict[str, set[str]], a: str, b: str) -> str:
    pairs = sorted(f"{s} -> {t}" for s, ts in graph.items() if room(s) == a for t in ts if room(t) == b)
    return pairs[0] + (f" (+{len(pairs) - 1})" if len(pairs) > 1 else "")


if __name__ == "__main__":
    sys.exit(main())
