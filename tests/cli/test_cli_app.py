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
