"""Inputs that cannot be read (to the end), through every command that reads PGN: ``validate``,
``import``, ``stats``, ``standings`` and ``ledger``.

Each exits 2 with a located ``pgn.io`` diagnostic (the file, and the game and line where
reading stopped), after doing its work on every game read whole before the failure: a
truncated ``.gz``, a ``.gz`` that is not gzip next to a good file, a folder whose subfolder
(or one file) cannot be read. Before, ``stats``, ``standings`` and ``ledger`` exited 0 with a
phantom unfinished game, and unreadable subfolders were skipped without a word.
"""

from __future__ import annotations

import gzip
import json
import re
import zlib
from pathlib import Path
from typing import Any

import polars as pl
import pytest
from typer.testing import CliRunner

from conftest import SAMPLE_GAMES
from faults_support import deny_folder, make_games, pgn_tree
from notation.cli.main import app
from notation.pgn import sources

COMMANDS = ("validate", "import", "stats", "standings", "ledger")


def run(command: str, *paths: Path, out: Path | None = None) -> tuple[int, str, str, int]:
    """Run ``command`` on ``paths``: exit code, stdout, stderr and the number of games it worked
    on (read from its own output)."""
    args: list[str] = [command, *map(str, paths)]
    if command == "stats":
        args += ["--by", "result", "--format", "csv"]
    elif command == "standings":
        args += ["--format", "csv"]
    elif command == "ledger":
        args += ["--history", "--format", "csv"]
    elif command == "import":
        assert out is not None
        args += ["--out", str(out), "--quiet"]
    result = CliRunner().invoke(app, args)
    text = result.stdout
    if command == "validate":
        games = int(re.search(r"games read: (\d+)", text).group(1))  # type: ignore[union-attr]
    elif command == "stats":
        games = int(text.splitlines()[1].split(",")[0]) if text else 0
    elif command == "standings":
        frame = pl.read_csv(text.encode()) if text else None
        games = int(frame["games"].sum()) // 2 if frame is not None else 0
    elif command == "ledger":
        games = len(text.splitlines()) - 1 if text else 0
    else:
        from notation.tables.frames import scan

        games = scan(out)[0].collect().height if out is not None and (out / "games").exists() else 0
    return result.exit_code, text, result.stderr, games


def io_lines(code: int, stdout: str, stderr: str) -> list[str]:
    return [line for line in (stdout + "\n" + stderr).splitlines() if "error[pgn.io]" in line]


