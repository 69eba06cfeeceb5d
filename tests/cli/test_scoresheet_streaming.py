"""`notation scoresheet` on a PGN input streams: each game's sheet is reported and written before
the rest of the input is read; ``--jobs`` keeps input order; a failure part way leaves no output
file. (Peak memory: tests/cli/test_memory_bounded.py.)"""

from __future__ import annotations

import gzip
import json
import select
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

from conftest import ROOT, SAMPLE_GAMES
from typer.testing import CliRunner

from notation.cli.main import app

CLASSICS = SAMPLE_GAMES / "classics.pgn"


def _game(i: int) -> str:
    return f'[Event "Stream {i}"]\n[White "A"]\n[Black "B"]\n[Result "*"]\n\n1. e4 e5 2. Nf3 Nc6 *\n\n'


def test_the_first_sheet_comes_out_before_the_input_ends() -> None:
    """Games written one at a time into a pipe (the reader looks one block ahead): the first
    game's report comes while the pipe is still open."""
    child = subprocess.Popen(
        [sys.executable, "-m", "notation.cli.main", "scoresheet", "-"],
        cwd=ROOT,
        stdin=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    assert child.stdin is not None and child.stderr is not None
    try:
        seen, written = b"", 0
        deadline = time.monotonic() + 60
        while b"game 1 (line 1)" not in seen and time.monotonic() < deadline and child.poll() is None:
            written += 1
            child.stdin.write(_game(written).encode())
            child.stdin.flush()
            ready, _, _ = select.select([child.stderr], [], [], 0.3)
            if ready:
                seen += child.stderr.read1(65536)  # type: ignore[attr-defined]
        assert b"game 1 (line 1): read as PGN" in seen, seen  # the pipe still open
        child.stdin.close()
        rest = child.stderr.read()
        assert child.wait(timeout=60) == 0
        assert f"game {written} (line {7 * written - 6})".encode() in seen + rest
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()


def test_jobs_keep_the_input_order_and_the_outputs(tmp_path: Path) -> None:
    text = "".join(_game(i) for i in range(1, 13)) + CLASSICS.read_text(encoding="utf-8")
    source = tmp_path / "games.pgn"
    source.write_text(text, encoding="utf-8")
    outputs = {}
    for jobs in ("1", "2"):
        outs = [str(tmp_path / f"j{jobs}{suffix}") for suffix in (".pgn", ".txt", ".html", ".json")]
        result = CliRunner().invoke(
            app, ["scoresheet", str(source), "-q", "--jobs", jobs, *[a for out in outs for a in ("-o", out)]]
        )
        assert result.exit_code == 0, result.output
        outputs[jobs] = [Path(out).read_text(encoding="utf-8") for out in outs]
    assert outputs["1"] == outputs["2"]
    games = json.loads(outputs["1"][3])
    assert [g["game"] for g in games] == list(range(1, 16))
    assert "<title>Scoresheets (15 games)</title>" in outputs["1"][2]


def test_one_game_of_a_pgn_input_is_still_an_array_and_a_single_page(tmp_path: Path) -> None:
    source = tmp_path / "one.pgn"
    source.write_text(_game(1), encoding="utf-8")
    page, data = tmp_path / "one.html", tmp_path / "one.json"
    result = CliRunner().invoke(app, ["scoresheet", str(source), "-q", "-o", str(page), "-o", str(data)])
    assert result.exit_code == 0, result.output
    assert [g["game"] for g in json.loads(data.read_text(encoding="utf-8"))] == [1]
    assert "Scoresheets (" not in page.read_text(encoding="utf-8")


def test_a_truncated_input_ends_with_exit_2_and_no_output(tmp_path: Path) -> None:
    packed = gzip.compress("".join(_game(i) + f"{{game {i}: {'x' * (i % 50)}}}\n\n" for i in range(400)).encode())
    source = tmp_path / "cut.pgn.gz"
    source.write_bytes(packed[: len(packed) // 2])
    out = tmp_path / "out.pgn"
    result = CliRunner().invoke(app, ["scoresheet", str(source), "-q", "-o", str(out)])
    assert result.exit_code == 2, result.output
    assert "truncated" in result.stderr and "Traceback" not in result.output
    assert sorted(p.name for p in tmp_path.iterdir()) == ["cut.pgn.gz"]


def test_a_second_game_for_svg_is_a_usage_error_with_no_file(tmp_path: Path) -> None:
    out = tmp_path / "board.svg"
    result = CliRunner().invoke(app, ["scoresheet", str(CLASSICS), "-q", "-o", str(out)])
    assert result.exit_code == 2 and "pick one with --game N" in result.stderr
    assert list(tmp_path.iterdir()) == []


def test_the_window_of_games_in_flight_is_two_per_worker() -> None:
    """Games are taken from the reader only when there is room: at most 2 per worker ahead of the
    sheet being written (the order kept)."""
    from concurrent.futures import ThreadPoolExecutor

    from notation.parallel import ordered_map

    taken, given = [0], [0]

    def games() -> Iterator[int]:
        for number in range(50):
            taken[0] += 1
            yield number

    with ThreadPoolExecutor(max_workers=3) as pool:
        out = []
        for result in ordered_map(abs, games(), pool, ahead_per_worker=2):
            given[0] += 1
            assert taken[0] - given[0] <= 2 * 3, (taken, given)
            out.append(result)
    assert out == list(range(50))
