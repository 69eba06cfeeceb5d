"""SVG board diagrams for any position: squares, coordinates, pieces, the last move, the king in
check, coloured squares (``[%csl]``) and arrows (``[%cal]``), in either orientation.

The one board renderer of the project (the scoresheet's diagrams are drawn by it too):
Unicode-glyph pieces on our own palette, no external assets, in layers (squares, marks, pieces,
arrows, coordinates) and every element labelled for tools and tests:
squares carry ``data-square="e4"``, pieces ``class="piece white king"``, the highlight layers
``class="last-move"``, ``class="check"`` and ``class="mark red"``, arrows ``class="arrow green"``
with ``data-from``/``data-to``. The output is deterministic and has no ids (so that any number of
diagrams can share an HTML page), a standalone ``<svg>`` element to write to a file or inline.

The module needs no :class:`notation.rules.position.Position` at run time (it reads
``piece_at``/``turn``/``is_check``/``king`` from what it is given), so ``Position._repr_svg_``
can call it without an import circle.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING
from xml.sax.saxutils import escape

from notation.rules.squares import square_name

if TYPE_CHECKING:  # pragma: no cover
    from notation.rules.position import Position

LIGHT = "#f0d9b5"
DARK = "#b58863"
HIGHLIGHT = "#cdd26a"
#: Solid glyphs for every piece; the colour comes from fill and stroke.
GLYPHS: dict[int, str] = {1: "♟", 2: "♞", 3: "♝", 4: "♜", 5: "♛", 6: "♚"}

#: ``[%csl]``/``[%cal]`` colours (as :mod:`notation.pgn.comment_commands` names them) -> fill.
MARK_COLOURS: dict[str, str] = {"green": "#15781b", "red": "#882020", "blue": "#003088", "yellow": "#e68f00"}
CHECK_COLOUR = "#ff0000"
PIECE_NAMES = ("", "pawn", "knight", "bishop", "rook", "queen", "king")
FONT = "DejaVu Sans, Segoe UI Symbol, Noto Sans Symbols2, serif"


@dataclass(frozen=True, slots=True)
class Overlay:
    """What is drawn over the squares: the last move (from, to), the square of a king in check,
    coloured squares ``(square, colour)`` and arrows ``(from, to, colour)``."""

    last_move: tuple[int, int] | None = None
    check: int | None = None
    marks: tuple[tuple[int, str], ...] = ()
    arrows: tuple[tuple[int, int, str], ...] = ()


#: caption text: line height, the widest a character of the 13-pixel font is taken to be (a
#: generous estimate for sans-serif text), and the space kept free at each side
CAPTION_LINE = 16
CAPTION_CHAR = 7.5
CAPTION_PAD = 4


def caption_lines(caption: str, size: int) -> list[str]:
    """``caption`` broken at spaces into lines that fit ``size`` pixels (as many as needed)."""
    room = max(1, int((size - 2 * CAPTION_PAD) // CAPTION_CHAR))
    lines: list[str] = []
    for word in caption.split():
        if lines and len(lines[-1]) + 1 + len(word) <= room:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return lines or [caption]


def board_svg(
    placement: Mapping[int, tuple[bool, int]],
    *,
    size: int = 360,
    flipped: bool = False,
    coordinates: bool = True,
    overlay: Overlay = Overlay(),
    caption: str | None = None,
) -> str:
    """An SVG diagram of ``placement`` (square 0..63 -> (white?, piece type 1..6); a1 = 0).

    ``flipped`` puts Black at the bottom (a1 at the top right). Square size is
    ``(size - 2 * margin) / 8`` with a 16-pixel margin for the coordinates.
    """
    margin = 16 if coordinates else 0
    cell = (size - 2 * margin) / 8
    lines = caption_lines(caption, size) if caption else []
    height = size + (8 + CAPTION_LINE * len(lines) if lines else 0)
    label = escape(caption or "chess diagram", {'"': "&quot;"})

    def corner(sq: int) -> tuple[float, float]:
        file, rank = sq % 8, sq // 8
        col, row = (7 - file, rank) if flipped else (file, 7 - rank)
        return margin + col * cell, margin + row * cell

    def rect(sq: int, cls: str, fill: str, extra: str = "") -> str:
        x, y = corner(sq)
        return (
            f'<rect class="{cls}" data-square="{square_name(sq)}" x="{x:.1f}" y="{y:.1f}" '
            f'width="{cell:.1f}" height="{cell:.1f}" fill="{fill}"{extra}/>'
        )

    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="board" width="{size}" height="{height}" '
        f'viewBox="0 0 {size} {height}" role="img" aria-label="{label}">',
        f'<rect x="0" y="0" width="{size}" height="{height}" fill="#ffffff"/>',
    ]
    for sq in range(64):
        light = (sq % 8 + sq // 8) % 2 == 1
        parts.append(rect(sq, "square light" if light else "square dark", LIGHT if light else DARK))
    if overlay.last_move is not None:
        for sq in overlay.last_move:
            parts.append(rect(sq, "last-move", HIGHLIGHT, ' fill-opacity="0.8"'))
    # one mark per square and one arrow per pair of squares (the last colour given): a comment
    # of 200,000 arrows draws at most 64 x 63, and the picture stays bounded
    for sq, colour in {sq: colour for sq, colour in overlay.marks}.items():
        parts.append(rect(sq, f"mark {colour}", MARK_COLOURS.get(colour, colour), ' fill-opacity="0.55"'))
    if overlay.check is not None:
        parts.append(rect(overlay.check, "check", CHECK_COLOUR, ' fill-opacity="0.6"'))
    for sq, (white, kind) in sorted(placement.items()):
        x, y = corner(sq)
        side = "white" if white else "black"
        parts.append(
            f'<text class="piece {side} {PIECE_NAMES[kind]}" data-square="{square_name(sq)}" '
            f'x="{x + cell / 2:.1f}" y="{y + cell * 0.80:.1f}" font-size="{cell * 0.82:.1f}" '
            f'text-anchor="middle" fill="{"#ffffff" if white else "#000000"}" stroke="#000000" '
            f'stroke-width="{0.8 if white else 0.3}" font-family="{FONT}">'
            f"<title>{side} {PIECE_NAMES[kind]}</title>{GLYPHS[kind]}</text>"
        )
    for (start, end), colour in {(start, end): colour for start, end, colour in overlay.arrows}.items():
        parts.append(_arrow(corner(start), corner(end), cell, start, end, colour))
    parts.append(
        f'<rect x="{margin}" y="{margin}" width="{8 * cell:.1f}" height="{8 * cell:.1f}" '
        'fill="none" stroke="#333333" stroke-width="1"/>'
    )
    if coordinates:
        for i in range(8):
            file_name = "abcdefgh"[7 - i if flipped else i]
            rank_name = str(i + 1 if flipped else 8 - i)
            x = margin + i * cell + cell / 2
            y = margin + i * cell + cell / 2 + 4
            parts.append(
                f'<text class="coordinate file" x="{x:.1f}" y="{size - 3}" font-size="11" '
                f'text-anchor="middle" fill="#333333" font-family="{FONT}">{file_name}</text>'
            )
            parts.append(
                f'<text class="coordinate rank" x="{margin / 2:.1f}" y="{y:.1f}" font-size="11" '
                f'text-anchor="middle" fill="#333333" font-family="{FONT}">{rank_name}</text>'
            )
    if len(lines) == 1 and len(lines[0]) * CAPTION_CHAR <= size - 2 * CAPTION_PAD:
        parts.append(
            f'<text class="caption" x="{size / 2:.1f}" y="{size + 17}" font-size="13" '
            f'text-anchor="middle" fill="#000000" font-family="{FONT}">{escape(caption or "")}</text>'
        )
    elif lines:  # one text element, a line per tspan (its text: the caption as given)
        spans = []
        for index, line in enumerate(lines):
            # a line still wider than the picture (one long word) is squeezed to fit, never clipped
            fit = (
                f' textLength="{size - 2 * CAPTION_PAD}" lengthAdjust="spacingAndGlyphs"'
                if len(line) * CAPTION_CHAR > size - 2 * CAPTION_PAD
                else ""
            )
            gap = " " if index < len(lines) - 1 else ""
            spans.append(
                f'<tspan x="{size / 2:.1f}" y="{size + 17 + index * CAPTION_LINE}"{fit}>{escape(line)}{gap}</tspan>'
            )
        parts.append(
            f'<text class="caption" font-size="13" text-anchor="middle" fill="#000000" '
            f'font-family="{FONT}">{"".join(spans)}</text>'
        )
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def _arrow(a: tuple[float, float], b: tuple[float, float], cell: float, start: int, end: int, colour: str) -> str:
    """A straight arrow from the centre of one square to the edge of another (a polygon: no
    marker ids to clash when several diagrams share a page)."""
    half = cell / 2
    x0, y0, x1, y1 = a[0] + half, a[1] + half, b[0] + half, b[1] + half
    length = math.hypot(x1 - x0, y1 - y0) or 1.0
    ux, uy = (x1 - x0) / length, (y1 - y0) / length
    px, py = -uy, ux
    shaft, head, head_len = cell * 0.09, cell * 0.25, cell * 0.45
    tip = length - cell * 0.18
    base = max(tip - head_len, 0.0)
    points = [
        (x0 + px * shaft, y0 + py * shaft),
        (x0 + ux * base + px * shaft, y0 + uy * base + py * shaft),
        (x0 + ux * base + px * head, y0 + uy * base + py * head),
        (x0 + ux * tip, y0 + uy * tip),
        (x0 + ux * base - px * head, y0 + uy * base - py * head),
        (x0 + ux * base - px * shaft, y0 + uy * base - py * shaft),
        (x0 - px * shaft, y0 - py * shaft),
    ]
    text = " ".join(f"{x:.1f},{y:.1f}" for x, y in points)
    return (
        f'<polygon class="arrow {colour}" data-from="{square_name(start)}" data-to="{square_name(end)}" '
        f'points="{text}" fill="{MARK_COLOURS.get(colour, colour)}" fill-opacity="0.8"/>'
    )


def placement_of(pos: Position) -> dict[int, tuple[bool, int]]:
    """Square -> (white?, piece type) for every occupied square of ``pos``."""
    out: dict[int, tuple[bool, int]] = {}
    for sq in range(64):
        piece = pos.piece_at(sq)
        if piece is not None:
            out[sq] = piece
    return out


#: The letters of a text diagram by piece type (1 pawn ... 6 king): upper case White, lower Black.
_LETTERS = ".PNBRQK"


def board_text(pos: Position, *, last_move: tuple[int, int] | None = None) -> str:
    """A small text diagram of ``pos`` (White at the bottom, ranks and files labelled; the
    squares of ``last_move`` in brackets), for a terminal."""
    placed = placement_of(pos)
    marked = set(last_move or ())
    lines: list[str] = []
    for rank in range(7, -1, -1):
        row = []
        for file in range(8):
            sq = rank * 8 + file
            piece = placed.get(sq)
            letter = "." if piece is None else (_LETTERS[piece[1]] if piece[0] else _LETTERS[piece[1]].lower())
            row.append(f"[{letter}]" if sq in marked else f" {letter} ")
        lines.append(f"{rank + 1} {''.join(row)}".rstrip())
    lines.append("   " + "  ".join("abcdefgh"))
    return "\n".join(lines)


_DIAGRAM = re.compile(r"^\s*(\d+)\s*(w|b|white|black|\.|\.\.\.)?\s*$", re.IGNORECASE)


def diagram_ply(spec: str) -> int | None:
    """``24w`` -> ply 47 (after White's 24th move), ``24b`` -> 48; None when not a spec.

    Plies count from move 1 with White to move (as :func:`notation.diagnostics.ply_label`).
    ``24`` alone means after White's move.
    """
    m = _DIAGRAM.match(spec)
    if not m:
        return None
    number = int(m.group(1))
    if number < 1:
        return None
    side = (m.group(2) or "w").lower()
    black = side in ("b", "black", "...")
    return number * 2 if black else number * 2 - 1


def check_square(pos: Position) -> int | None:
    """The square of the side to move's king when it is in check, else None."""
    return pos.king(pos.turn) if pos.is_check() else None


def position_svg(
    pos: Position,
    *,
    last_move: tuple[int, int] | None = None,
    marks: Iterable[tuple[int, str]] = (),
    arrows: Iterable[tuple[int, int, str]] = (),
    flipped: bool = False,
    coordinates: bool = True,
    size: int = 360,
    caption: str | None = None,
) -> str:
    """:func:`board_svg` of a position, its king highlighted when the side to move is in check."""
    overlay = Overlay(last_move, check_square(pos), tuple(marks), tuple(arrows))
    return board_svg(
        placement_of(pos), size=size, flipped=flipped, coordinates=coordinates, overlay=overlay, caption=caption
    )


def svg_to_png(svg: str, *, scale: float = 1.0) -> bytes:
    """PNG bytes of an SVG picture, ``scale`` pixels per SVG unit (1: the picture's own size;
    through ``vl-convert``, the ``notation[charts]`` extra; raises
    :class:`notation.pictures.extras.ChartsUnavailable` without it)."""
    from notation.pictures.extras import require

    return bytes(require("vl_convert").svg_to_png(svg, scale=scale))
