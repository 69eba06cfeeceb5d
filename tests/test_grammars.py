"""The grammars' terminals as regexes (:func:`notation.grammars.terminal_patterns`): kept in a
file of the temporary folder between processes, never trusted when damaged."""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest

from notation import grammars


def test_the_kept_terminals_are_the_compiled_ones_and_a_damaged_file_is_rewritten(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    grammars.terminal_patterns.cache_clear()
    try:
        first = grammars.terminal_patterns("pgn")
        assert first == grammars._compiled_terminals("pgn")
        (kept,) = tmp_path.glob(".notation_terminals_pgn_*.json")
        kept.write_text('{"MOVES": ', encoding="utf-8")  # cut short
        grammars.terminal_patterns.cache_clear()
        assert grammars.terminal_patterns("pgn") == first
        grammars.terminal_patterns.cache_clear()
        assert grammars.terminal_patterns("pgn") == first  # read back from the rewritten file
        assert list(tmp_path.glob(".notation_terminals_*")) == [kept]
    finally:
        grammars.terminal_patterns.cache_clear()
