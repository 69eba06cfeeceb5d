"""`notation stats`: score rates, openings, lengths, terminations and player records.

Exit codes: 0 statistics written; 1 the inputs hold no game; 2 usage error (including a
format/output combination that cannot hold the requested sections), unreadable input or an
output file that cannot be written.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import Enum
from pathlib import Path
from typing import Annotated

import typer

from notation.cli.render import ALIASES_HELP, EXACT_HELP, JOBS_HELP, TABLE_INPUTS_HELP, error
from notation.cli.table_output import frame_csv, frame_json, frame_table
from notation.cli.atomic import write_text_atomic, write_with_atomic

STATS_HELP = (
    "Statistics over PGN files or imported datasets, computed with Polars (lazily over a "
    "dataset). Sections (--by, repeatable; default all): result (score rates and length summary), "
    "elo-band (score by White-minus-Black rating band, with the Elo expectation), eco, opening, "
    "termination (the Termination tag, else how the replay ended the game; with the wrongly scored wins on time: the winner could not mate, FIDE 6.9), event (frequencies with "
    "score rates), time-control (bullet, blitz, rapid, classical, correspondence: Lichess's classes "
    "by base + 40 x increment), length (full moves in bands of ten), player (games, wins, draws, "
    "losses, score, average opponent rating, performance = average opponent rating + 400 x "
    "(wins - losses) / games against rated opponents), color (the record of each colour; with "
    "--player, that player's record split by colour).\n\n"
    "Selection: --player (a part of a name, any case, accents ignored), --color (the player's "
    "colour), --since/--until (dates: 2019, 2019-03 or 2019-03-14, both ends included), --event "
    "(a part of the event name), --time-control.\n\n"
    "Formats: table (rich text; --limit rows per section, default 20), json (an object of "
    "sections), csv (one section to standard output, or with --out DIR one FILE per section: "
    "DIR/SECTION.csv), parquet (needs --out: a FILE for one section, a DIR holding "
    "SECTION.parquet for several). With --out, table and json are written to the file.\n\n"
    "Exit status: 0 done, 1 no games in the inputs, 2 usage error or unreadable input."
)


class StatsFormat(str, Enum):
    table = "table"
    csv = "csv"
    json = "json"
    parquet = "parquet"


class Section(str, Enum):
    result = "result"
    eco = "eco"
    opening = "opening"
    player = "player"
    event = "event"
    elo_band = "elo-band"
    termination = "termination"
    length = "length"
    color = "color"
    time_control = "time-control"


# written out (importing the library's selection module would load Polars at every start):
# tests/tables/test_stats_selection.py checks they are the library's
class ColorChoice(str, Enum):
    white = "white"
    black = "black"


class TimeControlClass(str, Enum):
    bullet = "bullet"
    blitz = "blitz"
    rapid = "rapid"
    classical = "classical"
    correspondence = "correspondence"


DEFAULT_TABLE_LIMIT = 20


def stats_command(
    paths: Annotated[
        list[Path],
        typer.Argument(metavar="PATH...", help=TABLE_INPUTS_HELP),
    ],
    by: Annotated[
        list[Section] | None, typer.Option("--by", help="Section to compute (repeat for several; default all).")
    ] = None,
    fmt: Annotated[StatsFormat, typer.Option("--format", help="Output format.")] = StatsFormat.table,
    out: Annotated[
        Path | None, typer.Option("--out", help="Output file (one section) or directory (several sections).")
    ] = None,
    limit: Annotated[
        int | None,
        typer.Option("--limit", min=0, help="Rows per section (0 = all). Default: 20 for table, all otherwise."),
    ] = None,
    player: Annotated[
        str | None, typer.Option("--player", metavar="NAME", help="Only games of this player (a part of the name).")
    ] = None,
    color: Annotated[
        ColorChoice | None, typer.Option("--color", help="With --player: only games where the player had this colour.")
    ] = None,
    since: Annotated[str | None, typer.Option("--since", metavar="DATE", help="Only games on or after DATE.")] = None,
    until: Annotated[str | None, typer.Option("--until", metavar="DATE", help="Only games on or before DATE.")] = None,
    event: Annotated[
        str | None, typer.Option("--event", metavar="TEXT", help="Only games of events whose name contains TEXT.")
    ] = None,
    time_control: Annotated[
        TimeControlClass | None, typer.Option("--time-control", help="Only games of this time-control class.")
    ] = None,
    plot: Annotated[
        Path | None,
        typer.Option(
            "--plot",
            metavar="FILE",
            help="Also draw the chart of the first section that has one (elo-band: "
            "score by rating difference, the default; eco, opening, length, time-control) to FILE.svg, .png or "
            ".html (needs notation\\[charts]).",
        ),
    ] = None,
    jobs: Annotated[int, typer.Option("--jobs", "-j", min=0, help=JOBS_HELP)] = 1,
    aliases: Annotated[Path | None, typer.Option("--aliases", metavar="FILE", help=ALIASES_HELP)] = None,
    exact: Annotated[bool, typer.Option("--exact", help=EXACT_HELP)] = False,
) -> None:
    """Statistics over games."""
    from notation.cli.render import EXIT_PROBLEMS, EXIT_USAGE
    from notation.cli.inputs import load_and_compute
    from notation.cli.sources import output_over_input
    from notation.tables.stats import SECTIONS, stats

    from notation.tables.selection import Selection, parse_day

    try:
        where = Selection(
            player=player,
            color=color.value if color else None,
            since=parse_day(since) if since else None,
            until=parse_day(until, end=True) if until else None,
            event=event,
            time_control=time_control.value if time_control else None,
            exact=exact,
        )
    except ValueError as exc:
        error(f"notation stats: error: {exc}")
        raise typer.Exit(EXIT_USAGE) from None

    wanted = [s.value for s in by] if by else list(SECTIONS)
    several = len(wanted) > 1
    if plot is not None:  # the chart's output and libraries are checked before any work
        from notation.cli.chart_cmd import precheck_plot

        precheck_plot(plot)
    clash = output_over_input(paths, [out, plot])
    if clash is not None:
        error(clash)
        raise typer.Exit(EXIT_USAGE)
    if fmt is StatsFormat.parquet and out is None:
        error("--format parquet needs --out (a file for one section, a directory for several)")
        raise typer.Exit(EXIT_USAGE)
    if fmt is StatsFormat.csv and several and out is None:
        error("CSV holds one table: choose one section with --by, or give --out DIR for one file per section")
        raise typer.Exit(EXIT_USAGE)

    from notation.cli.inputs import read_aliases_option

    names = read_aliases_option(aliases)
    (games, tables), io_problems = load_and_compute(
        paths,
        lambda games: (games, stats(games, by=wanted, where=where)),
        description="computing statistics",
        jobs=jobs,
        aliases=names,
    )
    total = sum(df.height for df in tables.values())
    if limit is None:
        limit = DEFAULT_TABLE_LIMIT if fmt is StatsFormat.table else 0
    if limit:
        tables = {name: df.head(limit) for name, df in tables.items()}

    try:
        if fmt in (StatsFormat.csv, StatsFormat.parquet) and (several or (out is not None and out.is_dir())):
            assert out is not None
            out.mkdir(parents=True, exist_ok=True)
            for name, df in tables.items():
                target = out / f"{name}.{fmt.value}"
                if fmt is StatsFormat.csv:
                    write_text_atomic(target, frame_csv(df))
                else:
                    write_with_atomic(target, df.write_parquet)
        elif fmt is StatsFormat.parquet:
            assert out is not None
            write_with_atomic(out, next(iter(tables.values())).write_parquet)
        else:
            if fmt is StatsFormat.csv:
                text = frame_csv(next(iter(tables.values())))
            elif fmt is StatsFormat.json:
                text = (
                    "{\n" + ",\n".join(f'  "{name}": {frame_json(df, "  ")}' for name, df in tables.items()) + "\n}\n"
                )
            else:
                text = "\n".join(frame_table(df, title=name) for name, df in tables.items())
            if out is not None:
                write_text_atomic(out, text)
            else:
                typer.echo(text, nl=False)
    except OSError as exc:
        error(f"{out}: cannot write: {exc.strerror or exc}")
        raise typer.Exit(EXIT_USAGE) from None

    if plot is not None and total:
        from notation.cli.chart_cmd import plot_stats

        plot_stats(plot, wanted, where.apply(games))
    games_count = _game_count(tables, total)
    if games_count == 0:
        error("no games in the inputs")
    if io_problems:  # the statistics cover the games that could be read
        raise typer.Exit(EXIT_USAGE)
    if games_count == 0:
        raise typer.Exit(EXIT_PROBLEMS)


def _game_count(tables: Mapping[str, object], total: int) -> int:
    import polars as pl

    result = tables.get("result")
    if isinstance(result, pl.DataFrame) and result.height:
        return int(result.get_column("games")[0])
    return total


def register(app: typer.Typer) -> None:
    """Add `notation stats` to `app`."""
    app.command("stats", help=STATS_HELP)(stats_command)
