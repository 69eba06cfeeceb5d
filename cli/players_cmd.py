"""`notation players PATH...`: the spellings of a name that look like one person.

Options -> the games table (:func:`notation.cli.inputs.load_and_compute`, names as written) ->
:func:`notation.tables.players.look_alikes` -> table, CSV (an aliases file to edit and give to
``--aliases``) or JSON -> exit code: 0 no look-alikes, 1 some spellings look like one person,
2 usage error or unreadable input.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from notation.cli.render import (
    ALIASES_HELP,
    EXIT_OK,
    EXIT_PROBLEMS,
    EXIT_USAGE,
    JOBS_HELP,
    TABLE_INPUTS_HELP,
    TableFormat,
    error,
)
from notation.cli.table_output import csv_text, json_rows, rich_table

PLAYERS_HELP = (
    "List the spellings of a player's name that look like one person: the same FIDE id "
    "(WhiteFideId/BlackFideId), or the same surname and first initial ('Kramnik,V' and 'Kramnik, "
    "Vladimir'; 'Hou,Y' and 'Hou Yifan'), without case or accents. Nothing is merged here: "
    "stats, standings, ledger and chart count players with one FIDE id as one player, and the "
    "names of an --aliases FILE as their canonical name; the CSV output is such a file (edit it, "
    "then give it with --aliases).\n\n"
    "Exit status: 0 no look-alikes, 1 some spellings look like one person, 2 usage error or "
    "unreadable input."
)


def players_command(
    paths: Annotated[
        list[Path],
        typer.Argument(metavar="PATH...", help=TABLE_INPUTS_HELP),
    ],
    fmt: Annotated[TableFormat, typer.Option("--format", help="Output format.")] = TableFormat.table,
    aliases: Annotated[
        Path | None,
        typer.Option(
            "--aliases", metavar="FILE", help=ALIASES_HELP + " The report then lists what the file leaves apart."
        ),
    ] = None,
    jobs: Annotated[int, typer.Option("--jobs", "-j", min=0, help=JOBS_HELP)] = 1,
) -> None:
    """The spellings that look like one person."""
    from notation.cli.inputs import load_and_compute, read_aliases_option
    from notation.tables.players import REPORT_COLUMNS, look_alikes

    names = read_aliases_option(aliases)
    frame, io_problems = load_and_compute(
        paths, lambda games: look_alikes(games, names), description="comparing names", jobs=jobs, identify=False
    )
    rows = list(frame.select(REPORT_COLUMNS).iter_rows())
    if fmt is TableFormat.table:
        if rows:
            typer.echo(
                rich_table(REPORT_COLUMNS, rows, title="Spellings that look like one person", right=("games",), keys=1),
                nl=False,
            )
    elif fmt is TableFormat.csv:
        typer.echo(csv_text(REPORT_COLUMNS, rows), nl=False)
    else:
        typer.echo(json_rows(dict(zip(REPORT_COLUMNS, row)) for row in rows))
    if not rows:
        error("no spellings look like one person")
    if io_problems:
        raise typer.Exit(EXIT_USAGE)
    raise typer.Exit(EXIT_PROBLEMS if rows else EXIT_OK)


def register(app: typer.Typer) -> None:
    """Add `notation players` to `app`."""
    app.command("players", help=PLAYERS_HELP)(players_command)
