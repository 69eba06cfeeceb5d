"""The club level-and-points ledger: every band edge, zero-sum, levels, order, initial points."""

from __future__ import annotations

import datetime as dt
import io
import subprocess
import sys
from decimal import Decimal

import polars as pl
import pytest
from conftest import OUTSIDE

from notation.tables.ledger import (
    LedgerResult,
    exchange,
    format_points,
    gain,
    ledger,
    level,
    read_initial,
    to_decimal,
)

D = Decimal

# (d, draw: lower gains, lower side wins: gains, higher side wins: gains)
BAND_EDGES = [
    ("0", "0", "10", "10"),
    ("9.99", "0", "10", "10"),
    ("10", "5.5", "11", "9.2"),
    ("99.99", "9.9995", "19.999", "2.0008"),
    ("100", "25", "50", "2"),
    ("199.99", "49.9975", "99.995", "2"),
    ("200", "50", "100", "0"),
    ("1234.5", "308.625", "617.25", "0"),
]


@pytest.mark.parametrize(("d", "draw", "lower", "higher"), BAND_EDGES)
def test_gain_at_every_band_edge(d: str, draw: str, lower: str, higher: str) -> None:
    assert gain(D(d), "draw") == D(draw)
    assert gain(D(d), "lower-wins") == D(lower)
    assert gain(D(d), "higher-wins") == D(higher)


@pytest.mark.parametrize(("d", "draw", "lower", "higher"), BAND_EDGES)
@pytest.mark.parametrize("base", ["0", "150", "-40.5", "2999.99"])
def test_exchange_applies_the_bands_from_both_colours(d: str, draw: str, lower: str, higher: str, base: str) -> None:
    low, high = D(base), D(base) + D(d)
    # lower side has White
    assert exchange(low, high, "1/2-1/2") == (D(draw), -D(draw))
    assert exchange(low, high, "1-0") == (D(lower), -D(lower))
    assert exchange(low, high, "0-1") == (-D(higher), D(higher))
    # lower side has Black
    assert exchange(high, low, "1/2-1/2") == (-D(draw), D(draw))
    assert exchange(high, low, "0-1") == (-D(lower), D(lower))
    assert exchange(high, low, "1-0") == (D(higher), -D(higher))


def test_equal_points_side_choice_does_not_matter() -> None:
    # d = 0: every d < 10 rule is symmetric, so whichever side counts as "lower" is irrelevant
    for points in (D(0), D("123.45"), D(-7)):
        assert exchange(points, points, "1/2-1/2") == (0, 0)
        assert exchange(points, points, "1-0") == (10, -10)
        assert exchange(points, points, "0-1") == (-10, 10)


def test_unfinished_moves_nothing() -> None:
    assert exchange(D(0), D(50), "*") == (0, 0)
    assert exchange(D(0), D(50), "") == (0, 0)


@pytest.mark.parametrize(
    ("points", "expected"),
    [
        ("-250", "unranked"),
        ("0", "unranked"),
        ("99.99", "unranked"),
        ("100", "30"),
        ("199.99", "30"),
        ("200", "29"),
        ("1550", "16"),
        ("2900", "2"),
        ("2999.99", "2"),
        ("3000", "1"),
        ("98765.4321", "1"),
    ],
)
def test_level_boundaries(points: str, expected: str) -> None:
    assert level(D(points)) == expected


def test_format_points_is_exact_without_float_noise() -> None:
    assert format_points(D("10.00")) == "10"
    assert format_points(D("-0")) == "0"
    assert format_points(D("2.0008")) == "2.0008"
    assert format_points(D("1E+3")) == "1000"
    assert format_points(D("-30.9392")) == "-30.9392"
    assert to_decimal(0.1) == D("0.1")  # floats through their shortest repr


def _games(*rows: tuple[str, str, str], dates: list[str | None] | None = None) -> pl.DataFrame:
    frame = pl.DataFrame({"white": [r[0] for r in rows], "black": [r[1] for r in rows], "result": [r[2] for r in rows]})
    if dates is not None:
        frame = frame.with_columns(
            pl.Series("date", [dt.date.fromisoformat(d) if d else None for d in dates], dtype=pl.Date)
        )
    return frame


def _zero_sum(result: LedgerResult, initial_total: Decimal = Decimal(0)) -> None:
    assert sum((p.points for p in result.players), D(0)) == initial_total
    for entry in result.history:
        assert entry.white_delta + entry.black_delta == 0


