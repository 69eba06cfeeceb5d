"""Row builders of the games and moves tables: per-column lists flushed to Polars in batches.
The games table's builder and the per-game pipeline are here; the moves table's builder is
:class:`notation.tables.moves_rows.MovesBuilder` (re-exported here).

Nothing here replays: the plies come from :func:`notation.validation.replay.replay` and the per-game
verdict (status, counts, claims, outcome) from :mod:`notation.validation.reports`, so an imported row is
exactly what ``notation validate`` checked. A builder keeps one Python list per column (never a
dict per row, never an object per square) and turns them into a typed ``pl.DataFrame`` every
:data:`BATCH_ROWS` rows, so memory is bounded by one batch plus the finished frames of one chunk.
The columns and dtypes are those of :mod:`notation.tables.schema`.

Derived columns that are cheap to vectorise (dates, Elo, time control, enums) are computed by
Polars at flush time from the raw tag text.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any

import polars as pl

from notation.diagnostics import Diagnostic

from notation.formats.fen import STARTING_FEN
from notation.tables.openings import KeysBuilder, openings_of, with_openings
from notation.pgn.comment_commands import COMMAND_PATTERN
from notation.tables import ranges
from notation.tables.moves_rows import BATCH_ROWS, CORE_PATTERNS, SPACES, MovesBuilder
from notation.tables.schema import (
    COLUMN_TAGS,
    GAMES_SCHEMA,
    RESULTS,
    UNKNOWN_VALUES,
    empty_games,
    empty_moves,
)

from notation.pgn.chunks import RawGame, ReadFailure

if TYPE_CHECKING:  # pragma: no cover
    from notation.pgn.model import Game
    from notation.formats.position import Position
    from notation.validation.replay import Replay
    from notation.validation.reports import GameReport
    from notation.compiled import Core

__all__ = [
    "BATCH_ROWS",
    "GamesBuilder",
    "MovesBuilder",
    "TableBuilder",
    "Verdict",
    "clean_comment",
    "game_id",
    "raw_games",
    "raw_text",
    "source_name",
    "tabulate_raw",
    "tabulate_source",
    "verdict",
    "verdict_of",
]

_BLANK_TO_SPACE = bytes.maketrans(b"\t\n\r\x0b\x0c", b"     ")  # bytes.split()'s blanks


def game_id(text: str | bytes) -> int:
    """Stable 64-bit id of a game: blake2b-64 of its text with every whitespace run folded to
    one space (so CRLF/LF, re-wrapping and indentation do not change it). The compiled core
    computes it when it is there (``_core.game_id``), else :func:`game_id_reference`."""
    from notation.compiled import core_module

    data = text.encode("utf-8", "surrogatepass") if isinstance(text, str) else text
    core = core_module()
    return core.game_id(data) if core is not None else game_id_reference(data)


def game_id_reference(data: bytes) -> int:
    """:func:`game_id` of a game's bytes in Python (the definition; tests compare the core's)."""
    # == b" ".join(data.split()), without a list of every word (a 400,000-ply game: ~50 MB)
    normal = data.translate(_BLANK_TO_SPACE)
    while b"  " in normal:
        normal = normal.replace(b"  ", b" ")
    normal = normal.strip(b" ")
    return int.from_bytes(hashlib.blake2b(normal, digest_size=8).digest(), "little")


def clean_comment(comments: list[str]) -> str | None:
    """The comments after a move with ``[%...]`` commands removed; None when nothing is left."""
    text = " ".join(comments)
    if "[%" in text:
        text = COMMAND_PATTERN.sub(" ", text)
    text = SPACES.sub(" ", text).strip()
    return text or None


@dataclass(frozen=True, slots=True)
class Verdict:
    """What the games table needs from validation of one game."""

    status: str
    error_count: int
    warning_count: int
    first_error: str | None
    final_fen: str | None
    outcome: str | None
    threefold_ply: int | None
    fifty_moves_ply: int | None
    first_dead_ply: int | None = None
    white_can_mate: bool | None = None
    black_can_mate: bool | None = None


def verdict(game: Game, rep: Replay) -> Verdict:
    """The validation verdict of ``game`` given its replay: :mod:`notation.validation.reports` decides
    (the same checks and status as ``notation validate``), without a second replay."""
    from notation.validation.reports import check_replayed

    return verdict_of(check_replayed(game, rep))


def verdict_of(report: GameReport) -> Verdict:
    """What the games table keeps of a game's validation report."""
    errors = [d for d in report.diagnostics if d.severity == "error"]
    warnings = sum(1 for d in report.diagnostics if d.severity == "warning")
    return Verdict(
        status=report.status,
        error_count=len(errors),
        warning_count=warnings,
        first_error=errors[0].code if errors else None,
        final_fen=report.final_fen,
        outcome=report.outcome.termination,
        threefold_ply=report.claims.threefold,
        fifty_moves_ply=report.claims.fifty_moves,
        first_dead_ply=report.dead.first,
        white_can_mate=report.dead.white[0],
        black_can_mate=report.dead.black[0],
    )


