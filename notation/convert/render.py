"""Rendering converted games: PGN export format, UCI, LAN, FEN, EPD, JSON lines.

- ``pgn``: :func:`notation.pgn.writer.write_game` on the normalised game; ``columns`` re-wraps
  the movetext so that no line is longer than ``columns`` characters (0: one line per game).
- ``uci`` / ``lan``: the tags, then the mainline's legal moves in that notation (``e2e4`` ...;
  ``1. e2-e4 e7-e5`` ...), then the termination marker; comments, NAGs and variations are not
  written (they are SAN text about SAN moves).
- ``fen`` / ``epd``: one line per mainline position, the start position first, a blank line
  between games; each line names its game (``FILE:N``): after a tab on a FEN line, in the
  ``c1`` opcode of an EPD line, which carries the four position fields, ``hmvc`` / ``fmvn`` and
  ``c0`` (players, event, date).
- ``jsonl``: one JSON object per game: ``file``, ``game``, ``tags``, ``start_fen``, ``result``,
  ``moves`` [{``ply``, ``san``, ``uci``, ``fen``}], ``complete`` (False when a mainline move could
  not be played: the moves stop before it).

:func:`convert` is the Python entry point: the converted text of each game of a source.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from notation.convert.normalise import Mainline, normalise
from notation.pgn.chunks import ReadFailure
from notation.pgn.model import RESULTS
from notation.pgn.writer import escape_tag_value, write_game

if TYPE_CHECKING:  # pragma: no cover
    from notation.pgn.model import Game
    from notation.pgn.chunks import Chunk
    from notation.pgn.sources import Source

#: The output formats.
FORMATS: tuple[str, ...] = ("pgn", "uci", "lan", "fen", "epd", "jsonl")
#: File name extension per format.
EXTENSIONS: dict[str, str] = {"pgn": "pgn", "uci": "pgn", "lan": "pgn", "fen": "fen", "epd": "epd", "jsonl": "jsonl"}


@dataclass(frozen=True, slots=True)
class ConvertOptions:
    """How to convert: output format, parts to strip, tags to add, line width (None: the
    writer's default, lines under 80 characters; 0: no wrapping), whether an added tag replaces
    one the game already has (by default the game's own stays)."""

    to: str = "pgn"
    strip: frozenset[str] = frozenset()
    add_tags: tuple[str, ...] = ()
    columns: int | None = None
    replace_tags: bool = False


def wrap(text: str, columns: int) -> str:
    """Re-wrap one-line-per-segment movetext (the writer's compact output) to ``columns``.

    A ``;`` comment runs to the end of its line, so it stays whole at the end of its line."""
    lines: list[str] = []
    for segment in text.split("\n"):
        words = segment.split(" ")
        tail = ""
        for index, word in enumerate(words):
            if word.startswith(";"):
                tail = " ".join(words[index:])
                words = words[:index]
                break
        current = ""
        for word in words + ([tail] if tail else []):
            if not word:
                continue
            if current and columns > 0 and len(current) + 1 + len(word) > columns:
                lines.append(current)
                current = word
            else:
                current = f"{current} {word}" if current else word
        if current:
            lines.append(current)
    return "\n".join(lines)


def _tag_lines(tags: dict[str, str]) -> list[str]:
    from notation.pgn.model import SEVEN_TAG_ROSTER

    lines = [f'[{n} "{escape_tag_value(tags[n])}"]' for n in SEVEN_TAG_ROSTER if n in tags]
    lines += [f'[{n} "{escape_tag_value(v)}"]' for n, v in tags.items() if n not in SEVEN_TAG_ROSTER]
    return lines


def _marker(game: Game) -> str:
    if game.result is not None:
        return game.result
    tag = game.tags.get("Result")
    return tag if tag in RESULTS else "*"


def _pgn(game: Game, columns: int | None, strip: frozenset[str]) -> str:
    options = {
        "comments": "comments" not in strip,
        "variations": "variations" not in strip,
        "nags": "nags" not in strip,
    }
    if columns is None:
        return write_game(game, **options)
    text = write_game(game, compact=True, **options)
    head, sep, movetext = text.rstrip("\n").rpartition("\n\n")
    if not sep:
        head, movetext = "", text.rstrip("\n")
    body = wrap(movetext, columns)
    return (head + "\n\n" + body + "\n") if head else body + "\n"


def _moves_text(game: Game, line: Mainline, notation: str, columns: int | None) -> str:
    words: list[str] = []
    start = line.start
    if start is not None:
        number, white = start.fullmove_number, start.turn
        pos = start
        for index, move in enumerate(line.moves):
            if notation == "uci":
                words.append(move.uci())
            else:
                if white:
                    words.append(f"{number}.")
                elif index == 0:
                    words.append(f"{number}...")
                words.append(pos.lan(move))
            pos = line.positions[index]
            if not white:
                number += 1
            white = not white
    words.append(_marker(game))
    body = wrap(" ".join(words), 79 if columns is None else columns)
    tags = _tag_lines(game.tags)
    return ("\n".join(tags) + "\n\n" if tags else "") + body + "\n"


def game_label(game: Game) -> str:
    """The game's id on each FEN/EPD line: ``FILE:N`` (its number in the file, from 1)."""
    return f"{game.file or '<stdin>'}:{game.number}"


def _quoted(text: str) -> str:
    """An EPD string operand: no double quote or line end inside."""
    return '"' + re.sub(r'["\\\r\n\t]+', " ", text).strip() + '"'


def _positions(game: Game, line: Mainline, epd: bool) -> str:
    """One line per position, the start first: FEN lines with the game's id after a tab; EPD
    lines with ``hmvc``/``fmvn`` and, as pgn-extract's ``-Wepd`` does, the game in comment
    opcodes: ``c0`` its players, event and date, ``c1`` its id and the ply."""
    if line.start is None:
        return ""
    label = game_label(game)
    tags = game.tags
    who = f"{tags.get('White', '?')} - {tags.get('Black', '?')}, {tags.get('Event', '?')}, {tags.get('Date', '?')}"
    out = []
    for ply, pos in enumerate([line.start, *line.positions]):
        fen = pos.fen()
        if epd:
            fields = fen.split(" ")
            out.append(
                " ".join(fields[:4]) + f" hmvc {fields[4]}; fmvn {fields[5]};"
                f" c0 {_quoted(who)}; c1 {_quoted(f'{label} ply {ply}')};"
            )
        else:
            out.append(f"{fen}\t{label}")
    return "\n".join(out) + "\n"


def _jsonl(game: Game, line: Mainline) -> str:
    moves = [
        {"ply": index + 1, "san": line.sans[index], "uci": move.uci(), "fen": line.positions[index].fen()}
        for index, move in enumerate(line.moves)
    ]
    record = {
        "file": game.file,
        "game": game.number,
        "tags": game.tags,
        "start_fen": None if line.start is None else line.start.fen(),
        "result": _marker(game),
        "moves": moves,
        "complete": line.complete,
    }
    return json.dumps(record, ensure_ascii=False) + "\n"


def render(game: Game, line: Mainline, options: ConvertOptions) -> str:
    """One normalised game (from :func:`notation.convert.normalise.normalise`) as text."""
    to = options.to
    if to == "pgn":
        return _pgn(game, options.columns, options.strip)
    if to in ("uci", "lan"):
        return _moves_text(game, line, to, options.columns)
    if to in ("fen", "epd"):
        return _positions(game, line, to == "epd")
    if to == "jsonl":
        return _jsonl(game, line)
    raise ValueError(f"unknown format {to!r}; expected one of {', '.join(FORMATS)}")


def convert_game(game: Game, options: ConvertOptions | None = None) -> tuple[str, bool]:
    """(text of ``game`` converted, whether its whole mainline could be played)."""
    options = options if options is not None else ConvertOptions()
    new, line = normalise(game, strip=options.strip, add_tags=options.add_tags, replace_tags=options.replace_tags)
    return render(new, line, options), line.complete and line.start is not None


def separator(to: str) -> str:
    """What goes between two games' texts in one output file: a blank line (the games of a FEN
    or EPD file too), nothing between JSON lines."""
    return "" if to == "jsonl" else "\n"


def convert_chunk(
    task: tuple[list[Chunk], ConvertOptions, str | None],
) -> tuple[str | None, list[tuple[str | None, bool, Chunk | None]]]:
    """One chunk of a source's raw games converted (in a worker with ``--jobs``): the task is
    ``(raw games, options, the source's display name)``; the result that name and, per game,
    ``(text, converted whole, the read failure, or the game after which reading stopped)``,
    without a text for a read failure."""
    from notation.pgn.reader import parse_raw_game

    raws, options, name = task
    out: list[tuple[str | None, bool, Chunk | None]] = []
    for raw in raws:
        if isinstance(raw, ReadFailure):
            out.append((None, True, raw))
            continue
        failed = raw if raw.io_error is not None else None
        text, whole = convert_game(parse_raw_game(raw), options)
        out.append((text, whole, failed))
    return name, out


def convert(sources: Source | Iterable[Source], options: ConvertOptions | None = None) -> Iterator[str]:
    """The converted text of every game of ``sources`` (one path, handle or ``"-"``, or several),
    in input order (read failures are no games: nothing for them); join them with :func:`separator`."""
    from notation.pgn.reader import read_games
    from notation.select.run import source_list

    for source in source_list(sources):
        for game in read_games(source):
            if not isinstance(game, ReadFailure):
                yield convert_game(game, options)[0]
