"""Charts (notation.pictures.charts over notation.pictures.chart_data): every kind renders to an
SVG that parses, has its axes titled and draws one mark per data row; the data tables are right."""

from __future__ import annotations

import io
import sys

import polars as pl
import pytest
from conftest import SAMPLE_GAMES
from pictures_support import CLOCK_PGN, axis_titles, marks, parse

from notation.pgn.comment_commands import Eval, engine_evaluation
from notation.pgn.reader import read_games
from notation.pictures import chart_data
from notation.pictures.extras import ChartsUnavailable, require
from notation.tables.frames import to_frames

pytest.importorskip("altair")
pytest.importorskip("vl_convert")

from notation.pictures.charts import KINDS, render, spec  # noqa: E402


@pytest.fixture(scope="module")
def round_robin() -> pl.DataFrame:
    return to_frames(SAMPLE_GAMES / "round_robin.pgn", moves=False)[0]


@pytest.fixture(scope="module")
def clock_tables() -> tuple[pl.DataFrame, pl.DataFrame]:
    return to_frames(io.BytesIO(CLOCK_PGN.encode()))


def _svg(kind: str, data: pl.DataFrame) -> str:
    picture = render(spec(kind, data), "svg")
    assert isinstance(picture, str)
    return picture


def test_expectation_is_the_elo_formula() -> None:
    assert chart_data.expectation(0) == 0.5
    assert chart_data.expectation(400) == pytest.approx(10 / 11)
    assert chart_data.expectation(-200) == pytest.approx(1 / (1 + 10**0.5))
    curve = chart_data.expectation_curve()
    assert curve.height == 2 * chart_data.RATING_SPAN // 10 + 1
    assert curve.filter(pl.col("rating_diff") == 0)["expected"].item() == 0.5


def test_score_by_rating(round_robin: pl.DataFrame) -> None:
    data = chart_data.score_by_rating(round_robin)
    assert data["games"].sum() == round_robin.filter(pl.col("result") != "*").height
    assert data["rating_diff"].to_list() == sorted(data["rating_diff"].to_list())
    root = parse(_svg("rating", data))
    assert marks(root, "bands") == data.height
    assert marks(root, "expectation") == 1  # the Elo expectation curve: one line
    assert axis_titles(root) == ["Rating difference (White − Black)", "White's score"]


def test_rating_bands_clip_large_differences() -> None:
    games = pl.DataFrame(
        {"white_elo": [2800, 1000, 2000], "black_elo": [1000, 2800, 2000], "result": ["1-0", "0-1", "1/2-1/2"]}
    )
    data = chart_data.score_by_rating(games)
    assert data["rating_diff"].to_list() == [-575, 25, 575]
    assert data["white_score"].to_list() == [0.0, 0.5, 1.0]


@pytest.mark.parametrize(("kind", "label"), [("results-eco", "ECO"), ("results-time-control", "Time control")])
def test_results_by_group(round_robin: pl.DataFrame, kind: str, label: str) -> None:
    data = chart_data.table_for(kind, round_robin)
    assert data.group_by("group").agg(pl.col("share").sum())["share"].round(6).unique().to_list() == [1.0]
    root = parse(_svg(kind, data))
    assert marks(root, "outcomes") == data.height
    assert axis_titles(root) == ["Share of finished games", label]


def test_results_limit_keeps_the_most_frequent_groups() -> None:
    games = pl.DataFrame({"eco": ["A00"] * 3 + ["B00"] * 2 + ["C00"], "result": ["1-0"] * 6, "plies": [10] * 6})
    assert chart_data.results_by(games, "eco", limit=2)["group"].to_list() == ["A00", "B00"]
    assert chart_data.length_by(games, "eco", limit=0)["group"].to_list() == ["A00", "B00", "C00"]


@pytest.mark.parametrize(("kind", "label"), [("length-eco", "ECO"), ("length-time-control", "Time control")])
def test_length_by_group(round_robin: pl.DataFrame, kind: str, label: str) -> None:
    data = chart_data.table_for(kind, round_robin)
    assert data["games"].sum() == round_robin.height
    root = parse(_svg(kind, data))
    assert marks(root, "lengths") == data.height
    assert axis_titles(root) == ["Mean length (moves)", label]


