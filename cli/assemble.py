"""The Typer application itself: the top-level group, its ``--version`` option and the commands
a command line names (:func:`notation.cli.main.application` asks for it).

Kept apart from :mod:`notation.cli.main` so that ``notation --help`` and ``notation --version``,
which :func:`notation.cli.main.run` prints without the application, import no Typer.
"""

from __future__ import annotations

from collections.abc import Iterable
from importlib import import_module
from typing import Any

import typer
from typer.core import TyperGroup

from notation.cli import help_types, integers
from notation.cli.commands import COMMANDS, HELP, version
from notation.cli.render import EXIT_OK

help_types.install()
integers.install()


class _Commands(TyperGroup):
    """The top-level group: ``notation --help`` is laid out as plain text (the command list and
    the options), which needs neither rich's help renderer nor its Markdown support, so the
    help of the whole tool shows at once; every command's own ``--help`` keeps the rich panels."""

    def format_help(self, ctx: Any, formatter: Any) -> None:
        markup = self.rich_markup_mode
        self.rich_markup_mode = None
        try:
            super().format_help(ctx, formatter)
        finally:
            self.rich_markup_mode = markup


def _show_version(value: bool) -> None:
    if value:
        typer.echo(f"notation {version()}")
        raise typer.Exit(EXIT_OK)


def _main(
    version: bool = typer.Option(
        False, "--version", callback=_show_version, is_eager=True, help="Show the version and exit."
    ),
) -> None:
    """Chess game scores: validate PGN against the FIDE Laws, import to Polars/Parquet, compute
    standings and the club ledger, reconstruct scoresheets."""


def build(names: Iterable[str]) -> typer.Typer:
    """The ``notation`` application with the commands ``names`` (see
    :func:`notation.cli.main.application`)."""
    built = typer.Typer(
        cls=_Commands,
        name="notation",
        help=HELP,
        no_args_is_help=True,
        add_completion=False,
        pretty_exceptions_enable=False,
        context_settings={"help_option_names": ["-h", "--help"]},
    )
    built.callback()(_main)
    for name in names:
        import_module(f"notation.cli.{COMMANDS[name]}").register(built)
    return built
