"""Golden tests: malformed PGN inputs give exactly the expected games and diagnostics.

Two sets:
- our own broken inputs in ``tests/golden/pgn/inputs/*.pgn`` (written for this project), with
  full expectations (mainline SAN, tags, diagnostics with the offending text);
- the fastchess fixtures under ``../shared/corpus/parser-tests/fastchess/`` (read at test time;
  the golden files hold only counts, codes and positions, never text from the corpus).

Regenerate after an intended change with ``NOTATION_UPDATE_GOLDEN=1 pytest tests/test_reader_golden.py``
and review the diff like an API change.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from notation.pgn.model import Game, MoveNode
from notation.pgn.reader import read_games
from conftest import GOLDEN as GOLDEN_ROOT
from conftest import corpus_path

GOLDEN = GOLDEN_ROOT / "pgn"
INPUTS = GOLDEN / "inputs"
UPDATE = os.environ.get("NOTATION_UPDATE_GOLDEN") == "1"


def _tree(nodes: list[MoveNode]) -> list[Any]:
    out: list[Any] = []
    for node in nodes:
        item: Any = node.san
        extra: dict[str, Any] = {}
        if node.nags:
            extra["nags"] = node.nags
        if node.comments:
            extra["comments"] = node.comments
        if node.pre_comments:
            extra["pre"] = node.pre_comments
        if node.lenient:
            extra["lenient"] = node.lenient
        if node.variations:
            extra["variations"] = [_tree(v) for v in node.variations]
        if extra:
            item = {"san": node.san, **extra}
        out.append(item)
    return out


def _full(game: Game) -> dict[str, Any]:
    return {
        "number": game.number,
        "line": game.line,
        "offset": game.offset,
        "encoding": game.encoding,
        "tags": game.tags,
        "intro": game.intro_comments,
        "moves": _tree(game.moves),
        "spans": [[m.span.line, m.span.column] for m in game.moves[:3]],
        "result": game.result,
        "diagnostics": [[d.code, d.line, d.column, d.san] for d in game.diagnostics],
    }


def _summary(game: Game) -> dict[str, Any]:
    return {
        "number": game.number,
        "line": game.line,
        "offset": game.offset,
        "tags": len(game.tags),
        "moves": len(game.moves),
        "result": game.result,
        "diagnostics": [[d.code, d.line, d.column] for d in game.diagnostics],
    }


def _check(actual: list[dict[str, Any]], golden: Path) -> None:
    if UPDATE or not golden.exists():
        if not UPDATE:
            pytest.fail(f"missing golden file {golden} (run with NOTATION_UPDATE_GOLDEN=1)")
        golden.write_text(json.dumps(actual, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        return
    expected = json.loads(golden.read_text(encoding="utf-8"))
    assert actual == expected


@pytest.mark.parametrize("name", sorted(p.name for p in INPUTS.glob("*.pgn")))
def test_own_broken_inputs(name: str) -> None:
    games = [_full(g) for g in read_games(INPUTS / name)]
    _check(games, GOLDEN / "expected" / (name[:-4] + ".json"))


FASTCHESS = [
    "backslash_header",
    "basic",
    "black2move",
    "book",
    "castling",
    "comment_before_moves",
    "corrupted",
    "data-dfrc",
    "data-openings",
    "data-test",
    "data-test_invalid",
    "empty_body",
    "multiple",
    "newline",
    "no_moves",
    "no_moves_but_comment_followed_by_termination_marker",
    "no_moves_but_game_termination",
    "no_moves_but_game_termination_2",
    "no_moves_but_game_termination_3",
    "no_moves_but_game_termination_multiple",
    "no_moves_but_game_termination_multiple_2",
    "no_moves_two_games",
    "no_result",
    "non_ascii",
    "skip",
    "square_bracket_in_header",
    "threefold_repetition",
    "unescaped_quote_header",
    "variations",
]


@pytest.mark.parametrize("name", FASTCHESS)
def test_fastchess_fixtures(name: str) -> None:
    path = corpus_path("parser-tests", "fastchess", name + ".pgn")
    games = [_summary(g) for g in read_games(path)]
    _check(games, GOLDEN / "fastchess" / (name + ".json"))


def test_fastchess_fixture_list_is_complete() -> None:
    folder = corpus_path("parser-tests", "fastchess")
    assert sorted(p.stem for p in folder.glob("*.pgn")) == sorted(FASTCHESS)
