"""Row builders of the games and moves tables: per-column lists flushed to Polars in batches.

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
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import polars as pl

from notation.diagnostics import Diagnostic

from notation.formats.fen import STARTING_FEN
from notation.formats.san import parse_san_syntax
from notation.openings.columns import KeysBuilder, openings_of, with_openings
from notation.pgn.comment_commands import CLOCK_PATTERN, COMMAND_PATTERN, EVAL_PATTERN, TL_PATTERN, WV_PATTERN
from notation.rules.squares import PAWN, PIECE_LETTERS, PIECE_VALUES, SQUARE_NAMES
from notation.tables import ranges
from notation.tables.schema import (
    COLUMN_TAGS,
    GAMES_SCHEMA,
    MOVES_SCHEMA,
    RESULTS,
    UNKNOWN_VALUES,
    empty_games,
    empty_moves,
)

if TYPE_CHECKING:  # pragma: no cover
    from notation.pgn.model import Game
    from notation.pgn.reader import RawGame
    from notation.rules.position import Position
    from notation.validation.replay import Replay
    from notation.validation.reports import GameReport

#: rows per flushed batch (moves); games flush every ``BATCH_ROWS // 64`` games
BATCH_ROWS = 65_536

_SPACES = re.compile(r"\s+")


_BLANK_TO_SPACE = bytes.maketrans(b"\t\n\r\x0b\x0c", b"     ")  # bytes.split()'s blanks


def game_id(text: str | bytes) -> int:
    """Stable 64-bit id of a game: blake2b-64 of its text with every whitespace run folded to
    one space (so CRLF/LF, re-wrapping and indentation do not change it)."""
    data = text.encode("utf-8", "surrogatepass") if isinstance(text, str) else text
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
    text = _SPACES.sub(" ", text).strip()
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
    )


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
        if len(c["game_id"]) >= self._batch:
            self._flush()

    def _flush(self) -> None:
        c = self._cols
        if not c["game_id"]:
            return
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
            schema={
                **{name: pl.String for name in self._RAW if name != "extra_tags"},
                "game_id": pl.UInt64,
                "game_number": pl.Int64,  # cast (checked) to Int32 by _type_games
                "plies": pl.Int32,
                "error_count": pl.Int32,
                "warning_count": pl.Int32,
                "threefold_ply": pl.Int32,
                "fifty_moves_ply": pl.Int32,
            },
        ).with_columns(extra.cast(GAMES_SCHEMA["extra_tags"]).alias("extra_tags"))
        typed = _type_games(raw)
        for row, column, tag, text in ranges.game_problems(raw, typed):
            file, number, line = self._where[row]
            self.diagnostics.append(
                ranges.out_of_range(column, GAMES_SCHEMA[column], tag, text, file=file, game=number, line=line)
            )
        self._frames.append(typed)
        self._cols = {name: [] for name in self._RAW}
        self._where = []
        self._tag_name, self._tag_value, self._tag_row = [], [], []

    def finish(self) -> pl.DataFrame:
        """All games added so far as one frame with :data:`GAMES_SCHEMA`."""
        self._flush()
        if not self._frames:
            return empty_games()
        frame = pl.concat(self._frames, how="vertical", rechunk=False)
        self._frames = [frame]
        return frame


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
        date_text.str.strptime(pl.Date, "%Y.%m.%d", strict=False).alias("date"),
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
        utc.str.strptime(pl.Datetime("us"), "%Y.%m.%d %H:%M:%S", strict=False)
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
        pl.col("extra_tags"),
    )


def _elo(name: str) -> pl.Expr:
    return (
        pl.col(name)
        .str.strip_chars()
        .str.to_integer(strict=False)
        .cast(pl.Int16, strict=False)
        .alias(name)
    )


class MovesBuilder:
    """Per-column lists for the moves table, filled from a replay's plies.

    Per ply, Python collects only what the replay already knows (one list comprehension per
    column): the canonical SAN, the move's squares and promotion, the piece types on its from
    and to squares, whether it castles, checks or mates, the raw comment text, NAGs and the
    repetition key. Everything derivable from those is computed by Polars at flush time: game
    id, ply, move number and colour (from the start position's turn and move number), UCI,
    piece letters, material (running sums of captures and promotions from the start
    position's material), and the comment commands ``[%clk]``/``[%eval]`` and the cleaned
    comment, with the very patterns of :mod:`notation.pgn.comment_commands` (a test keeps both
    paths agreeing).
    """

    _GAME = ("game", "game_id", "n", "white_first", "fullmove", "mw0", "mb0")
    _PLY = (
        "san",
        "from_sq",
        "to_sq",
        "piece",
        "target",
        "promotion",
        "castle",
        "check",
        "mate",
        "text",
        "nags",
        "position_key",
    )

    def __init__(self, batch_rows: int = BATCH_ROWS) -> None:
        self._batch = batch_rows
        self._frames: list[pl.DataFrame] = []
        self._g: dict[str, list[Any]] = {name: [] for name in self._GAME}
        self._p: dict[str, list[Any]] = {name: [] for name in self._PLY}
        self._segments: list[pl.DataFrame] = []  # ply columns of earlier games, in order
        self.core_batch: Any = None  # the compiled core's columns (notation._core.MovesBatch)
        self._where: list[tuple[str | None, int | None, int | None]] = []  # per game of the batch
        #: ``table.value-out-of-range`` warnings of the rows flushed so far (see ``ranges``)
        self.diagnostics: list[Diagnostic] = []
        self._rows = 0
        self.count = 0

    def _game(self, gid: int, start: Position, plies: int, game: Game | None) -> None:
        mw0, mb0 = start.material()
        g = self._g
        where = (game.file, game.number, game.line) if game is not None else (None, None, None)
        self._where.append(where)
        g["game"].append(len(g["game"]))
        g["game_id"].append(gid)
        g["n"].append(plies)
        g["white_first"].append(bool(start.turn))
        fullmove = start.fullmove_number
        if ranges.fits(fullmove, pl.Int32):
            g["fullmove"].append(fullmove)
        else:  # a FEN move number beyond the column's range: the game's move numbers are null
            file, number, line = where
            self.diagnostics.append(
                ranges.out_of_range(
                    "move_number", MOVES_SCHEMA["move_number"], "FEN move number", str(fullmove),
                    file=file, game=number, line=line,
                )
            )
            g["fullmove"].append(None)
        g["mw0"].append(mw0)
        g["mb0"].append(mb0)

    def add_core(self, gid: int, start: Position, plies: int, game: Game | None = None) -> None:
        """Account for the ``plies`` rows the compiled core appended to :attr:`core_batch`."""
        if not plies:
            return
        if self._p["san"]:
            self._seal_python()
        self._game(gid, start, plies, game)
        self._rows += plies
        self.count += plies
        if self._rows >= self._batch:
            self._flush()

    def add(self, gid: int, rep: Replay, game: Game | None = None) -> None:
        """Append one row per legal mainline ply of ``rep`` (``game``: its location, for
        diagnostics)."""
        plies = rep.plies
        if not plies:
            return
        if self.core_batch is not None and len(self.core_batch):
            self._segments.append(pl.DataFrame(self.core_batch.take()))
        self._game(gid, plies[0].before, len(plies), game)
        p = self._p
        p["san"].extend([r.san for r in plies])
        p["from_sq"].extend([r.move.from_square for r in plies])
        p["to_sq"].extend([r.move.to_square for r in plies])
        # piece types: the mover's (None for a null move), the captured one's (``target``: 0 when
        # nothing is captured, None for en passant, whose target square is empty), the promotion
        p["piece"].extend([r.before.piece_type_at(r.move.from_square) if r.move else None for r in plies])
        p["target"].extend(
            [r.before.piece_type_at(r.move.to_square) if r.before.is_capture(r.move) else 0 for r in plies]
        )
        p["promotion"].extend([r.move.promotion for r in plies])
        p["castle"].extend([r.before.is_castling(r.move) for r in plies])
        p["check"].extend([r.check for r in plies])
        # mate as the replay wrote it: the suffix of the canonical SAN (read by formats.san)
        p["mate"].extend([r.check and parse_san_syntax(r.san).suffix == "#" for r in plies])
        p["text"].extend([" ".join(c) if (c := r.node.comments) else None for r in plies])
        p["nags"].extend(
            [ranges.keep_nags(n, self._where[-1], i, r.san, self.diagnostics) if (n := r.node.nags) else None
             for i, r in enumerate(plies, 1)]
        )
        p["position_key"].extend([r.key for r in plies])
        self._rows += len(plies)
        self.count += len(plies)
        if self._rows >= self._batch:
            self._flush()

    def _seal_python(self) -> None:
        """The Python-built ply columns so far become a segment."""
        self._segments.append(pl.DataFrame(self._p, schema=_PLY_SCHEMA, strict=False))
        self._p = {name: [] for name in self._PLY}

    def _flush(self) -> None:
        if not self._rows:
            return
        if self._p["san"]:
            self._seal_python()
        if self.core_batch is not None and len(self.core_batch):
            self._segments.append(pl.DataFrame(self.core_batch.take()))
        plies = pl.concat(self._segments, how="vertical") if len(self._segments) > 1 else self._segments[0]
        self._segments = []
        games = pl.DataFrame(
            self._g,
            schema={
                "game": pl.Int32,
                "game_id": pl.UInt64,
                "n": pl.Int32,
                "white_first": pl.Boolean,
                "fullmove": pl.Int32,
                "mw0": pl.Int16,
                "mb0": pl.Int16,
            },
        )
        frame, problems = _type_moves(games, plies)
        for game, ply, san, column, what, text in problems.iter_rows():
            file, number, line = self._where[game]
            self.diagnostics.append(
                ranges.out_of_range(
                    column, MOVES_SCHEMA[column], what, text, file=file, game=number, line=line, ply=ply, san=san
                )
            )
        self._frames.append(frame)
        self._g = {name: [] for name in self._GAME}
        self._where = []
        self._rows = 0

    def finish(self) -> pl.DataFrame:
        """All plies added so far as one frame with :data:`MOVES_SCHEMA`."""
        self._flush()
        if not self._frames:
            return empty_moves()
        frame = pl.concat(self._frames, how="vertical", rechunk=False)
        self._frames = [frame]
        return frame


#: The raw ply columns (Python lists or the compiled core's Arrow arrays) before derivation.
_PLY_SCHEMA = pl.Schema({
    "san": pl.String(),
    "from_sq": pl.Int8(),
    "to_sq": pl.Int8(),
    "piece": pl.Int8(),
    "target": pl.Int8(),
    "promotion": pl.Int8(),
    "castle": pl.Boolean(),
    "check": pl.Boolean(),
    "mate": pl.Boolean(),
    "text": pl.String(),
    "nags": pl.List(pl.UInt8()),  # MOVES_SCHEMA["nags"]
    "position_key": pl.UInt64(),
})


def _type_moves(games: pl.DataFrame, plies: pl.DataFrame) -> tuple[pl.DataFrame, pl.DataFrame]:
    """The typed moves frame of one batch: per-game facts exploded to plies, plus derived
    columns; and the values that did not fit their column (null in the frame): one row
    ``(game, ply, san, column, what, text)`` each (see :mod:`notation.tables.ranges`).

    Three ``with_columns``/``select`` stages so that each intermediate (colour, captured piece,
    the regex matches of the comment commands) is computed once (eager Polars has no
    common-subexpression elimination).
    """
    per_ply = (
        games.with_columns(i=pl.int_ranges(0, pl.col("n"), dtype=pl.Int32))
        .explode("i")
        .drop("n")
    )
    frame = pl.concat([per_ply, plies], how="horizontal")
    target, text = pl.col("target"), pl.col("text")
    # stage 1: ply parity, capture, and the comment text's commands
    frame = frame.with_columns(
        k=pl.col("i") + pl.when(pl.col("white_first")).then(0).otherwise(1),
        capture=target.ne_missing(0),
        clk=text.str.extract_groups(CLOCK_PATTERN.pattern),
        ev=text.str.extract_groups(EVAL_PATTERN.pattern),
        wv=text.str.extract_groups(WV_PATTERN.pattern),  # engine comments (TCEC, cutechess)
        tl=ranges.milliseconds_as_seconds(text.str.extract(TL_PATTERN.pattern, 1)),
        comment=text.str.replace_all(COMMAND_PATTERN.pattern, " ")
        .str.replace_all(_SPACES.pattern, " ")
        .str.strip_chars(),
    )
    # stage 2: colour, captured piece, material changes
    white = (pl.col("k") % 2) == 0
    captured = pl.when(pl.col("capture")).then(target.fill_null(PAWN))
    clk, ev, wv = pl.col("clk"), pl.col("ev"), pl.col("wv")
    frame = frame.with_columns(white=white, captured=captured).with_columns(
        cap_value=_piece_value(pl.col("captured")).fill_null(0),
        promo_gain=(_piece_value(pl.col("promotion")) - PIECE_VALUES[PAWN]).fill_null(0),
        # the input's numbers, computed wide; stage 3 keeps those that fit their column
        # (loose casts: the patterns' \d also matches non-ASCII digits such as '٣')
        clock_w=pl.coalesce(clk.struct.field("1").cast(pl.Float64, strict=False) * 3600.0
        + clk.struct.field("2").cast(pl.Float64, strict=False) * 60.0
        + clk.struct.field("3").cast(pl.Float64, strict=False).fill_null(0.0), pl.col("tl")),
        cp_w=(pl.coalesce(ev.struct.field("2"), wv.struct.field("3")).cast(pl.Float64, strict=False) * 100.0).round(0),
        mate_w=pl.coalesce(ev.struct.field("1").str.to_integer(strict=False), (wv.struct.field("1") + wv.struct.field(
            "2")).str.to_integer(strict=False)),
        move_w=pl.col("fullmove").cast(pl.Int64) + pl.col("k") // 2,
    )
    fits = {
        "clock_seconds": pl.col("clock_w").is_finite(),
        "eval_cp": ranges.in_range(pl.col("cp_w"), MOVES_SCHEMA["eval_cp"]),
        "eval_mate": ranges.in_range(pl.col("mate_w"), MOVES_SCHEMA["eval_mate"]),
        "move_number": ranges.in_range(pl.col("move_w"), MOVES_SCHEMA["move_number"]),
    }
    problems = ranges.move_problems(frame, fits)
    white = pl.col("white")
    cap_value, promo_gain = pl.col("cap_value"), pl.col("promo_gain")
    promotion = _piece_letter(pl.col("promotion"))
    comment = pl.col("comment")
    columns: dict[str, pl.Expr] = {
        "game_id": pl.col("game_id"),
        "ply": pl.col("i") + 1,
        "move_number": pl.when(fits["move_number"]).then(pl.col("move_w")),
        "color": pl.when(white).then(pl.lit("white")).otherwise(pl.lit("black")),
        "san": pl.col("san"),
        "uci": pl.when(pl.col("from_sq") == pl.col("to_sq"))
        .then(pl.lit("0000"))  # the null move
        .otherwise(
            pl.concat_str(
                _square_name("from_sq"),
                _square_name("to_sq"),
                promotion.str.to_lowercase().fill_null(""),
            )
        ),
        "piece": _piece_letter(pl.col("piece")),
        "captured": _piece_letter(pl.col("captured")),
        "promotion": promotion,
        "is_check": pl.col("check"),
        "is_mate": pl.col("mate"),
        "is_castle": pl.col("castle"),
        "is_en_passant": target.is_null(),
        "clock_seconds": pl.when(fits["clock_seconds"]).then(pl.col("clock_w")),
        "eval_cp": pl.when(fits["eval_cp"]).then(pl.col("cp_w")),
        "eval_mate": pl.when(fits["eval_mate"]).then(pl.col("mate_w")),
        "nags": pl.col("nags"),
        "comment": pl.when(comment != "").then(comment),
        "position_key": pl.col("position_key"),
        "material_white": pl.col("mw0")
        + _running(pl.when(white).then(promo_gain).otherwise(-cap_value)),
        "material_black": pl.col("mb0")
        + _running(pl.when(white).then(-cap_value).otherwise(promo_gain)),
    }
    # stage 3: the schema's columns, in order, with their dtypes
    typed = frame.select(
        expr.cast(dtype, strict=False).alias(name)
        if name in _CAST_LOOSE
        else expr.cast(dtype).alias(name)
        for name, dtype in MOVES_SCHEMA.items()
        for expr in (columns[name],)
    )
    return typed, problems


def _piece_letter(piece_type: pl.Expr) -> pl.Expr:
    """``N`` for piece type 2 (:data:`notation.rules.squares.PIECE_LETTERS`); null stays null."""
    return pl.lit(pl.Series(list(PIECE_LETTERS), dtype=pl.String)).gather(piece_type)


def _piece_value(piece_type: pl.Expr) -> pl.Expr:
    """Material value of a piece type (:data:`notation.rules.squares.PIECE_VALUES`); null stays null."""
    return pl.lit(pl.Series(PIECE_VALUES, dtype=pl.Int16)).gather(piece_type)


def _square_name(column: str) -> pl.Expr:
    """``e4`` for square 28: file letter and rank digit from the 0..63 index."""
    return pl.lit(pl.Series(SQUARE_NAMES, dtype=pl.String)).gather(pl.col(column))


def _running(delta: pl.Expr) -> pl.Expr:
    """Running sum of ``delta`` within each game (rows of a game are contiguous, ``i`` counts
    from 0 in each): one cumulative sum over the batch minus its value before the game."""
    total = delta.cum_sum()
    before_game = pl.when(pl.col("i") == 0).then(total - delta).forward_fill()
    return total - before_game


_CAST_LOOSE = frozenset({"move_number", "material_white", "material_black", "eval_cp", "eval_mate"})


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
        takes the game (its columns go straight to Arrow), else parsed and replayed in Python."""
        from notation.compiled import core_module
        from notation.pgn.reader import parse_raw_game
        from notation.validation import core

        module = core_module()
        if module is not None and raw.size != -1 and not raw.oversized and raw.io_error is None:
            batch = None
            if self.moves is not None:
                if self.moves.core_batch is None:
                    self.moves.core_batch = module.MovesBatch()
                batch = self.moves.core_batch
            elif self.keys is not None:
                batch = self.keys.batch(module)
            try:
                taken = core.take(module, raw, batch)
            except module.CorePanic:
                taken = None  # a bug in the core: the reference decides (its columns are not used)
            if taken is not None:
                game, result, start = taken
                name = source_file if source_file is not None else _basename(game.file)
                v = verdict_of(core.report_of(game, result, game.file or "<input>", start))
                self.games.add(gid, name, game, result.plies, _start_fen(game, start), v)
                if self.moves is not None:
                    self.moves.add_core(gid, start, result.plies, game)
                elif self.keys is not None:
                    self.keys.add_core(gid, result.plies)
                return v
        game = parse_raw_game(raw)
        name = source_file if source_file is not None else _basename(game.file)
        return self.add_game(gid, game, name)

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


def _start_fen(game: Game, start: Position | None) -> str | None:
    """The games table's ``start_fen``: None for the standard start (no FEN tag, also for
    Chess960 games), the FEN as the engine writes it, or the tag as written when unreadable."""
    if "FEN" not in game.tags:
        return None
    if start is not None:
        fen = start.fen()
        return None if fen == STARTING_FEN else fen
    return _text(game.tags, "FEN")


def raw_games(source: Any) -> Iterator[tuple[int, Any]]:
    """``(game_id, raw_game)`` for every game chunk of ``source`` (no parsing)."""
    from notation.pgn.reader import split_games

    for raw in split_games(source):
        yield game_id(raw_text(raw)), raw


def raw_text(raw: RawGame) -> str | bytes:
    """The text of a :class:`notation.pgn.reader.RawGame` (bytes or str, whichever it holds)."""
    return raw.data


def source_name(source: Any) -> str | None:
    """The display name of a source: a path's file name, a handle's ``name``, else None."""
    import os

    if isinstance(source, (str, os.PathLike)):
        return os.path.basename(os.fspath(source))
    name = getattr(source, "name", None)
    return os.path.basename(name) if isinstance(name, str) else None


def tabulate_raw(
    items: Iterable[tuple[int, Any]],
    *,
    moves: bool = True,
    source_file: str | None = None,
    diagnostics: list[Diagnostic] | None = None,
) -> tuple[pl.DataFrame, pl.DataFrame, list[Verdict]]:
    """Parse, replay and tabulate ``(game_id, raw_game)`` pairs (the work of one chunk).
    ``diagnostics`` receives the values stored as null (:attr:`TableBuilder.diagnostics`)."""
    builder = TableBuilder.new(moves=moves)
    verdicts: list[Verdict] = []
    for gid, raw in items:
        verdicts.append(builder.add_raw(gid, raw, source_file))
    games, plies = builder.finish()
    if diagnostics is not None:
        diagnostics.extend(builder.diagnostics)
    return games, plies, verdicts


def tabulate_source(source: Any, *, moves: bool = True) -> tuple[pl.DataFrame, pl.DataFrame]:
    """:func:`notation.tables.frames.to_frames`: every game of ``source``, no de-duplication."""
    games, plies, _ = tabulate_raw(raw_games(source), moves=moves, source_file=source_name(source))
    return games, plies


def _basename(path: str | None) -> str | None:
    import os

    return os.path.basename(path) if path else None
