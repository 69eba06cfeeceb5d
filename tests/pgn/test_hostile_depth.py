"""Variations nested far deeper than any annotation goes.

The reader keeps :data:`~notation.pgn.model.MAX_VARIATION_DEPTH` levels and reports the first
deeper ``(`` as ``pgn.too-deep`` (the mainline and the shallower variations are kept and
checked); everything that walks the move tree -- replay, the writer, equality, repr -- uses an
explicit stack, so a game built by hand may nest to any depth; and the compiled core never
recurses deeper than the same cap, whatever it is handed. Before: a RecursionError in replay
(``validate`` reported ``internal.error``, ``stats``/``import`` aborted the whole file) and in
the writer.
"""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from conftest import SAMPLE_GAMES
from notation.cli.main import app
from notation.compiled import core_module
from notation.pgn.model import MAX_VARIATION_DEPTH, Game, MoveNode
from notation.pgn.parser import parse_game_outline, parse_game_text
from notation.pgn.reader import parse_raw_game, read_games, split_games
from notation.pgn.writer import write_game
from notation.tables.frames import scan, to_frames
from notation.validation import core
from notation.validation.replay import replay
from notation.validation.reports import check_game
from notation.validation.run import validate

runner = CliRunner()
HEAD = '[Event "Deep"]\n[Site "?"]\n[Date "2024.01.01"]\n[Round "1"]\n[White "A"]\n[Black "B"]\n[Result "*"]\n\n'


def nested(depth: int) -> str:
    """A game whose first move has a variation nested ``depth`` levels deep."""
    return HEAD + "1. e4 " + "( 1. d4 " * depth + ")" * depth + " e5 *\n"


def depth_of(moves: list[MoveNode]) -> int:
    """The deepest variation level of a move tree (iteratively)."""
    deepest = 0
    pending = [(moves, 0)]
    while pending:
        line, level = pending.pop()
        deepest = max(deepest, level)
        for node in line:
            pending.extend((variation, level + 1) for variation in node.variations)
    return deepest


def built(depth: int) -> Game:
    """A game built through the API: 1. e4, with 1. d4 nested ``depth`` levels below it."""
    inner: list[MoveNode] = [MoveNode("d4")]
    for _ in range(depth - 1):
        inner = [MoveNode("d4", variations=[inner])]
    return Game(tags={"Result": "*"}, moves=[MoveNode("e4", variations=[inner]), MoveNode("e5")], result="*")


@pytest.mark.parametrize("depth", [500, 10_000])
def test_the_reader_keeps_the_cap_and_reports_the_first_deeper_paren(depth: int) -> None:
    game = parse_game_text(nested(depth))
    assert game.mainline() == ["e4", "e5"]
    assert depth_of(game.moves) == MAX_VARIATION_DEPTH
    deep = [d for d in game.diagnostics if d.code == "pgn.too-deep"]
    assert len(deep) == 1 and deep[0].severity == "warning"
    # '1. e4 ' then '( 1. d4 ' per level: the (cap + 1)-th '(' of line 9
    assert (deep[0].line, deep[0].column, deep[0].san) == (9, 7 + 8 * MAX_VARIATION_DEPTH, "(")
    assert [d.code for d in game.diagnostics] == ["pgn.too-deep"]


def test_the_cap_itself_is_kept_without_a_diagnostic() -> None:
    game = parse_game_text(nested(MAX_VARIATION_DEPTH))
    assert depth_of(game.moves) == MAX_VARIATION_DEPTH
    assert game.diagnostics == []


MOVETEXTS = {
    "nested": lambda n: "1. e4 " + "( 1. d4 " * n + ")" * n + " e5 *",
    "flood": lambda n: "1. e4 " + "( " * n + " e5 *",  # never closed
    "flood-with-moves": lambda n: "1. e4 " + "( 1. d4 " * n + " e5 *",
    "closing-flood": lambda n: "1. e4 " + ") " * n + " e5 *",
}
#: The default run parses 100,000 levels once; the slow run every shape, with both parsers.
LEVELS = (
    [("nested", 100_000, "full")]
    + [
        pytest.param(shape, 100_000, parser, marks=pytest.mark.slow)
        for shape in MOVETEXTS
        for parser in ("full", "outline")
        if (shape, parser) != ("nested", "full")
    ]
    + [(shape, 10_000, parser) for shape in MOVETEXTS for parser in ("full", "outline")]
)


@pytest.mark.parametrize(("shape", "levels", "parser"), LEVELS)
def test_lark_parses_any_depth_in_bounded_stack(shape: str, levels: int, parser: str) -> None:
    text = HEAD + MOVETEXTS[shape](levels) + "\n"
    game = parse_game_text(text) if parser == "full" else parse_game_outline(text)[0]
    codes = {d.code for d in game.diagnostics}
    assert ("pgn.too-deep" in codes) == (shape != "closing-flood")
    assert depth_of(game.moves) <= MAX_VARIATION_DEPTH
    if shape != "nested":
        assert {"pgn.unclosed-variation", "pgn.unmatched-paren"} & codes


@pytest.mark.parametrize("depth", [500, 10_000])
def test_validate_checks_the_kept_levels(depth: int) -> None:
    (report,) = validate(io.StringIO(nested(depth)))
    codes = [d.code for d in report.diagnostics]
    assert codes == ["pgn.too-deep"], codes
    assert report.status == "warning"
    assert (report.plies, report.variation_plies) == (2, MAX_VARIATION_DEPTH)


