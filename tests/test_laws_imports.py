"""The package's imports: no cycle anywhere, and the Laws below scoring below validation.

Every import counts, at module level or inside a function (a function-level import
is a cycle put off, not removed); only ``if TYPE_CHECKING:`` blocks are left out,
as they never run.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "bridgefiles"


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _modules() -> dict[str, Path]:
    return {_module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def _type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _imports(name: str, path: Path, known: set[str]) -> set[str]:
    """The package modules ``name`` imports, wherever the import statement stands."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and _type_checking(node):
            for stmt in node.orelse:
                visit(stmt)
            return
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name in known)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.split(".")
                up = up[: len(up) - (node.level - 1)]
                base = ".".join([*up, base] if base else up)
            for a in node.names:  # ``from package import module`` needs only the module
                sub = f"{base}.{a.name}"
                if sub in known:
                    found.add(sub)
                elif base in known:
                    found.add(base)
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(tree)
    # a package is always initialised before its modules, so importing an ancestor
    # package runs nothing new: not an edge
    return {m for m in found if m != name and not name.startswith(m + ".")}


def _graph() -> dict[str, set[str]]:
    modules = _modules()
    known = set(modules)
    return {name: _imports(name, path, known) for name, path in modules.items()}


def _cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import cycle, as the list of modules around it, or None."""
    state: dict[str, int] = {}  # 1: on the path, 2: done
    path: list[str] = []

    def walk(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return [*path[path.index(nxt) :], nxt]
            if nxt not in state:
                found = walk(nxt)
                if found:
                    return found
        path.pop()
        state[node] = 2
        return None

    for start in sorted(graph):
        if start not in state:
            found = walk(start)
            if found:
                return found
    return None


def test_the_walk_finds_a_cycle_when_there_is_one() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert _cycle(graph) == ["a", "b", "c", "a"]
    assert _cycle({"a": {"b"}, "b": set()}) is None


def test_the_walk_sees_function_level_imports() -> None:
    graph = _graph()
    assert "bridgefiles.laws.result" in graph["bridgefiles.validate"]
    assert "bridgefiles.scoring" in graph["bridgefiles.validate"]


def test_no_import_cycle_in_the_package() -> None:
    cycle = _cycle(_graph())
    assert cycle is None, "import cycle: " + " -> ".join(cycle or [])


LOWER_THAN = {
    # a module of the first layer never imports one of the others (DESIGN, issue 12)
    "bridgefiles.model": ("bridgefiles.laws", "bridgefiles.scoring", "bridgefiles.validate"),
    "bridgefiles.laws": ("bridgefiles.scoring", "bridgefiles.validate", "bridgefiles.formats"),
    "bridgefiles.scoring": ("bridgefiles.validate",),
}


@pytest.mark.parametrize("layer", sorted(LOWER_THAN))
def test_imports_go_down_only(layer: str) -> None:
    graph = _graph()
    bad = sorted(
        f"{name} imports {dep}"
        for name, deps in graph.items()
        if name == layer or name.startswith(layer + ".")
        for dep in deps
        if any(dep == up or dep.startswith(up + ".") for up in LOWER_THAN[layer])
    )
    assert bad == []
