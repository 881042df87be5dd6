"""The package's layers, read off its import graph: no cycle anywhere, no import that
climbs a layer (an ancestor package counts like any module: importing ``bridgefiles``
from below is a climb), and no try/except ImportError around our own modules.

Every import counts, at module level or inside a function (a function-level import
is a cycle put off, not removed); only ``if TYPE_CHECKING:`` blocks are left out,
as they never run. docs/architecture.md draws the same layers.
"""

from __future__ import annotations

import ast
from pathlib import Path

from shared import ROOT

PACKAGE = ROOT / "bridgefiles"


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
    return _imports_text(name, path, path.read_text(encoding="utf-8"), known)


def _imports_text(name: str, path: Path, text: str, known: set[str]) -> set[str]:
    tree = ast.parse(text)
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
    return found - {name}


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
    assert "bridgefiles.laws.result" in graph["bridgefiles.checks.validate"]
    assert "bridgefiles.scoring" in graph["bridgefiles.checks.validate"]


def test_no_import_cycle_in_the_package() -> None:
    cycle = _cycle(_graph())
    assert cycle is None, "import cycle: " + " -> ".join(cycle or [])


# Lowest first. A module may import its own layer and those below it, never above.
LAYERS: tuple[tuple[str, ...], ...] = (
    ("bridgefiles.errors", "bridgefiles.grammars"),  # what everything may raise; data
    ("bridgefiles.model",),  # values: seats, cards, deals, auctions, play, boards
    ("bridgefiles.limits",),  # bounds on untrusted input (settings)
    ("bridgefiles.formats",),  # decoding, the grammars' readers and the writers
    ("bridgefiles.laws",),  # the auction and play replayed against the Laws
    # conversion between formats: what a board comes to (the Laws' final count) decides
    # what a target format can carry
    ("bridgefiles.formats.convert", "bridgefiles.formats.lin_facts"),
    ("bridgefiles.scoring",),  # Law 77, matchpoints, IMPs, standings
    ("bridgefiles.exchange",),  # USEBIO XML, dealing-machine files, RBN (scored results)
    ("bridgefiles.checks",),  # a board checked whole; the JSON schemas
    ("bridgefiles.files",),  # sources opened and sniffed, outputs written safely
    ("bridgefiles.views",),  # a board for the terminal; boards as rows
    ("bridgefiles.api",),  # the verbs
    ("bridgefiles.jobs",),  # convert, verify, the validation report of whole inputs
    ("bridgefiles.batch",),  # many inputs: tasks, process pool, dask
    ("bridgefiles.analysis",),  # double dummy, par, hand records (extras)
    ("bridgefiles.testing",),  # synthetic events and fuzzing, for tests and benches
    ("bridgefiles", "bridgefiles.diagnostics", "bridgefiles.table", "bridgefiles.dask",
     "bridgefiles.synthetic"),  # the public face and the names kept for old code
    ("bridgefiles.web",),  # the upload service (extra)
    # the command line, thin over all of it (with the command modules of the packages
    # whose extras they need)
    ("bridgefiles.cli", "bridgefiles.analysis.cli", "bridgefiles.web.cli"),
)


def _layer(module: str) -> int | None:
    """The index of the most specific layer entry that holds ``module``."""
    best: tuple[int, int] | None = None
    for index, names in enumerate(LAYERS):
        for prefix in names:
            inside = module == prefix or (
                prefix != "bridgefiles" and module.startswith(prefix + ".")
            )
            if inside and (
                best is None or len(prefix) > best[1]
            ):
                best = (index, len(prefix))
    return None if best is None else best[0]


def test_every_module_has_a_layer() -> None:
    assert [m for m in _modules() if _layer(m) is None] == []


def test_no_import_climbs_a_layer() -> None:
    graph = _graph()
    bad = sorted(
        f"{name} (layer {_layer(name)}) imports {dep} (layer {_layer(dep)})"
        for name, deps in graph.items()
        for dep in deps
        if (_layer(dep) or 0) > (_layer(name) or 0)
    )
    assert bad == []


def test_the_check_sees_a_climb_to_an_ancestor() -> None:
    """``import bridgefiles`` inside the formats is a climb, not an exemption."""
    known = {"bridgefiles", "bridgefiles.formats", "bridgefiles.formats.x"}
    tree_text = "import bridgefiles\n"
    path = ROOT / "build" / "probe.py"
    found = _imports_text("bridgefiles.formats.x", path, tree_text, known)
    assert found == {"bridgefiles"}
    assert _layer("bridgefiles") > _layer("bridgefiles.formats.x")  # type: ignore[operator]


def _guarded_own_imports(path: Path) -> list[int]:
    """Lines of try blocks that import one of our own modules and catch ImportError."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    lines = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Try):
            continue
        catches = any(
            isinstance(h.type, ast.Name) and h.type.id in ("ImportError", "ModuleNotFoundError")
            for h in node.handlers
        )
        imports = [
            n for stmt in node.body for n in ast.walk(stmt)
            if isinstance(n, ast.Import | ast.ImportFrom)
        ]
        ours = [
            n for n in imports
            if (isinstance(n, ast.ImportFrom) and (n.module or "").startswith("bridgefiles"))
            or (isinstance(n, ast.Import) and any(a.name.startswith("bridgefiles")
                                                  for a in n.names))
        ]
        if catches and ours and len(ours) == len(imports):
            lines.append(node.lineno)
    return lines


def test_no_try_except_around_an_import_that_cannot_fail() -> None:
    """Our own modules are always there: a guard around them hides a real error. (A
    guard that also imports an extra, such as uvicorn, is the extra's.)"""
    bad = {
        name: lines for name, path in _modules().items()
        if (lines := _guarded_own_imports(path))
    }
    assert bad == {}