@pytest.mark.parametrize("depth", [MAX_VARIATION_DEPTH - 1, MAX_VARIATION_DEPTH, MAX_VARIATION_DEPTH + 1, 500])
def test_core_and_reference_agree_on_deep_games(depth: int) -> None:
    module = core_module()
    if module is None:
        pytest.skip("the compiled core is not built")
    text = nested(depth) + "\n" + HEAD + "1. e4 (1. d4 (1. c4 $1 {x}) 1... d5) e5 *\n"
    for raw in split_games(io.StringIO(text)):
        fast = json.dumps(core.check_raw(raw, None).to_dict())
        slow = json.dumps(check_game(parse_raw_game(raw)).to_dict())
        assert fast == slow
        assert core._through_core(module, raw, None) is not None  # the core takes them: depth <= its cap


@pytest.mark.parametrize("shape", sorted(MOVETEXTS))
def test_core_and_reference_agree_on_floods(shape: str) -> None:
    (raw,) = split_games(io.StringIO(HEAD + MOVETEXTS[shape](10_000) + "\n"))
    report = core.check_raw(raw, None)
    assert json.dumps(report.to_dict()) == json.dumps(check_game(parse_raw_game(raw)).to_dict())
    assert "internal.error" not in {d.code for d in report.diagnostics}


def _nested_outline(depth: int) -> list[Any]:
    inner: list[Any] = [("d4 ", 1, 1)]
    for _ in range(depth):
        inner = [("d4 ", 1, 1), inner]
    return [("e4 ", 1, 1), inner]


@pytest.mark.parametrize("depth", [10_000, 100_000])
def test_the_core_declines_any_deeper_outline_without_recursing(depth: int) -> None:
    module = core_module()
    if module is None:
        pytest.skip("the compiled core is not built")
    declined = module.replay_game(None, _nested_outline(depth))
    assert isinstance(declined, module.Decline) and declined.code == "nested-too-deep"
    cyclic: list[Any] = [("e4 ", 1, 1)]
    cyclic.append(cyclic)
    declined = module.replay_game(None, cyclic)
    assert isinstance(declined, module.Decline) and declined.code == "nested-too-deep"


@pytest.mark.parametrize("depth", [500, 10_000])
def test_tables_take_the_game(depth: int, tmp_path: Path) -> None:
    path = tmp_path / "deep.pgn"
    path.write_text(nested(depth), encoding="utf-8")
    games, moves = to_frames(path)
    assert games.height == 1 and moves.height == 2
    assert games.get_column("status").to_list() == ["warning"]


def test_import_of_a_real_file_with_a_deep_game_appended(tmp_path: Path) -> None:
    real = (SAMPLE_GAMES / "classics.pgn").read_text(encoding="utf-8")
    count = sum(1 for _ in read_games(io.StringIO(real)))
    path = tmp_path / "mixed.pgn"
    path.write_text(real + "\n" + nested(500) + "\n" + nested(10_000), encoding="utf-8")
    result = runner.invoke(app, ["import", str(path), "--out", str(tmp_path / "ds")])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    games, _ = scan(tmp_path / "ds")
    assert games.collect().height == count + 2


@pytest.mark.parametrize("command", [["stats"], ["standings"], ["ledger"], ["validate"]])
def test_commands_report_instead_of_crashing(command: list[str], tmp_path: Path) -> None:
    path = tmp_path / "deep.pgn"
    path.write_text(nested(10_000), encoding="utf-8")
    result = runner.invoke(app, [*command, str(path)])
    assert result.exit_code in (0, 1), result.output
    assert "Traceback" not in result.output and "RecursionError" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)


@pytest.mark.parametrize("depth", [10_000, pytest.param(100_000, marks=pytest.mark.slow)])
def test_the_writer_writes_any_depth(depth: int) -> None:
    game = built(depth)
    text = write_game(game)
    assert text.count("(") == text.count(")") == depth
    assert text.rstrip().endswith("e5 *")
    assert write_game(game, compact=True).count("(") == depth
    assert write_game(game, variations=False).endswith("1. e4 e5 *\n")
    back = parse_game_text(text)
    assert [d.code for d in back.diagnostics] == ["pgn.too-deep"]
    assert depth_of(back.moves) == MAX_VARIATION_DEPTH


@pytest.mark.parametrize("depth", [10_000, pytest.param(100_000, marks=pytest.mark.slow)])
def test_replay_and_checks_walk_any_depth(depth: int) -> None:
    game = built(depth)
    rep = replay(game)
    assert (len(rep.plies), rep.variation_plies, rep.diagnostics) == (2, depth, [])
    report = check_game(game)
    assert "internal.error" not in {d.code for d in report.diagnostics}
    assert report.variation_plies == depth


def test_equality_walks_any_depth() -> None:
    assert built(10_000) == built(10_000)
    other = built(10_000)
    node = other.moves[0].variations[0][0]
    while node.variations:
        node = node.variations[0][0]
    node.comments.append("different at the bottom")
    assert built(10_000) != other
    assert MoveNode("e4") != "e4"


def test_repr_walks_any_depth() -> None:
    text = repr(built(10_000))
    assert text.count("MoveNode(san='d4'") == 10_000
    assert text.count("[") == text.count("]")
    small = MoveNode("e4", nags=[1], variations=[[MoveNode("d4", variations=[[MoveNode("c4")]]), MoveNode("d5")]])
    assert repr(small).startswith("MoveNode(san='e4', span=Span(line=0, column=0, offset=0), nags=[1], comments=[], ")
    assert "variations=[[MoveNode(san='d4'" in repr(small) and repr(small).endswith("number=None, lenient=None)")
