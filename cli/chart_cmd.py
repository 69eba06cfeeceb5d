"""`notation chart`: a chart of games (PGN files, folders, datasets) written as SVG, PNG or HTML.

Also :func:`write_plot`, the chart behind ``notation stats --plot FILE``.

Exit codes: 0 chart written; 1 nothing to draw (no games, or none with what the chart needs);
2 usage error (including the missing ``notation[charts]`` extra), unreadable input or an output
file that cannot be written.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import Enum
from pathlib import Path
from typing import Annotated, Any

import typer

from notation.cli.render import (
    ALIASES_HELP,
    EXACT_HELP,
    EXIT_OK,
    EXIT_PROBLEMS,
    EXIT_USAGE,
    JOBS_HELP,
    TABLE_INPUTS_HELP,
    error,
)
from notation.cli.table_output import diagnostic_text
from notation.pictures.charts import FORMATS, KINDS

CHART_HELP = (
    "Draw a chart of games: PGN files, folders of PGN files, or datasets written by "
    "`notation import`. Kinds (--kind): "
    + "; ".join(f"{name}: {what}" for name, what in KINDS.items())
    + ".\n\nThe format follows the --out suffix: .svg, .png or .html (a self-contained page). "
    "Charts are drawn with Altair/Vega-Lite and rendered offline by vl-convert: install "
    "notation\\[charts].\n\nExit status: 0 written, 1 nothing to draw, 2 usage error, unreadable "
    "input, or the charts extra missing."
)

ChartKind = Enum("ChartKind", {name.replace("-", "_"): name for name in KINDS}, type=str)  # type: ignore[misc]

#: The chart ``stats --plot`` draws for the first section asked for (``rating`` otherwise).
SECTION_CHARTS = {
    "elo-band": "rating",
    "eco": "results-eco",
    "opening": "results-eco",
    "length": "length-eco",
    "time-control": "results-time-control",
}


class ChartFailure(Exception):
    """Why a chart was not written: a message and the exit code."""

    def __init__(self, message: str, code: int) -> None:
        super().__init__(message)
        self.code = code


def output_format(out: Path) -> str:
    """``svg``/``png``/``html`` from the suffix of ``out`` (``.htm`` is html)."""
    suffix = out.suffix.lower().lstrip(".")
    suffix = "html" if suffix == "htm" else suffix
    if suffix not in FORMATS:
        raise ChartFailure(f"{out}: the output must end in .svg, .png or .html", EXIT_USAGE)
    return suffix


def check_charts() -> None:
    """Fail with exit 2 and the install hint when the charts extra is missing."""
    from notation.pictures.extras import INSTALL_HINT, available

    if not available():
        raise ChartFailure(INSTALL_HINT, EXIT_USAGE)


def write_chart(out: Path, kind: str, table: Any, *, title: str | None = None) -> None:
    """Render chart ``kind`` of ``table`` to ``out`` atomically (format from the suffix)."""
    from notation.cli.atomic import write_bytes_atomic, write_text_atomic
    from notation.pictures.charts import render, spec

    if table.height == 0:
        raise ChartFailure(f"error[picture.no-data]: nothing to draw for the {kind} chart", EXIT_PROBLEMS)
    picture = render(spec(kind, table, title=title), output_format(out))
    try:
        if isinstance(picture, bytes):
            write_bytes_atomic(out, picture)
        else:
            write_text_atomic(out, picture)
    except OSError as exc:
        raise ChartFailure(f"{out}: cannot write: {exc.strerror or exc}", EXIT_USAGE) from None


def write_plot(out: Path, sections: Sequence[str], games: Any) -> None:
    """``stats --plot``: the chart of the first section that has one (else ``rating``)."""
    from notation.pictures.chart_data import table_for

    kind = next((SECTION_CHARTS[s] for s in sections if s in SECTION_CHARTS), "rating")
    output_format(out)
    check_charts()
    write_chart(out, kind, table_for(kind, games))


def precheck_plot(out: Path) -> None:
    """``stats --plot``: before any work, exit 2 on an output suffix no chart has or without the
    charts extra."""
    try:
        output_format(out)
        check_charts()
    except ChartFailure as failure:
        error(f"notation stats: --plot: {failure}")
        raise typer.Exit(failure.code) from None


def plot_stats(out: Path, sections: Sequence[str], games: Any) -> None:
    """``stats --plot``: write the chart (see :func:`write_plot`); a failure exits with its code."""
    try:
        write_plot(out, sections, games)
    except ChartFailure as failure:
        error(f"notation stats: --plot: {failure}")
        raise typer.Exit(failure.code) from None


def _tables(
    paths: Sequence[Path], game: int | None, problems: list[Any], jobs: int = 1, aliases: dict[str, str] | None = None
) -> tuple[Any, Any]:
    """Games and moves over all inputs (lazily for datasets; :func:`notation.cli.inputs.load_tables`,
    whose I/O findings are appended to ``problems``), restricted to the ``game``-th game
    (1-based, input order) when given."""
    import polars as pl

    from notation.cli.inputs import load_tables

    all_games, all_moves, found = load_tables([str(p) for p in paths], moves=True, jobs=jobs)
    problems.extend(found)
    if all_games is None or all_moves is None:
        raise ChartFailure("no input could be read", EXIT_USAGE)
    from notation.tables.players import identified

    all_games = identified(all_games, aliases)
    if game is not None:
        chosen = all_games.slice(game - 1, 1).collect()
        if chosen.height == 0:
            raise ChartFailure(
                f"error[picture.no-such-game]: game {game} asked for, but the inputs hold fewer games", EXIT_USAGE
            )
        ids = chosen.get_column("game_id")
        all_games = chosen.lazy()
        # (a game given twice has one id: its rows once)
        all_moves = all_moves.filter(pl.col("game_id").is_in(ids.implode())).unique(maintain_order=True)
    return all_games, all_moves


def _game_name(games: Any, number: int) -> str:
    """``game N (White–Black, Event, date)`` of the one game of ``games`` (what the tags give)."""
    import polars as pl

    row = games.select("white", "black", pl.col("event").cast(pl.String), "date_text").collect().row(0)
    white, black, event, date = (str(v).strip() if v is not None else "" for v in row)
    players = f"{white or '?'}–{black or '?'}"
    known = [part for part in (event, date) if part.strip("?.")]
    return f"game {number} ({', '.join([players, *known])})"


def _one_player(games: Any, player: str, exact: bool) -> str:
    """The one player's name that ``player`` matches; none or several is a usage error."""
    from notation.pictures.chart_data import matching_players

    found = matching_players(games, player, exact=exact)
    if not found:
        raise ChartFailure(f"error[picture.no-data]: no player's name matches {player!r}", EXIT_PROBLEMS)
    if len(found) > 1:
        shown = ", ".join(repr(n) for n in found[:8]) + (", ..." if len(found) > 8 else "")
        raise ChartFailure(
            f"{player!r} matches {len(found)} players: {shown}; give more of the name, or --exact", EXIT_USAGE
        )
    return str(found[0])


