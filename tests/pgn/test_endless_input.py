"""An endless input with no PGN structure (``/dev/zero``, ``yes x``, endless blank lines) ends:
past a bound of bytes in which no game starts, reading stops with one ``pgn.not-pgn``
(:data:`notation.pgn.reader.MAX_STRUCTURELESS_BYTES`, 64 MiB, never less than the game cap).
Good games are never lost to it: those before are read, a game followed only by blank space is
kept, and long comments or long junk under the bound read as before. The bound is a parameter
of the splitter, so these tests use a small one."""

from __future__ import annotations

import io
import os
import subprocess
import sys
import time

import pytest

from conftest import ROOT
from notation.pgn.chunks import RawGame, ReadFailure
from notation.pgn.reader import MAX_STRUCTURELESS_BYTES, DEFAULT_MAX_GAME_BYTES, parse_raw_game, split_games

GAME = '[Event "E{n}"]\n[White "A"]\n[Black "B"]\n[Result "1-0"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n\n'
CAP = 256 * 1024
BOUND = 512 * 1024


def split(data: bytes) -> list[RawGame | ReadFailure]:
    return list(split_games(io.BytesIO(data), max_game_bytes=CAP, max_structureless_bytes=BOUND))


def games(chunks: list[RawGame | ReadFailure]) -> list[str]:
    return [parse_raw_game(c).tags.get("Event", "") for c in chunks if isinstance(c, RawGame)]


def failures(chunks: list[RawGame | ReadFailure]) -> list[ReadFailure]:
    return [c for c in chunks if isinstance(c, ReadFailure)]


def test_the_bound_is_generous() -> None:
    assert MAX_STRUCTURELESS_BYTES >= 2 * DEFAULT_MAX_GAME_BYTES


@pytest.mark.parametrize(
    "junk",
    [b"\x00" * (4 * BOUND), b"x\n" * (2 * BOUND), b"\n" * (4 * BOUND), b"x" * (4 * BOUND)],
    ids=["zeros", "yes-x", "blank-lines", "one-line"],
)
def test_structureless_input_stops_with_one_not_pgn(junk: bytes) -> None:
    chunks = split(junk + GAME.format(n=1).encode())
    (failure,) = chunks
    assert isinstance(failure, ReadFailure), chunks
    assert failure.kind == "not-pgn" and failure.diagnostic.code == "pgn.not-pgn"
    assert "reading stopped" in failure.diagnostic.message and failure.line == 1


def test_the_games_before_the_endless_text_are_read() -> None:
    data = (GAME.format(n=1) + GAME.format(n=2)).encode() + b"x\n" * BOUND
    chunks = split(data)
    assert games(chunks) == ["E1", "E2"]
    (failure,) = failures(chunks)
    assert failure.number == 3 and failure.line == 15


def test_a_game_followed_only_by_blank_space_is_kept() -> None:
    chunks = split(GAME.format(n=1).encode() + b"\n" * (2 * BOUND))
    assert games(chunks) == ["E1"]
    game = parse_raw_game(chunks[0])  # type: ignore[arg-type]
    assert not [d for d in game.diagnostics if d.severity == "error"] and game.result == "1-0"
    (failure,) = failures(chunks)
    assert "only blank space" in failure.diagnostic.message and failure.line == 7


def test_a_long_comment_under_the_cap_reads_whole() -> None:
    comment = "{" + ("a long comment without any move number " * 5000)[: CAP - 400] + "}"
    text = GAME.format(n=1) + GAME.format(n=2).replace("1. e4", comment + " 1. e4") + GAME.format(n=3)
    chunks = split(text.encode())
    assert games(chunks) == ["E1", "E2", "E3"] and not failures(chunks)
    assert not parse_raw_game(chunks[1]).diagnostics  # type: ignore[arg-type]


def test_long_junk_between_games_under_the_bound_loses_no_game() -> None:
    junk = b"junk line with no structure at all\n" * ((BOUND - 4096) // 35)
    chunks = split(GAME.format(n=1).encode() + junk + b"\n" + GAME.format(n=2).encode())
    assert games(chunks)[0] == "E1" and games(chunks)[-1] == "E2"
    assert all(f.kind != "not-pgn" or "reading stopped" not in f.diagnostic.message for f in failures(chunks))


def test_the_bound_is_never_below_the_game_cap() -> None:
    comment = "{" + "c" * (CAP - 1000) + "}"
    text = GAME.format(n=1).replace("1. e4", comment + " 1. e4") + GAME.format(n=2)
    chunks = list(split_games(io.BytesIO(text.encode()), max_game_bytes=CAP, max_structureless_bytes=1024))
    assert games(chunks) == ["E1", "E2"] and not failures(chunks)


def test_validate_dev_zero_ends_fast_with_one_diagnostic() -> None:
    if not os.path.exists("/dev/zero"):
        pytest.skip("no /dev/zero")
    started = time.monotonic()
    result = subprocess.run(
        [sys.executable, "-m", "notation.cli.main", "validate", "/dev/zero"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 1, result.stderr
    output = result.stdout + result.stderr
    errors = [line for line in output.splitlines() if "error[" in line]
    assert len(errors) == 1 and "error[pgn.not-pgn]" in errors[0] and "reading stopped" in errors[0], output
    assert "Traceback" not in output
    assert time.monotonic() - started < 60


def test_validate_reads_the_games_around_a_long_comment(tmp_path: os.PathLike[str]) -> None:
    path = os.path.join(tmp_path, "long-comment.pgn")
    comment = "{" + "words, no moves here " * 100_000 + "}"  # 2 MB
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(GAME.format(n=1).replace("1. e4", comment + " 1. e4") + GAME.format(n=2))
    result = subprocess.run(
        [sys.executable, "-m", "notation.cli.main", "validate", path],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert "games read: 2" in result.stdout + result.stderr
