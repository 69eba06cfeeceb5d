"""A plain game's outline read by the compiled core alone, without Lark: what
:func:`notation.pgn.parser.parse_game_outline` answers for the games the core reads whole, here
in a module that imports neither Lark nor the SAN grammar nor the rules engine, so that a run
of plain games never loads them (they are imported with the first game that needs the
reference: :func:`notation.pgn.parser.parse_game_outline` falls back to them).

It also holds what both paths share: the cap on a game's syntax diagnostics, the test for
movetext that needs the parser's guard (:func:`needs_guard`) and the reader's findings on the
result (:func:`close_game`).
"""

from __future__ import annotations

import re
from typing import Any

from notation.compiled import CoreOutline, core_outline
from notation.diagnostics import Diagnostic
from notation.pgn.model import MAX_VARIATION_DEPTH, RESULTS, Game

#: Most syntax diagnostics kept per game (a binary file read as PGN would give thousands).
MAX_DIAGNOSTICS = 50


def plain_outline(
    text: str, file: str | None, number: int, line: int, offset: int, encoding: str = "utf-8"
) -> tuple[Game, list[Any]] | None:
    """:func:`notation.pgn.parser.parse_game_outline`'s answer when the core reads the game
    whole (``notation._core.game_outline``); None when the parser must read it (the guard is
    needed, the core declines it, is off, or panicked: the parser then says so)."""
    if needs_guard(text, MAX_DIAGNOSTICS):
        return None
    outline, _ = core_outline(text, line)
    if outline is None:
        return None
    return core_outline_game(text, outline, file, number, line, offset, encoding)


def needs_guard(text: str, reported: int) -> bool:
    """Whether ``text`` may nest variations deeper than the cap or hold more unmatched ``)``
    than can be reported (counting every parenthesis, comments too: a guess on the safe side
    that costs nothing for the games under the counts). A game without parentheses, the common
    case, is told by a search for each (``in`` stops at the first, ``count`` reads the whole
    text: 3% of validating games without variations)."""
    if "(" not in text and ")" not in text:
        return False
    if text.count("(") <= MAX_VARIATION_DEPTH and text.count(")") <= reported:
        return False
    depth = unmatched = 0
    for match in _PARENS.finditer(text):
        if match.group() == "(":
            depth += 1
            if depth > MAX_VARIATION_DEPTH:
                return True
        elif depth:
            depth -= 1
        else:
            unmatched += 1
            if unmatched > reported:
                return True
    return False


_PARENS = re.compile("[()]")


def close_game(
    game: Game, result: str | None, at: tuple[int, int | None], end_of_text: tuple[int, int | None], has_moves: bool
) -> None:
    """The game's result and the reader's findings on it: the termination marker missing (at
    ``end_of_text``), disagreeing with the Result tag (at ``at``, the marker's line and column),
    no moves."""
    game.result = result
    if has_moves and result is not None:
        tag = game.tags.get("Result")
        if tag is None or tag == result:
            return  # (the common case: nothing to report)
    where = {"file": game.file, "game": game.number}
    if result is None:
        line, column = end_of_text
        game.diagnostics.append(
            Diagnostic.make(
                "pgn.missing-result",
                "the movetext has no game termination marker",
                line=line,
                column=column,
                **where,
            )
        )
    else:
        tag = game.tags.get("Result")
        if tag in RESULTS and tag != result:
            game.diagnostics.append(
                Diagnostic.make(
                    "pgn.result-mismatch",
                    f"termination marker {result!r} disagrees with the Result tag {tag!r}",
                    line=at[0],
                    column=at[1],
                    san=result,
                    **where,
                )
            )
    if not has_moves:
        game.diagnostics.append(Diagnostic.make("pgn.empty-game", "the game has no moves", line=game.line, **where))


def core_outline_game(
    text: str,
    outline: CoreOutline,
    file: str | None,
    number: int,
    line: int,
    offset: int,
    encoding: str,
) -> tuple[Game, list[Any]]:
    """:func:`notation.pgn.parser.parse_game_outline`'s answer from the core's outline of the game (tags, mainline
    outline, result token as ``(text, line, column)``)."""
    tags, mainline, token = outline
    game = Game(
        file=file, number=number, line=line, offset=offset, tags=tags, result=None, diagnostics=[], encoding=encoding
    )
    if token is None:
        body = text.rstrip()
        close_game(game, None, (line, None), (line + body.count("\n"), len(body) - body.rfind("\n")), bool(mainline))
    else:
        close_game(game, token[0].rstrip(), (token[1], token[2]), (line, None), bool(mainline))
    return game, mainline
