"""What a new user meets first: ``--version`` and ``-h``, quiet closed pipes through a real
``head``, a progress line that is gone before a piped reader prints, and start-up that imports
no table or chart library for the commands that do not need one."""

from __future__ import annotations

import json
import os
import pty
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import OUTSIDE, SAMPLE_GAMES
from terminal_support import CODE, drain, through_terminal

ROUND_ROBIN = SAMPLE_GAMES / "round_robin.pgn"


def _notation(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", CODE, *args], cwd=OUTSIDE, capture_output=True, text=True, timeout=120)


def test_version_and_short_help() -> None:
    from importlib.metadata import version

    shown = _notation("--version")
    assert shown.returncode == 0 and shown.stdout.strip() == f"notation {version('notation')}"
    short, long = _notation("-h"), _notation("--help")
    assert short.returncode == 0 and short.stdout == long.stdout and "validate" in short.stdout
    assert _notation("validate", "-h").stdout == _notation("validate", "--help").stdout


@pytest.fixture(scope="module")
def many_games(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Enough games that no command's output fits in a pipe's buffer."""
    big = tmp_path_factory.mktemp("pipes") / "many.pgn"
    big.write_text("\n".join([ROUND_ROBIN.read_text(encoding="utf-8")] * 60), encoding="utf-8")
    return big


PIPED = {
    "validate": ["validate"],
    "validate-jsonl": ["validate", "--format", "jsonl"],
    "convert": ["convert"],
    "convert-fen": ["convert", "--to", "fen"],
    "filter": ["filter"],
    "stats": ["stats", "--format", "csv", "--by", "player"],
    "standings": ["standings"],
    "ledger": ["ledger", "--history"],
    "tree": ["tree", "--depth", "6"],
}


@pytest.mark.skipif(shutil.which("head") is None or shutil.which("bash") is None, reason="needs bash and head")
@pytest.mark.parametrize("name", sorted(PIPED))
def test_a_closed_pipe_through_head_is_quiet_and_exits_0(name: str, many_games: Path) -> None:
    args = " ".join([*PIPED[name], str(many_games)])
    script = f'{sys.executable} -c "{CODE}" {args} 2>err.txt | head -1; echo "status=${{PIPESTATUS[0]}}"'
    run = subprocess.run(["bash", "-c", script], cwd=many_games.parent, capture_output=True, text=True, timeout=120)
    lines = run.stdout.splitlines()
    assert len(lines) == 2 and lines[1] == "status=0", run.stdout
    assert (many_games.parent / "err.txt").read_text() == ""  # no "Broken pipe", no traceback


ESCAPE = re.compile(r"\x1b\[([0-9;?]*)([A-Za-z])")


def _screen(raw: str) -> list[str]:
    """The lines a terminal shows for ``raw``: ``\\r`` returns to the line's start, erase-line
    and cursor-up sequences act, other escape sequences are dropped."""
    lines = [""]
    row = col = 0
    pos = 0
    while pos < len(raw):
        match = ESCAPE.match(raw, pos)
        if match:
            arg, op = match.groups()
            if op == "K":
                lines[row] = lines[row][:col] if arg in ("", "0") else ""
            elif op == "A":
                row = max(0, row - int(arg or 1))
            pos = match.end()
            continue
        char = raw[pos]
        pos += 1
        if char == "\r":
            col = 0
        elif char == "\n":
            row += 1
            col = 0
            if row == len(lines):
                lines.append("")
        elif char.isprintable():
            line = lines[row].ljust(col)
            lines[row] = line[:col] + char + line[col + 1 :]
            col += 1
    return lines


@pytest.mark.skipif(shutil.which("head") is None, reason="needs head")
@pytest.mark.parametrize("command", [["filter"], ["convert", "--to", "uci"]])
def test_the_progress_line_is_cleared_before_a_piped_reader_prints(command: list[str], tmp_path: Path) -> None:
    big = tmp_path / "big.pgn"  # slow enough for the display to be drawn before the first game
    big.write_text("\n".join([ROUND_ROBIN.read_text(encoding="utf-8")] * 400), encoding="utf-8")
    master, slave = pty.openpty()
    env = dict(os.environ, TERM="xterm", COLUMNS="150", NO_COLOR="1")
    head = subprocess.Popen(["head", "-3"], stdin=subprocess.PIPE, stdout=slave, stderr=slave)
    proc = subprocess.Popen(
        [sys.executable, "-c", CODE, *command, str(big)],
        cwd=OUTSIDE,
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=head.stdin,
        stderr=slave,
    )
    assert head.stdin is not None
    head.stdin.close()
    os.close(slave)
    output = drain(master)
    assert proc.wait(timeout=120) == 0 and head.wait(timeout=60) == 0
    raw = output.decode("utf-8", "replace").replace("\r\n", "\n")
    assert re.search(r"\d games", ESCAPE.sub("", raw)), raw  # the display was drawn ...
    shown = [line.rstrip() for line in _screen(raw) if line.strip()]
    assert len(shown) == 3, shown  # ... and gone: the reader's lines stand alone
    assert shown[0].startswith("[Event "), shown


LIGHT = """
import sys
sys.argv = ["notation", *{args!r}]
from notation.cli.main import run
try:
    run()
except SystemExit:
    pass
heavy = sorted(m for m in {modules!r} if m in sys.modules)
print("IMPORTED", __import__("json").dumps(heavy), file=sys.stderr)
"""


TABLES_AND_CHARTS = ("polars", "pyarrow", "altair", "vl_convert")
#: the Python rules tables (the reference replay): validate needs them for a game the core declines
RULES = ("notation.rules.attacks", "notation.rules.position")
#: what ``notation --help`` and ``--version`` print without (:func:`notation.cli.commands.top_help`)
AT_ONCE = ("typer", "click", "rich", "lark", "markdown_it", "importlib.metadata", "notation.cli.validate_cmd")


@pytest.mark.parametrize(
    ("args", "modules"),
    [
        (["--help"], TABLES_AND_CHARTS + RULES + AT_ONCE),  # printed without building the application
        (["-h"], TABLES_AND_CHARTS + RULES + AT_ONCE),
        (["--version"], TABLES_AND_CHARTS + RULES + AT_ONCE),
        (["validate", "--help"], TABLES_AND_CHARTS + RULES),
        (["chart", "--help"], TABLES_AND_CHARTS + RULES),
        (["validate", "EMPTY"], TABLES_AND_CHARTS + RULES + ("lark",)),  # nothing to parse or replay
        (["validate", str(ROUND_ROBIN)], TABLES_AND_CHARTS),
    ],
)
def test_start_up_imports_no_table_or_chart_library(args: list[str], modules: tuple[str, ...], tmp_path: Path) -> None:
    empty = tmp_path / "empty.pgn"
    empty.write_text("")
    given = [str(empty) if a == "EMPTY" else a for a in args]
    run = subprocess.run(
        [sys.executable, "-c", LIGHT.format(args=given, modules=modules)],
        cwd=OUTSIDE,
        capture_output=True,
        text=True,
        timeout=120,
    )
    line = next(text for text in run.stderr.splitlines() if text.startswith("IMPORTED "))
    assert json.loads(line.removeprefix("IMPORTED ")) == [], run.stderr


def test_the_docs_say_what_pipes_jobs_identity_and_matching_do() -> None:
    from conftest import ROOT

    section = (ROOT / "docs" / "every-command.md").read_text(encoding="utf-8")
    for words in (
        "A closed pipe",
        "exit code 0",
        "progress line is cleared",
        "`--jobs N`",
        "never more than the CPUs",
        "identical to `--jobs 1`",
        "Names and events match one way everywhere",
        "accents ignored",
        "`--exact`",
        "Player identity",
        "FIDE id",
        "`--aliases FILE`",
        "`notation players",
    ):
        assert words in section, words


@pytest.mark.parametrize("args", [["validate", "--help"], ["import", "--help"], ["validate"], ["board", "--nope"]])
def test_a_command_line_meets_its_command_alone_as_in_the_whole_application(args: list[str]) -> None:
    """The console script builds only the command its line names (:func:`notation.cli.main._named`):
    that command's help, usage and errors are those of the application with every command."""
    from typer.testing import CliRunner

    from notation.cli.main import COMMANDS, _named, app, application

    assert _named(args) == args[:1]
    assert _named(["--version"]) == _named(["valdate"]) == _named([]) == list(COMMANDS)
    runner = CliRunner()
    alone, whole = runner.invoke(application(_named(args)), args), runner.invoke(app, args)
    assert (alone.exit_code, alone.output) == (whole.exit_code, whole.output)


#: widths around every edge of the layout: help text is 50 to 78 columns wide (80 and more: 78)
WIDTHS = [1, 40, 51, 52, 53, 54, 60, 65, 66, 67, 70, 75, 78, 79, 80, 81, 100, 200]


def _whole_help(columns: int, monkeypatch: pytest.MonkeyPatch) -> str:
    """What the application with every command prints for ``--help`` on a terminal ``columns``
    wide (its ``--help`` prints the context's help and a line end)."""
    import typer

    from notation.cli.main import app

    monkeypatch.setenv("COLUMNS", str(columns))
    group = typer.main.get_command(app)
    with group.make_context("notation", [], resilient_parsing=True) as ctx:
        return ctx.get_help() + "\n"


@pytest.mark.parametrize("columns", WIDTHS)
def test_help_printed_at_once_is_the_whole_applications(columns: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """``notation --help`` is printed without Typer (:func:`notation.cli.commands.top_help`): it is the
    help the application with every command prints, byte for byte, at every width."""
    from notation.cli.commands import top_help
    from notation.cli.main import _at_once

    whole = _whole_help(columns, monkeypatch)
    assert top_help(columns) == whole
    assert _at_once(["--help"]) == _at_once(["-h"]) == whole


def test_version_printed_at_once_is_the_whole_applications() -> None:
    from importlib.metadata import version

    from typer.testing import CliRunner

    import notation
    from notation.cli.main import _at_once, app

    whole = CliRunner().invoke(app, ["--version"])
    assert (whole.exit_code, whole.output) == (0, _at_once(["--version"]))
    assert notation.__version__ == version("notation")  # the version printed is the installed one's


def test_only_help_and_version_alone_are_printed_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Any other command line (two options, a command, nothing, shell completion) runs the application."""
    from notation.cli.main import _at_once

    for argv in ([], ["--help", "--version"], ["validate"], ["validate", "--help"], ["--nope"], ["help"]):
        assert _at_once(argv) is None, argv
    monkeypatch.setenv("_NOTATION_COMPLETE", "bash_complete")
    assert _at_once(["--help"]) is None and _at_once(["--version"]) is None


def test_the_command_list_shows_each_commands_own_help() -> None:
    """:data:`notation.cli.commands.SUMMARIES` (the start of each command's help) cuts as the command's
    whole help does at every width, and names every command."""
    import typer

    from notation.cli.commands import COMMANDS, SUMMARIES, _short
    from notation.cli.main import app

    group = typer.main.get_command(app)
    assert list(SUMMARIES) == list(COMMANDS) == group.list_commands(None)  # type: ignore[attr-defined]
    for name, summary in SUMMARIES.items():
        command = group.commands[name]  # type: ignore[attr-defined]
        for limit in range(34, 63):  # widths 50 to 78, less 6 and the longest name's 10
            assert _short(summary, limit) == command.get_short_help_str(limit), (name, limit)


@pytest.mark.parametrize("columns", [60, 100])
def test_help_on_a_terminal_and_piped(columns: int) -> None:
    """Through the console script's entry point, on a terminal ``columns`` wide and piped with
    ``COLUMNS`` set: what the application with every command prints."""
    env = dict(os.environ, COLUMNS=str(columns))
    whole = "from notation.cli.main import app; app(prog_name='notation')"
    runs = [
        subprocess.run([sys.executable, "-c", code, "--help"], cwd=OUTSIDE, capture_output=True, text=True, env=env)
        for code in (whole, CODE)
    ]
    assert [(run.returncode, run.stderr) for run in runs] == [(0, ""), (0, "")]
    assert runs[1].stdout == runs[0].stdout and "Commands:" in runs[0].stdout
    assert through_terminal(["--help"], columns) == (runs[0].stdout, "", 0)