def test_player_history(round_robin: pl.DataFrame) -> None:
    data = chart_data.player_history(round_robin, "cedar,   CHEN")
    assert data["games"].to_list() == [1, 2, 3, 4, 5]
    assert data["score_pct"].to_list() == [100.0, 75.0, 83.3, 62.5, 70.0]
    assert data["rating"].unique().to_list() == [2300]
    root = parse(_svg("player", data))
    assert marks(root, "ratings") == data.height
    assert marks(root, "scores") == data.height
    assert axis_titles(root) == ["Date", "Rating", "Date", "Running score (%)"]


def _pooled_games() -> pl.DataFrame:
    """Games of Ann in four rating pools: blitz, bullet, Chess960 (blitz speed) and no clock."""

    def game(date: str, tc: str | None, elo: int, result: str, variant: str | None = None) -> str:
        tags = {
            "Event": "Online",
            "Date": date,
            "White": "Ann",
            "Black": "Bob",
            "Result": result,
            "WhiteElo": str(elo),
            "TimeControl": tc,
            "Variant": variant,
        }
        head = "".join(f'[{k} "{v}"]\n' for k, v in tags.items() if v is not None)
        return f"{head}\n1. e4 e5 {result}\n\n"

    text = (
        game("2024.01.01", "180+2", 2000, "1-0")
        + game("2024.01.02", "60+0", 2300, "0-1")
        + game("2024.01.03", "180+2", 2010, "1/2-1/2")
        + game("2024.01.04", "180+2", 1700, "1-0", "Chess960")
        + game("2024.01.05", "60+0", 2290, "1-0")
        + game("2024.01.06", None, 1900, "1-0")
    )
    games, _ = to_frames(io.StringIO(text))
    return games


def test_player_history_is_one_series_per_time_control_class_with_chess960_apart() -> None:
    data = chart_data.player_history(_pooled_games(), "ann")
    by_series = {s: data.filter(pl.col("series") == s) for s in data.get_column("series").unique()}
    assert set(by_series) == {"blitz", "bullet", "Chess960", "no time control"}
    assert by_series["blitz"]["rating"].to_list() == [2000, 2010]
    assert by_series["blitz"]["games"].to_list() == [1, 2] and by_series["blitz"]["score_pct"].to_list() == [
        100.0,
        75.0,
    ]
    assert by_series["bullet"]["rating"].to_list() == [2300, 2290]
    assert by_series["bullet"]["score_pct"].to_list() == [0.0, 50.0]
    assert by_series["Chess960"]["rating"].to_list() == [1700]
    svg = _svg("player", data)
    assert marks(parse(svg), "ratings") == data.height
    assert "Time control" in svg and "Chess960" in svg


def test_a_thinned_history_keeps_each_series_last_game() -> None:
    data = chart_data.player_history(_pooled_games(), "ann")
    thin = chart_data.thinned(data, limit=3)
    assert thin.height < data.height
    last = data.group_by("series").agg(pl.col("games").max()).sort("series").rows()
    assert thin.group_by("series").agg(pl.col("games").max()).sort("series").rows() == last


@pytest.mark.parametrize("kind", ["results-eco", "length-eco"])
def test_games_without_an_eco_code_are_left_out_and_counted_in_a_note(kind: str) -> None:
    text = "".join(
        '[Event "E"]\n[White "A"]\n[Black "B"]\n[Result "1-0"]\n'
        + (f'[ECO "{eco}"]\n' if eco else "")
        + "\n1. e4 e5 1-0\n\n"
        for eco in ["C20", "C20", "?", "", None, "B01"]
    )
    games, _ = to_frames(io.StringIO(text))
    data = chart_data.table_for(kind, games)
    assert set(data.get_column("group")) == {"C20", "B01"}
    assert data.get_column("no_eco").to_list() == [3] * data.height
    assert "3 games without an ECO code (?) left out" in _svg(kind, data)