def test_ledger_is_zero_sum_and_goes_negative() -> None:
    games = _games(("A", "B", "1-0"), ("A", "C", "1-0"), ("B", "C", "1/2-1/2"), ("C", "A", "1-0"), ("B", "A", "0-1"))
    result = ledger(games)
    _zero_sum(result)
    # 1. A-B 1-0, d=0: A 10, B -10.  2. A-C 1-0, d=10, higher wins 10-0.8: A 19.2, C -9.2.
    # 3. B-C draw, d=0.8: nothing.  4. C-A 1-0, d=28.4, lower wins 10+2.84: C 3.64, A 6.36.
    # 5. B-A 0-1, d=16.36, higher wins 10-1.3088: A 15.0512, B -18.6912.
    assert result.points == {"A": D("15.0512"), "B": D("-18.6912"), "C": D("3.64")}
    assert any(p.points < 0 for p in result.players)
    assert [p.player for p in result.players] == ["A", "C", "B"]
    assert all(p.level == "unranked" for p in result.players)
    assert {p.player: p.games for p in result.players} == {"A": 4, "B": 3, "C": 3}


def test_ledger_exact_arithmetic_over_many_games() -> None:
    # a long chain of higher-side wins keeps multiplying by 0.08: digits grow, nothing rounds
    rows = [("A", "B", "1-0")] * 60 + [("B", "A", "1/2-1/2")] * 3
    result = ledger(_games(*rows), initial={"A": "0.01"})
    _zero_sum(result, D("0.01"))
    text = format_points(result.points["A"])
    assert D(text) == result.points["A"]
    assert "e" not in text.lower()


def test_ledger_chronological_order_and_unknown_dates_last() -> None:
    # file order: g1 (no date), g2 (2020-01-02), g3 (2020-01-01), g4 (2020-01-01)
    games = _games(
        ("A", "B", "1-0"),
        ("B", "C", "1-0"),
        ("C", "A", "1-0"),
        ("A", "C", "1/2-1/2"),
        dates=[None, "2020-01-02", "2020-01-01", "2020-01-01"],
    )
    result = ledger(games)
    order = [(e.white, e.black, e.date) for e in result.history]
    assert order == [
        ("C", "A", "2020-01-01"),
        ("A", "C", "2020-01-01"),
        ("B", "C", "2020-01-02"),
        ("A", "B", None),
    ]


def test_ledger_orders_by_utc_datetime_within_a_day_and_uses_utc_date_without_date() -> None:
    utc = pl.Series(
        "utc_datetime",
        [dt.datetime(2021, 5, 1, 18, 0), dt.datetime(2021, 5, 1, 9, 30), dt.datetime(2021, 4, 30, 23, 0)],
    ).dt.replace_time_zone("UTC")
    games = _games(("A", "B", "1-0"), ("B", "A", "1-0"), ("A", "C", "0-1")).with_columns(utc)
    result = ledger(games)
    assert [(e.white, e.black) for e in result.history] == [("A", "C"), ("B", "A"), ("A", "B")]
    assert [e.date for e in result.history] == ["2021-04-30", "2021-05-01", "2021-05-01"]


def test_ledger_utc_datetime_as_text() -> None:
    games = _games(("A", "B", "1-0"), ("B", "A", "1-0")).with_columns(
        pl.Series("utc_datetime", ["2021.05.02 10:00:00", "2021.05.01 10:00:00"])
    )
    assert [e.white for e in ledger(games).history] == ["B", "A"]


def test_ledger_skips_unfinished_unnamed_and_self_games() -> None:
    games = _games(("A", "B", "*"), ("A", "?", "1-0"), ("", "B", "0-1"), ("A", "A", "1-0"), ("A", "B", "1-0"))
    result = ledger(games)
    assert len(result.history) == 1
    assert result.skipped == {"unfinished": 1, "unnamed-player": 2, "self-game": 1}
    assert [d.code for d in result.diagnostics] == ["ledger.unnamed-player"] * 2 + ["ledger.self-game"]
    assert result.points == {"A": D(10), "B": D(-10)}


def test_ledger_accepts_enum_and_categorical_columns_and_lazy_frames() -> None:
    games = pl.DataFrame(
        {
            "white": ["A", "B"],
            "black": ["B", "A"],
            "result": pl.Series(["1-0", "1/2-1/2"], dtype=pl.Enum(["1-0", "0-1", "1/2-1/2", "*"])),
        }
    )
    assert ledger(games.lazy()).points == ledger(games).points == {"A": D(4), "B": D(-4)}


def test_initial_points_crossing_levels() -> None:
    games = _games(("Low", "High", "1-0"), ("Mid", "Top", "1/2-1/2"))
    result = ledger(games, initial={"Low": "50", "High": "99.99", "Mid": 2950, "Top": D("3050")})
    # d = 49.99, lower wins: 10 + 4.999; d = 100, draw: lower gains 25
    assert result.points == {"Low": D("64.999"), "High": D("84.991"), "Mid": D("2975"), "Top": D("3025")}
    assert {p.player: p.level for p in result.players} == {
        "Low": "unranked",
        "High": "unranked",
        "Mid": "2",
        "Top": "1",
    }
    _zero_sum(result, D("50") + D("99.99") + D(2950) + D(3050))


