"""`notation import` / `stats` / `standings` / `ledger` on hostile datasets and inputs: values
out of range, folders that are not ours, a busy dataset, damaged parts, missing inputs."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from notation.cli.main import app
from notation.tables.dataset import MARKER, committed_parts
from notation.tables.frames import scan

runner = CliRunner()

GAME = """[Event "Club"]
[Site "?"]
[Date "2024.01.0{n}"]
[Round "{n}"]
[White "W{n}"]
[Black "B{n}"]
[Result "1-0"]
{tags}
1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0
"""

BAD_TAGS = [
    '[SetUp "1"]\n[FEN "4k3/8/8/8/8/8/8/4K3 w - - 0 2147483648"]\n',
    '[WhiteElo "99999999999999999999"]\n',
    '[TimeControl "99999999999+5"]\n',
]


def _pgn(tmp_path: Path) -> Path:
    """Good games around three bad ones (a huge FEN move number, Elo, time control)."""
    games = [GAME.format(n=1, tags="")]
    for i, tags in enumerate(BAD_TAGS, 2):
        moves_from_fen = "FEN" in tags
        text = GAME.format(n=i, tags=tags)
        if moves_from_fen:
            text = text.replace("1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0", "2147483648. Kd2 Kd7 *").replace(
                '[Result "1-0"]', '[Result "*"]'
            )
        games.append(text)
    games.append(GAME.format(n=6, tags=""))
    path = tmp_path / "mixed.pgn"
    path.write_text("\n".join(games), encoding="utf-8")
    return path


def test_values_out_of_range_are_warnings_and_every_game_is_written(tmp_path: Path) -> None:
    out = tmp_path / "ds"
    result = runner.invoke(app, ["import", str(_pgn(tmp_path)), "--out", str(out), "-q"])
    assert result.exit_code == 0, result.output  # before: exit 2, nothing written
    assert "imported 5 games" in result.output
    assert "values out of range 3" in result.output
    warnings = [line for line in result.output.splitlines() if "table.value-out-of-range" in line]
    assert len(warnings) == 3
    assert "mixed.pgn:" in warnings[0] and "game 2:" in warnings[0] and "'2147483648'" in warnings[0]
    assert "WhiteElo '99999999999999999999'" in warnings[1]
    assert "TimeControl '99999999999+5'" in warnings[2]
    games = scan(out)[0].collect()
    assert games["white"].to_list() == ["W1", "W2", "W3", "W4", "W6"]


def test_missing_input_creates_nothing(tmp_path: Path) -> None:
    out = tmp_path / "X"
    result = runner.invoke(app, ["import", str(tmp_path / "missing.pgn"), "--out", str(out)])
    assert result.exit_code == 2
    assert "pgn.io" in result.output and "imported" not in result.output
    assert not out.exists()
    good = _pgn(tmp_path)
    result = runner.invoke(app, ["import", str(good), str(tmp_path / "missing.pgn"), "--out", str(out)])
    assert result.exit_code == 2 and not out.exists()  # a usage error: nothing is imported


def test_folder_that_is_not_a_dataset_is_refused(tmp_path: Path) -> None:
    out = tmp_path / "lake"
    (out / "moves").mkdir(parents=True)
    (out / "moves" / "part-00000-spark.parquet").write_bytes(b"spark")
    (out / ".tmp-notes").write_text("notes")
    result = runner.invoke(app, ["import", str(_pgn(tmp_path)), "--out", str(out)])
    assert result.exit_code == 2
    assert "not a notation dataset" in result.output
    assert (out / "moves" / "part-00000-spark.parquet").read_bytes() == b"spark"
    assert (out / ".tmp-notes").read_text() == "notes"
    assert not (out / "games").exists() and not (out / MARKER).exists()


def test_import_keeps_files_it_did_not_write(tmp_path: Path) -> None:
    out = tmp_path / "ds"
    src = _pgn(tmp_path)
    assert runner.invoke(app, ["import", str(src), "--out", str(out), "-q"]).exit_code == 0
    (out / "moves" / "part-00000-spark.parquet").write_bytes(b"spark")
    (out / ".tmp-notes").write_text("notes")
    (out / "games" / ".tmp-notes").write_text("notes")
    assert runner.invoke(app, ["import", str(src), "--out", str(out), "-q"]).exit_code == 0
    assert (out / "moves" / "part-00000-spark.parquet").exists()
    assert (out / ".tmp-notes").exists() and (out / "games" / ".tmp-notes").exists()


_SLOW_IMPORT = (
    "import sys, time\n"
    "from notation.tables import dataset\n"
    "real = dataset._write_parquet\n"
    "def slow(*args):\n"
    "    time.sleep(0.3)\n"
    "    real(*args)\n"
    "dataset._write_parquet = slow\n"
    "dataset.import_files([sys.argv[1]], sys.argv[2], chunk_games=10)\n"
)


def test_second_import_waits_or_gives_up_with_exit_2(tmp_path: Path) -> None:
    """Two real processes: a slow import holds the dataset; the CLI with --lock-timeout 0 exits
    2 at once, without it waits and then adds nothing twice."""
    from conftest import OUTSIDE

    src = tmp_path / "many.pgn"
    src.write_text("\n".join(GAME.format(n=n % 9 + 1, tags=f'[Annotator "{n}"]\n') for n in range(120)))
    out = tmp_path / "ds"
    first = subprocess.Popen([sys.executable, "-c", _SLOW_IMPORT, str(src), str(out)], cwd=OUTSIDE)
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and not committed_parts(out)[0]:
            time.sleep(0.02)
        cli = [sys.executable, "-m", "notation.cli.main", "import", str(src), "--out", str(out), "-q"]
        busy = subprocess.run([*cli, "--lock-timeout", "0"], cwd=OUTSIDE, capture_output=True, text=True, timeout=60)
        assert first.poll() is None, "the first import ended before the second started"
        assert busy.returncode == 2
        assert "another import is writing this dataset" in busy.stderr and "Traceback" not in busy.stderr
        waited = subprocess.run(cli, cwd=OUTSIDE, capture_output=True, text=True, timeout=120)
    finally:
        first.wait(timeout=120)
    assert first.returncode == 0
    assert waited.returncode == 0, waited.stderr
    assert "waiting for another import" in waited.stderr
    assert "imported 0 games" in waited.stdout and "duplicates skipped 120" in waited.stdout
    games = scan(out)[0].collect()
    assert games.height == 120 and games["game_id"].n_unique() == 120


@pytest.mark.parametrize("command", ["stats", "standings", "ledger"])
@pytest.mark.parametrize("how", ["truncated", "pages"])
def test_damaged_part_is_named_exit_2(tmp_path: Path, command: str, how: str) -> None:
    out = tmp_path / "ds"
    src = tmp_path / "club.pgn"
    src.write_text("\n".join(GAME.format(n=n, tags="") for n in range(1, 9)))
    assert runner.invoke(app, ["import", str(src), "--out", str(out), "-q", "--chunk-games", "3"]).exit_code == 0
    part = committed_parts(out)[0][1]
    data = part.read_bytes()
    if how == "truncated":
        part.write_bytes(data[: len(data) // 2])
    else:  # footer intact: the damage shows when the query runs
        part.write_bytes(data[:200] + bytes(b ^ 0xFF for b in data[200:1200]) + data[1200:])
    result = runner.invoke(app, [command, str(out)])
    assert result.exit_code == 2, result.output
    assert "dataset.bad-part" in result.output and str(part) in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
