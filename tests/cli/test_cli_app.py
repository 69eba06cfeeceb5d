"""The assembled CLI: every command is registered and documented; exit codes for usage errors."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from notation.cli.main import app

COMMANDS = ["validate", "import", "stats", "standings", "ledger", "scoresheet"]


def test_top_level_help_lists_every_command() -> None:
    result = CliRunner().invoke(app, ["--help"])
    assert result.exit_code == 0
    for command in COMMANDS:
        assert command in result.output


@pytest.mark.parametrize("command", COMMANDS)
def test_every_command_has_help(command: str) -> None:
    result = CliRunner().invoke(app, [command, "--help"])
    assert result.exit_code == 0, result.output
    assert "Usage" in result.output
    assert len(result.output.strip().splitlines()) > 5


def test_unknown_command_is_a_usage_error() -> None:
    assert CliRunner().invoke(app, ["no-such-command"]).exit_code == 2


def _all_commands() -> list[str]:
    import typer

    return sorted(typer.main.get_command(app).commands)  # type: ignore[attr-defined]


def test_help_shows_readable_types_for_every_command() -> None:
    import re

    for command in ["", *_all_commands()]:
        args = [command, "--help"] if command else ["--help"]
        result = CliRunner().invoke(app, args, env={"COLUMNS": "200"})
        assert result.exit_code == 0, result.output
        raw = re.findall(r"<[a-z][a-z_ \[\]|,.]*>", result.output)
        assert not raw, (command, raw)


def test_readable_type_names() -> None:
    from notation.cli.help_types import readable

    assert readable("<int range>") == "N"
    assert readable("<list[str]>") == "TEXT..."
    assert readable("<text|json>") == "text|json"
    assert readable("<bool>") is None
    assert readable("<path>") == "PATH"


def _command(name: str) -> object:
    import typer

    return typer.main.get_command(app).commands[name]  # type: ignore[attr-defined]


def test_usage_lines_name_the_arguments_one_way() -> None:
    """``{PATH...}`` for several paths, ``{PATH}`` for one, in upper case: never ``{paths}...``."""
    import re

    for command in _all_commands():
        if command == "scoresheet":
            continue  # its arguments are being reworked with the command
        result = CliRunner().invoke(app, [command, "--help"], env={"COLUMNS": "200"})
        usage = next(line for line in result.output.splitlines() if "Usage:" in line)
        arguments = re.findall(r"\{[^}]*\}\S*", usage)
        assert arguments and all(re.fullmatch(r"\{[A-Z|]+(\.\.\.)?\}", a) for a in arguments), (command, usage)


def _options(command: str) -> list[object]:
    """The options of ``command`` (Typer's own Click or the Click it vendors: by duck typing)."""
    return [p for p in _command(command).params if p.param_type_name == "option"]  # type: ignore[attr-defined]


def test_options_with_a_fixed_set_of_values_show_the_choices() -> None:
    checked = 0
    for command in _all_commands():
        if command == "scoresheet":
            continue  # its options are being reworked with the command
        for param in _options(command):
            if "--format" in param.opts or "--engine" in param.opts or "--to" in param.opts:  # type: ignore[attr-defined]
                assert getattr(param.type, "choices", None), (command, param.name)  # type: ignore[attr-defined]
                checked += 1
    assert checked >= 8
    result = CliRunner().invoke(app, ["import", "--help"], env={"COLUMNS": "200"})
    assert "local|dask" in result.output


def test_counts_refuse_negative_numbers() -> None:
    """Every whole-number option has a lower bound (0 or 1): ``--min-plies -5`` is a usage error."""
    whole = [
        (command, param)
        for command in _all_commands()
        if command != "scoresheet"
        for param in _options(command)
        if param.type.name in ("int", "int range", "integer", "integer range")  # type: ignore[attr-defined]
    ]
    unbounded = [(command, p.name) for command, p in whole if getattr(p.type, "min", None) is None]  # type: ignore[attr-defined]
    assert len(whole) >= 10 and not unbounded, unbounded
    result = CliRunner().invoke(app, ["filter", "sample_games/classics.pgn", "--min-plies", "-5"])
    assert result.exit_code == 2 and "--min-plies" in result.output
