"""Every option of every command is passed to that command by some test: the option's flag is
an argument of a call, or an item of an argument list, in a test function (or a helper it calls,
or the module's tables of arguments) that passes the command's name the same way. A flag named
only in prose (a docstring, a comment, an expected help text) does not count. A new option
without a CLI test fails here."""

from __future__ import annotations

import ast
from pathlib import Path

import typer
from typer.core import TyperOption

from notation.cli.main import app

TESTS = Path(__file__).resolve().parents[1]


def _argv_words(node: ast.AST) -> set[str]:
    """String constants given as call arguments or listed in a list, tuple or set literal."""
    out: set[str] = set()
    for inner in ast.walk(node):
        items: list[ast.expr] = []
        if isinstance(inner, ast.Call):
            items = [*inner.args, *(keyword.value for keyword in inner.keywords)]
        elif isinstance(inner, (ast.List, ast.Tuple, ast.Set)):
            items = list(inner.elts)
        for item in items:
            if isinstance(item, ast.Starred):
                item = item.value
            if isinstance(item, ast.Constant) and isinstance(item.value, str):
                out.add(item.value)
            elif isinstance(item, ast.JoinedStr):
                out.update(v.value for v in item.values if isinstance(v, ast.Constant) and isinstance(v.value, str))
    return out


def invocations(source: str) -> list[set[str]]:
    """One set of argument words per function of a test module (with those of the module's
    functions it calls and of the module's top level), and one for the top level."""
    tree = ast.parse(source)
    functions = {n.name: n for n in tree.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))}
    own = {name: _argv_words(function) for name, function in functions.items()}
    top: set[str] = set()
    for node in tree.body:
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            top |= _argv_words(node)
    found = [top]
    for name, function in functions.items():
        words = own[name] | top
        for node in ast.walk(function):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in own:
                words |= own[node.func.id]
        found.append(words)
    return found


def _passed(command: str, flags: list[str], calls: list[set[str]]) -> bool:
    return any(
        command in words and any(w == f or w.startswith(f + "=") for w in words for f in flags) for words in calls
    )


def test_every_option_of_every_command_is_passed_by_a_test() -> None:
    command = typer.main.get_command(app)
    calls = [
        words for path in sorted(TESTS.rglob("test_*.py")) for words in invocations(path.read_text(encoding="utf-8"))
    ]
    untested = []
    for name, sub in sorted(getattr(command, "commands").items()):
        assert any(name in words for words in calls), f"no test passes the command {name!r}"
        for param in sub.params:
            if not isinstance(param, TyperOption) or param.name == "help":
                continue
            flags = [*param.opts, *param.secondary_opts]
            if not _passed(name, flags, calls):
                untested.append(f"{name} {'/'.join(flags)}")
    assert not untested, untested


def test_a_flag_named_only_in_prose_is_not_tested() -> None:
    prose = (
        "def test_board():\n"
        '    """Draws with --flip."""\n'
        '    result = run_cli("board", "game.pgn")  # try --flip too\n'
        '    assert "--flip" in result.stdout\n'
    )
    assert not _passed("board", ["--flip"], invocations(prose))
    passed = prose + 'def test_flipped():\n    run_cli("board", "game.pgn", "--flip")\n'
    assert _passed("board", ["--flip"], invocations(passed))
    helper = 'def _draw(*args):\n    return run_cli("board", *args)\ndef test_f():\n    _draw("--flip=yes")\n'
    assert _passed("board", ["--flip"], invocations(helper))
