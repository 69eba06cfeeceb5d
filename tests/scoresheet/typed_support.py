"""Clean typed scoresheets: real games typed without a slip, in every supported language, layout
and notation, as a club or an arbiter would type a player's sheet.

Used by the CI test at a fixed sample (``test_typed_sheets.py``) and by
``benchmarks/bench_scoresheet_typed.py``. Every sheet must read as its game, confidently (exit 0).
"""

from __future__ import annotations

import gzip
import random
from pathlib import Path

import chess
import chess.pgn

#: Piece letters per language, as a typist writes them (the first spelling of each).
LETTERS = {
    "en": {"K": "K", "Q": "Q", "R": "R", "B": "B", "N": "N"},
    "zh": {"K": "王", "Q": "后", "R": "车", "B": "象", "N": "马"},
    "de": {"K": "K", "Q": "D", "R": "T", "B": "L", "N": "S"},
    "fr": {"K": "R", "Q": "D", "R": "T", "B": "F", "N": "C"},
    "es": {"K": "R", "Q": "D", "R": "T", "B": "A", "N": "C"},
    "it": {"K": "R", "Q": "D", "R": "T", "B": "A", "N": "C"},
    "nl": {"K": "K", "Q": "D", "R": "T", "B": "L", "N": "P"},
    "ru": {"K": "Кр", "Q": "Ф", "R": "Л", "B": "С", "N": "К"},
}
FIGURINES = {"K": "♔", "Q": "♕", "R": "♖", "B": "♗", "N": "♘"}
NOTATIONS = ("san", "long", "coordinates", "figurine")
LAYOUTS = ("numbered", "columns", "one-per-line", "csv", "blocks")


def games(n: int, corpus: Path, min_plies: int = 20, max_plies: int = 140) -> list[list[str]]:
    """The first ``n`` decisive or drawn standard games of ``corpus`` (a folder of ``.pgn.gz``)
    with ``min_plies`` to ``max_plies`` plies, as SAN lists, files in name order."""
    out: list[list[str]] = []
    for path in sorted(corpus.glob("*.pgn.gz")):
        with gzip.open(path, "rt", encoding="utf-8", errors="replace") as handle:
            while len(out) < n:
                game = chess.pgn.read_game(handle)
                if game is None:
                    break
                if game.headers.get("FEN") or game.errors:
                    continue
                board = game.board()
                sans: list[str] = []
                for move in game.mainline_moves():
                    sans.append(board.san(move))
                    board.push(move)
                if min_plies <= len(sans) <= max_plies:
                    out.append(sans)
        if len(out) >= n:
            break
    return out


def _spell(san: str, uci: str, lang: str, notation: str, board: chess.Board, move: chess.Move) -> str:
    """One move as typed in ``notation`` with ``lang``'s piece letters."""
    if notation == "coordinates":
        return uci
    if notation == "long":
        if san.startswith("O-O"):
            return san
        piece = board.piece_at(move.from_square)
        assert piece is not None
        letter = "" if piece.piece_type == chess.PAWN else LETTERS[lang][piece.symbol().upper()]
        sep = "x" if board.is_capture(move) else "-"
        promo = "=" + LETTERS[lang][chess.piece_symbol(move.promotion).upper()] if move.promotion else ""
        check = "#" if san.endswith("#") else "+" if san.endswith("+") else ""
        return f"{letter}{uci[:2]}{sep}{uci[2:4]}{promo}{check}"
    table = FIGURINES if notation == "figurine" else LETTERS[lang]
    return "".join(table.get(c, c) if c in "KQRBN" else c for c in san)


def typed_sheet(sans: list[str], lang: str, notation: str, layout: str, result: str = "*") -> str:
    """The game ``sans`` typed in ``layout`` and ``notation`` with ``lang``'s letters."""
    board = chess.Board()
    cells: list[str] = []
    for san in sans:
        move = board.parse_san(san)
        cells.append(_spell(san, move.uci(), lang, notation, board, move))
        board.push(move)
    rows = [(k // 2 + 1, cells[k], cells[k + 1] if k + 1 < len(cells) else "") for k in range(0, len(cells), 2)]
    if layout == "numbered":
        return " ".join(f"{n}. {w} {b}".rstrip() for n, w, b in rows) + f" {result}\n"
    if layout == "columns":
        return "\n".join(f"{n:>3}  {w:<10}{b}".rstrip() for n, w, b in rows) + f"\n{result}\n"
    if layout == "one-per-line":
        return "\n".join(cells) + f"\n{result}\n"
    if layout == "csv":
        head = {"de": "Nr,Weiß,Schwarz", "fr": "No,Blancs,Noirs"}.get(lang, "No,White,Black")
        return head + "\n" + "\n".join(f"{n},{w},{b}" for n, w, b in rows) + "\n"
    assert layout == "blocks"  # a printed sheet typed as it looks: two blocks side by side
    half = (len(rows) + 1) // 2
    left, right = rows[:half], rows[half:]
    lines = []
    for k in range(half):
        n, w, b = left[k]
        line = f"{n:>3}  {w:<9}{b:<9}"
        if k < len(right):
            n2, w2, b2 = right[k]
            line += f"   {n2:>3}  {w2:<9}{b2}"
        lines.append(line.rstrip())
    return "\n".join(lines) + f"\n{result}\n"


def variants(count: int, seed: int = 0) -> list[tuple[str, str, str]]:
    """``count`` (language, notation, layout) triples: every language, notation and layout
    appears, the rest drawn at random (``seed``)."""
    rng = random.Random(seed)
    langs = sorted(LETTERS)
    out: list[tuple[str, str, str]] = []
    for k in range(count):
        lang = langs[k % len(langs)]
        notation = NOTATIONS[k % len(NOTATIONS)] if k < 4 * len(NOTATIONS) else rng.choice(NOTATIONS)
        layout = LAYOUTS[k % len(LAYOUTS)] if k < 4 * len(LAYOUTS) else rng.choice(LAYOUTS)
        out.append((lang, notation, layout))
    return out


__all__ = ["LAYOUTS", "LETTERS", "NOTATIONS", "games", "typed_sheet", "variants"]
