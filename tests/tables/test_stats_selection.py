"""Statistics people ask for: a player's games (by colour), a date range, an event, a
time-control class; sections by time-control class and colour; termination from the replay."""

from __future__ import annotations

import datetime as dt

import polars as pl
import pytest
from conftest import SAMPLE_GAMES
from typer.testing import CliRunner

from notation.cli.main import app
from notation.tables.frames import to_frames
from notation.tables.selection import Selection, fold, parse_day, time_control_class
from notation.tables.stats import stats


def _games() -> pl.DataFrame:
    return pl.DataFrame(
        {
            "white": ["Ljubojević, L", "Carlsen", "Anand", "carlsen, m"],
            "black": ["Carlsen", "Anand", "Carlsen", "Nakamura"],
            "result": ["1-0", "1/2-1/2", "0-1", "1-0"],
            "event": ["Linares", "Wijk aan Zee", "Linares", "Titled Arena"],
            "date": [dt.date(1994, 3, 1), dt.date(2015, 1, 20), dt.date(2019, 6, 1), None],
            "utc_datetime": [None, None, None, dt.datetime(2021, 5, 5, 12)],
            "time_control": ["40/7200:3600", None, "-", "60+1"],
            "base_seconds": [7200, None, None, 60],
            "increment_seconds": [0, None, None, 1],
            "termination": [None, "normal", None, None],
            "outcome": ["checkmate", None, None, None],
        }
    )


@pytest.mark.parametrize(
    ("base", "increment", "text", "expected"),
    [
        (15, 0, "15+0", "bullet"),
        (60, 1, "60+1", "bullet"),
        (120, 2, "120+2", "blitz"),
        (180, 2, "180+2", "blitz"),
        (300, 3, "300+3", "blitz"),
        (600, 0, "600+0", "rapid"),
        (600, 5, "600+5", "rapid"),
        (900, 15, "900+15", "classical"),
        (None, None, "-", "correspondence"),
        (None, None, "1/259200", "correspondence"),
        (None, None, "?", None),
    ],
)
def test_time_control_classes_follow_lichess(
    base: int | None, increment: int | None, text: str, expected: str | None
) -> None:
    frame = pl.DataFrame(
        {"base_seconds": [base], "increment_seconds": [increment], "time_control": [text]},
        schema={"base_seconds": pl.Int32, "increment_seconds": pl.Int16, "time_control": pl.String},
    )
    assert frame.select(time_control_class()).item() == expected


def test_player_selection_folds_case_and_accents() -> None:
    assert fold("Ljubojević") == "ljubojevic"
    result = stats(_games(), by=["color"], where=Selection(player="CARLSEN"))["color"]
    assert result.rows() == [("white", 2, 1, 1, 0, 1.5, 75.0, 0), ("black", 2, 1, 0, 1, 1.0, 50.0, 0)]
    only_black = stats(_games(), by=["result"], where=Selection(player="carlsen", color="black"))["result"]
    assert only_black["games"].item() == 2
    assert stats(_games(), by=["result"], where=Selection(player="ljubojevic"))["result"]["games"].item() == 1


def test_dates_event_and_time_control() -> None:
    since = Selection(since=parse_day("2015"), until=parse_day("2021-05", end=True))
    assert stats(_games(), by=["result"], where=since)["result"]["games"].item() == 3  # utc date counts
    assert stats(_games(), by=["result"], where=Selection(event="linares"))["result"]["games"].item() == 2
    corr = Selection(time_control="correspondence")
    assert stats(_games(), by=["result"], where=corr)["result"]["games"].item() == 1
    classes = stats(_games(), by=["time-control"])["time-control"]
    assert classes["time_control"].to_list() == ["bullet", "classical", "correspondence", "?"]


def test_parse_day_and_bad_selections() -> None:
    assert parse_day("2019.??.??") == dt.date(2019, 1, 1)
    assert parse_day("2019.??.??", end=True) == dt.date(2019, 12, 31)
    assert parse_day("2020-02", end=True) == dt.date(2020, 2, 29)
    with pytest.raises(ValueError):
        parse_day("last week")
    with pytest.raises(ValueError):
        Selection(color="white")  # a colour needs a player
    with pytest.raises(ValueError):
        Selection(time_control="hyperbullet")


def test_termination_falls_back_to_the_replay() -> None:
    section = stats(_games(), by=["termination"])["termination"]
    assert dict(zip(section["termination"], section["games"])) == {"?": 2, "checkmate": 1, "normal": 1}
    games, _ = to_frames(SAMPLE_GAMES / "classics.pgn")
    assert "checkmate" in stats(games, by=["termination"])["termination"]["termination"].to_list()


def test_cli_selection_options() -> None:
    runner = CliRunner()
    path = str(SAMPLE_GAMES / "round_robin.pgn")
    result = runner.invoke(
        app, ["stats", path, "--player", "cedar", "--color", "white", "--by", "color", "--format", "csv"]
    )
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[1].startswith("white,3,3,0,0,3.0,100.0,0")
    assert runner.invoke(app, ["stats", path, "--color", "white"]).exit_code == 2
    assert runner.invoke(app, ["stats", path, "--since", "yesterday"]).exit_code == 2
    assert runner.invoke(app, ["stats", path, "--time-control", "hyper"]).exit_code == 2
    none = runner.invoke(app, ["stats", path, "--since", "2030", "--by", "result"])
    assert none.exit_code == 1
    result = runner.invoke(app, ["stats", path, "--time-control", "blitz", "--by", "time-control", "--format", "json"])
    assert result.exit_code == 1  # the round robin has no time control: no games selected


def test_cli_date_range_and_event() -> None:
    runner = CliRunner()
    path = str(SAMPLE_GAMES / "round_robin.pgn")
    result = runner.invoke(
        app, ["stats", path, "--since", "2024-03-02", "--until", "2024-03-03", "--by", "result", "--format", "json"]
    )
    assert result.exit_code == 0, result.output
    assert '{"games": 6, ' in result.output  # the games of 2 and 3 March, both days included
    result = runner.invoke(
        app, ["stats", str(SAMPLE_GAMES), "--event", "riverside", "--by", "result", "--format", "csv"]
    )
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[1].startswith("15,")
    assert runner.invoke(app, ["stats", path, "--until", "someday"]).exit_code == 2
    assert runner.invoke(app, ["stats", path, "--event", "no such event"]).exit_code == 1


def test_the_command_line_choices_are_the_library_s() -> None:
    from notation.cli.stats_cmd import ColorChoice, Section, TimeControlClass
    from notation.tables.selection import COLORS, TIME_CONTROL_CLASSES
    from notation.tables.stats import SECTIONS

    assert tuple(c.value for c in ColorChoice) == COLORS
    assert tuple(c.value for c in TimeControlClass) == TIME_CONTROL_CLASSES
    assert sorted(s.value for s in Section) == sorted(SECTIONS)
