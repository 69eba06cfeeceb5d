"""The Parquet dataset: layout, atomic parts, de-duplication on re-import, scan."""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest

from notation.tables import dataset
from notation.tables.dataset import WriteOptions, clean, committed_parts, import_files
from notation.tables.frames import scan
from notation.tables.schema import GAMES_SCHEMA, MOVES_SCHEMA

GAME = """[Event "Dataset test"]
[Site "?"]
[Date "2024.05.{day:02d}"]
[Round "{n}"]
[White "W{n}"]
[Black "B{n}"]
[Result "1/2-1/2"]

1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 {n}. Ba4 1/2-1/2
"""


def write_games(path: Path, start: int, count: int) -> Path:
    text = "\n".join(
        GAME.format(n=n, day=1 + n % 28).replace(f"{n}. Ba4", "4. Ba4") for n in range(start, start + count)
    )
    path.write_text(text, encoding="utf-8")
    return path


def test_layout_and_scan(tmp_path: Path) -> None:
    src = write_games(tmp_path / "a.pgn", 1, 7)
    out = tmp_path / "ds"
    summary = import_files([src], out, chunk_games=3)
    assert (summary.files, summary.games_read, summary.games_imported) == (1, 7, 7)
    assert summary.parts == 3 and summary.plies == 7 * 7
    games_parts, moves_parts = committed_parts(out)
    assert len(games_parts) == 3 and [p.name for p in games_parts] == [p.name for p in moves_parts]
    assert all(p.name.startswith("part-0001-") for p in games_parts)
    games, moves = scan(out)
    g, m = games.collect(), moves.collect()
    assert g.schema == GAMES_SCHEMA and m.schema == MOVES_SCHEMA
    assert g["white"].to_list() == [f"W{n}" for n in range(1, 8)]  # import order
    assert m.height == 49
    assert not list(out.rglob(".tmp-*"))


def test_reimport_does_not_duplicate(tmp_path: Path) -> None:
    src = write_games(tmp_path / "a.pgn", 1, 5)
    out = tmp_path / "ds"
    import_files([src], out)
    again = import_files([src], out)
    assert again.games_read == 5 and again.duplicates == 5 and again.games_imported == 0
    assert again.parts == 0
    # an overlapping file adds only its new games, in a second import batch
    more = write_games(tmp_path / "b.pgn", 4, 4)
    third = import_files([more], out)
    assert (third.duplicates, third.games_imported) == (2, 2)
    games, moves = scan(out)
    ids = games.select("game_id").collect()["game_id"]
    assert ids.len() == 7 and ids.n_unique() == 7
    assert moves.select(pl.len()).collect().item() == 7 * 7
    assert any(p.name.startswith("part-0002-") for p in committed_parts(out)[0])


def test_same_game_twice_in_one_import(tmp_path: Path) -> None:
    a = write_games(tmp_path / "a.pgn", 1, 3)
    b = write_games(tmp_path / "b.pgn", 3, 2)  # game 3 again, re-wrapped differently below
    b.write_text(b.read_text().replace("\n1. e4", "\n1.  e4\r\n"), encoding="utf-8")
    summary = import_files([a, b, a], tmp_path / "ds")  # the repeated path counts once
    assert (summary.files, summary.games_read, summary.duplicates) == (2, 5, 1)
    assert summary.games_imported == 4


def test_no_moves(tmp_path: Path) -> None:
    src = write_games(tmp_path / "a.pgn", 1, 3)
    out = tmp_path / "ds"
    summary = import_files([src], out, options=WriteOptions(moves=False))
    assert summary.plies == 0
    assert not (out / "moves").exists()
    games, moves = scan(out)
    assert games.collect().height == 3
    assert moves.collect().height == 0 and moves.collect_schema() == MOVES_SCHEMA


def test_no_position_key(tmp_path: Path) -> None:
    src = write_games(tmp_path / "a.pgn", 1, 3)
    out = tmp_path / "ds"
    import_files([src], out, options=WriteOptions(position_key=False))
    _, moves = scan(out)
    assert moves.collect()["position_key"].null_count() == 21