def test_initial_only_players_are_listed_with_no_games() -> None:
    result = ledger(_games(("A", "B", "1-0")), initial={"Idle": "120"})
    assert {p.player: (format_points(p.points), p.level, p.games) for p in result.players} == {
        "Idle": ("120", "30", 0),
        "A": ("10", "unranked", 1),
        "B": ("-10", "unranked", 1),
    }


def test_frames_have_the_contract_columns() -> None:
    result = ledger(_games(("A", "B", "1-0")))
    assert result.players_frame().columns == ["player", "points", "level", "games"]
    assert result.history_frame().columns == [
        "date",
        "white",
        "black",
        "result",
        "white_before",
        "black_before",
        "white_delta",
        "black_delta",
    ]
    assert result.history_frame().row(0) == (None, "A", "B", "1-0", "0", "0", "10", "-10")


def test_read_initial_with_and_without_header_and_bad_rows() -> None:
    values, diags = read_initial(io.StringIO("player,points\nAnna,150.25\n\nBen,-3\n"))
    assert values == {"Anna": D("150.25"), "Ben": D(-3)} and diags == []
    values, diags = read_initial(["Anna,1", "Ben"])
    assert values == {"Anna": D(1)}
    assert [(d.code, d.line) for d in diags] == [("ledger.bad-initial", 2)]
    values, diags = read_initial(["Anna,lots", "Anna,2", "Anna,3"])
    assert values == {"Anna": D(3)}
    assert [(d.code, d.severity) for d in diags] == [("ledger.bad-initial", "error"), ("ledger.bad-initial", "warning")]
    values, diags = read_initial(["Anna,nan"])
    assert values == {} and diags[0].code == "ledger.bad-initial"


def test_read_initial_takes_the_last_comma_as_the_end_of_a_name() -> None:
    values, diags = read_initial(["player,points", "Cedar, Chen,1500", '"Hou, Yifan",12.5', "Lee,Ann,B,7"])
    assert values == {"Cedar, Chen": D(1500), "Hou, Yifan": D("12.5"), "Lee,Ann,B": D(7)} and diags == []


def test_read_initial_shows_how_a_name_with_a_comma_is_written_when_a_row_is_bad() -> None:
    values, diags = read_initial(["Cedar, Chen", "Solo", "Anna,1,5"])
    assert values == {}
    assert [(d.code, d.line) for d in diags] == [("ledger.bad-initial", n) for n in (1, 2, 3)]
    assert all("Cedar, Chen,1500" in d.message for d in diags)
    assert '"Cedar, Chen",1500' in diags[2].message


def test_read_initial_missing_file(tmp_path: object) -> None:
    values, diags = read_initial(f"{tmp_path}/absent.csv")
    assert values == {} and [d.code for d in diags] == ["pgn.io"]


def test_public_export_is_callable_whichever_import_came_first() -> None:
    code = (
        "import polars as pl, notation, notation.tables.ledger as m; "
        "g = pl.DataFrame({'white': ['A'], 'black': ['B'], 'result': ['1-0']}); "
        "from notation import ledger; print(type(ledger(g)).__name__, type(notation.ledger(g)).__name__)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=OUTSIDE, check=True)
    assert out.stdout.split() == ["LedgerResult", "LedgerResult"]
    import notation

    assert notation.ledger(_games(("A", "B", "1-0"))).points == {"A": D(10), "B": D(-10)}


@pytest.mark.parametrize(
    "text",
    [
        "1e-999999999",
        "1e-9999",
        "1E5",
        "1_000",
        "\u0661\u0662\u0663",
        "inf",
        "nan",
        "0x10",
        "1,5",
        "--1",
        "1000000000",
        "-1000000000",
        "0." + "0" * 60 + "1",
        "9" * 100_000,
    ],
)
def test_initial_points_must_be_plain_decimals_in_range(text: str) -> None:
    values, diags = read_initial([f"Anna,{text}"])
    assert values == {}
    assert [(d.code, d.severity, d.line) for d in diags] == [("ledger.bad-initial", "error", 1)]
    assert len(diags[0].message) < 200


@pytest.mark.parametrize("text", ["0", "-3", "+7", "12.5", ".5", "5.", "999999999.99", "0." + "0" * 59 + "1"])
def test_initial_points_in_range_are_exact(text: str) -> None:
    values, diags = read_initial([f"Anna,{text}"])
    assert diags == [] and values == {"Anna": D(text)}


def test_initial_points_through_the_api_are_bounded_too() -> None:
    with pytest.raises(ValueError):
        ledger(_games(("A", "B", "1-0")), initial={"A": D("1e-999999999")})


def test_ledger_table_is_a_polars_frame() -> None:
    table = ledger(_games(("A", "B", "1-0"))).table()
    assert isinstance(table, pl.DataFrame)
    assert table.columns == ["player", "points", "level", "games"]
    assert table.rows() == [("A", "10", "unranked", 1), ("B", "-10", "unranked", 1)]
