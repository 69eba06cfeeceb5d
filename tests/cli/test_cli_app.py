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
