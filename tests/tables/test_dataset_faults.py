"""Hostile input to the dataset: values out of range, foreign folders, concurrent imports,
damaged parts, missing inputs. Each case failed (or lost data) before its fix."""

from __future__ import annotations

import io
import subprocess
import sys
import time
from pathlib import Path

import polars as pl
import pytest

from notation.tables import dataset
from notation.tables.dataset import (
    LOCK_NAME,
    MARKER,
    DatasetBusy,
    DatasetError,
    NotADataset,
    check_parts,
    committed_parts,
    dataset_lock,
    import_files,
)
from notation.tables.frames import scan, to_frames

GOOD = """[Event "Good"]
[Site "?"]
[Date "2024.01.01"]
[Round "{n}"]
[White "W{n}"]
[Black "B{n}"]
[Result "1-0"]

1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0
"""

BAD = """[Event "Bad"]
[Site "?"]
[Date "2024.01.01"]
[Round "2"]
[White "X"]
[Black "Y"]
[Result "*"]
{tags}
{moves} *
"""

#: name -> (extra tags, movetext, [(column, ply)] expected to be reported and null)
BAD_VALUES: dict[str, tuple[str, str, list[tuple[str, int | None]]]] = {
    "fullmove": (
        '[SetUp "1"]\n[FEN "4k3/8/8/8/8/8/8/4K3 w - - 0 2147483648"]\n',
        "2147483648. Kd2 Kd7",
        [("move_number", None)],
    ),
    "fullmove-huge": (
        '[SetUp "1"]\n[FEN "4k3/8/8/8/8/8/8/4K3 w - - 0 99999999999999999999999"]\n',
        "1. Kd2 Kd7",
        [("move_number", None)],
    ),
    "fullmove-edge": (
        '[SetUp "1"]\n[FEN "4k3/8/8/8/8/8/8/4K3 w - - 0 2147483647"]\n',
        "2147483647. Kd2 Kd7 Ke3",
        [("move_number", 3)],
    ),
    "elo": (
        '[WhiteElo "99999999999999999999"]\n[BlackElo "40000"]\n',
        "1. e4 e5",
        [("white_elo", None), ("black_elo", None)],
    ),
    "clock": ("", "1. e4 e5 {[%clk " + "9" * 400 + ":00:00]}", [("clock_seconds", 2)]),
    "eval-mate": ("", "1. e4 {[%eval #-99999999999]} e5 {[%eval #99999]}", [("eval_mate", 1), ("eval_mate", 2)]),
    "eval-cp": ("", "1. e4 {[%eval 99999999999.5]} e5", [("eval_cp", 1)]),
    "nag": ("", "1. e4 $256 e5 $99999999999", [("nags", 1), ("nags", 2)]),
    "time-control": (
        '[TimeControl "99999999999999999999+99999"]\n',
        "1. e4",
        [("base_seconds", None), ("increment_seconds", None)],
    ),
    "unicode-digits": (
        '[WhiteElo "\u0663\u0663"]\n',
        "1. e4 {[%clk \u0663:00:00]} e5 {[%eval \u0663]}",
        [("white_elo", None), ("clock_seconds", 1), ("eval_cp", 2)],
    ),
    "utc-time": ('[UTCDate "2024.01.01"]\n[UTCTime "25:61:00"]\n', "1. e4", [("utc_datetime", None)]),
    "move-time": (
        "",
        "1. e4 {mt=99999999999999999999,} e5 {[%emt " + "9" * 400 + ":00:00]}",
        [("move_time_ms", 1), ("move_time_ms", 2)],
    ),
    "depth": ("", "1. e4 {d=32768, mt=5,} e5 {[%eval 0.1,99999999999]}", [("depth", 1), ("depth", 2)]),
}


def _mixed(tmp_path: Path, name: str) -> Path:
    tags, moves, _ = BAD_VALUES[name]
    path = tmp_path / f"{name}.pgn"
    text = "\n".join([GOOD.format(n=1), BAD.format(tags=tags, moves=moves), GOOD.format(n=3)])
    path.write_text(text, encoding="utf-8")
    return path


