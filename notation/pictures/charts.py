"""Charts of games tables, drawn with Altair (a declarative grammar of graphics over Vega-Lite
that takes Polars frames) and rendered offline by ``vl-convert`` (SVG, PNG, or a self-contained
HTML page). Both come with the optional extra ``notation[charts]`` and are imported only when a
chart is made: without them :class:`ChartsUnavailable` says what to install.

Kinds (:data:`KINDS`): ``rating`` (White's score by rating difference, with the Elo expectation
curve), ``results-eco`` / ``results-time-control`` (outcome shares), ``length-eco`` /
``length-time-control`` (mean game length), ``player`` (a player's rating and running score over
time), ``clock`` (thinking time by move number, from ``[%clk]``), ``eval`` (one game's
evaluation graph, from ``[%eval]`` or engine comments' ``wv=``). The data behind each is one
table of :mod:`notation.pictures.chart_data`, one mark per row; every mark layer is named
(``<name>_marks`` in the SVG's classes) so that tests and tools can find and count the marks.
Charts carry no timestamps or random ids: the same data gives the same SVG.
"""

from __future__ import annotations

import functools
import json
from typing import TYPE_CHECKING, Any, Final

from notation.pictures.extras import INSTALL_HINT, ChartsUnavailable, available, require

if TYPE_CHECKING:  # pragma: no cover - Polars is imported when a chart is drawn, not with the CLI
    import polars as pl

__all__ = ["FORMATS", "INSTALL_HINT", "KINDS", "ChartsUnavailable", "available", "chart", "render", "require", "spec"]

#: kind -> what it shows (the CLI's help lists them).
KINDS: Final[dict[str, str]] = {
    "rating": "White's score by rating difference, with the Elo expectation curve",
    "results-eco": "outcome shares by ECO code",
    "results-time-control": "outcome shares by time control",
    "length-eco": "mean game length in moves by ECO code",
    "length-time-control": "mean game length in moves by time control",
    "player": "a player's rating and running score over time (needs the player)",
    "clock": "mean thinking time by move number, from [%clk] clocks",
    "eval": "one game's evaluation graph, from [%eval] or engine comments (wv=)",
}
FORMATS: Final = ("svg", "png", "html")
OUTCOME_COLOURS: Final = ("#f0f0f0", "#a0a0a0", "#303030")
WIDTH: Final = 480
HEIGHT: Final = 300


def chart(kind: str, data: pl.DataFrame, *, title: str | None = None) -> Any:
    """The Altair chart of ``kind`` over its :mod:`~notation.pictures.chart_data` table."""
    alt = require("altair")
    builder = _BUILDERS[kind]
    made = builder(alt, data)
    text = title or KINDS[kind].split(" (")[0]
    text = text[:1].upper() + text[1:]
    note = _note(kind, data)
    return made.properties(title=alt.TitleParams(text, subtitle=note) if note else text)


def _note(kind: str, data: pl.DataFrame) -> str | None:
    """What the chart says of its sample under the title: a thinned history, means drawn from
    few moves, one series per engine."""
    if kind == "player" and data.height:
        import polars as pl

        total = int(data.group_by("series").agg(pl.col("games").max()).get_column("games").sum())
        if total > data.height:
            return (
                f"{total:,} games: {data.height:,} points drawn (every {-(-total // data.height)}th game and the last)"
            )
    if kind.endswith("-eco") and "no_eco" in data.columns and data.height and int(data.get_column("no_eco")[0]):
        left = int(data.get_column("no_eco")[0])
        return f"{left:,} game{'s' if left != 1 else ''} without an ECO code (?) left out"
    if kind == "clock" and "thin" in data.columns and bool(data.get_column("thin").any()):
        from notation.pictures.chart_data import THIN_SAMPLE

        return f"faded: a mean of fewer than {THIN_SAMPLE} moves (few games last that long)"
    if kind == "eval" and "series" in data.columns and set(data.get_column("series")) & {"white", "black"}:
        return "one series per engine: each side's own evaluations, in White's view"
    return None


def spec(kind: str, data: pl.DataFrame, *, title: str | None = None) -> dict[str, Any]:
    """The Vega-Lite specification (a JSON-able dict) of :func:`chart`. Altair's 5,000-row
    limit on inline data is lifted here, deliberately: every chart's table is aggregated (one
    row per mark) or thinned to :data:`~notation.pictures.chart_data.MAX_POINTS` points."""
    alt = require("altair")
    with alt.data_transformers.enable("default", max_rows=None):
        result: dict[str, Any] = chart(kind, data, title=title).to_dict()
    return result


def _groups(alt: Any, data: pl.DataFrame, title: str) -> Any:
    """The y axis of a chart by group: the groups with their game counts, in drawing order
    (:func:`notation.pictures.chart_data.results_by`), else the groups alphabetically."""
    if "label" in data.columns and "order" in data.columns:
        labels = data.unique("order", keep="first").sort("order").get_column("label").to_list()
        return alt.Y("label:N", title=title, sort=labels)
    return alt.Y("group:N", title=title, sort="ascending")


