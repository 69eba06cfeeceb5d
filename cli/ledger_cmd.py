"""`notation ledger`: the ledger of the club level-and-points system over PGN files or datasets.

Exit codes: 0 the ledger was computed; 1 the inputs hold no decisive or drawn game to apply
(the table then lists only ``--initial`` players, if any); 2 usage error, an unreadable
input or a bad ``--initial`` CSV.
"""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path
from typing import Annotated

import typer

from notation.cli.render import ALIASES_HELP, JOBS_HELP, TABLE_INPUTS_HELP, TableFormat, error
from notation.cli.table_output import csv_text, diagnostic_text, json_rows, rich_table

LEDGER_HELP = (
    "Apply every decisive and drawn game, in date order, to the ledger of the club "
    "level-and-points system (记分方法) and print one row per player: player, points, level, games.\n\n"
    "Zero-sum; d is the points difference before the game. Draw: the lower side gains 0 (d < 10), "
    "(10 + d/10)/2 (d < 100) or d/4. Lower side wins: 10, 10 + d/10 or d/2. Higher side wins: "
    "10, 10 - d/12.5, 2 (d < 200) or 0.\n\n"
    "Levels: below 100 points 'unranked', then 30 (100-199.99) up to 1 (3000 and more). Points "
    "are exact decimals; they are shown rounded to 2 decimals (--places N to choose, --exact for every "
    "digit). Games without a known date are applied after all dated games.\n\n"
    "Exit status: 0 done, 1 no decisive or drawn game found, 2 usage error, unreadable input or "
    "bad --initial file."
)


def ledger_command(
    paths: Annotated[
        list[Path],
        typer.Argument(metavar="PATH...", help=TABLE_INPUTS_HELP),
    ],
    initial: Annotated[
        Path | None,
        typer.Option(
            "--initial",
            help="Starting points: a CSV of 'player,points' rows (header optional; the last comma ends the "
            "name, so 'Cedar, Chen,1500' needs no quotes).",
        ),
    ] = None,
    fmt: Annotated[TableFormat, typer.Option("--format", help="Output format.")] = TableFormat.table,
    history: Annotated[
        bool, typer.Option("--history", help="One row per applied game instead of one per player.")
    ] = False,
    places: Annotated[
        int,
        typer.Option(
            "--places",
            min=0,
            max=100,
            metavar="N",
            help="Show points rounded (half to even) to N decimals; the ledger itself stays exact.",
        ),
    ] = 2,
    exact: Annotated[
        bool, typer.Option("--exact", help="Show every decimal of the exact points (they can run to thousands).")
    ] = False,
    jobs: Annotated[int, typer.Option("--jobs", "-j", min=0, help=JOBS_HELP)] = 1,
    aliases: Annotated[Path | None, typer.Option("--aliases", metavar="FILE", help=ALIASES_HELP)] = None,
) -> None:
    """Apply every decisive and drawn game, in date order, to the club level-and-points ledger."""
    from notation.cli.render import EXIT_PROBLEMS, EXIT_USAGE
    from notation.diagnostics import Diagnostic
    from notation.cli.inputs import load_and_compute
    from notation.tables.ledger import (
        HISTORY_COLUMNS,
        PLAYER_COLUMNS,
        ledger,
        read_initial,
        round_points,
    )

    start: dict[str, Decimal] = {}
    if initial is not None:
        values, problems = read_initial(initial)
        errors = [d for d in problems if d.severity == "error"]
        for diag in problems:
            error(diagnostic_text(diag))
        if errors:
            raise typer.Exit(EXIT_USAGE)
        start = dict(values)

    from notation.cli.inputs import read_aliases_option

    names = read_aliases_option(aliases)
    if names:  # the initial points of a name listed in the aliases are its canonical name's
        start = {names.get(player, player): points for player, points in start.items()}
    result, io_problems = load_and_compute(
        paths,
        lambda games: ledger(games, initial=start, history=history),
        description="computing the ledger",
        jobs=jobs,
        aliases=names,
    )
    diags: list[Diagnostic] = result.diagnostics
    for diag in diags:
        error(diagnostic_text(diag))
    if result.skipped:
        error("not applied: " + ", ".join(f"{n} {reason}" for reason, n in sorted(result.skipped.items())))

    def shown(value: Decimal) -> Decimal:
        return value if exact else round_points(value, places)

    if history:
        columns: tuple[str, ...] = HISTORY_COLUMNS
        rows: list[tuple[object, ...]] = [
            (
                e.date,
                e.white,
                e.black,
                e.result,
                shown(e.white_before),
                shown(e.black_before),
                shown(e.white_delta),
                shown(e.black_delta),
            )
            for e in result.history
        ]
        right: tuple[str, ...] = ("white_before", "black_before", "white_delta", "black_delta")
    else:
        columns = PLAYER_COLUMNS
        rows = [(p.player, shown(p.points), p.level, p.games) for p in result.players]
        right = ("points", "level", "games")

    if fmt is TableFormat.table:
        if not exact:  # every one of the N places written, so that a column aligns: 9.60 beside 13.42
            rows = [tuple(_fixed(v) if isinstance(v, Decimal) else v for v in row) for row in rows]
        title = "Ledger history" if history else "Ledger"
        typer.echo(rich_table(columns, rows, title=title, right=right, keys=3 if history else 1), nl=False)
    elif fmt is TableFormat.csv:
        typer.echo(csv_text(columns, rows), nl=False)
    else:
        typer.echo(json_rows(dict(zip(columns, row)) for row in rows))

    if not result.applied:
        error("no decisive or drawn game to apply")
    if io_problems:  # the ledger covers the games that could be read
        raise typer.Exit(EXIT_USAGE)
    if not result.applied:
        raise typer.Exit(EXIT_PROBLEMS)


def _fixed(value: Decimal) -> str:
    """A rounded value with all its places (``9.60``); a zero without a sign."""
    return format(abs(value) if value == 0 else value, "f")


def register(app: typer.Typer) -> None:
    """Add `notation ledger` to `app`."""
    app.command("ledger", help=LEDGER_HELP)(ledger_command)