@pytest.fixture(params=["core", "python"])
def engine(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Both row paths: through the compiled core where it takes a game, and Python only."""
    if request.param == "python":
        monkeypatch.setenv("NOTATION_CORE", "python")
    return str(request.param)


@pytest.mark.parametrize("name", sorted(BAD_VALUES))
def test_value_out_of_range_is_null_and_reported_the_batch_is_written(tmp_path: Path, name: str, engine: str) -> None:
    src = _mixed(tmp_path, name)
    out = tmp_path / "ds"
    summary = import_files([src], out)
    assert summary.diagnostics == []
    assert summary.games_imported == 3  # the bad game's row is present, with nulls
    games = scan(out)[0].collect()
    moves = scan(out)[1].collect()
    assert games["white"].to_list() == ["W1", "X", "W3"]
    bad_id = games.filter(pl.col("white") == "X")["game_id"].item()
    bad_moves = moves.filter(pl.col("game_id") == bad_id)
    expected = BAD_VALUES[name][2]
    assert [(d.code, d.severity) for d in summary.warnings] == [("table.value-out-of-range", "warning")] * len(expected)
    for diag, (column, ply) in zip(summary.warnings, expected):
        assert (diag.file, diag.game, diag.line, diag.ply) == (str(src), 2, 11, ply)
        assert column in diag.message
        if column in games.columns:
            assert games.filter(pl.col("game_id") == bad_id)[column].item() is None
        elif column == "nags":
            assert bad_moves["nags"][ply - 1] is None
        elif ply is None:  # the game's move numbers: all null
            assert bad_moves[column].null_count() == bad_moves.height > 0
        else:
            assert bad_moves[column][ply - 1] is None
    # the good games are whole
    good = moves.filter(pl.col("game_id") != bad_id)
    assert good.height == 14 and good["move_number"].null_count() == 0


def test_edge_values_that_fit_are_kept(tmp_path: Path) -> None:
    src = tmp_path / "edge.pgn"
    tags = '[WhiteElo "32767"]\n[BlackElo "-32768"]\n[TimeControl "2147483647+32767"]\n'
    src.write_text(BAD.format(tags=tags, moves="1. e4 {[%eval #-32768]} $255 e5 {[%eval -21474836.47]}"))
    summary = import_files([src], tmp_path / "ds")
    assert summary.warnings == []
    games, moves = (frame.collect() for frame in scan(tmp_path / "ds"))
    assert games.select("white_elo", "black_elo", "base_seconds", "increment_seconds").row(0) == (
        32767,
        -32768,
        2147483647,
        32767,
    )
    assert moves["eval_mate"][0] == -32768 and moves["nags"][0].to_list() == [255]
    assert moves["eval_cp"][1] == -2147483647


def test_to_frames_never_fails_on_a_value_out_of_range(tmp_path: Path) -> None:
    games, moves = to_frames(_mixed(tmp_path, "fullmove"))
    assert games.height == 3 and moves["move_number"].null_count() == 2


def test_warnings_come_back_from_worker_processes(tmp_path: Path) -> None:
    src = tmp_path / "many.pgn"
    text = [GOOD.format(n=n) for n in range(6)]
    text[4] = BAD.format(tags='[WhiteElo "99999"]\n', moves="1. e4")
    src.write_text("\n".join(text))
    summary = import_files([src], tmp_path / "ds", executor=dataset.run_processes(2), chunk_games=2)
    assert [(d.game, d.code) for d in summary.warnings] == [(5, "table.value-out-of-range")]
    assert summary.to_dict()["values_out_of_range"] == 1


def test_warnings_come_back_from_dask_workers(tmp_path: Path) -> None:
    pytest.importorskip("distributed")
    from notation.tables.distributed import dask_executor

    src = _mixed(tmp_path, "eval-mate")
    executor = dask_executor(workers=1, processes=False)
    summary = import_files([src], tmp_path / "ds", executor=executor)
    assert [d.ply for d in summary.warnings] == [1, 2]


# ------------------------------------------------------------------ folders we did not write
def _write(tmp_path: Path) -> Path:
    src = tmp_path / "games.pgn"
    src.write_text("\n".join(GOOD.format(n=n) for n in range(3)))
    return src


def test_foreign_folder_is_refused_and_untouched(tmp_path: Path) -> None:
    out = tmp_path / "spark"
    (out / "moves").mkdir(parents=True)
    foreign = out / "moves" / "part-00000-spark.parquet"
    foreign.write_bytes(b"not ours")
    notes = out / ".tmp-notes"
    notes.write_text("mine")
    with pytest.raises(NotADataset, match="not a notation dataset"):
        import_files([_write(tmp_path)], out)
    assert sorted(p.relative_to(out).as_posix() for p in out.rglob("*")) == [
        ".tmp-notes",
        "moves",
        "moves/part-00000-spark.parquet",
    ]


def test_clean_up_removes_only_our_own_files(tmp_path: Path) -> None:
    src = _write(tmp_path)
    out = tmp_path / "ds"
    import_files([src], out)
    assert (out / MARKER).is_file()
    keep = [
        out / ".tmp-notes",
        out / "games" / ".tmp-notes",
        out / "moves" / "part-00000-spark.parquet",
        out / "moves" / ".tmp-draft.parquet",
    ]
    for path in keep:
        path.write_text("user data")
    ours = out / "games" / ".tmp-0123456789ab-part-0007-000000-00000000000000ff.parquet"
    ours.write_bytes(b"PAR1")
    orphan = out / "moves" / "part-0009-000000-00000000000000ff.parquet"
    orphan.write_bytes(b"PAR1")
    assert dataset.clean(out) == 2
    assert not ours.exists() and not orphan.exists()
    assert all(path.read_text() == "user data" for path in keep)
    import_files([src], out)  # its start-up clean-up too
    assert all(path.exists() for path in keep)


def test_empty_folder_is_adopted_and_marked(tmp_path: Path) -> None:
    out = tmp_path / "empty"
    out.mkdir()
    summary = import_files([_write(tmp_path)], out)
    assert summary.games_imported == 3 and (out / MARKER).is_file()


def test_dataset_written_before_the_marker_is_adopted(tmp_path: Path) -> None:
    src = _write(tmp_path)
    out = tmp_path / "old"
    import_files([src], out)
    (out / MARKER).unlink()
    (out / LOCK_NAME).unlink(missing_ok=True)
    again = import_files([src], out)
    assert again.duplicates == 3 and (out / MARKER).is_file()


def test_a_file_as_output_is_refused(tmp_path: Path) -> None:
    out = tmp_path / "file.txt"
    out.write_text("x")
    with pytest.raises(NotADataset):
        import_files([_write(tmp_path)], out)
    assert out.read_text() == "x"


def test_missing_inputs_create_nothing(tmp_path: Path) -> None:
    out = tmp_path / "X"
    summary = import_files([tmp_path / "missing.pgn"], out)
    assert [d.code for d in summary.diagnostics] == ["pgn.io"]
    assert not out.exists()
    empty = tmp_path / "no-pgn"
    empty.mkdir()
    import_files([empty], out)
    assert not out.exists()


# ------------------------------------------------------------------------------ the lock
_SLOW_IMPORT = (
    "import sys, time\n"
    "from notation.tables import dataset\n"
    "real = dataset._write_parquet\n"
    "def slow(*args):\n"
    "    time.sleep(0.2)\n"
    "    real(*args)\n"
    "dataset._write_parquet = slow\n"
    "s = dataset.import_files([sys.argv[1]], sys.argv[2], chunk_games=10)\n"
    "print(s.games_imported, s.duplicates)\n"
)


def _many(tmp_path: Path, count: int = 80) -> Path:
    src = tmp_path / "many.pgn"
    src.write_text("\n".join(GOOD.format(n=n) for n in range(count)))
    return src


def _start_slow(src: Path, out: Path) -> subprocess.Popen[str]:
    """A real process importing ``src`` slowly (0.2 s per part); returns once it holds the lock."""
    from conftest import OUTSIDE

    proc = subprocess.Popen(
        [sys.executable, "-c", _SLOW_IMPORT, str(src), str(out)], cwd=OUTSIDE, stdout=subprocess.PIPE, text=True
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and not committed_parts(out)[0]:
        time.sleep(0.02)
    assert committed_parts(out)[0], "the first import wrote nothing"
    return proc


def test_two_concurrent_imports_leave_no_duplicates(tmp_path: Path) -> None:
    """Two real processes import the same file into one dataset at the same time: the second
    waits for the first, then skips every game (before: both wrote every game)."""
    from conftest import OUTSIDE

    src, out = _many(tmp_path), tmp_path / "ds"
    first = _start_slow(src, out)
    second = subprocess.Popen(
        [sys.executable, "-c", _SLOW_IMPORT, str(src), str(out)], cwd=OUTSIDE, stdout=subprocess.PIPE, text=True
    )
    outputs = [proc.communicate(timeout=120)[0].split() for proc in (first, second)]
    assert [proc.returncode for proc in (first, second)] == [0, 0]
    assert outputs == [["80", "0"], ["0", "80"]]
    games = scan(out)[0].collect()
    assert games.height == 80 and games["game_id"].n_unique() == 80
    assert scan(out)[1].collect().height == 80 * 7
    assert not list(out.rglob(".tmp-*"))


def test_a_busy_dataset_with_no_wait_is_refused(tmp_path: Path) -> None:
    src, out = _many(tmp_path), tmp_path / "ds"
    first = _start_slow(src, out)
    try:
        with pytest.raises(DatasetBusy, match="another import"):
            import_files([src], out, lock_timeout=0)
        waited: list[bool] = []
        with pytest.raises(DatasetBusy, match="waited"):
            import_files([src], out, lock_timeout=0.2, on_wait=lambda: waited.append(True))
        assert waited == [True]
    finally:
        first.communicate(timeout=120)
    assert scan(out)[0].collect().height == 80  # nothing of the refused imports, nothing lost


def test_lock_is_exclusive_within_a_process(tmp_path: Path) -> None:
    with dataset_lock(tmp_path):
        with pytest.raises(DatasetBusy):
            with dataset_lock(tmp_path, timeout=0):
                pass  # pragma: no cover


# ---------------------------------------------------------------------------- damaged parts
def _damage(part: Path, how: str) -> None:
    data = part.read_bytes()
    if how == "truncated":
        part.write_bytes(data[: len(data) // 2])
    elif how == "empty":
        part.write_bytes(b"")
    else:  # the data pages, footer intact
        part.write_bytes(data[:200] + bytes(b ^ 0xFF for b in data[200:1200]) + data[1200:])


@pytest.mark.parametrize("how", ["truncated", "empty", "pages"])
def test_damaged_part_is_named(tmp_path: Path, how: str) -> None:
    out = tmp_path / "ds"
    import_files([_many(tmp_path, 12)], out, chunk_games=5)
    part = committed_parts(out)[0][1]
    _damage(part, how)
    found = check_parts(out, full=True)
    assert [(d.code, d.file) for d in found] == [("dataset.bad-part", str(part))]
    if how != "pages":
        assert [d.file for d in check_parts(out)] == [str(part)]  # the footer check suffices
        with pytest.raises(DatasetError, match=part.name):  # an import cannot know its ids
            import_files([_many(tmp_path, 12)], out)


def test_part_of_another_table_is_named(tmp_path: Path) -> None:
    out = tmp_path / "ds"
    import_files([_many(tmp_path, 3)], out)
    part = committed_parts(out)[0][0]
    pl.DataFrame({"game_id": [1]}).write_parquet(part)
    assert "no column 'source_file'" in check_parts(out)[0].message


def test_a_dataset_written_before_the_computed_opening_columns_still_reads(tmp_path: Path) -> None:
    import polars as pl

    from notation.tables.dataset import check_parts
    from notation.tables.frames import scan, to_frames
    from conftest import SAMPLE_GAMES

    games, _ = to_frames(SAMPLE_GAMES / "round_robin.pgn", moves=False)
    (tmp_path / "games").mkdir()
    games.drop("eco_computed", "opening_computed").write_parquet(tmp_path / "games" / "part-00000.parquet")
    assert check_parts(tmp_path) == []
    lazy, _ = scan(tmp_path)
    frame = lazy.collect()
    assert frame.height == 15 and frame["eco_computed"].null_count() == 15
    assert isinstance(frame.schema["eco_computed"], pl.Categorical)


def test_a_dataset_written_before_the_move_time_and_depth_columns_still_reads(tmp_path: Path) -> None:
    games, moves = to_frames(io.StringIO(GOOD.format(n=1)))
    for sub, frame in (("games", games), ("moves", moves.drop("move_time_ms", "depth"))):
        (tmp_path / sub).mkdir()
        frame.write_parquet(tmp_path / sub / "part-00000.parquet")
    assert check_parts(tmp_path) == [] and check_parts(tmp_path, full=True) == []
    old = scan(tmp_path)[1].collect()
    assert old.height == 7 and old["move_time_ms"].null_count() == 7 and old["depth"].null_count() == 7
    assert old.schema == moves.schema
    assert old.drop("move_time_ms", "depth").equals(moves.drop("move_time_ms", "depth"))
