"""SVG board diagrams, drawn by our own code (no external assets): squares, coordinates,
pieces as Unicode chess glyphs, optional highlighted squares (the last move) and a caption.

The output is a standalone, well-formed XML ``<svg>`` element that can be written to a file or
inlined in HTML.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING
from xml.sax.saxutils import escape

if TYPE_CHECKING:  # pragma: no cover
    from notation.rules.position import Position

LIGHT = "#f0d9b5"
DARK = "#b58863"
HIGHLIGHT = "#cdd26a"
#: Solid glyphs for every piece; the colour comes from fill and stroke.
GLYPHS: dict[int, str] = {1: "♟", 2: "♞", 3: "♝", 4: "♜", 5: "♛", 6: "♚"}
PIECE_LETTERS = " PNBRQK"


def board_svg(placement: Mapping[int, tuple[bool, int]], *, size: int = 320, flipped: bool = False,
              highlight: Iterable[int] = (), caption: str | None = None, coordinates: bool = True) -> str:
    """An SVG diagram of ``placement`` (square 0..63 -> (colour, piece type); a1 = 0)."""
    margin = 16 if coordinates else 0
    cell = (size - 2 * margin) / 8
    caption_h = 22 if caption else 0
    height = size + caption_h
    marked = set(highlight)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="board" width="{size}" height="{height}" '
        f'viewBox="0 0 {size} {height}" role="img" aria-label="{escape(caption or "chess diagram", {chr(34): "&quot;"})}">',
        f'<rect x="0" y="0" width="{size}" height="{height}" fill="#ffffff"/>',
    ]
    for sq in range(64):
        file, rank = sq % 8, sq // 8
        col = 7 - file if flipped else file
        row = rank if flipped else 7 - rank
        x = margin + col * cell
        y = margin + row * cell
        colour = LIGHT if (file + rank) % 2 else DARK
        if sq in marked:
            colour = HIGHLIGHT
        parts.append(f'<rect x="{x:.1f}" y="{y:.1f}" width="{cell:.1f}" height="{cell:.1f}" fill="{colour}"/>')
        piece = placement.get(sq)
        if piece is not None:
            white, kind = piece
            fill, stroke = ("#ffffff", "#000000") if white else ("#000000", "#000000")
            name = ("white " if white else "black ") + ["", "pawn", "knight", "bishop", "rook", "queen", "king"][kind]
            parts.append(
                f'<text x="{x + cell / 2:.1f}" y="{y + cell * 0.80:.1f}" font-size="{cell * 0.82:.1f}" '
                f'text-anchor="middle" fill="{fill}" stroke="{stroke}" stroke-width="{0.8 if white else 0.3}" '
                f'font-family="DejaVu Sans, Segoe UI Symbol, Noto Sans Symbols2, serif">'
                f"<title>{name}</title>{GLYPHS[kind]}</text>"
            )
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
            parts.append(f'<text x="{x:.1f}" y="{size - 3}" font-size="11" text-anchor="middle" fill="#333333">{file_name}</text>')
            parts.append(f'<text x="{margin / 2:.1f}" y="{y:.1f}" font-size="11" text-anchor="middle" fill="#333333">{rank_name}</text>')
    if caption:
        parts.append(
            f'<text x="{size / 2:.1f}" y="{size + 16}" font-size="13" text-anchor="middle" '
            f'fill="#000000">{escape(caption)}</text>'
        )
    parts.append("</svg>")
    return "\n".join(parts)


def placement_of(pos: Position) -> dict[int, tuple[bool, int]]:
    """Square -> (colour, piece type) for every occupied square of ``pos``."""
    out: dict[int, tuple[bool, int]] = {}
    for sq in range(64):
        piece = pos.piece_at(sq)
        if piece is not None:
            out[sq] = piece
    return out


def position_svg(pos: Position, **options: object) -> str:
    """:func:`board_svg` of a :class:`notation.rules.position.Position`."""
    return board_svg(placement_of(pos), **options)  # type: ignore[arg-type]


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
