"""`filter` and `convert` on inputs that cannot be read to the end, or are no PGN: every game
read whole is written, and the reader's own located diagnostic is printed (exit 2)."""

from __future__ import annotations

import gzip
import random
import re
from pathlib import Path

import pytest
from tables_support import run_cli

from notation.pgn.reader import read_games


def _truncated(tmp_path: Path) -> Path:
    rng = random.Random(7)  # distinct tags, so that gzip cannot squeeze the file into a few bytes
    games = "".join(
        f'[Event "{rng.getrandbits(128):032x}"]\n[Result "*"]\n\n1. e4 e5 2. Nf3 Nc6 *\n\n' for _ in range(400)
    )
    data = gzip.compress(games.encode())
    path = tmp_path / "cut.pgn.gz"
    path.write_bytes(data[: len(data) // 2])
    return path


@pytest.mark.parametrize("command", [["filter"], ["convert", "--to", "pgn"]])
def test_a_truncated_input_keeps_what_was_read_and_says_where_it_stopped(tmp_path: Path, command: list[str]) -> None:
    path = _truncated(tmp_path)
    out = tmp_path / "out.pgn"
    result = run_cli(*command, path, "--out", out)
    assert result.exit_code == 2
    written = list(read_games(out))
    assert 50 < len(written) < 400
    [line] = [line for line in result.stderr.splitlines() if "error[" in line]
    where = re.match(rf"{re.escape(str(path))}:(\d+): error\[pgn\.io\] game (\d+): ", line)
    assert where is not None, line
    assert int(where.group(2)) == len(written) + 1  # the game the cut fell in, not written


@pytest.mark.parametrize("command", [["filter"], ["convert", "--to", "uci"]])
def test_no_pgn_is_one_located_line(tmp_path: Path, command: list[str]) -> None:
    path = tmp_path / "notes.pgn"
    path.write_text("Shopping list\n\nmilk, bread\n", encoding="utf-8")
    result = run_cli(*command, path, "--out", tmp_path / "out.txt")
    assert result.exit_code == 2
    assert result.stderr.splitlines()[0].startswith(f"{path}:1:1: error[pgn.not-pgn] game 1: no PGN structure")
