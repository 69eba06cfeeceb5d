"""`notation chart` and `notation stats --plot`: every kind and option, formats, exit codes,
the missing charts extra, readable help."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest
from conftest import SAMPLE_GAMES
from pictures_support import CLOCK_PGN, axis_titles, marks, parse
from tables_support import ROUND_ROBIN, run_cli

pytest.importorskip("altair")
pytest.importorskip("vl_convert")


@pytest.fixture()
def clock_pgn(tmp_path: Path) -> Path:
    path = tmp_path / "clock.pgn"
    path.write_text(CLOCK_PGN, encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("kind", "layer", "rows"),
    [
        ("rating", "bands", 11),
        ("results-eco", "outcomes", 14),
        ("length-eco", "lengths", 14),
        ("results-time-control", "outcomes", 3),
        ("length-time-control", "lengths", 1),
    ],
)
def test_game_table_kinds(tmp_path: Path, kind: str, layer: str, rows: int) -> None:
    out = tmp_path / "chart.svg"
    result = run_cli("chart", ROUND_ROBIN, "--kind", kind, "--out", out)
    assert result.exit_code == 0, result.stderr
    root = parse(out.read_text(encoding="utf-8"))
    assert marks(root, layer) == rows
    assert len(axis_titles(root)) == 2


def test_player_kind(tmp_path: Path) -> None:
    out = tmp_path / "player.svg"
    result = run_cli("chart", ROUND_ROBIN, "--kind", "player", "--player", "Cedar, Chen", "--out", out)
    assert result.exit_code == 0, result.stderr
    svg = out.read_text(encoding="utf-8")
    assert marks(parse(svg), "scores") == 5 and "Cedar, Chen: rating and running score" in svg


def test_player_kind_needs_a_player(tmp_path: Path) -> None:
    result = run_cli("chart", ROUND_ROBIN, "--kind", "player", "--out", tmp_path / "p.svg")
    assert result.exit_code == 2 and "--player" in result.stderr


def test_clock_kind_and_one_game(tmp_path: Path, clock_pgn: Path) -> None:
    out = tmp_path / "clock.svg"
    assert run_cli("chart", clock_pgn, "--kind", "clock", "--out", out).exit_code == 0
    assert marks(parse(out.read_text(encoding="utf-8")), "clock_points") == 7
    assert run_cli("chart", clock_pgn, "--kind", "clock", "--game", "2", "--out", out).exit_code == 1  # no clocks


def test_eval_kind_picks_the_game(tmp_path: Path, clock_pgn: Path) -> None:
    out = tmp_path / "eval.svg"
    assert run_cli("chart", clock_pgn, "--kind", "eval", "--out", out).exit_code == 0
    assert marks(parse(out.read_text(encoding="utf-8")), "evals") == 6
    assert run_cli("chart", clock_pgn, "--kind", "eval", "--game", "2", "--out", out).exit_code == 0
    assert marks(parse(out.read_text(encoding="utf-8")), "evals") == 3  # from wv= engine comments
    result = run_cli("chart", clock_pgn, "--kind", "eval", "--game", "3", "--out", out)
    assert result.exit_code == 2 and "picture.no-such-game" in result.stderr


def test_dataset_input(tmp_path: Path) -> None:
    first_game = tmp_path / "one.pgn"
    first_game.write_text(CLOCK_PGN.split("\n\n[Event")[0] + "\n", encoding="utf-8")
    dataset = tmp_path / "ds"
    assert run_cli("import", first_game, "--out", dataset).exit_code == 0
    out = tmp_path / "eval.svg"
    result = run_cli("chart", dataset, "--kind", "eval", "--out", out)
    assert result.exit_code == 0, result.stderr
    assert marks(parse(out.read_text(encoding="utf-8")), "evals") == 6  # from the moves table
    assert run_cli("chart", dataset, "--kind", "clock", "--out", out).exit_code == 0
    assert marks(parse(out.read_text(encoding="utf-8")), "clock_points") == 7
    result = run_cli("chart", dataset, "--kind", "eval", "--game", "2", "--out", out)
    assert result.exit_code == 2 and "picture.no-such-game" in result.stderr


@pytest.mark.parametrize(("suffix", "magic"), [(".png", b"\x89PNG"), (".html", b"<!DOCTYPE html>")])
def test_formats_follow_the_suffix(tmp_path: Path, suffix: str, magic: bytes) -> None:
    out = tmp_path / f"chart{suffix}"
    assert run_cli("chart", ROUND_ROBIN, "--kind", "rating", "--out", out).exit_code == 0
    assert out.read_bytes()[:20].lower().startswith(magic.lower())


def test_title_and_limit(tmp_path: Path) -> None:
    out = tmp_path / "eco.svg"
    result = run_cli("chart", ROUND_ROBIN, "--kind", "length-eco", "--limit", "3", "--title", "Top three", "--out", out)
    assert result.exit_code == 0
    svg = out.read_text(encoding="utf-8")
    assert "Top three" in svg and marks(parse(svg), "lengths") == 3


@pytest.mark.parametrize(
    ("args", "code", "text"),
    [
        (["--kind", "rating", "--out", "x.txt"], 2, ".svg, .png or .html"),
        (["--kind", "nope", "--out", "x.svg"], 2, "Invalid value for '--kind'"),
        (["--kind", "clock", "--out", "{tmp}/c.svg"], 1, "picture.no-data"),
        (["--kind", "rating", "--game", "0", "--out", "x.svg"], 2, "Invalid value for '--game'"),
    ],
)
def test_usage_and_no_data(tmp_path: Path, args: list[str], code: int, text: str) -> None:
    result = run_cli("chart", ROUND_ROBIN, *[a.replace("{tmp}", str(tmp_path)) for a in args])
    assert result.exit_code == code
    assert text in result.stderr


def test_missing_input(tmp_path: Path) -> None:
    result = run_cli("chart", tmp_path / "absent.pgn", "--kind", "rating", "--out", tmp_path / "c.svg")
    assert result.exit_code == 2 and "pgn.io" in result.stderr
    assert not (tmp_path / "c.svg").exists()


def test_unwritable_output(tmp_path: Path) -> None:
    result = run_cli("chart", ROUND_ROBIN, "--kind", "rating", "--out", tmp_path / "no" / "dir" / "c.svg")
    assert result.exit_code == 2 and "cannot write" in result.stderr


def test_missing_extra_exits_2_with_the_install_hint(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "altair", None)
    result = run_cli("chart", ROUND_ROBIN, "--kind", "rating", "--out", tmp_path / "c.svg")
    assert result.exit_code == 2
    assert "install notation[charts]" in result.stderr and "Traceback" not in result.stderr
    stats = run_cli("stats", ROUND_ROBIN, "--plot", tmp_path / "s.svg")
    assert stats.exit_code == 2 and "install notation[charts]" in stats.stderr


@pytest.mark.parametrize(
    ("by", "layer"),
    [([], "bands"), (["--by", "elo-band"], "bands"), (["--by", "eco"], "outcomes"), (["--by", "length"], "lengths")],
)
def test_stats_plot(tmp_path: Path, by: list[str], layer: str) -> None:
    out = tmp_path / "plot.svg"
    result = run_cli("stats", ROUND_ROBIN, *by, "--plot", out)
    assert result.exit_code == 0, result.stderr
    assert "games" in result.stdout  # the statistics are still printed
    assert marks(parse(out.read_text(encoding="utf-8")), layer) > 0


def test_stats_plot_follows_the_selection(tmp_path: Path) -> None:
    out = tmp_path / "plot.svg"
    assert run_cli("stats", ROUND_ROBIN, "--by", "eco", "--player", "Cedar", "--plot", out).exit_code == 0
    assert marks(parse(out.read_text(encoding="utf-8")), "outcomes") == 5


def test_stats_plot_bad_suffix_fails_before_any_work(tmp_path: Path) -> None:
    result = run_cli("stats", ROUND_ROBIN, "--plot", tmp_path / "plot.gif")
    assert result.exit_code == 2 and ".svg" in result.stderr and "games" not in result.stdout


def test_stats_plot_with_nothing_to_draw(tmp_path: Path) -> None:
    result = run_cli("stats", SAMPLE_GAMES / "classics.pgn", "--by", "elo-band", "--plot", tmp_path / "p.svg")
    assert result.exit_code == 1 and "picture.no-data" in result.stderr


@pytest.mark.parametrize("command", ["chart", "board", "stats"])
def test_help_shows_readable_types(command: str) -> None:
    result = run_cli(command, "--help")
    assert result.exit_code == 0
    raw = re.findall(r"<[a-z][\w\[\]| ,.]*>", result.stdout)  # Typer's raw names: <bool>, <int range>, <list[str]>
    assert not raw, raw


@pytest.mark.parametrize(("kind", "layer", "rows"), [("eval", "evals", 6), ("clock", "clock_points", 7)])
def test_standard_input(tmp_path: Path, kind: str, layer: str, rows: int) -> None:
    from typer.testing import CliRunner

    from notation.cli.main import app

    out = tmp_path / "chart.svg"
    result = CliRunner().invoke(app, ["chart", "-", "--kind", kind, "--out", str(out)], input=CLOCK_PGN)
    assert result.exit_code == 0, result.stderr
    assert marks(parse(out.read_text(encoding="utf-8")), layer) == rows


def _truncated_gz(tmp_path: Path) -> Path:
    """round_robin.pgn gzipped, cut in the middle of its compressed stream."""
    import gzip

    data = gzip.compress(ROUND_ROBIN.read_bytes())
    path = tmp_path / "cut.pgn.gz"
    path.write_bytes(data[: len(data) * 2 // 3])
    return path


@pytest.mark.parametrize("kind", ["rating", "length-eco"])
def test_truncated_gz_is_reported_and_the_games_read_are_drawn(tmp_path: Path, kind: str) -> None:
    out = tmp_path / "c.svg"
    result = run_cli("chart", _truncated_gz(tmp_path), "--kind", kind, "--out", out)
    assert result.exit_code == 2
    located = [line for line in result.stderr.splitlines() if "pgn.io" in line]
    assert located and "cut.pgn.gz" in located[0] and re.search(r"cut\.pgn\.gz:\d+", located[0]), result.stderr
    assert out.exists()  # drawn from the games read whole before the cut


def test_missing_input_beside_a_readable_one_still_draws(tmp_path: Path) -> None:
    out = tmp_path / "c.svg"
    result = run_cli("chart", tmp_path / "absent.pgn", ROUND_ROBIN, "--kind", "rating", "--out", out)
    assert result.exit_code == 2
    assert "absent.pgn" in result.stderr and "pgn.io" in result.stderr
    assert marks(parse(out.read_text(encoding="utf-8")), "bands") == 11


def test_eval_kind_reports_a_truncated_input(tmp_path: Path, clock_pgn: Path) -> None:
    out = tmp_path / "eval.svg"
    result = run_cli("chart", clock_pgn, tmp_path / "absent.pgn", "--kind", "eval", "--out", out)
    assert result.exit_code == 2 and "absent.pgn" in result.stderr and "pgn.io" in result.stderr
    assert marks(parse(out.read_text(encoding="utf-8")), "evals") == 6


ARENA_GAME = """[Event "Arena test"]
[Date "2024.05.01"]
[White "Engine A"]
[Black "Engine B"]
[Result "*"]

