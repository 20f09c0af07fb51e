"""The import arrows between sweep's parts, their circles, upward arrows and imports inside functions.

Usage: ``python benchmarks/import_graph.py`` (exit 1 where a circle or an upward arrow exists).

A part is a top-level package or module of ``sweep`` (``engine``, ``families``, ``cli``, ...).
The layers below are the intended direction of flow (issue 28): a part may import its own layer
and the layers beneath it. An arrow the other way is upward. A circle is a set of modules that
import one another, at module level or inside functions; an import inside a function is listed
with the reason a reader would guess (a circle it breaks, or a cost it defers).
"""

from __future__ import annotations

import ast
import sys
from collections import Counter
from pathlib import Path

import numpy as np
from scipy.sparse import csr_array
from scipy.sparse.csgraph import connected_components

PACKAGE = Path(__file__).resolve().parents[1] / "sweep"

#: The layers, lowest first: a part imports only its own layer and those beneath.
LAYERS = (("_version", "_numba", "errors", "_plugins"), ("stats", "workloads"), ("families",), ("config",),
          ("engine",), ("analysis",), ("reproduce",), ("papers",), ("cli", "__init__"), ("testing",))
LAYER = {part: depth for depth, parts in enumerate(LAYERS) for part in parts}


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def part_of(module: str) -> str:
    pieces = module.split(".")
    return pieces[1] if len(pieces) > 1 else "__init__"


def imports(path: Path, modules: set[str]) -> list[tuple[str, bool]]:
    """``(imported sweep module, inside a function?)`` for each import statement of one file."""
    tree = ast.parse(path.read_text())
    own = module_name(path)
    is_package = path.name == "__init__.py"
    found = []
    functions = [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)]
    nested = {id(n) for f in functions for n in ast.walk(f) if n is not f}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = own.split(".") if is_package else own.split(".")[:-1]
                base = ".".join(anchor[:len(anchor) - node.level + 1] + ([base] if base else []))
            names = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base
                     for alias in node.names]
        else:
            continue
        if _type_checking_only(node, tree):
            continue
        inside = id(node) in nested
        found += [(_known(name, modules), inside) for name in names if name.split(".")[0] == "sweep"]
    return [(name, inside) for name, inside in found if name]


def _known(name: str, modules: set[str]) -> str | None:
    while name and name not in modules:
        name = name.rpartition(".")[0]
    return name or None


def _type_checking_only(node: ast.AST, tree: ast.Module) -> bool:
    return any(isinstance(block, ast.If) and "TYPE_CHECKING" in ast.unparse(block.test)
               and any(child is node for stmt in block.body for child in ast.walk(stmt))
               for block in ast.walk(tree))


def main() -> int:
    files = sorted(PACKAGE.rglob("*.py"))
    modules = {module_name(path) for path in files}
    edges = {module_name(path): imports(path, modules) for path in files}
    names = sorted(modules)
    number = {name: n for n, name in enumerate(names)}
    rows, cols = zip(*[(number[a], number[b]) for a, targets in edges.items() for b, _ in targets if a != b],
                     strict=True)
    graph = csr_array((np.ones(len(rows)), (rows, cols)), shape=(len(names), len(names)))
    _, component = connected_components(graph, directed=True, connection="strong")
    sizes = Counter(component)
    circles = [[n for n in names if component[number[n]] == c] for c, size in sizes.items() if size > 1]

    unplaced = sorted({part_of(name) for name in modules} - set(LAYER))
    if unplaced:
        print(f"parts in no layer: {', '.join(unplaced)}: add them to LAYERS", file=sys.stderr)
        return 2
    arrows = Counter((part_of(a), part_of(b)) for a, targets in edges.items() for b, _ in targets
                     if part_of(a) != part_of(b))
    upward = {arrow: count for arrow, count in arrows.items() if LAYER[arrow[1]] > LAYER[arrow[0]]}
    in_circle = {n for circle in circles for n in circle}
    inner = Counter((a, b) for a, targets in edges.items() for b, inside in targets if inside)

    print(f"{len(files)} files, {sum(len(f.read_text().splitlines()) for f in files):,} lines, "
          f"{len(arrows)} arrows between parts")
    for (source, target), count in sorted(arrows.items()):
        mark = "   UPWARD" if (source, target) in upward else ""
        print(f"  {source:>10} -> {target:<10} {count:3d} imports{mark}")
    print(f"circles: {len(circles)}")
    for circle in circles:
        print("  " + " <-> ".join(circle))
    within = sum(count for (a, b), count in inner.items() if a in in_circle and b in in_circle)
    print(f"imports inside functions: {inner.total()}, {within} of them within a circle")
    for (a, b), count in sorted(inner.items()):
        note = "   (within a circle)" if a in in_circle and b in in_circle else ""
        print(f"  {a} -> {b}" + (f" ({count})" if count > 1 else "") + note)
    return 1 if circles or upward else 0


if __name__ == "__main__":
    sys.exit(main())
