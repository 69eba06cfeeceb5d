"""Writing games in the PGN export format (PGN standard, section 8 "export format").

- Tags: the Seven Tag Roster tags that the game has, in roster order, then the other tags in
  the game's order; values escaped (``\\`` and ``"``); one tag per line. With
  ``fill_roster=True`` missing roster tags are written as ``"?"`` (``"????.??.??"`` for Date,
  ``"*"`` for Result).
- One blank line, then the movetext wrapped so that every line is shorter than 80 characters
  (a single word longer than that, e.g. a URL in a comment, stays whole on its own line).
- Move numbers: before every White move, and ``N...`` before a Black move that starts the
  movetext or a variation or follows a comment or a variation. Numbers are recomputed from the
  ply (and the ``FEN`` tag's side to move and move number), not copied from the input.
- NAGs as ``$n`` (glyphs ``!``, ``?`` read from the input come back as ``$1``, ``$2`` ...);
  comments as ``{text}`` with whitespace runs written as one space (as the reader stores them);
  a comment containing ``}`` is written as a ``;`` comment that ends its line.
- The termination marker: ``game.result``, else the ``Result`` tag when it is one of the four
  markers, else ``*``.
- ``compact=True`` writes the movetext on one line (tags keep their own lines); only a
  comment containing ``}`` (written as a ``;`` comment) ends a line there too.
- The SAN is written exactly as stored in ``MoveNode.san`` (lenient spellings included): the
  replay layer decides canonical SAN, the writer does not resolve moves.

Games are separated by one blank line. Variations are written from an explicit stack (no
recursion), so a game built by hand may nest to any depth.
"""

from __future__ import annotations

from collections.abc import Generator, Iterable
from typing import IO

from notation.pgn.model import RESULTS, SEVEN_TAG_ROSTER, Game, MoveNode

#: Movetext lines are kept strictly shorter than this.
LINE_LIMIT = 80

_ROSTER_DEFAULTS = {"Date": "????.??.??", "Result": "*"}


def escape_tag_value(value: str) -> str:
    """A tag value with ``\\`` and ``"`` escaped (and line breaks turned into spaces)."""
    value = value.replace("\\", "\\\\").replace('"', '\\"')
    if "\n" in value or "\r" in value:
        value = " ".join(value.splitlines())
    return value


def _start_ply(tags: dict[str, str]) -> tuple[int, bool]:
    """(full move number, White to move) of the game's first position, from the FEN tag; a move
    number of other than ASCII digits (``¹``, ``١``) is not read (1)."""
    fen = tags.get("FEN")
    if not fen:
        return 1, True
    fields = fen.split()
    white = not (len(fields) > 1 and fields[1].lower() == "b")
    number = 1
    if len(fields) > 5 and fields[5].isascii() and fields[5].isdigit():
        number = max(1, int(fields[5]))
    return number, white


class _Movetext:
    """Collects movetext words and wraps them into lines."""

    def __init__(self, compact: bool) -> None:
        self.compact = compact
        self.lines: list[str] = []
        self.current: list[str] = []
        self.length = 0
        self.open_paren = False

    def word(self, text: str) -> None:
        if self.open_paren:
            text = "(" + text
            self.open_paren = False
        if self.current and not self.compact and self.length + 1 + len(text) >= LINE_LIMIT:
            self.break_line()
        if self.current:
            self.length += 1 + len(text)
        else:
            self.length = len(text)
        self.current.append(text)

    def close_paren(self) -> None:
        if self.open_paren:  # an empty variation: write "()" rather than lose the parenthesis
            self.open_paren = False
            self.word("()")
            return
        last = self.current[-1] if self.current else None
        if last is not None and (self.compact or self.length + 1 < LINE_LIMIT):
            self.current[-1] = last + ")"
            self.length += 1
        else:
            self.word(")")

    def break_line(self) -> None:
        if self.current:
            self.lines.append(" ".join(self.current))
        self.current = []
        self.length = 0

    def text(self) -> str:
        self.break_line()
        return "\n".join(self.lines)