def chart_command(
    paths: Annotated[
        list[Path],
        typer.Argument(metavar="PATH...", help=TABLE_INPUTS_HELP),
    ],
    kind: Annotated[ChartKind, typer.Option("--kind", metavar="KIND", help="What to draw (see above).")],
    out: Annotated[Path, typer.Option("--out", metavar="FILE", help="Output file: FILE.svg, FILE.png or FILE.html.")],
    player: Annotated[
        str | None,
        typer.Option(
            "--player",
            metavar="NAME",
            help="For --kind player: a part of the player's name "
            "(any case, accents ignored; with --exact the whole name); it must name one player.",
        ),
    ] = None,
    game: Annotated[
        int | None,
        typer.Option(
            "--game",
            metavar="N",
            min=1,
            help="Only the N-th game of the inputs (1-based, input order); --kind eval uses game 1 by default.",
        ),
    ] = None,
    limit: Annotated[
        int,
        typer.Option("--limit", metavar="N", min=0, help="results-*/length-*: the N most frequent groups (0 = all)."),
    ] = 20,
    title: Annotated[
        str | None, typer.Option("--title", metavar="TEXT", help="Chart title (default: the kind).")
    ] = None,
    jobs: Annotated[int, typer.Option("--jobs", "-j", min=0, help=JOBS_HELP)] = 1,
    aliases: Annotated[Path | None, typer.Option("--aliases", metavar="FILE", help=ALIASES_HELP)] = None,
    exact: Annotated[bool, typer.Option("--exact", help=EXACT_HELP)] = False,
) -> None:
    """Draw a chart of games."""
    from notation.cli.inputs import computed, read_aliases_option
    from notation.tables.dataset import READ_ERRORS
    from notation.cli.sources import output_over_input
    from notation.pictures.chart_data import table_for

    name = str(kind.value)
    problems: list[Any] = []  # inputs that could not be read (to the end): printed, exit 2
    code = EXIT_OK
    try:
        output_format(out)
        clash = output_over_input(paths, [out])
        if clash is not None:
            raise ChartFailure(clash, EXIT_USAGE)
        if name == "player" and not player:
            raise ChartFailure("--kind player needs --player NAME", EXIT_USAGE)
        check_charts()
        try:
            names = read_aliases_option(aliases)
            games, moves = _tables(paths, game or 1 if name == "eval" else game, problems, jobs, names)
            if name == "player" and player:
                player = _one_player(games, player, exact)
            # a dataset part damaged inside its data shows when the query runs: named, exit 2
            table = computed([str(p) for p in paths], lambda: table_for(name, games, moves, player=player, limit=limit))
        except OSError as exc:
            raise ChartFailure(f"error[pgn.io]: cannot read: {exc.strerror or exc}", EXIT_USAGE) from None
        except READ_ERRORS as exc:
            raise ChartFailure(f"error[pgn.io]: cannot read the inputs: {exc}", EXIT_USAGE) from None
        finally:
            for diag in problems:
                error(diagnostic_text(diag))
        if title is None and name == "player":
            title = f"{player}: rating and running score"
        if name == "eval":
            named = _game_name(games, game or 1)
            if table.height == 0:
                raise ChartFailure(
                    f"error[picture.no-data]: nothing to draw for the eval chart: {named} has no "
                    "engine evaluations ([%eval], wv= or score/depth comments such as "
                    "{+0.18/23 239})",
                    EXIT_PROBLEMS,
                )
            if title is None:
                title = f"{named}: evaluation"
        write_chart(out, name, table, title=title)
    except ChartFailure as failure:
        error(f"notation chart: {failure}")
        code = failure.code
    if problems:  # drawn from what was read, but some input was not
        code = EXIT_USAGE
    if code != EXIT_OK:
        raise typer.Exit(code)


def register(app: typer.Typer) -> None:
    """Add `notation chart` to `app`."""
    app.command("chart", help=CHART_HELP)(chart_command)
