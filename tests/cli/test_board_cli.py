"""`notation board`: FEN and PGN sources, --game/--ply/--moves, orientation, coordinates,
caption, SVG and PNG output, exit codes."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from conftest import SAMPLE_GAMES
from pictures_support import CLOCK_PGN, by_class, parse
from tables_support import run_cli

CLASSICS = SAMPLE_GAMES / "classics.pgn"
FOOLS_MATE = "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3"


def _board(tmp_path: Path, *args: object) -> object:
    out = tmp_path / "board.svg"
    result = run_cli("board", *args, "--out", out)
    assert result.exit_code == 0, result.stderr
    return parse(out.read_text(encoding="utf-8"))


def test_fen(tmp_path: Path) -> None:
    root = _board(tmp_path, FOOLS_MATE)
    assert [e.get("data-square") for e in by_class(root, "check")] == ["e1"]  # type: ignore[arg-type]
    assert not by_class(root, "caption")  # type: ignore[arg-type]


def test_pgn_end_of_game(tmp_path: Path) -> None:
    root = _board(tmp_path, CLASSICS)
    (caption,) = by_class(root, "caption")  # type: ignore[arg-type]
    assert "after 17. Rd8#" in "".join(caption.itertext())
    assert [e.get("data-square") for e in by_class(root, "check")] == ["e8"]  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("option", "value", "label"),
    [
        ("--ply", "3", "after 2. Nf3"),
        ("--ply", "2b", "after 2... d6"),
        ("--moves", "1", "after 1... e5"),
        ("--ply", "0", "start"),
    ],
)
def test_ply_and_moves(tmp_path: Path, option: str, value: str, label: str) -> None:
    root = _board(tmp_path, CLASSICS, option, value)
    assert label in "".join(by_class(root, "caption")[0].itertext())  # type: ignore[arg-type]


def test_game_and_arrows(tmp_path: Path) -> None:
    pgn = tmp_path / "clock.pgn"
    pgn.write_text(CLOCK_PGN, encoding="utf-8")
    root = _board(tmp_path, pgn, "--game", "1", "--ply", "5")
    assert len(by_class(root, "arrow")) == 2  # type: ignore[arg-type]
    assert sorted(e.get("data-square") or "" for e in by_class(root, "last-move")) == ["c4", "f1"]  # type: ignore[arg-type]
    root = _board(tmp_path, pgn, "--game", "2", "--no-caption")
    assert not by_class(root, "caption")  # type: ignore[arg-type]


def test_flip_and_no_coordinates(tmp_path: Path) -> None:
    root = _board(tmp_path, CLASSICS, "--flip", "--no-coordinates", "--size", "200")
    assert not by_class(root, "coordinate")  # type: ignore[arg-type]
    squares = by_class(root, "square")  # type: ignore[arg-type]
    (a1,) = [e for e in squares if e.get("data-square") == "a1"]
    assert float(a1.get("x", "")) == max(float(e.get("x", "")) for e in squares)
    assert float(a1.get("y", "")) == min(float(e.get("y", "")) for e in squares)
    assert root.get("width") == "200"  # type: ignore[attr-defined]


def test_stdin(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from notation.cli.main import app

    out = tmp_path / "b.svg"
    result = CliRunner().invoke(app, ["board", "-", "--ply", "1", "--out", str(out)], input=CLASSICS.read_text())
    assert result.exit_code == 0, result.stderr
    assert len(by_class(parse(out.read_text()), "last-move")) == 2


def test_png(tmp_path: Path) -> None:
    pytest.importorskip("vl_convert")
    out = tmp_path / "board.png"
    assert run_cli("board", FOOLS_MATE, "--out", out).exit_code == 0
    assert out.read_bytes().startswith(b"\x89PNG")


def test_png_without_the_extra(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "vl_convert", None)
    result = run_cli("board", FOOLS_MATE, "--out", tmp_path / "b.png")
    assert result.exit_code == 2 and "install notation[charts]" in result.stderr
    assert run_cli("board", FOOLS_MATE, "--out", tmp_path / "b.svg").exit_code == 0  # SVG needs no extra


@pytest.mark.parametrize(
    ("args", "text"),
    [
        ([FOOLS_MATE, "--out", "b.gif"], ".svg or .png"),
        ([CLASSICS, "--ply", "3", "--moves", "2", "--out", "b.svg"], "not both"),
        ([CLASSICS, "--ply", "x3", "--out", "b.svg"], "--ply"),
        ([CLASSICS, "--ply", "999", "--out", "b.svg"], "picture.no-such-ply"),
        ([CLASSICS, "--game", "99", "--out", "b.svg"], "picture.no-such-game"),
        (["8/8/8 w - - 0 1", "--out", "b.svg"], "fen.invalid"),
        (["absent.pgn", "--out", "b.svg"], "pgn.io"),
        ([SAMPLE_GAMES / "variant_crazyhouse.pgn", "--out", "b.svg"], "variant.unsupported"),
        ([CLASSICS, "--game", "0", "--out", "b.svg"], ""),
    ],
)
def test_usage_errors_exit_2(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, args: list[object], text: str) -> None:
    monkeypatch.chdir(tmp_path)
    result = run_cli("board", *args)
    assert result.exit_code == 2
    assert text in result.stderr and "Traceback" not in result.stderr
    assert not (tmp_path / "b.svg").exists()


def test_unwritable_output(tmp_path: Path) -> None:
    result = run_cli("board", FOOLS_MATE, "--out", tmp_path / "missing" / "b.svg")
    assert result.exit_code == 2 and "cannot write" in result.stderr