def render(vega_lite: dict[str, Any], fmt: str, *, scale: float = 2.0) -> str | bytes:
    """A Vega-Lite spec as ``svg`` (text), ``png`` (bytes, ``scale`` times the size) or
    ``html`` (a page with the Vega libraries inlined: it opens offline)."""
    vlc = require("vl_convert")
    if fmt == "svg":
        return str(vlc.vegalite_to_svg(vega_lite))
    if fmt == "png":
        return bytes(vlc.vegalite_to_png(vega_lite, scale=scale))
    if fmt == "html":
        return _page(_bundle(), vega_lite)
    raise ValueError(f"unknown chart format {fmt!r} (expected one of {', '.join(FORMATS)})")


def script_json(value: object) -> str:
    """``value`` as JSON that is safe inside an HTML ``<script>`` element: every ``<``, ``>``
    and ``&`` (so no ``</script>`` and no ``<!--``) and the line separators U+2028/U+2029 are
    written as ``\\uXXXX`` escapes, which JavaScript reads back as the same characters."""
    text = json.dumps(value, ensure_ascii=True, sort_keys=False, separators=(",", ":"))
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


@functools.cache
def _bundle() -> str:
    """The Vega, Vega-Lite and Vega-Embed libraries as one script (made once per process)."""
    return str(require("vl_convert").javascript_bundle())


def _page(bundle: str, vega_lite: dict[str, Any]) -> str:
    """A self-contained page: the Vega libraries inlined, then the spec, escaped for a script
    element (tag text such as ``</script><script>...`` stays data, it never runs)."""
    if "</script" in bundle.lower():  # the libraries are inlined as they are: they must not end the element
        raise ValueError("the Vega bundle cannot be inlined in a page")
    return "\n".join(
        [
            "<!DOCTYPE html>",
            "<html>",
            "<head>",
            '<meta charset="UTF-8">',
            "<title>Chart</title>",
            f'<script type="text/javascript">{bundle}</script>',
            "</head>",
            "<body>",
            '<div id="vega-chart"></div>',
            '<script type="text/javascript">',
            f'vegaEmbed(\'#vega-chart\', {script_json(vega_lite)}, {{"renderer": "svg"}}).catch(console.error);',
            "</script>",
            "</body>",
            "</html>",
            "",
        ]
    )


def _size(made: Any) -> Any:
    return made.properties(width=WIDTH, height=HEIGHT)


def _rating(alt: Any, data: pl.DataFrame) -> Any:
    from notation.pictures.chart_data import RATING_SPAN, expectation_curve

    x_scale = alt.Scale(domain=[-RATING_SPAN, RATING_SPAN])
    y_scale = alt.Scale(domain=[0, 1])
    x_title = "Rating difference (White − Black)"
    bands = (
        alt.Chart(data, name="bands")
        .mark_circle(color="#1f5fa8", opacity=0.8)
        .encode(
            x=alt.X("rating_diff:Q", title=x_title, scale=x_scale),
            y=alt.Y("white_score:Q", title="White's score", scale=y_scale, axis=alt.Axis(format="%")),
            size=alt.Size("games:Q", title="Games", scale=alt.Scale(range=[30, 400]), legend=alt.Legend(format="d")),
            tooltip=[
                "rating_diff",
                "games",
                alt.Tooltip("white_score:Q", format=".1%"),
                alt.Tooltip("expected:Q", format=".1%"),
            ],
        )
    )
    curve = (
        alt.Chart(expectation_curve(), name="expectation")
        .mark_line(color="#c0392b")
        .encode(
            x=alt.X("rating_diff:Q", title=x_title, scale=x_scale),
            y=alt.Y("expected:Q", title="White's score", scale=y_scale),
        )
    )
    return _size(alt.layer(curve, bands))


def _results(by: str) -> Any:
    def build(alt: Any, data: pl.DataFrame) -> Any:
        label = "ECO" if by == "eco" else "Time control"
        return (
            alt.Chart(data, name="outcomes")
            .mark_bar(stroke="#000000", strokeWidth=0.5)
            .encode(
                y=_groups(alt, data, label),
                x=alt.X("share:Q", title="Share of finished games", stack="normalize", axis=alt.Axis(format="%")),
                color=alt.Color(
                    "outcome:N",
                    title="Outcome",
                    sort=["white wins", "draw", "black wins"],
                    scale=alt.Scale(domain=["white wins", "draw", "black wins"], range=list(OUTCOME_COLOURS)),
                ),
                order=alt.Order("outcome_order:Q"),
                tooltip=["group", "outcome", "games", alt.Tooltip("share:Q", format=".1%")],
            )
            .properties(width=WIDTH)
        )

    return build


