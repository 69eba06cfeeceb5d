"""Every command that writes a file, pointed at a full disk, a folder or a library failure:
exit code 2, a message naming the path and the reason, no traceback, nothing half-written.

``/dev/full`` stands for a full disk (every write fails with ENOSPC); ``test_full_disk.py`` runs
every writing command onto a real full file system (a tmpfs mounted for the test). A Parquet writer failing in its own
terms ("Invalid thrift: transport error", as Polars reports a full disk mid-file) is simulated
by replacing ``polars.DataFrame.write_parquet``.
"""

from __future__ import annotations

import os
from pathlib import Path

import polars as pl
import pytest
from conftest import SAMPLE_GAMES
from typer.testing import CliRunner

from notation.cli.atomic import atomic_path, write_text_atomic
from notation.cli.main import app

ROUND_ROBIN = str(SAMPLE_GAMES / "round_robin.pgn")
FULL_DISK = Path("/dev/full")

WRITERS: dict[str, list[str]] = {
    "stats-parquet": ["stats", ROUND_ROBIN, "--by", "player", "--format", "parquet", "--out"],
    "stats-csv": ["stats", ROUND_ROBIN, "--by", "player", "--format", "csv", "--out"],
    "stats-json": ["stats", ROUND_ROBIN, "--format", "json", "--out"],
    "convert": ["convert", ROUND_ROBIN, "--out"],
    "filter": ["filter", ROUND_ROBIN, "--out"],
    "board": ["board", "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1", "--out"],
}


def _run(args: list[str]) -> tuple[int, str]:
    result = CliRunner().invoke(app, args)
    assert not isinstance(result.exception, Exception) or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.output


@pytest.mark.skipif(not FULL_DISK.exists(), reason="no /dev/full on this system")
@pytest.mark.parametrize("name", sorted(set(WRITERS) - {"board"}))  # board wants .svg or .png
def test_full_disk_is_exit_2_naming_the_path_and_the_reason(name: str) -> None:
    code, output = _run([*WRITERS[name], str(FULL_DISK)])
    assert code == 2, output
    assert str(FULL_DISK) in output
    assert "No space left on device" in output
    assert "Traceback" not in output
    assert FULL_DISK.exists() and not FULL_DISK.is_file()  # the device is still the device


@pytest.mark.parametrize("name", ["stats-json", "convert", "filter", "board"])
def test_folder_target_is_exit_2_and_the_folder_untouched(name: str, tmp_path: Path) -> None:
    folder = tmp_path / {"stats-json": "out.json", "board": "out.svg"}.get(name, "out.pgn")
    folder.mkdir()
    code, output = _run([*WRITERS[name], str(folder)])
    assert code == 2, output
    assert str(folder) in output
    assert "Traceback" not in output
    assert list(folder.iterdir()) == [] and list(tmp_path.iterdir()) == [folder]


def _parquet_fails(monkeypatch: pytest.MonkeyPatch, message: str) -> None:
    """Polars' Parquet writer writes half a file, then fails with ``message``."""

    def failing(self: pl.DataFrame, file: object, *args: object, **kwargs: object) -> None:
        Path(str(file)).write_bytes(b"PAR1 half")
        raise pl.exceptions.ComputeError(message)

    monkeypatch.setattr(pl.DataFrame, "write_parquet", failing)


def test_parquet_library_failure_is_exit_2_and_leaves_no_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _parquet_fails(monkeypatch, "parquet: Invalid thrift: transport error")
    out = tmp_path / "players.parquet"
    code, output = _run(["stats", ROUND_ROBIN, "--by", "player", "--format", "parquet", "--out", str(out)])
    assert code == 2, output
    assert str(out) in output and "Invalid thrift" in output
    assert list(tmp_path.iterdir()) == []


def test_special_target_is_written_in_place_not_replaced() -> None:
    write_text_atomic(os.devnull, "games\n")
    assert Path(os.devnull).exists() and not Path(os.devnull).is_file()


def test_enospc_in_the_lowest_write_leaves_the_old_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "table.csv"
    target.write_text("old\n", encoding="utf-8")

    def no_space(self: Path, *args: object, **kwargs: object) -> int:
        raise OSError(28, os.strerror(28), str(self))

    monkeypatch.setattr(Path, "write_text", no_space)
    with pytest.raises(OSError) as caught:
        write_text_atomic(target, "new\n")
    assert caught.value.errno == 28 and caught.value.filename == str(target)
    assert target.read_text(encoding="utf-8") == "old\n"
    assert [p.name for p in tmp_path.iterdir()] == ["table.csv"]


def test_a_library_error_in_the_block_becomes_an_os_error_naming_the_path(tmp_path: Path) -> None:
    target = tmp_path / "x.bin"
    with pytest.raises(OSError) as caught, atomic_path(target):
        raise TypeError("Object does not have a .write() method")
    assert caught.value.filename == str(target)
    assert list(tmp_path.iterdir()) == []


def _no_space(self: Path, *args: object, **kwargs: object) -> int:
    raise OSError(28, os.strerror(28), str(self))


def test_import_on_a_full_disk_is_exit_2_and_leaves_no_part(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _parquet_fails(monkeypatch, "parquet: underlying IO error: No space left on device (os error 28)")
    out = tmp_path / "games.dataset"
    code, output = _run(["import", ROUND_ROBIN, "--out", str(out), "--jobs", "1", "--quiet"])
    assert code == 2, output
    assert "No space left on device" in output and str(out) in output
    assert "Traceback" not in output
    assert not [p for p in out.rglob("*") if p.is_file() and p.suffix == ".parquet"]
    assert not [p for p in out.rglob("*") if p.name.startswith(".tmp") or "tmp" in p.name]


@pytest.mark.parametrize(
    ("args", "suffix", "lowest"),
    [
        (["board", "8/8/8/4k3/8/8/8/4K3 w - - 0 1", "--out"], ".svg", "write_text"),
    ],
    ids=["board-svg"],
)
def test_full_disk_in_the_lowest_write_is_exit_2_and_leaves_nothing(
    args: list[str], suffix: str, lowest: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(Path, lowest, _no_space)
    out = tmp_path / f"out{suffix}"
    code, output = _run([*args, str(out)])
    assert code == 2, output
    assert "No space left on device" in output and str(out) in output
    assert ".tmp" not in output  # the target is named, not the temporary file
    assert "Traceback" not in output
    assert list(tmp_path.iterdir()) == []


class _FullFile:
    """A file open for writing on a full disk: every write fails."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        pass

    def write(self, text: str) -> int:
        raise OSError(28, os.strerror(28))

    def flush(self) -> None:
        pass

    def close(self) -> None:
        pass

    def __enter__(self) -> _FullFile:
        return self

    def __exit__(self, *exc: object) -> None:
        pass


@pytest.mark.parametrize("suffix", [".html", ".pgn", ".json", ".txt"])
@pytest.mark.parametrize("source", ["sheets/club-game-german.txt", "classics.pgn"], ids=["sheet", "pgn"])
def test_scoresheet_on_a_full_disk_is_exit_2_and_leaves_nothing(
    source: str, suffix: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The sheets are written as they are read, into the temporary file (its lowest write)."""
    import notation.cli.scoresheet_cmd as command

    monkeypatch.setattr(command, "open", _FullFile, raising=False)
    out = tmp_path / f"out{suffix}"
    code, output = _run(["scoresheet", str(SAMPLE_GAMES / source), "-q", "--out", str(out)])
    assert code == 2, output
    assert "No space left on device" in output and str(out) in output
    assert ".tmp" not in output and "Traceback" not in output
    assert list(tmp_path.iterdir()) == []
