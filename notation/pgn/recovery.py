"""The parser's bounds on hostile movetext (:mod:`notation.pgn.parser` uses them): the
:class:`ParenGuard` post-lexer that keeps a flood of parentheses from being held level by level,
:class:`JunkRun` (a run of junk tokens reported as one finding at a cost per token that does not
grow with the run) and :func:`quoted` (long text quoted short in messages)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from lark import Token

from notation.pgn.model import MAX_VARIATION_DEPTH
from notation.pgn.plain import needs_guard

__all__ = ["JunkRun", "ParenGuard", "needs_guard", "quoted"]


class ParenGuard:
    """A Lark post-lexer that keeps a game's parse bounded whatever its parentheses: the
    variation nested one level deeper than :data:`~notation.pgn.model.MAX_VARIATION_DEPTH`
    (reported ``pgn.too-deep`` at its ``(`` and not read) reaches the parser as written, but
    of the variations nested in it only what the parser still reports on (an unclosed comment;
    the last token of the game if it is a result: unclosed variations end there); the tokens
    nested inside it
    are dropped, so a flood of ``(`` holds :data:`MAX_VARIATION_DEPTH` levels, not millions.
    An unmatched ``)`` beyond the ``reported`` that findings can hold is dropped too (each
    would only be skipped, unreported). Used only for games that need it (:func:`needs_guard`):
    the parse of every other game is untouched."""

    #: Lexed in every parser state, so that an unmatched ``)`` (or a ``(`` after the result)
    #: comes here as a token instead of failing in the lexer, where it cannot be dropped.
    always_accept: tuple[str, ...] = ("LPAR", "RPAR")

    def __init__(self, reported: int) -> None:
        self.reported = reported
        self.reset()

    def reset(self) -> None:
        """Before each game. The state lives here, not in :meth:`process`: Lark starts a new
        ``process`` over the same token stream each time it resumes after an error."""
        self.depth = 0  # variations open among the tokens passed on
        self.inside = 0  # levels open inside the variation that is not read (0: not in one)
        self.unmatched = 0
        self.held: Token | None = None  # a result inside the variation not read: kept if it ends it

    def process(self, stream: Iterator[Token]) -> Iterator[Token]:
        for token in stream:
            kind = token.type
            if self.inside > 1:  # nested in the variation not read: dropped
                held, self.held = self.held, None
                if kind == "LPAR":
                    self.inside += 1
                elif kind == "RPAR":
                    self.inside -= 1
                elif kind == "RESULT":  # kept if the game ends here (an unclosed variation)
                    self.held = token
                elif kind == "UNCLOSED_COMMENT":  # it runs to the end of the game
                    yield token
                continue
            if self.inside:  # the variation not read, at its own level: the parser skips it
                if kind == "LPAR":
                    self.inside += 1
                    continue
                if kind == "RPAR":
                    self.inside = 0
                    self.depth -= 1
                yield token
                continue
            if kind == "LPAR":
                self.depth += 1
                if self.depth > MAX_VARIATION_DEPTH:  # the variation not read: its ``(`` passes
                    self.inside = 1
            elif kind == "RPAR":
                if self.depth:
                    self.depth -= 1
                else:
                    self.unmatched += 1
                    if self.unmatched > self.reported:
                        continue
            yield token
        if self.held is not None:  # the game ends inside the variation not read: its result
            held, self.held = self.held, None
            yield held


@dataclass(slots=True)
class JunkRun:
    """Consecutive junk tokens of one line: reported as one ``pgn.syntax`` diagnostic (at
    ``index``) while the line's move count stays ``moves`` and nothing else is reported. The
    run keeps only what its message shows (the start of its text, its count and where it ends),
    so a run of any length costs the same per token; :meth:`GameBuilder.end_junk` writes the
    message once the run is over."""

    line: Any
    moves: int
    index: int
    shown: str
    count: int = 1
    end: str = ""

    def add(self, word: str, end: str) -> None:
        if len(self.shown) <= 48:
            self.shown = f"{self.shown} {word}"[:49]
        self.count += 1
        self.end = end

    def message(self) -> str:
        shown = self.shown if len(self.shown) <= 48 else self.shown[:47] + "…"
        return f"{shown!r}: {self.count} tokens up to {self.end} that are not moves, comments, annotations or results"


def quoted(text: str) -> str:
    """``text`` quoted for a message, its start only when long (the finding keeps it whole)."""
    return repr(text if len(text) <= 48 else text[:47] + "…")