1. e4 {+0.18/23 239} e5 {+0.25/20 1.2s} 2. Nf3 {+0.30/21 3} Nc6 {-0.10/19 2} *
"""


def test_eval_kind_reads_score_depth_comments_and_titles_the_game(tmp_path: Path) -> None:
    path = tmp_path / "arena.pgn"
    path.write_text(ARENA_GAME, encoding="utf-8")
    out = tmp_path / "eval.svg"
    assert run_cli("chart", path, "--kind", "eval", "--out", out).exit_code == 0
    svg = out.read_text(encoding="utf-8")
    assert marks(parse(svg), "evals") == 4
    assert "(Engine A–Engine B, Arena test, 2024.05.01): evaluation" in svg
    assert run_cli("chart", path, "--kind", "eval", "--title", "Mine", "--out", out).exit_code == 0
    assert "Mine" in out.read_text(encoding="utf-8") and "Arena test" not in out.read_text(encoding="utf-8")


def test_eval_kind_says_why_it_has_nothing_to_draw(tmp_path: Path) -> None:
    result = run_cli("chart", SAMPLE_GAMES / "classics.pgn", "--kind", "eval", "--out", tmp_path / "e.svg")
    assert result.exit_code == 1
    assert "picture.no-data" in result.stderr and "game 1 (Morphy, Paul–" in result.stderr
    assert "has no engine evaluations ([%eval]" in result.stderr
