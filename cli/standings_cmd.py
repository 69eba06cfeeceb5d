"""`notation standings`: an event's final table with crosstable and tie-breaks.

Exit codes: 0 table printed; 1 no game to tabulate (no finished game between two named players,
or ``--event`` names an event that is not in the input: the events found are listed on
stderr); 2 usage error or unreadable input.
"""

from __future__ import annotations

from enum import Enum
from pathlib import Path
from typing import Annotated, Any

import typer

from notation.cli.render import ALIASES_HELP, EXACT_HELP, JOBS_HELP, TABLE_INPUTS_HELP, TableFormat, error
from notation.cli.table_output import csv_text, diagnostic_text, json_object, rich_table

STANDINGS_HELP = (
    "The final table of a tournament: score (win 1, draw ½, loss 0), crosstable and tie-breaks, "
    "ordered like an arbiter's final table: score, then the tie-breaks in the order of --tiebreak "
    "(default: Sonneborn-Berger, Buchholz, number of wins), then name; players equal on all of "
    "them share a place (3-4).\n\n"
    "Unfinished games (*) are shown in the crosstable but neither scored nor used by tie-breaks. "
    "Forfeits (a decisive game without moves, or Termination 'forfeit') score normally, show as "
    "+ / - and are left out of tie-breaks.\n\n"
    "Exit status: 0 done, 1 no game to tabulate (or --event not found), 2 usage error or "
    "unreadable input."
)


class TiebreakName(str, Enum):
    sonneborn_berger = "sonneborn-berger"
    buchholz = "buchholz"
    wins = "wins"


_SHORT = {"sonneborn-berger": "SB", "buchholz": "BH", "wins": "W"}


def standings_command(
    paths: Annotated[
        list[Path],
        typer.Argument(metavar="PATH...", help=TABLE_INPUTS_HELP),
    ],
    event: Annotated[
        str | None,
        typer.Option(
            "--event",
            help="Only games whose Event tag contains NAME (any case, accents ignored; with --exact: is NAME).",
            metavar="NAME",
        ),
    ] = None,
    fmt: Annotated[TableFormat, typer.Option("--format", help="Output format.")] = TableFormat.table,
    tiebreak: Annotated[
        list[TiebreakName] | None,
        typer.Option("--tiebreak", help="Tie-break order (repeat the option); default: all three in this order."),
    ] = None,
    jobs: Annotated[int, typer.Option("--jobs", "-j", min=0, help=JOBS_HELP)] = 1,
    aliases: Annotated[Path | None, typer.Option("--aliases", metavar="FILE", help=ALIASES_HELP)] = None,
    exact: Annotated[bool, typer.Option("--exact", help=EXACT_HELP)] = False,
) -> None:
    """The final table of a tournament."""
    from notation.cli.render import EXIT_PROBLEMS, EXIT_USAGE
    from notation.cli.inputs import load_and_compute
    from notation.tables.scoring import format_half
    from notation.tables.standings import CROSSTABLE_MAX_PLAYERS, DEFAULT_TIEBREAKS, standings

    order = tuple(t.value for t in tiebreak) if tiebreak else DEFAULT_TIEBREAKS
    from notation.cli.inputs import read_aliases_option

    names = read_aliases_option(aliases)
    result, io_problems = load_and_compute(
        paths,
        lambda games: standings(games, event=event, tiebreaks=order, exact=exact),  # type: ignore[arg-type]
        description="computing standings",
        jobs=jobs,
        aliases=names,
    )
    for diag in result.diagnostics:
        error(diagnostic_text(diag))
    _report_invalid(result.invalid, paths)
    if result.unfinished:
        error(f"{result.unfinished} unfinished game(s) not scored")
    if not result.rows or all(r.games == 0 for r in result.rows):
        if event is not None and not result.games:
            error(
                f"no games of event {event!r}; events found: " + (", ".join(repr(e) for e in result.events) or "none")
            )
        else:
            error("no finished game between two named players")
        raise typer.Exit(EXIT_USAGE if io_problems else EXIT_PROBLEMS)

    frame = result.table()
    if not result.has_crosstable_columns:
        error(f"crosstable omitted: {len(result.rows)} players (more than {CROSSTABLE_MAX_PLAYERS})")
    if fmt is TableFormat.table:
        n = len(result.rows) if result.has_crosstable_columns else 0
        columns = ["#", "player", *[str(i) for i in range(1, n + 1)], "games", "score"]
        columns += [_SHORT[t] for t in result.tiebreaks]
        rows = []
        for r in result.rows:
            cells = list(frame.row(r.rank - 1)[-n:]) if n else []
            breaks = [
                format_half(r.sonneborn_berger)
                if t == "sonneborn-berger"
                else format_half(r.buchholz)
                if t == "buchholz"
                else str(r.wins)
                for t in result.tiebreaks
            ]
            rows.append([r.place, r.player, *cells, r.games, format_half(r.score), *breaks])
        right = ["#", "games", "score", *[_SHORT[t] for t in result.tiebreaks]]
        legend = "SB Sonneborn-Berger, BH Buchholz, W wins; + / - forfeit, * unfinished"
        typer.echo(
            rich_table(columns, rows, title=result.event or "Standings", right=right, caption=legend, keys=2), nl=False
        )
    elif fmt is TableFormat.csv:
        typer.echo(csv_text(frame.columns, frame.iter_rows()), nl=False)
    else:
        header = {"event": result.event, "tiebreaks": list(result.tiebreaks), "games": result.games}
        lines = [json_object(row) for row in frame.iter_rows(named=True)]
        body = ",\n".join("    " + line for line in lines)
        typer.echo(
            "{\n"
            + "\n".join(f"  {json_object({k: v})[1:-1]}," for k, v in header.items())
            + '\n  "standings": [\n'
            + body
            + "\n  ]\n}"
        )
    if io_problems:  # the table covers the games that could be read
        raise typer.Exit(EXIT_USAGE)


def _report_invalid(invalid: list[Any], paths: list[Path]) -> None:
    """The scored games that fail validation, on standard error: each game's errors located as
    ``notation validate`` gives them (its file read again), then what the table did with it."""
    from notation.cli.render import diagnostic_line, game_context
    from notation.tables.standings import invalid_games

    for diag, found in zip(invalid, invalid_games(invalid, paths)):
        if found is not diag:
            context = game_context(found.game, found.white, found.black)
            for problem in found.diagnostics:
                if problem.severity == "error":
                    error(diagnostic_line(problem, context, found.start_ply))
        error(diagnostic_text(diag))


def register(app: typer.Typer) -> None:
    """Add `notation standings` to `app`."""
    app.command("standings", help=STANDINGS_HELP)(standings_command)
