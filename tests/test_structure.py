"""The shape of the code base: no import circles, short modules and classes, a first docstring
line in every module that says what it holds."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from conftest import ROOT

#: Library code: the package plus what installs inside it (``notation.cli``, ``notation.grammars``).
TREES = {"notation": ROOT / "notation", "notation.cli": ROOT / "cli", "notation.grammars": ROOT / "grammars"}


def _installed_copy(path: Path) -> bool:
    """A file under ``notation/cli`` or ``notation/grammars``: the copies an editable maturin
    install makes of ``cli/`` and ``grammars/`` (not sources of their own)."""
    parts = path.relative_to(ROOT).parts
    return len(parts) > 1 and parts[0] == "notation" and parts[1] in ("cli", "grammars")


def _modules() -> dict[str, Path]:
    found: dict[str, Path] = {}
    for package, root in TREES.items():
        for path in sorted(root.rglob("*.py")):
            if _installed_copy(path):
                continue
            parts = list(path.relative_to(root).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts = parts[:-1]
            found[".".join([package, *parts])] = path
    return found


#: The layers of docs/ARCHITECTURE.md, lowest first: a module may import (at run time, inside a
#: function, or for type checking only) modules of its own layer and of the layers below it.
LAYERS: tuple[tuple[str, ...], ...] = (
    ("notation.diagnostics", "notation.compiled", "notation.parallel", "notation.grammars", "notation.oserrors"),
    ("notation.rules",),
    ("notation.formats",),
    ("notation.pgn",),
    ("notation.validation",),
    ("notation.openings",),
    ("notation.select",),
    ("notation.tables",),
    ("notation.convert",),
    ("notation.pictures",),
    ("notation.scoresheet",),
    ("notation.cli",),
    ("notation",),  # the public API: lazy exports of every layer
)

#: Imports that run against the layers, each with its reason (keep this short).
UPWARD: dict[tuple[str, str], str] = {
    (
        "notation.formats.position",
        "notation.pictures.board",
    ): "Position._repr_svg_, Jupyter's display hook: imported only when a notebook draws a position",
}


def layer_of(module: str) -> int:
    """The index in :data:`LAYERS` of the layer that holds ``module`` (the longest prefix)."""
    best, found = -1, -1
    for index, prefixes in enumerate(LAYERS):
        for prefix in prefixes:
            if (module == prefix or module.startswith(prefix + ".")) and len(prefix) > best:
                best, found = len(prefix), index
    assert found >= 0, f"{module} is in no layer of LAYERS"
    return found


def layer_violations(graph: dict[str, set[str]]) -> list[str]:
    """Every import in ``graph`` (module -> modules it imports) from a lower layer to a higher."""
    return sorted(
        f"{name} (layer {layer_of(name)}) imports {target} (layer {layer_of(target)})"
        for name, targets in graph.items()
        for target in targets
        if layer_of(target) > layer_of(name) and (name, target) not in UPWARD
    )


def _imports(name: str, path: Path, known: set[str], *, type_only: bool = True, text: str | None = None) -> set[str]:
    """Modules of ours that ``name`` imports (anywhere in the file, also inside functions; with
    ``type_only`` also those under ``if TYPE_CHECKING:``)."""
    tree = ast.parse(text if text is not None else path.read_text(encoding="utf-8"))
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    skipped: set[int] = set()
    for node in ast.walk(tree):
        if not type_only and isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            skipped.update(id(n) for n in ast.walk(node))
    out: set[str] = set()
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        targets: list[str] = []
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join(
                    package.split(".")[: len(package.split(".")) - node.level + 1] + ([base] if base else [])
                )
            targets = [base] + [f"{base}.{alias.name}" for alias in node.names]
        for target in targets:
            while target and target not in known:
                target = target.rpartition(".")[0]
            if target and target != name and target != "notation":
                out.add(target)
    return out


def _graph() -> dict[str, set[str]]:
    modules = _modules()
    return {name: _imports(name, path, set(modules)) for name, path in modules.items()}


def test_no_import_circles() -> None:
    """No module imports another that imports it back, type-only imports included."""
    graph = _graph()
    circles: list[list[str]] = []
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                circles.append(stack[stack.index(nxt) :] + [nxt])
            elif nxt not in state:
                visit(nxt)
        stack.pop()
        state[node] = 2

    for name in sorted(graph):
        if name not in state:
            visit(name)
    assert not circles, "import circles:\n" + "\n".join(" -> ".join(c) for c in circles)


def test_imports_follow_the_layers() -> None:
    """The dependency order of docs/ARCHITECTURE.md, run-time and type-only imports alike:
    rules imports only rules (and the base), text formats only rules, and so on up."""
    assert not layer_violations(_graph()), "\n".join(layer_violations(_graph()))
    assert all(layer_of(a) < layer_of(b) for a, b in UPWARD), "an UPWARD entry that is no upward import"


@pytest.mark.parametrize(
    "source",
    [
        "from notation.formats.fen import parse_fen\n",
        "def f():\n    from notation.formats import san\n",
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from notation.pgn.model import Game\n",
    ],
)
def test_the_layer_test_fails_on_an_inverted_import(source: str) -> None:
    """A rules module that imports a format (at load, in a function, or for types only) fails."""
    modules = _modules()
    graph = _graph()
    name = "notation.rules.position"
    graph[name] = _imports(name, modules[name], set(modules), text=source)
    found = layer_violations(graph)
    assert found and all(line.startswith(name) for line in found), found


def test_the_graph_sees_imports_inside_functions() -> None:
    modules = _modules()
    found = _imports("notation.pgn.reader", modules["notation.pgn.reader"], set(modules))
    assert "notation.pgn.parser" in found and "notation.pgn.sources" in found


def test_every_module_says_what_it_holds() -> None:
    missing = []
    for name, path in _modules().items():
        doc = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8")))
        first = (doc or "").strip().splitlines()[0] if doc and doc.strip() else ""
        if len(first) < 15:
            missing.append(name)
    assert not missing, f"modules without a first docstring line: {missing}"


def test_code_and_help_speak_of_the_product() -> None:
    """No issue numbers and no 'the seeds' in code, grammars or docs."""
    import re

    pattern = re.compile(r"\b[Ii]ssue \d+|\bissues? #\d+|#\d+ \(issue|\bthe seeds\b|\bseeds'")
    offenders = []
    for root in [*TREES.values(), ROOT / "docs", ROOT / "README.md"]:
        paths = (
            [root]
            if root.is_file()
            else [p for p in root.rglob("*") if p.suffix in (".py", ".lark", ".md") and not _installed_copy(p)]
        )
        for path in paths:
            for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                if pattern.search(line):
                    offenders.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()[:80]}")
    assert not offenders, "\n".join(offenders)


def test_no_module_imports_another_modules_private_names() -> None:
    """``from notation.x import _name`` couples a module to another's insides: what a module
    shares it names without an underscore (the compiled ``_core`` is a module, not a name)."""
    import ast

    offenders: list[str] = []
    for root in (ROOT / "notation", ROOT / "cli"):
        for path in sorted(root.rglob("*.py")):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            for node in ast.walk(tree):
                if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("notation"):
                    for alias in node.names:
                        if alias.name.startswith("_") and alias.name != "_core" and not alias.name.startswith("__"):
                            offenders.append(f"{path.relative_to(ROOT)}:{node.lineno} {node.module}.{alias.name}")
    assert not offenders, offenders
