"""Scoresheet move tokens: what a human wrote, read without a position.

A token is parsed with ``grammars/sheet.lark`` into a :class:`Written` value: the piece named
(if any), the origin and target squares, capture/dash marks, promotion, castling, check marks
and the flags that describe the spelling (figurine, lower-case letter, foreign letter). The
grammar is parametrised by the piece-letter set of a language (:data:`LANGUAGES`); one LALR
parser is built and cached per language. Matching a :class:`Written` against legal moves is
the job of :mod:`notation.scoresheet.reconstruct`.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Any

from lark import Lark, Token, Transformer
from lark.exceptions import LarkError

from notation.grammars import build_parser, overridden

# Piece types (same numbering as notation.rules.squares).
PAWN, KNIGHT, BISHOP, ROOK, QUEEN, KING = 1, 2, 3, 4, 5, 6
ENGLISH_LETTERS: dict[int, str] = {PAWN: "", KNIGHT: "N", BISHOP: "B", ROOK: "R", QUEEN: "Q", KING: "K"}

#: Figurines (white and black glyphs), accepted in every language.
FIGURINES: dict[int, tuple[str, str]] = {
    KING: ("♔", "♚"),
    QUEEN: ("♕", "♛"),
    ROOK: ("♖", "♜"),
    BISHOP: ("♗", "♝"),
    KNIGHT: ("♘", "♞"),
    PAWN: ("♙", "♟"),
}

#: Piece letters per language: piece type -> the spellings (first one is the preferred form).
LANGUAGES: dict[str, dict[int, tuple[str, ...]]] = {
    "en": {KING: ("K",), QUEEN: ("Q",), ROOK: ("R",), BISHOP: ("B",), KNIGHT: ("N",), PAWN: ("P",)},
    "zh": {KING: ("王",), QUEEN: ("后",), ROOK: ("车", "車"), BISHOP: ("象",), KNIGHT: ("马", "馬"), PAWN: ("兵",)},
    "de": {KING: ("K",), QUEEN: ("D",), ROOK: ("T",), BISHOP: ("L",), KNIGHT: ("S",)},
    "fr": {KING: ("R",), QUEEN: ("D",), ROOK: ("T",), BISHOP: ("F",), KNIGHT: ("C",), PAWN: ("P",)},
    "es": {KING: ("R",), QUEEN: ("D",), ROOK: ("T",), BISHOP: ("A",), KNIGHT: ("C",), PAWN: ("P",)},
    "it": {KING: ("R",), QUEEN: ("D",), ROOK: ("T",), BISHOP: ("A",), KNIGHT: ("C",), PAWN: ("P",)},
    "nl": {KING: ("K",), QUEEN: ("D",), ROOK: ("T",), BISHOP: ("L",), KNIGHT: ("P",)},
    "ru": {KING: ("Кр",), QUEEN: ("Ф",), ROOK: ("Л",), BISHOP: ("С",), KNIGHT: ("К",)},
}

LANGUAGE_NAMES: dict[str, str] = {
    "en": "English",
    "zh": "Chinese",
    "de": "German",
    "fr": "French",
    "es": "Spanish",
    "it": "Italian",
    "nl": "Dutch",
    "ru": "Russian",
}

_TERMINALS: dict[int, str] = {
    KING: "KING",
    QUEEN: "QUEEN",
    ROOK: "ROOK",
    BISHOP: "BISHOP",
    KNIGHT: "KNIGHT",
    PAWN: "PAWN",
}
_NOT_LOWERCASE = set("abcdefghox")  # lower-case letters that would read as a file, capture or castling


def _spellings(lang: str, piece: int) -> list[str]:
    """All spellings of ``piece`` in ``lang``: letters, unambiguous lower case, figurines."""
    out: list[str] = []
    for letter in LANGUAGES[lang].get(piece, ()):
        out.append(letter)
        low = letter.lower()
        if low != letter and not (len(low) == 1 and low in _NOT_LOWERCASE):
            out.append(low)
    out.extend(FIGURINES[piece])
    return out


def _lark_string(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def language_grammar(lang: str) -> str:
    """``grammars/sheet.lark`` with its piece terminals redefined, by Lark's ``%override``, as
    the letters of ``lang`` (:func:`notation.grammars.overridden`)."""
    if lang not in LANGUAGES:
        raise ValueError(f"unknown scoresheet language {lang!r}")
    return overridden(
        "sheet",
        {name: " | ".join(_lark_string(s) for s in _spellings(lang, piece)) for piece, name in _TERMINALS.items()},
    )


@dataclass(frozen=True, slots=True)
class Written:
    """One move token as written, read without a position (squares are 0..63, a1 = 0).

    ``piece`` is the piece type named by a letter or figurine (None when no letter: a pawn
    move, or a coordinate move ``g1f3`` that names no piece). ``foreign`` is set when the
    letter is not one of the language's piece letters (``OTHER_PIECE``).
    """

    text: str
    piece: int | None = None
    letter: str | None = None
    foreign: bool = False
    from_file: int | None = None
    from_rank: int | None = None
    capture: bool = False
    dash: bool = False
    to_square: int | None = None
    promotion: int | None = None
    promotion_letter: str | None = None
    castle: str | None = None  # "K" (short) or "Q" (long)
    check: str = ""
    ep: bool = False
    lowercase: bool = False
    figurine: bool = False
    #: short forms (``grammars/sheet.lark``'s ``short_move``): a target file or rank alone
    #: (``Rxh``, ``dxe``, ``R6``), or the piece taken (``QxQ``, ``BxNc5``; PAWN for ``PxP``)
    to_file: int | None = None
    to_rank: int | None = None
    taken: int | None = None

    @property
    def from_square(self) -> int | None:
        """The origin square when both origin file and rank were written (long algebraic)."""
        if self.from_file is None or self.from_rank is None:
            return None
        return self.from_rank * 8 + self.from_file

    @property
    def form(self) -> str:
        """``castling``, ``coordinates``, ``long`` (long algebraic with a dash/piece) or ``san``."""
        if self.castle:
            return "castling"
        if self.from_square is not None:
            return "long" if (self.dash or self.piece is not None) else "coordinates"
        return "san"

    def canonical(self) -> str:
        """The English spelling of what was written (no position-dependent parts)."""
        if self.castle:
            return "O-O" if self.castle == "K" else "O-O-O"
        out = ""
        if self.foreign:
            out += self.letter or "?"
        elif self.piece is not None and self.piece != PAWN:
            out += ENGLISH_LETTERS[self.piece]
        if self.from_file is not None:
            out += "abcdefgh"[self.from_file]
        if self.from_rank is not None:
            out += str(self.from_rank + 1)
        if self.capture:
            out += "x"
        elif self.from_square is not None:
            out += "-"
        if self.to_square is not None:
            out += "abcdefgh"[self.to_square % 8] + str(self.to_square // 8 + 1)
        if self.promotion is not None:
            out += "=" + (ENGLISH_LETTERS[self.promotion] or "P")
        return out + self.check


def _piece_of(token: Token, lang: str) -> tuple[int | None, bool]:
    kind = token.type
    for piece, name in _TERMINALS.items():
        if kind == name:
            return piece, False
    return None, True  # OTHER_PIECE


class _ToWritten(Transformer[Token, dict[str, Any]]):
    """Tree -> field dict for :class:`Written` (language-specific only in piece terminals)."""

    def __init__(self, lang: str) -> None:
        super().__init__()
        self.lang = lang

    def square(self, items: list[Token]) -> dict[str, Any]:
        return {"to_square": (int(items[1].value) - 1) * 8 + "abcdefgh".index(items[0].value)}

    def origin(self, items: list[Token]) -> dict[str, Any]:
        out: dict[str, Any] = {"from_file": "abcdefgh".index(items[0].value)}
        if len(items) > 1:
            out["from_rank"] = int(items[1].value) - 1
        return out

    def origin_rank(self, items: list[Token]) -> dict[str, Any]:
        return {"from_rank": int(items[0].value) - 1}

    def capture(self, items: list[Token]) -> dict[str, Any]:
        return {"capture": True}

    def dash(self, items: list[Token]) -> dict[str, Any]:
        return {"dash": True}

    def piece(self, items: list[Token]) -> dict[str, Any]:
        token = items[0]
        piece, foreign = _piece_of(token, self.lang)
        text = token.value
        return {
            "piece": piece,
            "letter": text,
            "foreign": foreign,
            "figurine": any(text in pair for pair in FIGURINES.values()),
            # a letter written in lower case where the language writes it otherwise ("n" for "N",
            # "кр" for "Кр"); Russian's king "Кр" is itself partly lower case
            "lowercase": text != text.upper() and text not in LANGUAGES[self.lang].get(piece or 0, ()),
        }

    def promotion(self, items: list[dict[str, Any]]) -> dict[str, Any]:
        piece = items[0]
        return {"promotion": piece["piece"] if not piece["foreign"] else None, "promotion_letter": piece["letter"]}

    def uci_promotion(self, items: list[Token]) -> dict[str, Any]:
        letter = items[0].value
        return {"promotion": {"q": QUEEN, "r": ROOK, "b": BISHOP, "n": KNIGHT}[letter], "promotion_letter": letter}

    def castle_short(self, items: list[Token]) -> dict[str, Any]:
        return {"castle": "K"}

    def castle_long(self, items: list[Token]) -> dict[str, Any]:
        return {"castle": "Q"}

    def ep(self, items: list[Token]) -> dict[str, Any]:
        return {"ep": True}

    def check(self, items: list[Token]) -> dict[str, Any]:
        mark = items[0].value
        return {"check": "#" if mark == "#" else ("++" if mark == "++" else "+")}

    def glyph(self, items: list[Token]) -> dict[str, Any]:
        return {}

    def _merge(self, items: list[dict[str, Any]]) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for item in items:
            out.update(item)
        return out

    def piece_move(self, items: list[dict[str, Any]]) -> dict[str, Any]:
        # the first item is the piece; a later "piece" dict only comes from promotion
        return self._merge(items)

    def pawn_move(self, items: list[dict[str, Any]]) -> dict[str, Any]:
        return self._merge(items)

    def move(self, items: list[dict[str, Any]]) -> dict[str, Any]:
        return self._merge(items)

    def _short(self, items: list[Any]) -> dict[str, Any]:
        """The parts of a short form before its target (the mover's piece, origin, mark)."""
        return self._merge([item for item in items if isinstance(item, dict)])

    def short_file(self, items: list[Any]) -> dict[str, Any]:
        out = self._short(items[:-1])
        out["to_file"] = "abcdefgh".index(items[-1].value)
        return out

    def short_rank(self, items: list[Any]) -> dict[str, Any]:
        out = self._short(items[:-1])
        if len(items) > 1 and not isinstance(items[-2], dict):  # "cx5": the CAPTURE token itself
            out["capture"] = True
        out["to_rank"] = int(items[-1].value) - 1
        return out

    def short_taken(self, items: list[Any]) -> dict[str, Any]:
        mark = next(k for k, item in enumerate(items) if not isinstance(item, dict))  # the CAPTURE token
        out = self._short(items[:mark])
        taken = items[mark + 1]
        out["capture"] = True
        out["taken"] = taken["piece"] if not taken["foreign"] else None
        if out["taken"] is None and not taken["foreign"]:
            out["taken"] = PAWN
        if len(items) > mark + 2:
            out.update(items[mark + 2])  # the square of the piece taken
        return out


@cache
def token_parser(lang: str) -> Lark:
    """The cached LALR parser of move tokens for ``lang`` (see :func:`language_grammar`)."""
    return build_parser("sheet", text=language_grammar(lang), cache=True)


_STRIP = re.compile(r"^[\s.,;]+|[\s,;]+$")

#: The longest cell that may hold a written move: the longest forms (``Кр e1 - e2``,
#: ``e5xd6 e.p.++!?``, ``e7xd8=(Q)+``) stay under 16 characters; a longer cell is unreadable
#: at once (no parse, no spelling distance), so the work on a cell is bounded.
MAX_TOKEN_LENGTH = 24


def too_long(text: str) -> bool:
    """True when ``text`` is longer than any written move can be (:data:`MAX_TOKEN_LENGTH`)."""
    return len(text) > MAX_TOKEN_LENGTH


@lru_cache(maxsize=65536)
def parse_token(text: str, lang: str = "en") -> Written | None:
    """Read one written move in language ``lang``; None when it is no move in any known form."""
    if too_long(text):
        return None
    cleaned = _STRIP.sub("", text)
    if not cleaned:
        return None
    try:
        tree = token_parser(lang).parse(cleaned)
        fields = _ToWritten(lang).transform(tree)
    except LarkError:  # not a move in this language (VisitError is a LarkError too)
        return None
    return Written(text=text, **fields)


# --- language detection ---------------------------------------------------------------------

_LETTER = re.compile(r"[A-Z]|Кр|кр|[А-Яа-я]|[\u4e00-\u9fff]")
_DETECT_ORDER = ("en", "de", "fr", "es", "it", "nl", "ru", "zh")


def _letters(lang: str) -> set[str]:
    out: set[str] = set()
    for spellings in LANGUAGES[lang].values():
        for s in spellings:
            out.add(s)
            out.add(s.upper())
    return out


def piece_letters(tokens: list[str]) -> Counter[str]:
    """Candidate piece letters used in ``tokens`` (capitals, Cyrillic, CJK; castling excluded)."""
    found: Counter[str] = Counter()
    for token in tokens:
        if re.fullmatch(r"[O0o]-?[O0o](-?[O0o])?\W*", token):
            continue
        for m in _LETTER.finditer(token):
            letter = m.group(0)
            if letter in ("X",):
                continue
            found[letter if len(letter) > 1 or not letter.isalpha() else letter.upper()] += 1
    return found


def detect_languages(tokens: list[str]) -> list[str]:
    """Languages ranked by how well their piece letters explain ``tokens`` (best first).

    Every language whose letter set leaves the fewest letters unexplained is returned, in a
    fixed preference order; the caller tries each when the first needs repairs.
    """
    found = piece_letters(tokens)
    if not found:
        return ["en"]
    scores: dict[str, int] = {}
    for lang in _DETECT_ORDER:
        letters = _letters(lang)
        unknown = 0
        for letter, count in found.items():
            # Russian "Кр" also contributes a "К" match; count the two-letter king as known.
            if letter not in letters:
                unknown += count
        scores[lang] = unknown
    best = min(scores.values())
    ranked = [lang for lang in _DETECT_ORDER if scores[lang] == best]
    # languages that read the same letters identically add nothing: keep one of each reading
    out: list[str] = []
    seen: set[tuple[tuple[str, int], ...]] = set()
    for lang in ranked:
        reading = tuple(sorted((letter, _piece_for(lang, letter)) for letter in found))
        if reading not in seen:
            seen.add(reading)
            out.append(lang)
    return out


def _piece_for(lang: str, letter: str) -> int:
    for piece, spellings in LANGUAGES[lang].items():
        if letter in spellings or letter in (s.upper() for s in spellings):
            return piece
    return 0
