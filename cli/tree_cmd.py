"""`notation tree`: the opening explorer over PGN files or an imported dataset.

Exit codes: 0 the table was written; 1 no game reaches the position; 2 usage error (moves or
FEN that cannot be played, unreadable input, a dataset without position keys).
"""

from __future__ import annotations

from enum import Enum
from pathlib import Path
from typing import Annotated

import typer

from notation.cli.render import JOBS_HELP
from notation.cli.table_output import diagnostic_text, frame_csv, frame_json, frame_table

TREE_HELP = (
    "The opening explorer: every game of PATH (a PGN file, a folder of PGN files, - for standard "
    "input, or a dataset written by `notation import`) that reaches the position, by position "
    "(any move order counts), grouped by the moves played next, up to --depth plies. Each row: "
    "games, White wins / draws / Black wins (and their shares of finished games), score_pct "
    "(points of the side that played the line's last move), avg_rating and performance of that "
    "side (average opponent rating + 400 x (wins - losses) / games against rated opponents), the "
    "ECO table's opening of the position, and the most recent game. The first row is the position "
    "itself (all games reaching it).\n\n"
    'Formats: table (rich text), json ({"fen": ..., "rows": [...]}), csv.\n\n'
    "Exit status: 0 done, 1 no game reaches the position, 2 usage error or unreadable input."
)


class TreeFormat(str, Enum):
    table = "table"
    json = "json"
    csv = "csv"


#: The columns of the text table (CSV and JSON carry every column).
TABLE_COLUMNS = (
    "line",
    "games",
    "white_wins",
    "draws",
    "black_wins",
    "score_pct",
    "avg_rating",
    "performance",
    "eco",
    "opening",
    "last_date",
    "last_game",
)


def tree_command(
    path: Annotated[
        Path, typer.Argument(metavar="PATH", help="A PGN file, a folder of PGN files, - (standard input) or a dataset.")
    ],
    moves: Annotated[
        str | None, typer.Option("--moves", help='Moves from the start position (or --fen), e.g. "1. e4 c5".')
    ] = None,
    fen: Annotated[
        str | None, typer.Option("--fen", help="The position to explore (default: the initial position).")
    ] = None,
    depth: Annotated[int, typer.Option("--depth", min=1, help="Plies of continuation to show.")] = 1,
    min_games: Annotated[int, typer.Option("--min-games", min=1, help="Hide lines played in fewer games.")] = 1,
    fmt: Annotated[TreeFormat, typer.Option("--format", help="Output format.")] = TreeFormat.table,
    jobs: Annotated[int, typer.Option("--jobs", "-j", min=0, help=JOBS_HELP)] = 1,
) -> None:
    """The opening explorer."""
    import polars as pl

    from notation.cli.render import EXIT_PROBLEMS, EXIT_USAGE, dumps
    from notation.tables.tree import opening_tree

    tree = opening_tree(path, moves=moves, fen=fen, depth=depth, min_games=min_games, jobs=jobs)
    for diag in tree.diagnostics:
        typer.echo(diagnostic_text(diag), err=True)
    if tree.fen is None or any(d.severity == "error" for d in tree.diagnostics):
        raise typer.Exit(EXIT_USAGE)
    frame = tree.frame
    if fmt is TreeFormat.json:
        text = f'{{\n  "fen": {dumps(tree.fen)},\n  "rows": {frame_json(frame, "  ")}\n}}\n'
    elif fmt is TreeFormat.csv:
        text = frame_csv(frame)
    else:
        shown = frame.with_columns(
            pl.when(pl.col("depth") == 0).then(pl.lit("(position)")).otherwise(pl.col("line")).alias("line")
        ).select(TABLE_COLUMNS)
        text = frame_table(shown, title=f"{tree.fen}: {tree.games} games")
    typer.echo(text, nl=False)
    if tree.games == 0:
        typer.echo("no game reaches the position", err=True)
        raise typer.Exit(EXIT_PROBLEMS)


def register(app: typer.Typer) -> None:
    """Add `notation tree` to `app`."""
    app.command("tree", help=TREE_HELP)(tree_command)