class _Writer:
    def __init__(self, comments: bool, variations: bool, nags: bool, out: _Movetext) -> None:
        self.comments = comments
        self.variations = variations
        self.nags = nags
        self.out = out

    def comment(self, text: str) -> None:
        words = text.split()
        if "}" in text:
            self.out.word(";" + (" " + " ".join(words) if words else ""))
            self.out.break_line()  # a ';' comment ends its line, even in compact output
            return
        if not words:
            self.out.word("{}")
            return
        if len(words) == 1:
            self.out.word("{" + words[0] + "}")
            return
        self.out.word("{" + words[0])
        for w in words[1:-1]:
            self.out.word(w)
        self.out.word(words[-1] + "}")

    def line(self, nodes: list[MoveNode], number: int, white: bool) -> None:
        """Write one line of moves starting at (number, white), with its variations in
        parentheses where they stand (depth first, from an explicit stack of line writers)."""
        out = self.out
        stack = [self._line(nodes, number, white)]
        while stack:
            try:
                variation, number, white = next(stack[-1])
            except StopIteration:
                stack.pop()
                if stack:  # a variation ended
                    out.close_paren()
                continue
            out.open_paren = True
            stack.append(self._line(variation, number, white))

    def _line(
        self, nodes: list[MoveNode], number: int, white: bool
    ) -> Generator[tuple[list[MoveNode], int, bool], None, None]:
        """One line; yields each variation to write (with its move number and side) where it
        stands, before going on. A move number is needed first."""
        need_number = True
        for node in nodes:
            if self.comments and node.pre_comments:
                for text in node.pre_comments:
                    self.comment(text)
                need_number = True
            if white:
                self.out.word(f"{number}.")
            elif need_number:
                self.out.word(f"{number}...")
            self.out.word(node.san)
            need_number = False
            if self.nags:
                for nag in node.nags:
                    self.out.word(f"${nag}")
            if self.comments and node.comments:
                for text in node.comments:
                    self.comment(text)
                need_number = True
            if self.variations and node.variations:
                for variation in node.variations:
                    yield variation, number, white
                need_number = True
            if not white:
                number += 1
            white = not white


def write_game(
    game: Game,
    *,
    comments: bool = True,
    variations: bool = True,
    nags: bool = True,
    compact: bool = False,
    fill_roster: bool = False,
) -> str:
    """The game in PGN export format, ending with a newline (see the module docstring)."""
    lines: list[str] = []
    tags = game.tags
    for name in SEVEN_TAG_ROSTER:
        if name in tags:
            lines.append(f'[{name} "{escape_tag_value(tags[name])}"]')
        elif fill_roster:
            lines.append(f'[{name} "{_ROSTER_DEFAULTS.get(name, "?")}"]')
    for name, value in tags.items():
        if name not in SEVEN_TAG_ROSTER:
            lines.append(f'[{name} "{escape_tag_value(value)}"]')
    out = _Movetext(compact)
    writer = _Writer(comments, variations, nags, out)
    if comments:
        for text in game.intro_comments:
            writer.comment(text)
    number, white = _start_ply(tags)
    writer.line(game.moves, number, white)
    result = game.result
    if result is None:
        tag = tags.get("Result")
        result = tag if tag in RESULTS else "*"
    out.word(result)
    movetext = out.text()
    if lines:
        return "\n".join(lines) + "\n\n" + movetext + "\n"
    return movetext + "\n"


def write_games(
    games: Iterable[Game],
    out: IO[str] | None = None,
    *,
    comments: bool = True,
    variations: bool = True,
    nags: bool = True,
    compact: bool = False,
    fill_roster: bool = False,
) -> str | None:
    """Write ``games`` separated by one blank line: to ``out`` (returns None) or as a string."""
    options = {
        "comments": comments,
        "variations": variations,
        "nags": nags,
        "compact": compact,
        "fill_roster": fill_roster,
    }
    if out is None:
        return "\n".join(write_game(game, **options) for game in games)
    first = True
    for game in games:
        if not first:
            out.write("\n")
        out.write(write_game(game, **options))
        first = False
    return None
