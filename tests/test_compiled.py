"""The one gate to the compiled core (:mod:`notation.compiled`): which games go to it, what a
panic inside it means (the same for every command), and the limits and tables the core shares
with the Python reader (exported by the extension, asserted equal here)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from conftest import SAMPLE_GAMES
from notation import compiled
from notation.pgn import model
from notation.pgn.parser import SYMBOL_NAGS
from notation.pgn.chunks import RawGame
from notation.pgn.reader import parse_raw_game, split_games
from notation.validation import core
from notation.validation.reports import check_game


def _module() -> Any:
    module = compiled.core_module()
    assert module is not None, "the compiled core is not built (pip install builds it)"
    return module


def test_the_shared_limits_are_the_readers() -> None:
    module = _module()
    assert module.MAX_DEPTH == model.MAX_VARIATION_DEPTH
    assert module.MAX_PLIES == model.MAX_LINE_PLIES
    assert module.SYMBOL_NAGS == SYMBOL_NAGS


def test_only_whole_games_pass_the_gate() -> None:
    module = _module()
    raw = next(split_games(SAMPLE_GAMES / "classics.pgn"))
    assert compiled.core_for(raw) is module
    fields = (raw.data, raw.file, raw.number, raw.line, raw.offset)
    assert compiled.core_for(RawGame(*fields, size=raw.size, oversized=True)) is None
    assert compiled.core_for(RawGame(*fields, size=raw.size, io_error="gone")) is None


class _Broken:
    """A core whose every call panics."""

    def __init__(self, module: Any) -> None:
        self.CorePanic = module.CorePanic
        self.MovesBatch = module.MovesBatch

    def __getattr__(self, name: str) -> Any:
        def panic(*args: Any, **kwargs: Any) -> Any:
            raise self.CorePanic("index out of bounds")

        return panic


@pytest.fixture
def broken(monkeypatch: pytest.MonkeyPatch) -> Any:
    module = _module()
    monkeypatch.setattr(compiled, "core_module", lambda: _Broken(module))
    return module


def _first(path: Path) -> RawGame:
    return next(split_games(path))


def test_a_panic_means_the_reference_reads_the_game_and_says_so_in_validate(broken: Any) -> None:
    raw = _first(SAMPLE_GAMES / "classics.pgn")
    report = core.check_raw(raw, "classics.pgn")
    reference = check_game(parse_raw_game(raw), file="classics.pgn")
    assert report.status == "error" and report.plies == reference.plies > 0
    first, *rest = report.diagnostics
    assert first.code == "internal.error" and first.line == raw.line and first.file == "classics.pgn"
    assert tuple(rest) == tuple(reference.diagnostics)
    assert report.final_fen == reference.final_fen


def test_a_panic_means_the_same_in_validate_s_jsonl_lines(broken: Any) -> None:
    from notation.validation.reports import report_line
    from notation.validation.run import lined

    raw = _first(SAMPLE_GAMES / "classics.pgn")
    assert core.report_lines([raw], "classics.pgn") == [None]
    (line,) = lined([raw], "classics.pgn")
    assert line == report_line(core.check_raw(raw, "classics.pgn"))
    assert '"code":"internal.error"' in line.text


def test_a_panic_means_the_same_in_import(broken: Any) -> None:
    from notation.tables.rows import TableBuilder

    raw = _first(SAMPLE_GAMES / "classics.pgn")
    builder = TableBuilder.new()
    verdict = builder.add_raw(1, raw, "classics.pgn")
    games, moves = builder.finish()
    assert verdict.status == "error" and verdict.first_error == "internal.error"
    reference = check_game(parse_raw_game(raw))
    assert games["plies"][0] == reference.plies and moves.height == reference.plies  # nothing lost


def test_a_panic_means_the_same_in_filter(broken: Any) -> None:
    from notation.select.criteria import Subject

    raw = _first(SAMPLE_GAMES / "classics.pgn")
    game = parse_raw_game(raw)
    subject = Subject(raw, dict(game.tags), "classics.pgn")
    assert subject.sans() == [node.lenient or node.san for node in game.moves]  # read the reference way
    assert subject.core_walk() is None
    assert subject.report.diagnostics[0].code == "internal.error"


def test_a_panic_in_the_lexer_is_located_and_the_game_read(monkeypatch: pytest.MonkeyPatch) -> None:
    from notation.pgn import parser

    module = _module()
    monkeypatch.setattr(compiled, "core_module", lambda: _Broken(module))
    raw = _first(SAMPLE_GAMES / "classics.pgn")
    game, outline = parser.parse_game_outline(raw.text, file="classics.pgn", number=1, line=raw.line)
    assert game.diagnostics[0].code == "internal.error" and outline