def _length(by: str) -> Any:
    def build(alt: Any, data: pl.DataFrame) -> Any:
        label = "ECO" if by == "eco" else "Time control"
        return (
            alt.Chart(data, name="lengths")
            .mark_bar(color="#1f5fa8")
            .encode(
                y=_groups(alt, data, label),
                x=alt.X("mean_moves:Q", title="Mean length (moves)"),
                tooltip=["group", "games", "mean_moves", "median_moves"],
            )
            .properties(width=WIDTH)
        )

    return build


def _player(alt: Any, data: pl.DataFrame) -> Any:
    import polars as pl

    from notation.pictures.chart_data import PLAYER_SERIES

    x = alt.X("date:T", title="Date", axis=alt.Axis(format="%Y-%m-%d", labelAngle=-30))
    present = [s for s in PLAYER_SERIES if s in set(data.get_column("series"))]
    # one line per rating pool (time-control class, Chess960 apart): never one line across pools
    colour = alt.Color("series:N", title="Time control", sort=present, scale=alt.Scale(domain=present))
    rated = data.filter(pl.col("rating").is_not_null())
    rating_y = alt.Y("rating:Q", title="Rating", scale=alt.Scale(zero=False))
    rating = alt.Chart(rated, name="rating").mark_line(point=False).encode(x=x, y=rating_y, color=colour)
    rating_points = (
        alt.Chart(rated, name="ratings")
        .mark_circle(size=40)
        .encode(x=x, y=rating_y, color=colour, tooltip=["date:T", "series", "rating", "score", "games"])
    )
    score_y = alt.Y("score_pct:Q", title="Running score (%)", scale=alt.Scale(domain=[0, 100]))
    score_lines = alt.Chart(data, name="score_lines").mark_line().encode(x=x, y=score_y, color=colour)
    score = (
        alt.Chart(data, name="scores")
        .mark_circle(size=40)
        .encode(x=x, y=score_y, color=colour, tooltip=["date:T", "series", "score", "games", "score_pct"])
    )
    top = alt.layer(rating, rating_points).properties(width=WIDTH, height=HEIGHT // 2)
    return alt.vconcat(top, alt.layer(score_lines, score).properties(width=WIDTH, height=HEIGHT // 2))


def _clock(alt: Any, data: pl.DataFrame) -> Any:
    colour = alt.Color(
        "color:N",
        title="Side",
        sort=["white", "black"],
        scale=alt.Scale(domain=["white", "black"], range=["#c9a227", "#303030"]),
    )
    x = alt.X("move_number:Q", title="Move number", axis=alt.Axis(tickMinStep=1, format="d"))
    y = alt.Y("mean_seconds:Q", title="Mean time per move (s)")
    line = alt.Chart(data, name="clock_lines").mark_line().encode(x=x, y=y, color=colour)
    faded = alt.condition("datum.thin", alt.value(0.25), alt.value(1.0)) if "thin" in data.columns else alt.value(1.0)
    points = (
        alt.Chart(data, name="clock_points")
        .mark_circle(size=30)
        .encode(x=x, y=y, color=colour, opacity=faded, tooltip=["move_number", "color", "mean_seconds", "moves"])
    )
    return _size(alt.layer(line, points))


def _eval(alt: Any, data: pl.DataFrame) -> Any:
    import polars as pl

    from notation.pictures.chart_data import EVAL_CAP

    x = alt.X("ply:Q", title="Ply", axis=alt.Axis(tickMinStep=1, format="d"))
    y = alt.Y("eval_pawns:Q", title="Evaluation (pawns, White's view)", scale=alt.Scale(domain=[-EVAL_CAP, EVAL_CAP]))
    zero = alt.Chart(pl.DataFrame({"y": [0.0]}), name="zero").mark_rule(color="#888888").encode(y="y:Q")
    if "series" in data.columns and set(data.get_column("series")) & {"white", "black"}:
        # an engine game: each engine's evaluations are its own series (never one zig-zag)
        colour = alt.Color(
            "series:N",
            title="Engine of",
            sort=["white", "black"],
            scale=alt.Scale(domain=["white", "black"], range=["#c9a227", "#303030"]),
        )
        lines = alt.Chart(data, name="eval_lines").mark_line().encode(x=x, y=y, color=colour)
        points = (
            alt.Chart(data, name="evals")
            .mark_circle(size=20)
            .encode(x=x, y=y, color=colour, tooltip=["ply", "san", "series", "eval_pawns", "mate"])
        )
        return _size(alt.layer(zero, lines, points))
    area = alt.Chart(data, name="eval_area").mark_area(color="#d0d0d0", opacity=0.6).encode(x=x, y=y)
    points = (
        alt.Chart(data, name="evals")
        .mark_circle(color="#303030", size=20)
        .encode(x=x, y=y, tooltip=["ply", "san", "eval_pawns", "mate"])
    )
    return _size(alt.layer(area, zero, points))


_BUILDERS: Final[dict[str, Any]] = {
    "rating": _rating,
    "results-eco": _results("eco"),
    "results-time-control": _results("time-control"),
    "length-eco": _length("eco"),
    "length-time-control": _length("time-control"),
    "player": _player,
    "clock": _clock,
    "eval": _eval,
}
