"""Every option of every command is exercised by some test: a test file names the command (as a
quoted word) and the option. A new option without a CLI test fails here."""

from __future__ import annotations

import re
from pathlib import Path

import typer
from typer.core import TyperOption

from notation.cli.main import app

TESTS = Path(__file__).resolve().parents[1]


def test_every_option_of_every_command_appears_in_a_test() -> None:
    command = typer.main.get_command(app)
    commands = getattr(command, "commands")
    texts = [path.read_text(encoding="utf-8") for path in TESTS.rglob("test_*.py")]
    untested = []
    for name, sub in sorted(commands.items()):
        naming = [t for t in texts if re.search(r"[\"']" + re.escape(name) + r"[\"']", t)]
        assert naming, f"no test names the command {name!r}"
        for param in sub.params:
            if not isinstance(param, TyperOption) or param.name == "help":
                continue
            flags = [*param.opts, *param.secondary_opts]
            if not any(re.search(re.escape(flag) + r"(?![\w-])", t) for t in naming for flag in flags):
                untested.append(f"{name} {'/'.join(flags)}")
    assert not untested, untested
