"""The typed boundary between the package and its compiled core (``notation._core``): the stub
``notation/_core.pyi`` declares exactly what the built module holds, every name the package
reads of the core is declared there, nothing core-typed is ``Any``, and a game the core declines
says why (``Decline.code``, one of ``DECLINE_CODES``)."""

from __future__ import annotations

import ast
import inspect
import re
from pathlib import Path

import pytest

import notation
from notation import _core  # the core must be built: no skip
from notation import compiled
from notation.pgn.reader import parse_raw_game, split_games
from notation.validation import core
from notation.validation.reports import check_game

PACKAGE = Path(notation.__file__).parent
STUB = ast.parse((PACKAGE / "_core.pyi").read_text(encoding="utf-8"))


def _stub_names() -> dict[str, ast.stmt]:
    names: dict[str, ast.stmt] = {}
    for node in STUB.body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            names[node.name] = node
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names[node.target.id] = node
    return names


#: Names the stub declares for type checkers only (aliases: no runtime counterpart).
_ALIASES = {
    "Line",
    "DeclineCode",
    "Termination",
    "MateReason",
    "NotComputed",
    "MateVerdict",
    "Remark",
    "PlyMark",
    "RawGame",
}


def test_the_stub_declares_exactly_what_the_module_holds() -> None:
    declared = set(_stub_names()) - _ALIASES
    held = {name for name in vars(_core) if not name.startswith("_")}
    assert declared == held


def test_stub_signatures_name_the_module_s_parameters_and_defaults() -> None:
    for name, node in _stub_names().items():
        if not isinstance(node, ast.FunctionDef):
            continue
        runtime = inspect.signature(getattr(_core, name))
        stub = node.args
        defaults = [None] * (len(stub.args) - len(stub.defaults)) + list(stub.defaults)
        assert [a.arg for a in stub.args] == list(runtime.parameters), name
        for arg, default in zip(stub.args, defaults):
            expected = runtime.parameters[arg.arg].default
            if default is None:
                assert expected is inspect.Parameter.empty, (name, arg.arg)
            elif isinstance(default, ast.Constant) and expected is not Ellipsis:  # (... a Rust constant)
                assert default.value == expected, (name, arg.arg)


def test_every_name_the_package_reads_of_the_core_is_declared() -> None:
    declared = set(_stub_names())
    used: set[str] = set()
    for path in PACKAGE.rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module == "notation._core":
                used.update(alias.name for alias in node.names)
            elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "_core":
                used.add(node.attr)
    protocol = {name for name, _ in inspect.getmembers(compiled.Core) if not name.startswith("_")}
    used |= protocol
    assert {"replay_game", "CoreGame", "dead_analysis", "lex_game", "walk_mainline"} <= used
    assert used <= declared, used - declared


#: The modules that hold or pass the core and its results.
_BOUNDARY = [
    "compiled.py",
    "validation/core.py",
    "validation/dead.py",
    "tables/rows.py",
    "tables/openings.py",
    "tables/moves_rows.py",
    "select/criteria.py",
    "validation/run.py",
    "pgn/reader.py",
]
#: Parameter and attribute names that carry the core, a batch of it or one of its results.
_CORE_TYPED = re.compile(r"^(core|module|result|moves|core_batch|taken)$")


def test_nothing_at_the_boundary_is_any() -> None:
    assert "Any" not in (PACKAGE / "_core.pyi").read_text(encoding="utf-8")
    untyped = []
    for name in _BOUNDARY:
        tree = ast.parse((PACKAGE / name).read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                for arg in node.args.args + node.args.kwonlyargs:
                    if _CORE_TYPED.match(arg.arg) and (arg.annotation is None or "Any" in ast.unparse(arg.annotation)):
                        untyped.append(f"{name}:{node.lineno} {node.name}({arg.arg})")
                if "core" in node.name and node.returns is not None and "Any" in ast.unparse(node.returns):
                    untyped.append(f"{name}:{node.lineno} {node.name} -> Any")
            elif isinstance(node, ast.AnnAssign):
                target = ast.unparse(node.target).removeprefix("self.")
                if _CORE_TYPED.match(target) and "Any" in ast.unparse(node.annotation):
                    untyped.append(f"{name}:{node.lineno} {target}")
    assert not untyped


def test_decline_codes_are_the_stub_s_literal() -> None:
    alias = _stub_names()["DeclineCode"]
    assert isinstance(alias, ast.AnnAssign) and alias.value is not None
    literal = ast.literal_eval(ast.unparse(alias.value).removeprefix("Literal"))
    assert tuple(literal) == _core.DECLINE_CODES
    assert len(set(_core.DECLINE_CODES)) == len(_core.DECLINE_CODES)


@pytest.mark.parametrize(
    ("moves", "code"),
    [
        ("1. e4 e5 2. Ke3 ", "illegal-or-ambiguous"),
        ("1. Ngf3 ", "disambiguation"),
        ("1. e4 e5 2. Nxf3 ", "capture-mark"),
        ("1. f3 e5 2. g4 Qh4# 3. a3 ", "move-after-mate"),
        ("1. e4 e5 & ", "not-read"),
    ],
)
def test_the_core_says_why_it_declines(moves: str, code: str) -> None:
    declined = _core.replay_game(None, [(moves, 1, 1)])
    assert isinstance(declined, _core.Decline)
    assert declined.code == code and declined.reason
    assert declined == _core.replay_game(None, [(moves, 1, 1)])
    assert code in repr(declined)
    assert isinstance(_core.replay_game("8/8/8/8/8/8/8/8", [("1. e4 ", 1, 1)]), _core.Decline)


def test_a_declined_game_is_counted_and_read_by_the_reference(tmp_path: Path) -> None:
    path = tmp_path / "lenient.pgn"
    path.write_text('[Event "T"]\n[Result "*"]\n\n1. e4 e5 2. Ngf3 Nc6 *\n')
    raw = next(split_games(path))
    module = compiled.core_module()
    assert module is not None
    before = core.DECLINES["disambiguation"]
    assert core.take(module, raw) is None
    assert core.DECLINES["disambiguation"] == before + 1
    report = core.check_raw(raw, None)
    assert report.to_dict() == check_game(parse_raw_game(raw)).to_dict()
    assert any(d.code.startswith("san.") for d in report.diagnostics)


def test_a_rule_based_end_is_one_of_the_stub_s_terminations() -> None:
    alias = _stub_names()["Termination"]
    assert isinstance(alias, ast.AnnAssign) and alias.value is not None
    names = set(ast.literal_eval(ast.unparse(alias.value).removeprefix("Literal")))
    mate = _core.replay_game(None, [("1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7# ", 1, 1)])
    assert isinstance(mate, _core.CoreGame)
    assert (mate.termination, mate.winner) == ("checkmate", "white")
    stalemate = _core.replay_game("k7/8/1Q6/8/8/8/8/7K w - - 0 1", [("1. Kg2 ", 1, 1)])
    assert isinstance(stalemate, _core.CoreGame)
    assert (stalemate.termination, stalemate.winner) == ("stalemate", None)
    assert {mate.termination, stalemate.termination} <= names
