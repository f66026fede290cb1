"""The architecture as tests (issue 13, "done means"): no import cycle in the package,
every import points down the layers, no engine file over 500 lines, no function over 80
lines outside numba kernels (and a longer kernel says why in its docstring).

The package is read with :mod:`ast`, nothing is imported: imports inside functions count
as much as those at the top of a module (a lazy import upward is still a dependency
upward).
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Iterator
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "pokerarena"

# The layers, bottom first: a module may import its own layer and those below it. A
# name is a top-level module or sub-package of pokerarena (``pokerarena`` itself is its
# ``__init__``).
LAYERS: tuple[tuple[str, ...], ...] = (
    ("pokerarena", "native", "errors", "protocols"),
    ("cards",),
    ("evaluator",),
    ("rules",),
    ("engine", "games"),
    ("bots",),
    ("arena",),
    ("tournaments", "studies", "solvers", "interop", "env"),
    ("workers",),
    ("platform",),
    ("commands", "cli", "bench", "demo", "demo_tournament", "demo_study", "demo_aside"),
)
LAYER_OF = {name: i for i, names in enumerate(LAYERS) for name in names}

MAX_ENGINE_FILE_LINES = 500
MAX_FUNCTION_LINES = 80
KERNEL_DECORATORS = {"njit", "jit"}  # bare, numba.njit, nb.jit, njit(cache=True), ...
# Where the function-length rule applies: the package and the project's own scripts.
CODE_DIRS = ("pokerarena", "tools", "benchmarks")


@cache
def modules() -> dict[str, Path]:
    """Every module of the package by dotted name (a package by its ``__init__``)."""
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(ROOT).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        found[".".join(parts)] = path
    return found


@cache
def tree_of(path: Path) -> ast.Module:
    return ast.parse(path.read_text(), str(path))


def imported(name: str) -> Iterator[tuple[str, int]]:
    """(module of the package, line) for every import in module ``name``."""
    path = modules()[name]
    package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    yield from imports_in(tree_of(path), package, modules().keys())


def imports_in(tree: ast.Module, package: list[str],
               known: Iterable[str]) -> Iterator[tuple[str, int]]:
    """(module, line) for every ``pokerarena`` import of ``tree`` (a module of
    ``package``), wherever it is: ``from a import b`` is module ``a.b`` when that is one
    of the ``known`` modules, else ``a``; a name inside a module is that module."""
    known = set(known)
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            parts = package[:len(package) - node.level + 1] if node.level else []
            base = ".".join([*parts, *([node.module] if node.module else [])])
            targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in known else base
                       for a in node.names]
        else:
            continue
        for target in targets:
            while target and target not in known:
                target = target.rpartition(".")[0]
            if target.split(".")[0] == "pokerarena":
                yield target, node.lineno


@cache
def graph() -> dict[str, frozenset[str]]:
    return {name: frozenset(t for t, _ in imported(name) if t != name) for name in modules()}


def cycles(edges: dict[str, frozenset[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm,
    iterative: the package is deeper than a comfortable recursion)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in sorted(edges):
        if root in index:
            continue
        work = [(root, iter(sorted(edges[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(edges.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
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
    return found


def layer(name: str) -> int:
    parts = name.split(".")
    return LAYER_OF[parts[1] if len(parts) > 1 else parts[0]]


def upward_imports() -> list[str]:
    return [f"{name}:{line} imports {target}"
            for name in modules() for target, line in imported(name)
            if layer(target) > layer(name)]


def kernel(node: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """Decorated with numba's ``njit`` or ``jit`` (called or not, under any module)."""
    for deco in node.decorator_list:
        target = deco.func if isinstance(deco, ast.Call) else deco
        name = target.attr if isinstance(target, ast.Attribute) else getattr(target, "id", "")
        if name in KERNEL_DECORATORS:
            return True
    return False


