"""Test support for the fault tests (tests/pgn/test_reader_faults.py, tests/cli/test_cli_io_errors.py):
small dated games, a folder of two subfolders, and a folder that cannot be listed."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from notation.pgn import sources


def make_games(count: int, first: int = 0) -> str:
    """Decisive games between six named players, dated, all of one event."""
    out = []
    for i in range(first, first + count):
        result = "1-0" if i % 2 else "0-1"
        out.append(
            f'[Event "Club"]\n[Date "2024.01.{1 + i % 28:02d}"]\n[Round "{i}"]\n'
            f'[White "Player {i % 6}"]\n[Black "Player {(i + 1) % 6}"]\n[Result "{result}"]\n[Note "{i * 7919:x}"]\n\n'
            f"1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 {{game {i}}} {result}\n\n"
        )
    return "".join(out)


def pgn_tree(tmp_path: Path) -> Path:
    """``games/a/one.pgn`` (games 0-2) and ``games/b/two.pgn`` (games 3-5) under ``tmp_path``."""
    root = tmp_path / "games"
    (root / "a").mkdir(parents=True)
    (root / "b").mkdir()
    (root / "a" / "one.pgn").write_text(make_games(3), encoding="utf-8")
    (root / "b" / "two.pgn").write_text(make_games(3, first=3), encoding="utf-8")
    return root


def deny_folder(monkeypatch: pytest.MonkeyPatch, denied: Path) -> None:
    """``os.scandir`` of ``denied`` fails as for a folder without read permission (the tests
    run as root, where chmod 000 does not stop reads; the search itself is the real code)."""
    real = os.scandir

    def scandir(path: Any) -> Any:
        if Path(path) == denied:
            raise PermissionError(13, "Permission denied", str(path))
        return real(path)

    monkeypatch.setattr(sources.os, "scandir", scandir)