# --- a truncated .gz ------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def truncated(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, int, int, int]:
    """A .gz cut in the middle: (path, games whole in the readable prefix, the cut game's number
    and first line)."""
    text = make_games(600).encode()
    compressed = gzip.compress(text)
    cut = compressed[: len(compressed) // 2]
    prefix = zlib.decompressobj(16 + zlib.MAX_WBITS).decompress(cut)  # what zcat shows
    whole = prefix.count(b"[Event ") - 1  # the last game begun is cut
    line = prefix[: [m.start() for m in re.finditer(rb"\[Event ", prefix)][whole]].count(b"\n") + 1
    path = tmp_path_factory.mktemp("cut") / "cut.pgn.gz"
    path.write_bytes(cut)
    return path, whole, whole + 1, line


@pytest.mark.parametrize("command", COMMANDS)
def test_truncated_gz_exits_2_after_the_whole_games(
    command: str, truncated: tuple[Path, int, int, int], tmp_path: Path
) -> None:
    path, whole, number, line = truncated
    code, stdout, stderr, games = run(command, path, out=tmp_path / "ds")
    assert code == 2, stderr
    assert games == whole > 100  # every game read whole before the failure, no phantom game
    (diag,) = io_lines(code, stdout, stderr)
    assert diag.startswith(f"{path}:{line}: error[pgn.io]")  # the file and line where it stopped
    assert f"game {number}" in diag and "truncated" in diag


# --- a .gz that is not gzip, next to a good file ------------------------------------------------


@pytest.mark.parametrize("command", COMMANDS)
def test_bad_magic_exits_2_and_the_good_file_is_read(command: str, tmp_path: Path) -> None:
    good = tmp_path / "good.pgn"
    good.write_text(make_games(12), encoding="utf-8")
    bad = tmp_path / "bad.pgn.gz"
    bad.write_bytes(b"PK\x03\x04" + bytes(range(256)) * 8)  # a zip archive named .gz
    code, stdout, stderr, games = run(command, good, bad, out=tmp_path / "ds")
    assert code == 2 and games == 12
    (diag,) = io_lines(code, stdout, stderr)
    assert diag.startswith(f"{bad}") and "not gzip data" in diag


@pytest.mark.parametrize("command", COMMANDS)
def test_a_file_that_is_only_a_broken_gzip_exits_2(command: str, tmp_path: Path) -> None:
    bad = tmp_path / "bad.pgn.gz"
    bad.write_bytes(b"\x1f\x8b\x08\x00" + bytes(range(256)))
    code, stdout, stderr, games = run(command, bad, out=tmp_path / "ds")
    assert code == 2 and games == 0
    assert io_lines(code, stdout, stderr)


# --- folders and files that cannot be read --------------------------------------------------------


@pytest.mark.parametrize("command", COMMANDS)
def test_an_unreadable_subfolder_is_reported(command: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """3 of 6 games readable: they are processed, the folder is named, exit 2. (The tests run as
    root, where chmod 000 does not stop reads: listing the folder fails as it would without
    permission; the search itself is the real code.)"""
    root = pgn_tree(tmp_path)
    denied = root / "b"
    deny_folder(monkeypatch, denied)
    code, stdout, stderr, games = run(command, root, out=tmp_path / "ds")
    assert code == 2 and games == 3
    (diag,) = io_lines(code, stdout, stderr)
    assert diag.startswith(str(denied)) and "Permission denied" in diag


@pytest.mark.parametrize("command", COMMANDS)
def test_an_unreadable_file_in_a_folder_is_reported(
    command: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = pgn_tree(tmp_path)
    denied = root / "b" / "two.pgn"

    def fake_open(path: Any, *args: Any, **kwargs: Any) -> Any:
        if Path(path) == denied:
            raise PermissionError(13, "Permission denied", str(path))
        return open(path, *args, **kwargs)

    monkeypatch.setattr(sources, "open", fake_open, raising=False)  # the reader's own open
    code, stdout, stderr, games = run(command, root, out=tmp_path / "ds")
    assert code == 2 and games == 3
    (diag,) = io_lines(code, stdout, stderr)
    assert diag.startswith(str(denied)) and "Permission denied" in diag


# --- line ends and encodings through the commands -------------------------------------------------


@pytest.mark.parametrize("variant", ["cr", "mixed", "utf-16"])
def test_old_mac_line_ends_and_utf16_validate_like_lf(variant: str, tmp_path: Path) -> None:
    text = make_games(5)
    lf = tmp_path / "lf.pgn"
    lf.write_text(text, encoding="utf-8")
    other = tmp_path / "other.pgn"
    if variant == "cr":
        other.write_bytes(text.replace("\n", "\r").encode())
    elif variant == "mixed":
        lines = text.split("\n")
        other.write_bytes("".join(line + ("\r", "\r\n", "\n")[i % 3] for i, line in enumerate(lines[:-1])).encode())
    else:
        other.write_bytes(text.encode("utf-16"))
    reference = CliRunner().invoke(app, ["validate", "--format", "jsonl", str(lf)])
    got = CliRunner().invoke(app, ["validate", "--format", "jsonl", str(other)])
    assert got.exit_code == reference.exit_code == 0

    def rows(stdout: str) -> list[dict[str, Any]]:
        out = [json.loads(line) for line in stdout.splitlines()]
        for row in out:
            row.pop("file")
        return out

    assert rows(got.stdout) == rows(reference.stdout) and len(rows(got.stdout)) == 5
    stats = CliRunner().invoke(app, ["stats", str(other), "--by", "result", "--format", "csv"])
    assert stats.exit_code == 0 and stats.stdout.splitlines()[1].startswith("5,")


# ----------------------------------------------------------------------------- a missing path
MISSING_FILE_COMMANDS = [
    ["validate"],
    ["convert"],
    ["filter"],
    ["stats"],
    ["standings"],
    ["ledger"],
    ["players"],
    ["tree"],
    ["import", "--out", "{tmp}/dataset"],
    ["chart", "--kind", "rating", "--out", "{tmp}/c.svg"],
    ["board", "--out", "{tmp}/b.svg"],
    ["scoresheet"],
]


@pytest.mark.parametrize("command", MISSING_FILE_COMMANDS, ids=lambda c: c[0])
def test_a_missing_path_is_worded_one_way_by_every_command(command: list[str], tmp_path: Path) -> None:
    missing = tmp_path / "absent.pgn"
    args = [a.replace("{tmp}", str(tmp_path)) for a in command]
    result = CliRunner().invoke(app, [args[0], str(missing), *args[1:]])
    assert result.exit_code == 2, result.output
    assert f"{missing}: error[pgn.io]: no such file or directory" in result.stderr.splitlines()[0]


@pytest.mark.parametrize("option", [["ledger", "--initial"], ["stats", "--aliases"]])
def test_a_missing_option_file_is_worded_the_same_way(option: list[str], tmp_path: Path) -> None:
    missing = tmp_path / "absent.csv"
    result = CliRunner().invoke(app, [option[0], str(SAMPLE_GAMES / "round_robin.pgn"), option[1], str(missing)])
    assert result.exit_code == 2
    assert f"{missing}: error[pgn.io]: no such file or directory" in result.stderr
