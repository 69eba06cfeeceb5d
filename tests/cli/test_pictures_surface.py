"""Pictures as a user meets them: a PNG at the size asked, captions that fit, a player's chart
of any length without a traceback (thinned, and saying so), time controls in speed order with
their counts, the clock chart's thin samples marked, one evaluation series per engine."""

from __future__ import annotations

import re
import struct
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import OUTSIDE, SAMPLE_GAMES
from pictures_support import by_class, parse
from tables_support import run_cli
from terminal_support import CODE

CLASSICS = SAMPLE_GAMES / "classics.pgn"


def _png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


@pytest.mark.parametrize("size", [200, 600])
def test_board_png_is_the_size_asked(tmp_path: Path, size: int) -> None:
    pytest.importorskip("vl_convert")
    out = tmp_path / "b.png"
    result = run_cli("board", CLASSICS, "--size", str(size), "--out", out, "--no-caption")
    assert result.exit_code == 0, result.output
    assert _png_size(out.read_bytes()) == (size, size)


def test_a_long_caption_is_wrapped_to_fit(tmp_path: Path) -> None:
    long_names = tmp_path / "names.pgn"
    long_names.write_text(
        '[Event "The Extraordinarily Long Named International Invitational Memorial Tournament"]\n'
        '[White "Wolfeschlegelsteinhausenbergerdorff, Hubert Blaine Maximilian"]\n'
        '[Black "Featherstonehaugh-Cholmondeley, Aloysius Bartholomew"]\n[Result "*"]\n\n1. e4 e5 *\n',
        encoding="utf-8",
    )
    out = tmp_path / "b.svg"
    result = run_cli("board", long_names, "--size", "200", "--out", out)
    assert result.exit_code == 0, result.output
    svg = out.read_text(encoding="utf-8")
    root = parse(svg)
    (caption,) = by_class(root, "caption")
    spans = list(caption)
    assert len(spans) > 2  # wrapped onto several lines
    assert "Wolfeschlegelsteinhausenbergerdorff" in "".join(caption.itertext())
    height = float(root.get("height") or 0)
    from notation.pictures.board import CAPTION_CHAR, CAPTION_PAD

    for span in spans:
        text = "".join(span.itertext()).strip()
        assert len(text) * CAPTION_CHAR <= 200 - 2 * CAPTION_PAD or span.get("textLength") == str(200 - 2 * CAPTION_PAD)
        assert float(span.get("y") or 0) < height  # inside the picture


def _games(count: int, player: str) -> str:
    out = []
    for i in range(count):
        white, black = (player, f"Opponent {i % 7}") if i % 2 else (f"Opponent {i % 7}", player)
        day = f"20{10 + i // 3000:02d}.{1 + (i // 250) % 12:02d}.{1 + (i // 9) % 28:02d}"
        result = ("1-0", "0-1", "1/2-1/2")[i % 3]
        out.append(
            f'[Event "E"]\n[Date "{day}"]\n[White "{white}"]\n[Black "{black}"]\n'
            f'[WhiteElo "{1500 + i % 300}"]\n[BlackElo "1600"]\n[Result "{result}"]\n\n1. e4 e5 {result}\n'
        )
    return "\n".join(out)


def test_the_player_chart_of_6000_games_is_drawn_thinned_and_says_so(tmp_path: Path) -> None:
    pytest.importorskip("altair")
    pytest.importorskip("vl_convert")
    many = tmp_path / "many.pgn"
    many.write_text(_games(6000, "Hou, Yifan"), encoding="utf-8")
    out = tmp_path / "player.svg"
    run = subprocess.run(
        [
            sys.executable,
            "-c",
            CODE,
            "chart",
            str(many),
            "--kind",
            "player",
            "--player",
            "Hou, Yifan",
            "--out",
            str(out),
        ],
        cwd=OUTSIDE,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stderr
    assert "Traceback" not in run.stderr and "MaxRows" not in run.stderr
    svg = out.read_text(encoding="utf-8")
    assert "6,000 games: 2,000 points drawn" in svg


TIME_CONTROLS = ["120+1", "15+0", "180+0", "1800+0", "60+0", "180+0", "-"]


def test_time_control_classes_in_speed_order_with_counts(tmp_path: Path) -> None:
    pytest.importorskip("altair")
    pytest.importorskip("vl_convert")
    games = tmp_path / "tc.pgn"
    games.write_text(
        "\n".join(
            f'[Event "E"]\n[White "a"]\n[Black "b"]\n[TimeControl "{tc}"]\n[Result "1-0"]\n\n1. e4 e5 1-0\n'
            for tc in TIME_CONTROLS
        ),
        encoding="utf-8",
    )
    out = tmp_path / "tc.svg"
    result = run_cli("chart", games, "--kind", "results-time-control", "--out", out)
    assert result.exit_code == 0, result.output
    labels = re.findall(r"(\d+\+\d+|[-?]) \((\d+)\)", out.read_text(encoding="utf-8"))
    seen = list(dict.fromkeys(labels))
    assert [tc for tc, _ in seen][:5] == ["15+0", "60+0", "120+1", "180+0", "1800+0"]
    assert dict(seen)["180+0"] == "2"


def test_the_clock_chart_fades_thin_samples_and_says_so(tmp_path: Path) -> None:
    pytest.importorskip("altair")
    pytest.importorskip("vl_convert")
    from pictures_support import CLOCK_PGN

    games = tmp_path / "clock.pgn"
    games.write_text(CLOCK_PGN, encoding="utf-8")
    out = tmp_path / "clock.svg"
    result = run_cli("chart", games, "--kind", "clock", "--out", out)
    assert result.exit_code == 0, result.output
    svg = out.read_text(encoding="utf-8")
    assert "faded: a mean of fewer than 30 moves" in svg
    assert 'opacity="0.25"' in svg


ENGINE_GAME = """[Event "Engines"]
[White "Engine A"]
[Black "Engine B"]
[Result "1/2-1/2"]

1. e4 {wv=0.40, d=20} e5 {wv=0.10, d=22} 2. Nf3 {wv=0.45, d=21} Nc6 {wv=0.12, d=23}
3. Bb5 {wv=0.50, d=22} a6 {wv=0.15, d=24} 1/2-1/2
"""


def test_the_eval_chart_of_an_engine_game_draws_one_series_per_engine(tmp_path: Path) -> None:
    pytest.importorskip("altair")
    pytest.importorskip("vl_convert")
    games = tmp_path / "engines.pgn"
    games.write_text(ENGINE_GAME, encoding="utf-8")
    out = tmp_path / "eval.svg"
    result = run_cli("chart", games, "--kind", "eval", "--out", out)
    assert result.exit_code == 0, result.output
    svg = out.read_text(encoding="utf-8")
    assert "one series per engine" in svg
    root = parse(svg)
    lines = [e for e in root.iter() if "eval_lines_marks" in (e.get("class") or "")]
    assert lines and sum(1 for group in lines for e in group.iter() if e.tag.endswith("path")) == 2