def test_clock_use(clock_tables: tuple[pl.DataFrame, pl.DataFrame]) -> None:
    games, moves = clock_tables
    data = chart_data.clock_use(games, moves)
    spent = {(r["move_number"], r["color"]): r["mean_seconds"] for r in data.iter_rows(named=True)}
    # 180+2: 1. e4 at 3:00 (2 s with the increment), 1... e5 at 2:58 (2 + 2), 2... Nc6 2:58 -> 2:50 (8 + 2)
    assert spent[(1, "white")] == 2.0 and spent[(1, "black")] == 4.0 and spent[(2, "black")] == 10.0
    assert spent[(4, "white")] == 7.0  # 2:50 -> 2:45, plus 2
    root = parse(_svg("clock", data))
    assert marks(root, "clock_points") == data.height
    assert axis_titles(root) == ["Move number", "Mean time per move (s)"]


def test_eval_graph_from_eval_commands() -> None:
    game = next(iter(read_games(io.StringIO(CLOCK_PGN))))
    data = chart_data.game_evals(game)
    assert data["ply"].to_list() == [1, 2, 3, 4, 5, 6]
    assert data["eval_pawns"].to_list() == [0.3, 0.25, -0.5, 0.1, 0.0, chart_data.EVAL_CAP]
    assert data["mate"].to_list()[-1] == 2
    root = parse(_svg("eval", data))
    assert marks(root, "evals") == data.height
    assert axis_titles(root) == ["Ply", "Evaluation (pawns, White's view)"]


def test_eval_graph_from_engine_comments() -> None:
    game = list(read_games(io.StringIO(CLOCK_PGN)))[1]
    data = chart_data.game_evals(game)
    assert data["eval_pawns"].to_list() == [0.2, 0.15, -chart_data.EVAL_CAP]


def test_eval_graph_from_the_moves_table(clock_tables: tuple[pl.DataFrame, pl.DataFrame]) -> None:
    games, moves = clock_tables
    first = moves.filter(pl.col("game_id") == games["game_id"][0])
    data = chart_data.table_for("eval", games, first)
    assert data["eval_pawns"].to_list() == [0.3, 0.25, -0.5, 0.1, 0.0, chart_data.EVAL_CAP]


@pytest.mark.parametrize(
    ("comment", "value"),
    [
        ("d=17, pv=e3 e6, wv=0.62, R50=50,", Eval(62, None)),
        ("wv=-M15,", Eval(None, -15)),
        ("wv=M7, s=1", Eval(None, 7)),
        ("[%eval -1.5] wv=3.0,", Eval(-150, None)),
        ("nwv=1.0, wv=abc", None),
    ],
)
def test_engine_evaluation(comment: str, value: Eval | None) -> None:
    assert engine_evaluation([comment]) == value


def test_every_kind_is_drawn_deterministically(
    round_robin: pl.DataFrame, clock_tables: tuple[pl.DataFrame, pl.DataFrame]
) -> None:
    """Each kind of :data:`KINDS`, from its own data table, draws the same SVG twice (byte for
    byte), and the picture has marks."""
    assert set(KINDS) == {
        "rating",
        "results-eco",
        "results-time-control",
        "length-eco",
        "length-time-control",
        "player",
        "clock",
        "eval",
    }
    games, moves = clock_tables
    one_game = moves.filter(pl.col("game_id") == moves["game_id"][0])
    inputs = {"player": (round_robin, None), "clock": (games, moves), "eval": (games, one_game)}
    for kind in KINDS:
        table_games, table_moves = inputs.get(kind, (round_robin, None))
        data = chart_data.table_for(kind, table_games, table_moves, player="cedar,   CHEN")
        assert data.height > 0, kind
        first = _svg(kind, data)
        assert first == _svg(kind, chart_data.table_for(kind, table_games, table_moves, player="cedar,   CHEN")), kind
        root = parse(first)
        drawn = [g for g in root.iter("{http://www.w3.org/2000/svg}g") if "role-mark" in g.get("class", "")]
        assert drawn and any(len(g) for g in drawn), kind


def test_png_and_html(round_robin: pl.DataFrame) -> None:
    vega = spec("rating", chart_data.score_by_rating(round_robin))
    png = render(vega, "png", scale=1.0)
    assert isinstance(png, bytes) and png.startswith(b"\x89PNG")
    html = render(vega, "html")
    assert isinstance(html, str) and "<html" in html.lower() and "https://cdn" not in html
    with pytest.raises(ValueError):
        render(vega, "gif")


def test_missing_extra_says_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "altair", None)
    with pytest.raises(ChartsUnavailable, match=r"notation\[charts\]"):
        require("altair")
