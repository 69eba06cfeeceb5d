"""Selection criteria: what ``notation filter`` keeps, and the one game view they read.

A :class:`Criteria` holds every criterion; a game is selected when it matches **all** of them
(``invert`` turns that round). Criteria come in three kinds, checked cheapest first, so that a
game is read no further than a criterion needs:

- tags only (``white``, ``black``, ``player``, ``event``, ``site``, ``eco``, ``result``, dates,
  Elo, ``tags``, ``variant``): read from the game's tag lines, no movetext parsing;
- the validation report (``status``, ``endings``): :func:`notation.validation.core.check_raw`,
  through the compiled core when it takes the game;
- play (``moves``, ``fen``, ``material``, ``min_plies``/``max_plies``): the mainline's moves
  (cut by the compiled core's lexer for a plain game, else parsed), played only as far as a
  criterion needs (the legal prefix when a move is bad).

Text matching: names, event and site match when the given text is a substring of the tag value,
compared case-insensitively with accents folded (``Ivanchuk`` finds ``Ivanchuk, Vassily``,
``Nepo`` ``Nepomniachtchi``, ``Ljubojevic`` ``Ljubojević``). Dates: a partial date (``2019.??.??``)
stands for every day it may be; it matches when that span meets ``date_from..date_to``; a game
without a year never matches a date criterion. ``min_elo``/``max_elo`` hold for both players
(a missing rating never matches); ``elo_diff`` is ``|WhiteElo - BlackElo| <= N``.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from functools import lru_cache
from collections.abc import Iterator
from typing import TYPE_CHECKING, NamedTuple

from notation.select.material import MaterialPattern

if TYPE_CHECKING:  # pragma: no cover
    from notation.pgn.model import Game
    from notation.pgn.chunks import RawGame
    from notation.rules.move import Move
    from notation.formats.position import Position
    from notation.validation.reports import GameReport
    from notation.compiled import Core

#: The ways a game ends or what occurs in it that ``endings`` can ask for.
ENDINGS: tuple[str, ...] = ("checkmate", "stalemate", "threefold", "fifty", "seventyfive", "unwinnable_timeouts")
_DATE = re.compile(r"^\s*(\d{4}|\?{4})(?:[.\-/](\d{2}|\?{2}))?(?:[.\-/](\d{2}|\?{2}))?\s*$")
_MOVE_NUMBER = re.compile(r"^\d+\.+")
_ECO = re.compile(r"^[A-E](\d{0,2})$")


class CriteriaError(ValueError):
    """A criterion given in a form that cannot be read (the command line's usage error)."""


@lru_cache(maxsize=4096)
def fold(text: str) -> str:
    """``text`` lower-cased with accents removed (for substring matching of names)."""
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(c for c in decomposed if not unicodedata.combining(c)).casefold()


def name_matches(wanted: str, value: str, *, exact: bool = False) -> bool:
    """The one matching rule for names and events: ``wanted`` is a part of ``value``, any case,
    accents ignored; with ``exact`` the whole of it (case, accents and runs of blanks still
    ignored). :func:`notation.tables.selection.text_matches` is the same rule over a column."""
    if exact:
        return " ".join(fold(wanted).split()) == " ".join(fold(value).split())
    return fold(wanted) in fold(value)


def _day(year: int, month: int, day: int) -> int:
    return year * 10_000 + month * 100 + day


def date_span(text: str) -> tuple[int, int] | None:
    """The first and last day (as ``YYYYMMDD`` numbers) a PGN date may stand for; None when the
    year is unknown or the text is not a date."""
    match = _DATE.match(text)
    if match is None or match.group(1).startswith("?"):
        return None
    year = int(match.group(1))
    month = match.group(2)
    day = match.group(3)
    if month is None or month.startswith("?"):
        return _day(year, 1, 1), _day(year, 12, 31)
    m = int(month)
    if day is None or day.startswith("?"):
        return _day(year, m, 1), _day(year, m, 31)
    return _day(year, m, int(day)), _day(year, m, int(day))


def parse_eco_ranges(text: str) -> tuple[tuple[str, str], ...]:
    """``"A00-B99,C42"`` -> ((``A00``, ``B99``), (``C42``, ``C42``)); a short code is a range
    (``B`` = B00-B99, ``B2`` = B20-B29). Raises :class:`CriteriaError`."""
    ranges: list[tuple[str, str]] = []
    for part in text.replace(" ", "").upper().split(","):
        if not part:
            continue
        low, _, high = part.partition("-")
        high = high or low
        for code in (low, high):
            if _ECO.match(code) is None:
                raise CriteriaError(f"ECO code {code!r}: expected a letter A-E and up to two digits (B20, C4, E)")
        ranges.append((low + "0" * (3 - len(low)), high + "9" * (3 - len(high))))
    if not ranges:
        raise CriteriaError("--eco needs a code or a range such as B20-B99")
    return tuple(ranges)


def parse_bound_date(text: str, *, upper: bool) -> int:
    """A ``--date-from``/``--date-to`` bound as a ``YYYYMMDD`` number (a partial date is its first
    day for ``from`` and its last for ``to``). Raises :class:`CriteriaError`."""
    span = date_span(text)
    if span is None:
        raise CriteriaError(f"date {text!r}: expected YYYY, YYYY.MM or YYYY.MM.DD")
    return span[1] if upper else span[0]


def parse_moves(text: str) -> tuple[str, ...]:
    """The SAN moves of ``"1. e4 c5 2. Nf3"`` (move numbers dropped; ``*`` is any move)."""
    moves: list[str] = []
    for word in text.replace("...", ". ").split():
        word = _MOVE_NUMBER.sub("", word)
        if word:
            moves.append(word)
    return tuple(moves)


@dataclass(frozen=True)
class Criteria:
    """Every criterion of ``notation filter`` (None / empty = not asked)."""

    white: str | None = None
    black: str | None = None
    player: str | None = None
    event: str | None = None
    site: str | None = None
    eco: tuple[tuple[str, str], ...] = ()
    results: tuple[str, ...] = ()
    date_from: int | None = None
    date_to: int | None = None
    min_elo: int | None = None
    max_elo: int | None = None
    elo_diff: int | None = None
    min_plies: int | None = None
    max_plies: int | None = None
    tags: tuple[tuple[str, re.Pattern[str]], ...] = ()
    statuses: tuple[str, ...] = ()
    variants: tuple[str, ...] = ()
    moves: tuple[str, ...] = ()
    fen: str | None = None
    material: MaterialPattern | None = None
    endings: frozenset[str] = field(default_factory=frozenset)
    invert: bool = False
    exact: bool = False  # names, event and site match as a whole (:func:`name_matches`)

    # -- what a criterion needs ------------------------------------------------------------
    @property
    def needs_report(self) -> bool:
        """A criterion reads the validation report (status, endings)."""
        return bool(self.statuses or self.endings)

    @property
    def needs_game(self) -> bool:
        """A criterion reads the moves (parsed game; a replay for moves, fen and material)."""
        return bool(self.moves or self.fen or self.material or self.min_plies is not None or self.max_plies is not None)

    @property
    def needs_replay(self) -> bool:
        """A criterion replays the mainline."""
        return bool(self.moves or self.fen or self.material)

    # -- matching ----------------------------------------------------------------------------
    def matches(self, subject: Subject) -> bool:
        """Whether the game matches every criterion (``invert`` applied)."""
        return self._all(subject) != self.invert

    def _all(self, subject: Subject) -> bool:
        if not self.matches_tags(subject.tags):
            return False
        if "unwinnable_timeouts" in self.endings and not _won_on_time(subject.tags):
            return False  # decided from the tags, before any replay
        if self.eco and not self._eco(subject):
            return False
        if self.needs_report and not self._report(subject.report):
            return False
        if self.needs_game and not self._play(subject):
            return False
        return True

    def needles(self) -> tuple[bytes, ...]:
        """The name/event/site texts as lower-case ASCII bytes, for :meth:`rejects_header`
        (empty when a text is not plain ASCII: then no header can be rejected unread)."""
        if self.exact:  # a whole name may be spaced otherwise in the tags: read every header
            return ()
        texts = [t for t in (self.white, self.black, self.player, self.event, self.site) if t is not None]
        folded = [fold(t) for t in texts]
        if not all(f.isascii() and '"' not in f and "\\" not in f for f in folded):
            return ()
        return tuple(f.encode() for f in folded)

    @staticmethod
    def rejects_header(head: bytes, needles: tuple[bytes, ...]) -> bool:
        """True when an ASCII tag section cannot match: a needle occurs nowhere in it (for ASCII
        text, folding is lower-casing, so a tag that holds the needle puts it in the section)."""
        if not needles or not head.isascii():
            return False
        lowered = head.lower()
        return any(needle not in lowered for needle in needles)

    def matches_tags(self, tags: dict[str, str]) -> bool:
        """The tags-only criteria (all but ``eco``, which may need the moves)."""
        get = tags.get
        for wanted, names in (
            (self.white, ("White",)),
            (self.black, ("Black",)),
            (self.player, ("White", "Black")),
            (self.event, ("Event",)),
            (self.site, ("Site",)),
        ):
            if wanted is not None and not any(name_matches(wanted, get(name, ""), exact=self.exact) for name in names):
                return False
        if self.results and get("Result", "*").strip() not in self.results:
            return False
        if (self.date_from is not None or self.date_to is not None) and not self._date(get("Date", "")):
            return False
        if self.min_elo is not None or self.max_elo is not None or self.elo_diff is not None:
            if not self._elo(_rating(get("WhiteElo")), _rating(get("BlackElo"))):
                return False
        for name, pattern in self.tags:
            value = get(name)
            if value is None or pattern.search(value) is None:
                return False
        if self.variants:
            from notation.validation.shared import variant_kind

            kind = fold(variant_kind(tags))
            if kind not in self.variants:
                return False
        return True

    def _date(self, text: str) -> bool:
        span = date_span(text)
        if span is None:
            return False
        first, last = span
        if self.date_from is not None and last < self.date_from:
            return False
        return not (self.date_to is not None and first > self.date_to)

    def _elo(self, white: int | None, black: int | None) -> bool:
        if white is None or black is None:
            return False
        if self.min_elo is not None and min(white, black) < self.min_elo:
            return False
        if self.max_elo is not None and max(white, black) > self.max_elo:
            return False
        return not (self.elo_diff is not None and abs(white - black) > self.elo_diff)

    def _eco(self, subject: Subject) -> bool:
        code = subject.tags.get("ECO", "").strip().upper()
        if not code or code == "?":
            code = subject.eco_code() or ""
        return any(low <= code <= high for low, high in self.eco) if code else False

    def _report(self, report: GameReport) -> bool:
        if self.statuses and report.status not in self.statuses:
            return False
        for ending in self.endings:
            if ending in ("checkmate", "stalemate"):
                if report.outcome.termination != ending:
                    return False
            elif ending == "threefold" and report.claims.threefold is None:
                return False
            elif ending == "fifty" and report.claims.fifty_moves is None:
                return False
            elif ending == "seventyfive" and report.claims.seventyfive_moves is None:
                return False
            elif ending == "unwinnable_timeouts" and not any(
                d.code == "result.time-unwinnable" for d in report.diagnostics
            ):
                return False
        return True

    def _play(self, subject: Subject) -> bool:
        plies = len(subject.sans())
        if self.min_plies is not None and plies < self.min_plies:
            return False
        if self.max_plies is not None and plies > self.max_plies:
            return False
        if not self.needs_replay:
            return True
        if subject.start is None:
            return False
        if self.moves and not _starts_with(subject, self.moves):
            return False
        if self.fen is not None and not _reaches(subject, self.fen):
            return False
        return self.material is None or _has_material(subject, self.material)


def _won_on_time(tags: dict[str, str]) -> bool:
    """A Termination tag saying the loser's flag fell (the report decides the rest)."""
    from notation.validation.checks import time_forfeit

    return time_forfeit(tags.get("Termination"))


def _rating(text: str | None) -> int | None:
    """A rating tag's value of ASCII digits as a number; None for anything else (``¹⁵⁰⁰``, ``١٥٠٠``)."""
    if text is None:
        return None
    text = text.strip()
    return int(text) if text.isascii() and text.isdigit() else None


def _starts_with(subject: Subject, moves: tuple[str, ...]) -> bool:
    """The mainline starts with ``moves`` (each resolved in the game's own position)."""
    from notation.formats.san import SanError

    count = 0
    for wanted, (before, move, _) in zip(moves, subject.walk()):
        count += 1
        if wanted == "*":
            continue
        try:
            if before.parse_san(wanted) != move:
                return False
        except SanError:
            return False
    return count == len(moves)


@lru_cache(maxsize=16)
def _target(fen: str) -> tuple[int, str, bool, int, int | None, int]:
    """(FIDE key, placement, turn, castling, legal en passant square, number of pieces) of
    ``fen``; raises FenError."""
    from notation.formats.position import Position

    pos = Position.from_fen(fen)
    return pos.key(), pos.board_fen(), pos.turn, pos.castling_rights, _ep(pos), pos.occupied.bit_count()


def _ep(pos: Position) -> int | None:
    return pos.ep_square if pos.ep_square is not None and pos.has_legal_en_passant() else None


def _reaches(subject: Subject, fen: str) -> bool:
    """Some mainline position is ``fen``'s by FIDE identity (placement, side to move, castling
    rights, legal en passant; move counters ignored). The walk stops once fewer pieces are left
    than the position has (a game never gains pieces)."""
    key, placement, turn, castling, ep, pieces = _target(fen)
    walked = subject.core_walk()
    if walked is not None and key not in walked.keys:
        return False  # (a key that is there is confirmed below, position by position)

    def same(pos: Position) -> bool:
        return (
            pos.key() == key
            and pos.turn == turn
            and pos.board_fen() == placement
            and pos.castling_rights == castling
            and _ep(pos) == ep
        )

    start = subject.start
    assert start is not None
    if same(start):
        return True
    for _, _, after in subject.walk():
        if after.occupied.bit_count() < pieces:
            return False
        if same(after):
            return True
    return False


def _has_material(subject: Subject, pattern: MaterialPattern) -> bool:
    """Some mainline position has the make-up (checked at the start and after each capture or
    promotion; the walk stops once fewer pieces are left than the pattern needs)."""
    walked = subject.core_walk()
    if walked is not None:
        return any(pattern.matches(counts) for _, counts in walked.material)
    start = subject.start
    assert start is not None
    if pattern.matches_position(start):
        return True
    least = pattern.least_pieces
    for before, move, after in subject.walk():
        if move[2] or before.is_capture(move):
            if after.occupied.bit_count() < least:
                return False
            if pattern.matches_position(after):
                return True
    return False


class CoreWalk(NamedTuple):
    """A mainline walked by the compiled core (:meth:`Subject.core_walk`): every move (the
    whole mainline is legal), the repetition key of the start and after each move, and
    ``(ply, (white counts, black counts))`` (pawn to king) at the start and after each capture
    or promotion."""

    moves: list[Move]
    keys: list[int]
    material: list[tuple[int, tuple[tuple[int, ...], tuple[int, ...]]]]


class Subject:
    """One game as the criteria see it: tags at once, the rest read on first use.

    ``raw`` is the reader's chunk; ``tags`` its tags (tag lines only, no parsing of the moves);
    ``sans()`` the mainline as written, ``walk()`` its legal prefix played on demand, ``game``
    the parsed game, ``report`` the validation report. Each is computed at most once.
    """

    __slots__ = ("_core_walk", "_game", "_report", "_sans", "_start", "_steps", "_walker", "name", "raw", "tags")

    def __init__(self, raw: RawGame, tags: dict[str, str], name: str | None = None) -> None:
        self.raw = raw
        self.tags = tags
        self.name = name
        self._game: Game | None = None
        self._report: GameReport | None = None
        self._start: tuple[Position | None] | None = None
        self._sans: list[str] | None = None
        self._steps: list[tuple[Position, Move, Position]] = []
        self._walker: Iterator[tuple[Position, Move, Position]] | None = None
        self._core_walk: tuple[CoreWalk | None] | None = None

    @property
    def game(self) -> Game:
        if self._game is None:
            from notation.pgn.reader import parse_raw_game

            self._game = parse_raw_game(self.raw)
        return self._game

    @property
    def start(self) -> Position | None:
        """The start position (None: bad FEN or an unsupported variant)."""
        if self._start is None:
            from notation.validation.replay import start_position

            tags = self.tags if self._game is None else self._game.tags
            self._start = (start_position(tags)[0],)
        return self._start[0]

    def sans(self) -> list[str]:
        """The mainline's moves as written (lenient spellings in their standard form). A plain
        game (tag pairs, standard moves, comments, NAGs, result) is cut by the compiled core's
        lexer, exactly as the grammar cuts it, without building the game; any other game is
        parsed."""
        if self._sans is None:
            sans = self._core_sans() if self._game is None else None
            if sans is None:
                sans = [node.lenient or node.san for node in self.game.moves]
            self._sans = sans
        return self._sans

    def _core_sans(self) -> list[str] | None:
        from notation.compiled import through_core

        return through_core(self.raw, self._cut_in_core)[0]  # on a panic: parsed (the report says)

    def _cut_in_core(self, core: Core) -> list[str] | None:
        tokens = core.lex_game(self.raw.text)
        if tokens is None:
            return None
        sans: list[str] = []
        for token in tokens:
            kind = token[0]
            if kind == "MOVES":
                parts = core.split_run(token[1])
                if parts is None:
                    return None
                sans.extend(part[1] for part in parts if part[0] == "move")
            elif kind not in ("TAGS", "COMMENT", "RESULT"):
                return None
        return sans

    def walk(self) -> Iterator[tuple[Position, Move, Position]]:
        """(before, move, after) along the mainline's legal prefix, played only as far as a
        caller reads (what was played is kept for the next caller)."""
        yield from self._steps
        if self._walker is None:
            self._walker = self._play()
        for step in self._walker:
            self._steps.append(step)
            yield step

    def _play(self) -> Iterator[tuple[Position, Move, Position]]:
        from notation.formats.san import SanError

        pos = self.start
        if pos is None:
            return
        for san in self.sans():
            try:
                move = pos.parse_san(san)
                after = pos.play(move)
            except (SanError, ValueError, IndexError):
                return
            yield pos, move, after
            pos = after

    def core_walk(self) -> CoreWalk | None:
        """The mainline walked by the compiled core (``notation._core.walk_mainline``): its
        moves, the repetition key of every position and the material at the start and after
        each capture or promotion; None when the core is off or declines (a move it does not
        resolve plainly, an illegal one): the criteria then walk the Python way."""
        if self._core_walk is None:
            self._core_walk = (self._walk_in_core(),)
        return self._core_walk[0]

    def _walk_in_core(self) -> CoreWalk | None:
        from notation.compiled import through_core

        return through_core(self.raw, self._walked_in_core)[0]  # on a panic: walked in Python

    def _walked_in_core(self, core: Core) -> CoreWalk | None:
        from notation.rules.move import Move

        start = self.start
        if start is None:
            return None
        tags = self.tags if self._game is None else self._game.tags
        chess960 = bool(start.chess960)
        fen = start.fen(shredder=True, en_passant="fen") if ("FEN" in tags or chess960) else None
        walked = core.walk_mainline(fen, self.sans(), chess960)
        if walked is None:
            return None
        moves, keys, made = walked
        return CoreWalk([Move(*m) for m in moves], keys, [(ply, (tuple(c[:6]), tuple(c[6:]))) for ply, c in made])

    def identity(self) -> bytes:
        """The game's duplicate identity (:func:`notation.select.duplicates.game_identity`)."""
        from notation.select.duplicates import game_identity

        walked = self.core_walk()
        if walked is not None:
            tags = self.tags if self._game is None else self._game.tags
            return game_identity(self.start, tags, walked.moves, [])
        moves = [move for _, move, _ in self.walk()]
        sans = self.sans()
        tags = self.tags if self._game is None else self._game.tags
        return game_identity(self.start, tags, moves, sans[len(moves) :])

    @property
    def report(self) -> GameReport:
        if self._report is None:
            from notation.validation.core import check_raw

            self._report = check_raw(self.raw, self.name)
        return self._report

    def eco_code(self) -> str | None:
        """The ECO code by classification of the moves (None when unknown or unavailable)."""
        from notation.openings.eco import classify_played

        self.sans()  # parses the game unless the compiled core could cut it (a plain game)
        keys = (after.key() for _, _, after in self.walk())
        opening = classify_played(self._game, self.start, keys)
        return None if opening is None else opening.eco