def test_failure_mid_import_leaves_no_partial_part(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The third chunk's games part fails while being written: the first two chunks are whole
    and visible, nothing of the third is (no temp file, no moves part), and importing again
    completes the dataset."""
    src = write_games(tmp_path / "a.pgn", 1, 9)
    out = tmp_path / "ds"
    real = dataset._write_parquet
    calls = {"n": 0}

    def failing(frame: pl.DataFrame, path: Path, options: WriteOptions) -> None:
        calls["n"] += 1
        if calls["n"] == 6:  # chunk 3: moves written (call 5), games part (call 6) fails midway
            path.write_bytes(b"PAR1 half a file")
            raise OSError("disk full")
        real(frame, path, options)

    monkeypatch.setattr(dataset, "_write_parquet", failing)
    with pytest.raises(OSError, match="disk full"):
        import_files([src], out, chunk_games=3)
    games_parts, moves_parts = committed_parts(out)
    assert len(games_parts) == 2 and len(moves_parts) == 2
    assert not list(out.rglob(".tmp-*"))
    assert sorted(p.name for p in (out / "moves").iterdir()) == [p.name for p in moves_parts]
    games, moves = scan(out)
    assert games.collect().height == 6 and moves.collect().height == 42

    monkeypatch.setattr(dataset, "_write_parquet", real)
    summary = import_files([src], out, chunk_games=3)
    assert (summary.duplicates, summary.games_imported) == (6, 3)
    games, moves = scan(out)
    assert games.collect().height == 9 and moves.collect().height == 63


def test_crash_between_renames_is_invisible_and_cleaned(tmp_path: Path) -> None:
    """A process killed after renaming a moves part but before its games part: scan ignores the
    orphan moves part (and temp files); the next import removes them."""
    src = write_games(tmp_path / "a.pgn", 1, 3)
    out = tmp_path / "ds"
    import_files([src], out)
    orphan = out / "moves" / "part-0009-000000-00000000000000ff.parquet"
    orphan.write_bytes((out / "moves").iterdir().__next__().read_bytes())
    (out / "games" / ".tmp-abc-part-0009-000000-00000000000000ff.parquet").write_bytes(b"PAR1")
    games, moves = scan(out)
    assert games.collect().height == 3 and moves.collect().height == 21
    assert clean(out) == 2
    assert not orphan.exists()


def test_missing_input_is_reported(tmp_path: Path) -> None:
    src = write_games(tmp_path / "a.pgn", 1, 2)
    summary = import_files([src, tmp_path / "nope.pgn"], tmp_path / "ds")
    assert summary.games_imported == 2
    assert [d.code for d in summary.diagnostics] == ["pgn.io"]


def test_directory_input(tmp_path: Path) -> None:
    folder = tmp_path / "in"
    folder.mkdir()
    write_games(folder / "b.pgn", 1, 2)
    write_games(folder / "a.pgn", 10, 2)
    (folder / "notes.txt").write_text("not a pgn")
    summary = import_files([folder], tmp_path / "ds")
    assert summary.files == 2 and summary.games_imported == 4
    games, _ = scan(tmp_path / "ds")
    assert games.collect()["source_file"].cast(pl.String).to_list() == ["a.pgn", "a.pgn", "b.pgn", "b.pgn"]


def test_unreadable_file_is_reported(tmp_path: Path) -> None:
    import gzip

    good = write_games(tmp_path / "a.pgn", 1, 2)
    bad = tmp_path / "b.pgn.gz"
    bad.write_bytes(gzip.compress(good.read_bytes())[:-30])  # truncated gzip stream
    summary = import_files([good, bad], tmp_path / "ds")
    assert summary.games_imported >= 2
    assert "pgn.io" in [d.code for d in summary.diagnostics]


def test_killed_import_leaves_whole_parts_and_resumes(tmp_path: Path) -> None:
    """SIGKILL an import in mid-flight: every visible part reads back whole and consistent
    (games and moves agree), and running the import again completes the dataset exactly."""
    import signal
    import subprocess
    import sys
    import time

    from conftest import OUTSIDE, corpus_path

    src = corpus_path("games", "classic", "tatamast22.pgn")  # 91 games
    out = tmp_path / "ds"
    code = (
        "import sys; from notation.tables.dataset import import_files; "
        "import_files([sys.argv[1]], sys.argv[2], chunk_games=5)"
    )
    proc = subprocess.Popen([sys.executable, "-c", code, str(src), str(out)], cwd=OUTSIDE)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and proc.poll() is None:
        if len(committed_parts(out)[0]) >= 2:
            break
        time.sleep(0.05)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    games_parts, moves_parts = committed_parts(out)
    assert games_parts, "the import was killed before writing any part"
    for part in games_parts:  # every visible part is a whole Parquet file
        pl.read_parquet(part)
    games, moves = scan(out)
    g = games.collect()
    m = moves.collect()
    assert g["game_id"].n_unique() == g.height
    assert set(m["game_id"].unique()) <= set(g["game_id"])
    assert m.height == g["plies"].sum()
    summary = import_files([src], out, chunk_games=5)
    assert summary.duplicates == g.height
    games, moves = scan(out)
    assert games.collect().height == 91
    assert not list(out.rglob(".tmp-*"))