def functions() -> Iterator[tuple[str, ast.FunctionDef | ast.AsyncFunctionDef, int]]:
    """(where, function, lines from its ``def`` to its last line) for every function of
    the project's code, nested ones and methods included."""
    for folder in CODE_DIRS:
        for path in sorted((ROOT / folder).rglob("*.py")):
            for node in ast.walk(tree_of(path)):
                if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                    lines = (node.end_lineno or node.lineno) - node.lineno + 1
                    where = f"{path.relative_to(ROOT)}:{node.lineno} {node.name}"
                    yield where, node, lines


# -- the checker itself finds what it must ------------------------------------------

def test_the_cycle_finder_finds_cycles_and_only_them():
    edges = {"a": frozenset("b"), "b": frozenset("c"), "c": frozenset("a"),
             "d": frozenset("a"), "e": frozenset("f"), "f": frozenset("e"), "g": frozenset()}
    assert sorted(cycles(edges)) == [["a", "b", "c"], ["e", "f"]]
    assert cycles({"a": frozenset("b"), "b": frozenset()}) == []


def test_the_import_reader_sees_every_kind_of_import():
    src = ("import pokerarena.cards\n"
           "from .actions import CALL_KIND\n"
           "from .. import rules\n"
           "from pokerarena.evaluator.lookup import table as t\n"
           "import numpy\n"
           "def f():\n"
           "    from pokerarena.platform import api\n"
           "    if True:\n"
           "        import pokerarena.arena.views as v\n")
    known = ["pokerarena", "pokerarena.cards", "pokerarena.rules", "pokerarena.engine",
             "pokerarena.engine.actions", "pokerarena.evaluator",
             "pokerarena.evaluator.lookup", "pokerarena.platform", "pokerarena.platform.api",
             "pokerarena.arena", "pokerarena.arena.views"]
    found = sorted(imports_in(ast.parse(src), ["pokerarena", "engine"], known),
                   key=lambda hit: hit[1])
    assert found == [("pokerarena.cards", 1), ("pokerarena.engine.actions", 2),
                     ("pokerarena.rules", 3), ("pokerarena.evaluator.lookup", 4),
                     ("pokerarena.platform.api", 7), ("pokerarena.arena.views", 9)]
    # and in the package itself: the engine's game reads its actions
    assert "pokerarena.engine.actions" in graph()["pokerarena.engine.game"]


def test_every_top_level_part_of_the_package_has_a_layer():
    tops = {name.split(".")[1] if "." in name else name for name in modules()}
    assert tops - LAYER_OF.keys() == set()


def test_the_kernel_test_knows_numba_decorators():
    src = ("@njit\ndef a(): pass\n@numba.njit(cache=True)\ndef b(): pass\n"
           "@nb.jit\ndef c(): pass\n@cache\ndef d(): pass\n")
    found = [n.name for n in ast.parse(src).body
             if isinstance(n, ast.FunctionDef) and kernel(n)]
    assert found == ["a", "b", "c"]


# -- the rules ----------------------------------------------------------------------

def test_no_import_cycle():
    assert cycles(graph()) == []


def test_imports_point_down_the_layers():
    assert upward_imports() == []


def test_no_engine_file_over_500_lines():
    long = {str(p.relative_to(ROOT)): n for p in sorted((PACKAGE / "engine").rglob("*.py"))
            if (n := len(p.read_text().splitlines())) > MAX_ENGINE_FILE_LINES}
    assert long == {}


def test_no_function_over_80_lines_outside_numba_kernels():
    long = [f"{where} ({n} lines)" for where, node, n in functions()
            if n > MAX_FUNCTION_LINES and not kernel(node)]
    assert long == []


def test_a_long_numba_kernel_says_why_it_is_long():
    """A kernel over 80 lines has a docstring that gives the reason (one long loop keeps
    its state in registers, a call numba would not inline, ...): the word "long" in it
    marks the explanation."""
    silent = [f"{where} ({n} lines)" for where, node, n in functions()
              if n > MAX_FUNCTION_LINES and kernel(node)
              and "long" not in (ast.get_docstring(node) or "").lower()]
    assert silent == []
