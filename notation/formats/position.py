"""``Position`` as users meet it (``notation.Position``): the rules' position with its text, the
python-chess-style methods ``from_fen()``, ``fen()``, ``san()``, ``parse_san()``,
``parse_uci()``, ``lan()`` as thin delegates to :mod:`notation.formats.fen`, ``.san`` and
``.uci``.

The rules (:mod:`notation.rules.position`) read and write no text; this subclass adds it, one
layer up, so that text depends on the rules and never the reverse. Every position it starts
(:meth:`Position.initial`, :meth:`Position.from_fen`) and every position played from one is of
this class. Library code calls the format functions directly; these methods are for users.
"""

from __future__ import annotations

from notation.formats import fen as _fen
from notation.formats import san as _san
from notation.formats import uci as _uci
from notation.formats.fen import FenError, format_placement, parse_fen
from notation.formats.san import SanResolution, SanSyntax
from notation.rules import position as _rules
from notation.rules.move import Move
from notation.rules.setup import SetupError


class Position(_rules.Position):
    """An immutable position (:class:`notation.rules.position.Position`) with its text."""

    __slots__ = ()

    @classmethod
    def from_fen(cls, text: str, *, chess960: bool | None = None) -> Position:
        """A validated position from FEN, X-FEN or Shredder-FEN (raises :class:`FenError`).

        ``chess960=None`` decides from the castling field: rights that only make sense in
        Chess960 (king or rook off its standard square, Shredder file letters) make it a
        Chess960 position. Four-field (EPD-like) FENs get ``0 1`` clocks.
        """
        if not isinstance(text, str):
            raise FenError("placement", f"not a FEN string: {text!r}")
        setup = parse_fen(text)
        try:
            return cls.from_setup(setup, chess960=chess960)
        except SetupError as exc:  # the rules' verdict, named as the FEN field at fault
            raise FenError(exc.field, exc.message) from None

    def __repr__(self) -> str:
        extra = ", chess960=True" if self.chess960 else ""
        return f"Position.from_fen({self.fen()!r}{extra})"

    def _repr_svg_(self) -> str:
        """A diagram in Jupyter: the one display hook that reaches up to notation.pictures
        (loaded only when a notebook draws a position; see tests/test_structure.py)."""
        from notation.pictures.board import position_svg

        return position_svg(self)

    # ------------------------------------------------------------------ FEN
    def board_fen(self) -> str:
        return format_placement(self._board)

    def fen(self, *, shredder: bool = False, en_passant: str = "legal") -> str:
        """FEN of the position (see :func:`notation.formats.fen.format_fen`)."""
        return _fen.format_fen(self, shredder=shredder, en_passant=en_passant)

    def castling_fen(self, *, shredder: bool = False) -> str:
        """The castling field of the FEN (X-FEN, or Shredder-FEN with ``shredder=True``)."""
        return _fen.castling_field(self, shredder=shredder)

    # ------------------------------------------------------------------ SAN, UCI, LAN
    def san(self, move: Move) -> str:
        """Standard algebraic notation of a legal ``move``, with ``+``/``#``."""
        return _san.san(self, move)

    def san_without_suffix(self, move: Move) -> str:
        return _san.san_without_suffix(self, move)

    def parse_san(self, text: str, *, strict: bool = False) -> Move:
        """The legal move named by SAN ``text`` (lenient by default; ``strict=True`` follows the
        PGN standard). Raises :class:`InvalidSan`, :class:`IllegalSan` or :class:`AmbiguousSan`."""
        return _san.parse_san(self, text, strict=strict)

    def play_san(self, text: str) -> tuple[Move, Position]:
        """``(move, position after it)`` for lenient SAN ``text`` (raises like :meth:`parse_san`)."""
        move = _san.parse_san(self, text)
        return move, self.play(move)

    def resolve_san(self, syntax: SanSyntax, *, strict: bool = False) -> Move:
        return _san.resolve_san(self, syntax, strict=strict)

    def parse_san_detailed(self, text: str, *, strict: bool = False) -> SanResolution:
        return _san.parse_san_detailed(self, text, strict=strict)

    def resolve_san_detailed(self, syntax: SanSyntax, *, strict: bool = False) -> SanResolution:
        return _san.resolve_san_detailed(self, syntax, strict=strict)

    def uci(self, move: Move) -> str:
        return move.uci()

    def parse_uci(self, text: str) -> Move:
        """The legal move for UCI ``text`` (``e2e4``, ``e7e8q``, ``0000``; in standard positions
        ``e1h1`` king-takes-rook castling is accepted as ``e1g1``)."""
        return _uci.parse_uci(self, text)

    def lan(self, move: Move) -> str:
        """Long algebraic notation: ``e2-e4``, ``Ng1-f3``, ``e7xd8=Q``, ``O-O`` (with ``+``/``#``)."""
        return _uci.format_lan(self, move)

    def parse_lan(self, text: str) -> Move:
        return _uci.parse_lan(self, text)
