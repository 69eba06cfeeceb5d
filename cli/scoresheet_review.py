"""`notation scoresheet SHEET... --review`: finish a sheet at the terminal.

The moves the reading flags (confidence below 0.99) are asked in game order, one at a time:
what each copy wrote there, a small board of the position before the move, and the moves the
reading weighs with their probabilities. The answer is a number (one of those moves), a move in
SAN, Enter for the proposal (the first), ``s`` to skip the move, or ``q`` to stop asking. Each
answer pins the move at its ply (as ``--pin`` does) and the sheet is read again, so the next
question is asked of the new reading. The finished reading is then written as the command
writes any reading (``--out``, or the PGN on stdout).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from notation.scoresheet.verdict import move_label

if TYPE_CHECKING:  # pragma: no cover
    from notation.scoresheet.verdict import MoveConfidence, Reconstruction

#: Answers that stop the review (the reading so far is written).
QUIT = ("q", "quit")
SKIP = ("s", "skip")


def review(
    read: Callable[[list[str]], Reconstruction],
    pins: list[str],
    ask: Callable[[str], str | None],
    say: Callable[[str], None],
) -> tuple[Reconstruction, list[str]]:
    """The reading finished by the answers of ``ask`` (None: the input ended): ``read(pins)``
    reads the sheet with the pins so far; ``say`` shows a text. Returns the last reading and the
    pins given."""
    pins = list(pins)
    rec = read(pins)
    passed: set[int] = set()
    while True:
        pending = [m for m in rec.flagged if m.ply not in passed]
        if not pending:
            break
        move = pending[0]
        say(_question(rec, move, len(pending)))
        answer = _answer(rec, move, ask, say)
        if answer is None:
            break
        passed.add(move.ply)
        if answer == "":
            continue  # skipped
        pins.append(f"{move_label(move.ply, rec.start_ply)}{answer}")
        rec = read(pins)
    return rec, pins


def _question(rec: Reconstruction, move: MoveConfidence, left: int) -> str:
    from notation.pictures.board import board_text

    label = move_label(move.ply, rec.start_ply)
    before = rec.position_after(move.ply - 1)
    wrote = [
        f"copy {v.copy}: '{v.written}'" if rec.copies > 1 else f"'{v.written}'" for v in rec.boxes if v.ply == move.ply
    ]
    lines = [
        f"\n{label} read as {move.san}, probability {move.confidence:.2f} ({left} move(s) to check)",
        "written: " + (", ".join(wrote) or "no box"),
        board_text(before),
    ]
    choices = move.choices or ()
    for k, choice in enumerate(choices, 1):
        lines.append(f"  {k}. {choice.san:<8} {choice.probability:.2f}")
    return "\n".join(lines)


def _answer(
    rec: Reconstruction, move: MoveConfidence, ask: Callable[[str], str | None], say: Callable[[str], None]
) -> str | None:
    """The move the reviewer settles (SAN), ``""`` to skip, None to stop."""
    choices = [c.san for c in move.choices] or [move.san]
    before = rec.position_after(move.ply - 1)
    while True:
        text = ask(
            f"move at {move_label(move.ply, rec.start_ply)} [Enter: {choices[0]}; a number, a move, "
            "s to skip, q to stop] "
        )
        if text is None:
            return None
        text = text.strip()
        if text.lower() in QUIT:
            return None
        if text.lower() in SKIP:
            return ""
        if not text:
            return choices[0]
        if text.isascii() and text.isdigit():
            index = int(text)
            if 1 <= index <= len(choices):
                return choices[index - 1]
            say(f"no choice {text}: 1 to {len(choices)}")
            continue
        try:
            return before.san(before.parse_san(text))
        except ValueError:
            say(f"'{text}' is no legal move here")


__all__ = ["review"]