#: The severities a games row counts (``status``, ``error_count``, ``warning_count``, ``first_error``).
_COUNTED = frozenset({"error", "warning"})


def _text(tags: dict[str, str], name: str) -> str | None:
    value = tags.get(name)
    if value is None:
        return None
    value = value.strip()
    return None if value in UNKNOWN_VALUES else value


class GamesBuilder:
    """Per-column lists for the games table; :meth:`finish` returns the typed frame."""

    _RAW = (
        "game_id",
        "source_file",
        "game_number",
        "event",
        "site",
        "date_text",
        "round",
        "white",
        "black",
        "result",
        "white_elo",
        "black_elo",
        "white_title",
        "black_title",
        "eco",
        "opening",
        "time_control",
        "termination",
        "utc_date",
        "utc_time",
        "variant",
        "start_fen",
        "plies",
        "status",
        "error_count",
        "warning_count",
        "first_error",
        "final_fen",
        "outcome",
        "threefold_ply",
        "fifty_moves_ply",
        "first_dead_ply",
        "white_can_mate",
        "black_can_mate",
        "extra_tags",
    )

    def __init__(self, batch_games: int = BATCH_ROWS // 64) -> None:
        self._batch = batch_games
        self._frames: list[pl.DataFrame] = []
        self._cols: dict[str, list[Any]] = {name: [] for name in self._RAW}
        self._tag_name: list[str] = []
        self._tag_value: list[str] = []
        self._tag_row: list[int] = []
        self._where: list[tuple[str | None, int, int]] = []  # (file, game number, line) per row
        self._raws: list[pl.DataFrame] = []  # raw columns of the core's rows so far (segments)
        self._runs: list[int] = []  # rows in the order added: -n the core's next n, +n add's next n
        #: ``table.value-out-of-range`` warnings of the rows flushed so far (see ``ranges``)
        self.diagnostics: list[Diagnostic] = []
        self.count = 0

    def add(
        self,
        gid: int,
        source_file: str | None,
        game: Game,
        plies: int,
        start_fen: str | None,
        v: Verdict,
    ) -> None:
        """Append one game."""
        tags = game.tags
        c = self._cols
        c["game_id"].append(gid)
        self._where.append((game.file, game.number, game.line))
        c["source_file"].append(source_file)
        c["game_number"].append(game.number)
        c["event"].append(_text(tags, "Event"))
        c["site"].append(_text(tags, "Site"))
        c["date_text"].append(tags.get("Date") or tags.get("UTCDate"))
        c["round"].append(_text(tags, "Round"))
        c["white"].append(_text(tags, "White"))
        c["black"].append(_text(tags, "Black"))
        result = tags.get("Result")
        c["result"].append(result if result in RESULTS else None)
        c["white_elo"].append(tags.get("WhiteElo"))
        c["black_elo"].append(tags.get("BlackElo"))
        c["white_title"].append(_text(tags, "WhiteTitle"))
        c["black_title"].append(_text(tags, "BlackTitle"))
        c["eco"].append(_text(tags, "ECO"))
        c["opening"].append(_text(tags, "Opening"))
        tc = tags.get("TimeControl", "").strip()
        c["time_control"].append(tc if tc and tc != "?" else None)  # "-" (none) is kept
        c["termination"].append(_text(tags, "Termination"))
        c["utc_date"].append(tags.get("UTCDate"))
        c["utc_time"].append(tags.get("UTCTime"))
        c["variant"].append(_text(tags, "Variant"))
        c["start_fen"].append(start_fen)
        c["plies"].append(plies)
        c["status"].append(v.status)
        c["error_count"].append(v.error_count)
        c["warning_count"].append(v.warning_count)
        c["first_error"].append(v.first_error)
        c["final_fen"].append(v.final_fen)
        c["outcome"].append(v.outcome)
        c["threefold_ply"].append(v.threefold_ply)
        c["fifty_moves_ply"].append(v.fifty_moves_ply)
        c["first_dead_ply"].append(v.first_dead_ply)
        c["white_can_mate"].append(v.white_can_mate)
        c["black_can_mate"].append(v.black_can_mate)
        # extra tags as flat (row, name, value) lists: nested Python values are slow to convert
        row = len(c["game_id"]) - 1
        names, values, rows = self._tag_name, self._tag_value, self._tag_row
        for name, value in tags.items():
            if name not in COLUMN_TAGS:
                names.append(name)
                values.append(value)
                rows.append(row)
        if result is not None and result not in RESULTS:
            names.append("Result")
            values.append(result)
            rows.append(row)
        self.count += 1
        if self._runs and self._runs[-1] > 0:
            self._runs[-1] += 1
        else:
            self._runs.append(1)
        if len(self._where) >= self._batch:
            self._flush()

    def add_core(self, raw: pl.DataFrame, where: list[tuple[str | None, int, int]]) -> None:
        """Append the rows the compiled core wrote (``notation._core.import_rows``: the raw
        columns, as :meth:`add` collects them) of games at ``where`` (file, number, line)."""
        self._raws.append(raw if raw.schema == _RAW_SCHEMA else raw.cast(_RAW_SCHEMA))
        self._runs.append(-raw.height)
        self._where.extend(where)
        self.count += raw.height
        if len(self._where) >= self._batch:
            self._flush()

    def _python_raw(self) -> pl.DataFrame | None:
        """The raw columns of the rows :meth:`add` collected since the last flush (None: none)."""
        c = self._cols
        if not c["game_id"]:
            return None
        height = len(c["game_id"])
        tags = (
            pl.DataFrame(
                {"row": self._tag_row, "name": self._tag_name, "value": self._tag_value},
                schema={"row": pl.Int32, "name": pl.String, "value": pl.String},
            )
            .group_by("row", maintain_order=True)
            .agg(pl.struct("name", "value").alias("extra_tags"))
        )
        extra = (
            pl.DataFrame({"row": pl.int_range(0, height, dtype=pl.Int32, eager=True)})
            .join(tags, on="row", how="left", maintain_order="left")
            .get_column("extra_tags")
            .fill_null(pl.lit([], dtype=GAMES_SCHEMA["extra_tags"]))
        )
        raw = pl.DataFrame(
            {name: c[name] for name in self._RAW if name != "extra_tags"},
            schema={name: dtype for name, dtype in _RAW_SCHEMA.items() if name != "extra_tags"},
        ).with_columns(extra.cast(GAMES_SCHEMA["extra_tags"]).alias("extra_tags"))
        self._cols = {name: [] for name in self._RAW}
        self._tag_name, self._tag_value, self._tag_row = [], [], []
        return raw

    def _raw(self) -> pl.DataFrame | None:
        """The raw columns of every row since the last flush, in the order they were added: the
        core's segments and :meth:`add`'s rows (made into a frame once, then put in place)."""
        python = self._python_raw()
        core = self._raws
        runs, self._raws, self._runs = self._runs, [], []
        if not core:
            return python
        frame = pl.concat(core, how="vertical") if len(core) > 1 else core[0]
        if python is None:
            return frame
        order: list[int] = []
        at_core, at_python = 0, frame.height
        for run in runs:  # (negative: the core's rows, positive: add's)
            if run < 0:
                order.extend(range(at_core, at_core - run))
                at_core -= run
            else:
                order.extend(range(at_python, at_python + run))
                at_python += run
        both = pl.concat([frame, python], how="vertical")
        return both.select(pl.all().gather(pl.Series(order, dtype=pl.UInt32)))

    def _flush(self) -> None:
        raw = self._raw()
        if raw is None:
            return
        typed = _type_games(raw)
        for row, column, tag, text in ranges.game_problems(raw, typed):
            file, number, line = self._where[row]
            self.diagnostics.append(
                ranges.out_of_range(column, GAMES_SCHEMA[column], tag, text, file=file, game=number, line=line)
            )
        self._frames.append(typed)
        self._where = []

    def finish(self) -> pl.DataFrame:
        """All games added so far as one frame with :data:`GAMES_SCHEMA`."""
        self._flush()
        if not self._frames:
            return empty_games()
        frame = pl.concat(self._frames, how="vertical", rechunk=False)
        self._frames = [frame]
        return frame


#: The games table's raw columns (:attr:`GamesBuilder._RAW`, as collected) and their types.
_RAW_SCHEMA = pl.Schema(
    {
        **{name: pl.String() for name in GamesBuilder._RAW},
        "game_id": pl.UInt64(),
        "game_number": pl.Int64(),  # cast (checked) to Int32 by _type_games
        "plies": pl.Int32(),
        "error_count": pl.Int32(),
        "warning_count": pl.Int32(),
        "threefold_ply": pl.Int32(),
        "fifty_moves_ply": pl.Int32(),
        "first_dead_ply": pl.Int32(),
        "white_can_mate": pl.Boolean(),
        "black_can_mate": pl.Boolean(),
        "extra_tags": GAMES_SCHEMA["extra_tags"],
    }
)

_TIME_CONTROL = r"^(\d+)(?:\+(\d+))?$"


def _type_games(raw: pl.DataFrame) -> pl.DataFrame:
    """Vectorised parsing of the raw tag text into the typed games columns."""
    s = GAMES_SCHEMA
    tc = pl.col("time_control")
    base = tc.str.extract(_TIME_CONTROL, 1)
    inc = tc.str.extract(_TIME_CONTROL, 2)
    date_text = pl.col("date_text").str.strip_chars()
    utc = pl.concat_str([pl.col("utc_date"), pl.col("utc_time")], separator=" ")
    return raw.select(
        pl.col("game_id"),
        pl.col("source_file").cast(s["source_file"]),
        pl.col("game_number").cast(s["game_number"], strict=False),
        pl.col("event").cast(s["event"]),
        pl.col("site"),
        ranges.in_calendar(date_text.str.strptime(pl.Date, "%Y.%m.%d", strict=False)).alias("date"),
        date_text.alias("date_text"),
        pl.col("round"),
        pl.col("white"),
        pl.col("black"),
        pl.col("result").cast(s["result"]),
        _elo("white_elo"),
        _elo("black_elo"),
        pl.col("white_title").cast(s["white_title"]),
        pl.col("black_title").cast(s["black_title"]),
        pl.col("eco").cast(s["eco"]),
        pl.col("opening").cast(s["opening"]),
        pl.lit(None, dtype=s["eco_computed"]).alias("eco_computed"),  # set by TableBuilder.finish
        pl.lit(None, dtype=s["opening_computed"]).alias("opening_computed"),
        tc.cast(s["time_control"]),
        base.str.to_integer(strict=False).cast(pl.Int32, strict=False).alias("base_seconds"),
        pl.when(base.is_not_null())
        .then(inc.fill_null("0"))
        .str.to_integer(strict=False)
        .cast(pl.Int16, strict=False)
        .alias("increment_seconds"),
        pl.col("termination").cast(s["termination"]),
        ranges.in_calendar(utc.str.strptime(pl.Datetime("us"), "%Y.%m.%d %H:%M:%S", strict=False))
        .dt.replace_time_zone("UTC")
        .alias("utc_datetime"),
        pl.col("variant").cast(s["variant"]),
        pl.col("start_fen"),
        pl.col("plies"),
        pl.col("status").cast(s["status"]),
        pl.col("error_count"),
        pl.col("warning_count"),
        pl.col("first_error").cast(s["first_error"]),
        pl.col("final_fen"),
        pl.col("outcome").cast(s["outcome"], strict=False),
        pl.col("threefold_ply"),
        pl.col("fifty_moves_ply"),
        pl.col("first_dead_ply"),
        pl.col("white_can_mate"),
        pl.col("black_can_mate"),
        pl.col("extra_tags"),
    )


def _elo(name: str) -> pl.Expr:
    return pl.col(name).str.strip_chars().str.to_integer(strict=False).cast(pl.Int16, strict=False).alias(name)


@dataclass(slots=True)
class TableBuilder:
    """Both builders plus the per-game pipeline: parse -> replay -> verdict -> rows."""

    games: GamesBuilder
    moves: MovesBuilder | None
    #: the position keys for ``eco_computed``/``opening_computed`` when there is no moves table
    keys: KeysBuilder | None = None

    @classmethod
    def new(cls, *, moves: bool = True) -> TableBuilder:
        return cls(GamesBuilder(), MovesBuilder() if moves else None, None if moves else KeysBuilder())

    def add_game(self, gid: int, game: Game, source_file: str | None) -> Verdict:
        """Replay ``game`` (once), append its games row and its ply rows."""
        from notation.validation.replay import replay

        rep = replay(game)
        v = verdict(game, rep)
        self.games.add(gid, source_file, game, len(rep.plies), _start_fen(game, rep.start), v)
        if self.moves is not None:
            self.moves.add(gid, rep, game)
        elif self.keys is not None:
            self.keys.add(gid, rep)
        return v

    def add_raw(self, gid: int, raw: RawGame, source_file: str | None) -> Verdict:
        """Like :meth:`add_game` for a chunk of the reader: through the compiled core when it
        takes the game (the one gate, :func:`notation.compiled.through_core`; its columns go
        straight to Arrow), else parsed and replayed in Python; a game of a variant the
        reference does not replay from the core's outline when it reads the game whole
        (:func:`notation.validation.core.unsupported_outline`: no parser loaded for it)."""
        from notation.compiled import core_for, through_core
        from notation.pgn.reader import parse_raw_game
        from notation.validation.core import unsupported_outline

        verdict, failure = through_core(raw, lambda module: self._add_in_core(module, gid, raw, source_file))
        if verdict is not None:
            return verdict
        outlined = unsupported_outline(raw) if failure is None and core_for(raw) is not None else None
        game = outlined if outlined is not None else parse_raw_game(raw, failure=failure)
        name = source_file if source_file is not None else _basename(game.file)
        return self.add_game(gid, game, name)

    def add_batch(self, items: list[tuple[int, RawGame]], source_file: str | None, statuses: Counter[str]) -> None:
        """:meth:`add_raw` for each of ``items`` (``statuses`` counts their verdicts' statuses),
        the compiled core writing the rows of a run of plain games in one call
        (``notation._core.import_rows``: the games whose verdict it decides whole, from the
        standard start) and stopping at the first it does not take, which :meth:`add_raw`
        reads; the same rows either way (a test compares them). A panic in that call leaves
        the games to :meth:`add_raw`, whose own call says what went wrong."""
        from notation.compiled import core_module

        module = core_module()
        if module is None or source_file is None:
            for gid, raw in items:
                statuses[self.add_raw(gid, raw, source_file).status] += 1
            return
        from notation.pgn.plain import MAX_DIAGNOSTICS
        from notation.validation.dead import SEARCHES

        if self.moves is not None:
            if self.moves.core_batch is None:
                self.moves.core_batch = module.MovesBatch(commands=CORE_PATTERNS)
            template = self.moves.core_batch
        else:
            assert self.keys is not None  # (one of the two is built)
            template = self.keys.batch(module)
        raws = [raw for _, raw in items]
        gids = [gid for gid, _ in items]
        done = 0
        while done < len(items):
            try:
                taken, games, plies, problems, counts, warnings, starts = module.import_rows(
                    raws[done:], gids[done:], source_file, MAX_DIAGNOSTICS, SEARCHES, template, _core_start
                )
            except module.CorePanic:
                taken = -1
            if taken > 0:
                ids = gids[done : done + taken]
                where = [(raw.file, raw.number, raw.line) for raw in raws[done : done + taken]]
                self.games.add_core(pl.DataFrame(games), where)
                if self.moves is not None:
                    self.moves.add_core_rows(plies, problems, ids, counts, where, _positions(starts))
                elif self.keys is not None:
                    self.keys.add_core_rows(plies, ids, counts)
                if warnings:
                    statuses["warning"] += warnings
                if taken > warnings:
                    statuses["ok"] += taken - warnings
                done += taken
            rest = items[done:] if taken < 0 else items[done : done + 1]
            for gid, raw in rest:
                statuses[self.add_raw(gid, raw, source_file).status] += 1
            done += len(rest)

    def _add_in_core(self, module: Core, gid: int, raw: RawGame, source_file: str | None) -> Verdict | None:
        from notation.validation import core

        batch = None
        if self.moves is not None:
            if self.moves.core_batch is None:
                self.moves.core_batch = module.MovesBatch(commands=CORE_PATTERNS)
            batch = self.moves.core_batch
        elif self.keys is not None:
            batch = self.keys.batch(module)
        taken = core.take(module, raw, batch)
        if taken is None:
            return None
        game, result, start = taken
        name = source_file if source_file is not None else _basename(game.file)
        diagnostics, end, claim, dead = core.findings_of(game, result)
        if any(d.severity in _COUNTED for d in diagnostics):
            v = verdict_of(core.report_from(game, result, game.file or "<input>", start, diagnostics, end, claim, dead))
        else:  # information alone (a missing Round tag ...): the verdict without the report
            white, black = dead.white, dead.black
            v = Verdict(
                "ok",
                0,
                0,
                None,
                result.final_fen,
                end.termination,
                claim.threefold,
                claim.fifty_moves,
                dead.first,
                white[0],
                black[0],
            )
        self.games.add(gid, name, game, result.plies, _start_fen(game, start), v)
        if self.moves is not None:
            self.moves.add_core(gid, start, result.plies, game)
        elif self.keys is not None:
            self.keys.add_core(gid, result.plies)
        return v

    def finish(self) -> tuple[pl.DataFrame, pl.DataFrame]:
        """Both tables; the games get their computed openings from the moves' position keys."""
        moves = self.moves.finish() if self.moves is not None else empty_moves()
        found = openings_of(moves) if self.keys is None else self.keys.finish()
        return with_openings(self.games.finish(), found), moves

    @property
    def diagnostics(self) -> list[Diagnostic]:
        """The values stored as null because their column cannot hold them
        (``table.value-out-of-range``), in game and ply order (complete after :meth:`finish`)."""
        found = self.games.diagnostics + (self.moves.diagnostics if self.moves is not None else [])
        return sorted(found, key=lambda d: (d.file or "", d.game or 0, d.ply or 0))


def _positions(starts: list[tuple[str | None, str | None, str | None] | None]) -> list[Position | None] | None:
    """The start positions of the games ``import_rows`` took (None: the standard start), from
    the tags it read; None when every one starts from the standard position."""
    if not any(starts):
        return None
    from notation.validation.core import start_of

    return [None if tags is None else start_of(*tags) for tags in starts]


def _start_fen(game: Game, start: Position | None) -> str | None:
    """The games table's ``start_fen``: None for the standard start (no FEN tag, also for
    Chess960 games), the FEN as the engine writes it, or the tag as written when unreadable."""
    if "FEN" not in game.tags:
        return None
    if start is not None:
        return _written_start(start)
    return _text(game.tags, "FEN")


def _written_start(start: Position) -> str | None:
    """The ``start_fen`` of a game from ``start`` (its FEN tag read): None for the standard position."""
    fen = start.fen()
    return None if fen == STARTING_FEN else fen


@lru_cache(maxsize=1024)
def _core_start(
    fen: str | None, variant: str | None, setup: str | None
) -> tuple[tuple[str | None, int, int, bool, int], str | None] | None:
    """What ``notation._core.import_rows`` is given of a game with these ``FEN``, ``Variant``
    and ``SetUp`` tags (None: absent): the core's start
    (:func:`notation.validation.core.core_start`) and the game's ``start_fen``
    (:func:`_start_fen`), or None when the per-game path reads the game."""
    from notation.validation.core import core_start, start_of

    given, start = core_start(fen, variant, setup), start_of(fen, variant, setup)
    if given is None or start is None:
        return None
    return given, (None if fen is None else _written_start(start))


def raw_games(source: Any) -> Iterator[tuple[int, RawGame] | ReadFailure]:
    """``(game_id, raw_game)`` for every game chunk of ``source`` (no parsing), and the read
    failures beside them as they come."""
    from notation.pgn.reader import split_games

    for raw in split_games(source):
        yield raw if isinstance(raw, ReadFailure) else (game_id(raw_text(raw)), raw)


def raw_text(raw: RawGame) -> str | bytes:
    """The text of a :class:`notation.pgn.chunks.RawGame` (bytes or str, whichever it holds)."""
    return raw.data


def source_name(source: Any) -> str | None:
    """The display name of a source: a path's file name, a handle's ``name``, else None (as
    text that can be written: :func:`notation.pgn.sources.display_path`)."""
    import os

    from notation.pgn.sources import display_path

    if isinstance(source, (str, os.PathLike)):
        return display_path(os.path.basename(os.fsdecode(source)))
    name = getattr(source, "name", None)
    return display_path(os.path.basename(name)) if isinstance(name, str) else None


#: Games handed to :meth:`TableBuilder.add_batch` at a time.
BATCH_GAMES = 256


def tabulate_raw(
    items: Iterable[tuple[int, Any]],
    *,
    moves: bool = True,
    source_file: str | None = None,
    diagnostics: list[Diagnostic] | None = None,
    batch: bool = True,
) -> tuple[pl.DataFrame, pl.DataFrame, Counter[str]]:
    """Parse, replay and tabulate ``(game_id, raw_game)`` pairs (the work of one chunk): both
    tables and how many games have each status. ``diagnostics`` receives the values stored
    as null (:attr:`TableBuilder.diagnostics`). ``batch`` False: every game through
    :meth:`TableBuilder.add_raw` (the same tables; for the tests)."""
    builder = TableBuilder.new(moves=moves)
    statuses: Counter[str] = Counter()
    if batch:
        chunk: list[tuple[int, Any]] = []
        for item in items:
            chunk.append(item)
            if len(chunk) >= BATCH_GAMES:
                builder.add_batch(chunk, source_file, statuses)
                chunk = []
        if chunk:
            builder.add_batch(chunk, source_file, statuses)
    else:
        for gid, raw in items:
            statuses[builder.add_raw(gid, raw, source_file).status] += 1
    games, plies = builder.finish()
    if diagnostics is not None:
        diagnostics.extend(builder.diagnostics)
    return games, plies, statuses


def tabulate_source(source: Any, *, moves: bool = True, batch: bool = True) -> tuple[pl.DataFrame, pl.DataFrame]:
    """:func:`notation.tables.frames.to_frames`: every game of ``source``, no de-duplication."""
    pairs = (item for item in raw_games(source) if not isinstance(item, ReadFailure))
    games, plies, _ = tabulate_raw(pairs, moves=moves, source_file=source_name(source), batch=batch)
    return games, plies


def _basename(path: str | None) -> str | None:
    import os

    from notation.pgn.sources import display_path

    return display_path(os.path.basename(path)) if path else None
