"""The moves table's row builder: per-ply columns from a replay (or the compiled core's Arrow
arrays), typed and derived by Polars per batch.

Per ply, Python (or the compiled core, :mod:`notation.validation.core`) collects only what the
replay knows; :func:`_type_moves` derives the rest at flush time. The values read from each
move's comments, ``[%clk]``/``tl=`` (``clock_seconds``; ``tl=`` in milliseconds or h:mm:ss),
``[%emt]``/``mt=`` (``move_time_ms``), ``[%eval]``/``wv=``/``score/depth`` (``eval_cp``,
``eval_mate``), ``[%eval …,depth]``/``d=``/``score/depth`` (``depth``) and the cleaned
``comment``, with the patterns of :mod:`notation.pgn.comment_commands`, come from the core for
the games it reads (it is handed those patterns, :data:`CORE_PATTERNS`) and from
:func:`read_comments`, the reference, for the others; tests compare both readings.
Values that do not fit their column are null plus a ``table.value-out-of-range`` warning
(:mod:`notation.tables.ranges`).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import polars as pl

from notation.diagnostics import Diagnostic
from notation.pgn.comment_commands import (
    CLOCK_PATTERN,
    COMMAND_PATTERN,
    DEPTH_PATTERN,
    EMT_PATTERN,
    EVAL_PATTERN,
    MT_PATTERN,
    SCORE_DEPTH_PATTERN,
    TL_PATTERN,
    WV_PATTERN,
)
from notation.rules.squares import PAWN, PIECE_LETTERS, PIECE_VALUES, SQUARE_NAMES
from notation.tables import ranges
from notation.tables.schema import MOVES_SCHEMA, PIECES, empty_moves

if TYPE_CHECKING:  # pragma: no cover
    from notation.pgn.model import Game
    from notation.formats.position import Position
    from notation.validation.replay import Replay
    from notation._core import ArrowColumns, MovesBatch

#: rows per flushed batch (moves); games flush every ``BATCH_ROWS // 64`` games
BATCH_ROWS = 65_536

#: (White, Black) material of the standard start position (``Position.material()``): P1 N3 B3 R5 Q9
STANDARD_MATERIAL: tuple[int, int] = (39, 39)

#: a run of whitespace (folded to one space in the ``comment`` column)
SPACES = re.compile(r"\s+")

#: The patterns the compiled core reads comments with (``MovesBatch(commands=...)``), in the
#: order of ``src/commands.rs`` ``PATTERNS``: the very ones :func:`read_comments` uses.
CORE_PATTERNS: tuple[str, ...] = tuple(
    pattern.pattern
    for pattern in (
        COMMAND_PATTERN,
        CLOCK_PATTERN,
        EMT_PATTERN,
        EVAL_PATTERN,
        WV_PATTERN,
        TL_PATTERN,
        MT_PATTERN,
        SCORE_DEPTH_PATTERN,
        DEPTH_PATTERN,
        SPACES,
    )
)

#: The columns read from a ply's comments, in the order both readings give them.
COMMENT_COLUMNS: tuple[str, ...] = ("clock_seconds", "move_time_ms", "eval_cp", "eval_mate", "depth", "comment")


class MovesBuilder:
    """Per-column lists for the moves table, filled from a replay's plies.

    Per ply, Python collects only what the replay already knows (one list comprehension per
    column): the canonical SAN, the move's squares and promotion, the piece types on its from
    and to squares, whether it castles, checks or mates, the raw comment text, NAGs and the
    repetition key; the values read from the comments come from :func:`read_comments` per
    segment of Python-built rows (the core reads them itself), and so does their UCI
    (:func:`_uci`; the core writes it). Everything derivable from those is computed by Polars
    at flush time: game id, ply, move number and colour (from the start position's turn and
    move number), piece letters and material (running sums of captures and promotions from the
    start position's material).
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
        "white",
        "nags",
        "position_key",
    )

    def __init__(self, batch_rows: int = BATCH_ROWS) -> None:
        self._batch = batch_rows
        self._frames: list[pl.DataFrame] = []
        self._g: dict[str, list[Any]] = {name: [] for name in self._GAME}
        self._p: dict[str, list[Any]] = {name: [] for name in self._PLY}
        # ply columns of earlier games, in order, each with its comment values' problems
        self._segments: list[tuple[pl.DataFrame, list[tuple[int, str, str]]]] = []
        self.core_batch: MovesBatch | None = None  # the compiled core's columns
        self._where: list[tuple[str | None, int | None, int | None]] = []  # per game of the batch
        #: ``table.value-out-of-range`` warnings of the rows flushed so far (see ``ranges``)
        self.diagnostics: list[Diagnostic] = []
        self._rows = 0
        self.count = 0

    def _game(
        self, gid: int, start: Position | None, plies: int, where: tuple[str | None, int | None, int | None]
    ) -> None:
        """A game's ``plies`` rows from ``start`` (None: the standard start position), at
        ``where`` (file, number, line: where its diagnostics point)."""
        mw0, mb0 = STANDARD_MATERIAL if start is None else start.material()
        g = self._g
        self._where.append(where)
        g["game"].append(len(g["game"]))
        g["game_id"].append(gid)
        g["n"].append(plies)
        g["white_first"].append(True if start is None else bool(start.turn))
        fullmove = 1 if start is None else start.fullmove_number
        if ranges.fits(fullmove, pl.Int32):
            g["fullmove"].append(fullmove)
        else:  # a FEN move number beyond the column's range: the game's move numbers are null
            file, number, line = where
            self.diagnostics.append(
                ranges.out_of_range(
                    "move_number",
                    MOVES_SCHEMA["move_number"],
                    "FEN move number",
                    str(fullmove),
                    file=file,
                    game=number,
                    line=line,
                )
            )
            g["fullmove"].append(None)
        g["mw0"].append(mw0)
        g["mb0"].append(mb0)

    def add_core(self, gid: int, start: Position | None, plies: int, game: Game | None = None) -> None:
        """Account for the ``plies`` rows the compiled core appended to :attr:`core_batch`
        (``start`` None: the standard start position)."""
        if not plies:
            return
        if self._p["san"]:
            self._seal_python()
        self._game(gid, start, plies, _where(game))
        self._rows += plies
        self.count += plies
        if self._rows >= self._batch:
            self._flush()

    def add_core_rows(
        self,
        columns: ArrowColumns,
        problems: list[tuple[int, str, str]],
        gids: list[int],
        plies: list[int],
        where: list[tuple[str | None, int, int]],
        starts: list[Position | None] | None = None,
    ) -> None:
        """Append the rows the compiled core wrote in one call (``notation._core.import_rows``:
        ``columns``, the values that did not fit ``problems``) of games ``gids`` with ``plies``
        each, at ``where`` (file, number, line), from ``starts`` (None: every game from the
        standard start position)."""
        if self._p["san"]:
            self._seal_python()
        self._seal_core()
        rows = sum(plies)
        if rows:
            self._segments.append((pl.DataFrame(columns), problems))
        if starts is not None:
            for gid, n, at, start in zip(gids, plies, where, starts):
                if n:
                    self._game(gid, start, n, at)
        else:
            if 0 in plies:
                kept = [i for i, n in enumerate(plies) if n]
                gids, plies, where = [gids[i] for i in kept], [plies[i] for i in kept], [where[i] for i in kept]
            g, count = self._g, len(gids)
            first = len(g["game"])
            g["game"].extend(range(first, first + count))
            g["game_id"].extend(gids)
            g["n"].extend(plies)
            g["white_first"].extend([True] * count)
            g["fullmove"].extend([1] * count)
            g["mw0"].extend([STANDARD_MATERIAL[0]] * count)
            g["mb0"].extend([STANDARD_MATERIAL[1]] * count)
            self._where.extend(where)
        self._rows += rows
        self.count += rows
        if self._rows >= self._batch:
            self._flush()

    def add(self, gid: int, rep: Replay, game: Game | None = None) -> None:
        """Append one row per legal mainline ply of ``rep`` (``game``: its location, for
        diagnostics)."""
        plies = rep.plies
        if not plies:
            return
        self._seal_core()
        self._game(gid, plies[0].before, len(plies), _where(game))
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
        # mate as the replay wrote it: the suffix of the canonical SAN (read by formats.san, loaded
        # here: the compiled core's rows need no rules engine)
        from notation.formats.san import parse_san_syntax

        p["mate"].extend([r.check and parse_san_syntax(r.san).suffix == "#" for r in plies])
        p["text"].extend([" ".join(c) if (c := r.node.comments) else None for r in plies])
        p["white"].extend([bool(r.before.turn) for r in plies])
        p["nags"].extend(
            [
                ranges.keep_nags(n, self._where[-1], i, r.san, self.diagnostics) if (n := r.node.nags) else None
                for i, r in enumerate(plies, 1)
            ]
        )
        p["position_key"].extend([r.key for r in plies])
        self._rows += len(plies)
        self.count += len(plies)
        if self._rows >= self._batch:
            self._flush()

    def _seal_python(self) -> None:
        """The Python-built ply columns so far become a segment (their comments read here)."""
        frame = pl.DataFrame(self._p, schema=_PLY_SCHEMA, strict=False)
        values, problems = read_comments(frame.select("text", "white"))
        frame = frame.drop("text", "white").insert_column(1, _uci(frame))  # (the core's order)
        self._segments.append((pl.concat([frame, values], how="horizontal"), problems))
        self._p = {name: [] for name in self._PLY}

    def _seal_core(self) -> None:
        """The compiled core's rows so far become a segment."""
        batch = self.core_batch
        if batch is not None and len(batch):
            problems = batch.take_problems()
            self._segments.append((pl.DataFrame(batch.take()), problems))

    def _flush(self) -> None:
        if not self._rows:
            return
        if self._p["san"]:
            self._seal_python()
        self._seal_core()
        frames = [frame for frame, _ in self._segments]
        plies = pl.concat(frames, how="vertical") if len(frames) > 1 else frames[0]
        problems: list[tuple[int, str, str]] = []
        offset = 0
        for frame, found in self._segments:
            problems.extend((offset + row, column, text) for row, column, text in found)
            offset += len(frame)
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
        frame, located = _type_moves(games, plies, problems)
        for game, ply, san, column, text in located:
            file, number, line = self._where[game]
            self.diagnostics.append(
                ranges.out_of_range(
                    column,
                    MOVES_SCHEMA[column],
                    ranges.MOVE_CHECKS[column],
                    text,
                    file=file,
                    game=number,
                    line=line,
                    ply=ply,
                    san=san,
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


#: The raw ply columns Python collects (the compiled core gives the same, with the
#: :data:`COMMENT_COLUMNS` read from ``text``, by ``white``'s view, in their place, and ``uci``
#: after ``san``, which :func:`_uci` adds to Python's).
_PLY_SCHEMA = pl.Schema(
    {
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
        "white": pl.Boolean(),  # White moved
        "nags": pl.List(pl.UInt8()),  # MOVES_SCHEMA["nags"]
        "position_key": pl.UInt64(),
    }
)


def read_comments(plies: pl.DataFrame) -> tuple[pl.DataFrame, list[tuple[int, str, str]]]:
    """The reference reading of ply comments (columns ``text``, the comments joined by a space,
    and ``white``, White moved): the :data:`COMMENT_COLUMNS` with the moves table's dtypes, and
    ``(row, column, text)`` of each value present that its column cannot hold (null in the
    frame; see :mod:`notation.tables.ranges`). The compiled core reads the games it takes the
    same way (``src/commands.rs``, with :data:`CORE_PATTERNS`).

    Two ``with_columns`` stages so that the regex matches of the comment commands are computed
    once (eager Polars has no common-subexpression elimination).
    """
    texts = plies["text"]

    def held(literal: str) -> bool:
        """Whether some comment of the batch holds ``literal``."""
        return bool(texts.str.contains(literal, literal=True).any())

    def holding(literal: str) -> pl.Expr:
        """The comment text, or where no comment of the batch holds ``literal`` (which every
        match of the pattern read from it contains) a null text: the pattern then gives the
        same nulls, of the same type, without being run over every ply."""
        return pl.col("text") if held(literal) else pl.lit(None, dtype=pl.String)

    # stage 1: the comment text's commands
    frame = plies.with_columns(
        clk=holding("[%clk").str.extract_groups(CLOCK_PATTERN.pattern),
        ev=holding("[%eval").str.extract_groups(EVAL_PATTERN.pattern),
        wv=holding("wv=").str.extract_groups(WV_PATTERN.pattern),  # engine comments (TCEC, cutechess)
        tl=holding("tl=").str.extract_groups(TL_PATTERN.pattern),  # h, m, s or milliseconds
        emt=holding("[%emt").str.extract_groups(EMT_PATTERN.pattern),
        mt=holding("mt=").str.extract_groups(MT_PATTERN.pattern),  # h, m, s or milliseconds
        dp=holding("d=").str.extract(DEPTH_PATTERN.pattern, 1),
        # Arena, cutechess: "+0.18/23 239" (the mover's view)
        sd=holding("/").str.extract_groups(SCORE_DEPTH_PATTERN.pattern),
        comment=(pl.col("text").str.replace_all(COMMAND_PATTERN.pattern, " ") if held("[%") else pl.col("text"))
        .str.replace_all(SPACES.pattern, " ")
        .str.strip_chars(),
    )
    # stage 2: the input's numbers, computed wide; those that fit their column are kept
    # (loose casts: the patterns' \d also matches non-ASCII digits such as '٣', which give none)
    clk, ev, wv, sd = pl.col("clk"), pl.col("ev"), pl.col("wv"), pl.col("sd")
    view = pl.when(pl.col("white")).then(1).otherwise(-1)  # a score/depth comment's score is the mover's
    frame = frame.with_columns(
        clock_w=pl.coalesce(
            clk.struct.field("1").cast(pl.Float64, strict=False) * 3600.0
            + clk.struct.field("2").cast(pl.Float64, strict=False) * 60.0
            + clk.struct.field("3").cast(pl.Float64, strict=False).fill_null(0.0),
            _time_left(pl.col("tl")),
        ),
        cp_w=(
            pl.coalesce(
                ev.struct.field("2").cast(pl.Float64, strict=False),
                wv.struct.field("3").cast(pl.Float64, strict=False),
                sd.struct.field("3").cast(pl.Float64, strict=False) * view,
            )
            * 100.0
        ).round(0),
        mate_w=pl.coalesce(
            ev.struct.field("1").str.to_integer(strict=False),
            (wv.struct.field("1") + wv.struct.field("2")).str.to_integer(strict=False),
            sd.struct.field("2").str.to_integer(strict=False)
            * pl.when(sd.struct.field("1") == "-").then(-1).otherwise(1)
            * view,
        ),
        # [%emt] wins over mt=; null where the text's number is not an Int64 (too many digits)
        time_w=pl.when(pl.col("emt").struct.field("1").is_not_null())
        .then(_milliseconds(pl.col("emt")))
        .when(pl.col("mt").struct.field("4").is_not_null())
        .then(pl.col("mt").struct.field("4").str.to_integer(strict=False))
        .otherwise(_milliseconds(pl.col("mt"))),
        depth_w=pl.coalesce(ev.struct.field("3"), pl.col("dp"), sd.struct.field("4")).str.to_integer(strict=False),
    )
    fits = {
        "clock_seconds": pl.col("clock_w").is_finite(),
        "eval_cp": ranges.in_range(pl.col("cp_w"), MOVES_SCHEMA["eval_cp"]),
        "eval_mate": ranges.in_range(pl.col("mate_w"), MOVES_SCHEMA["eval_mate"]),
        "move_time_ms": pl.col("time_w").is_not_null(),
        "depth": ranges.in_range(pl.col("depth_w"), MOVES_SCHEMA["depth"]),
    }
    problems = ranges.comment_problems(frame, fits)
    comment = pl.col("comment")
    values = frame.select(
        pl.when(fits["clock_seconds"]).then(pl.col("clock_w")).alias("clock_seconds"),
        pl.col("time_w").alias("move_time_ms"),
        pl.when(fits["eval_cp"]).then(pl.col("cp_w")).cast(MOVES_SCHEMA["eval_cp"], strict=False).alias("eval_cp"),
        pl.when(fits["eval_mate"])
        .then(pl.col("mate_w"))
        .cast(MOVES_SCHEMA["eval_mate"], strict=False)
        .alias("eval_mate"),
        pl.when(fits["depth"]).then(pl.col("depth_w")).cast(MOVES_SCHEMA["depth"], strict=False).alias("depth"),
        pl.when(comment != "").then(comment).alias("comment"),
    ).cast({name: MOVES_SCHEMA[name] for name in COMMENT_COLUMNS})
    return values, problems


def _type_moves(
    games: pl.DataFrame, plies: pl.DataFrame, problems: list[tuple[int, str, str]]
) -> tuple[pl.DataFrame, list[tuple[int, int, str, str, str]]]:
    """The typed moves frame of one batch: per-game facts exploded to plies, plus derived
    columns; and the values that did not fit their column (null in the frame): one
    ``(game, ply, san, column, text)`` each, in ply order (see :mod:`notation.tables.ranges`).
    ``problems``: those of the comment values, ``(row, column, text)``.

    Two ``with_columns`` stages and a ``select`` so that each intermediate (colour, captured
    piece) is computed once (eager Polars has no common-subexpression elimination).
    """
    per_ply = games.with_columns(i=pl.int_ranges(0, pl.col("n"), dtype=pl.Int32)).explode("i").drop("n")
    frame = pl.concat([per_ply, plies], how="horizontal")
    target = pl.col("target")

    # stage 1: ply parity, capture
    frame = frame.with_columns(
        k=pl.col("i") + pl.when(pl.col("white_first")).then(0).otherwise(1),
        capture=target.ne_missing(0),
    )
    # stage 2: colour, captured piece, material changes
    white = (pl.col("k") % 2) == 0
    captured = pl.when(pl.col("capture")).then(target.fill_null(PAWN))
    frame = frame.with_columns(white=white, captured=captured).with_columns(
        cap_value=_piece_value(pl.col("captured")).fill_null(0),
        promo_gain=(_piece_value(pl.col("promotion")) - PIECE_VALUES[PAWN]).fill_null(0),
        move_w=pl.col("fullmove").cast(pl.Int64) + pl.col("k") // 2,
    )
    number_fits = ranges.in_range(pl.col("move_w"), MOVES_SCHEMA["move_number"])
    # a FEN move number near the column's end: the move numbers past it (rare: one pass of flags)
    unfit = frame.select(pl.col("fullmove").is_not_null() & ~number_fits.fill_null(False)).to_series()
    if unfit.any():
        numbers = frame.get_column("move_w").cast(pl.String)
        problems = problems + [(row, "move_number", numbers[row]) for row in unfit.arg_true().to_list()]
    order = {column: rank for rank, column in enumerate(ranges.MOVE_CHECKS)}
    located = [
        (frame["game"][row], frame["i"][row] + 1, frame["san"][row], column, text)
        for row, column, text in sorted(problems, key=lambda found: (found[0], order[found[1]]))
    ]
    white = pl.col("white")
    cap_value, promo_gain = pl.col("cap_value"), pl.col("promo_gain")
    columns: dict[str, pl.Expr] = {
        "game_id": pl.col("game_id"),
        "ply": pl.col("i") + 1,
        "move_number": pl.when(number_fits).then(pl.col("move_w")),
        "color": _COLOR_OF_PARITY.gather(pl.col("k") % 2),
        "san": pl.col("san"),
        "uci": pl.col("uci"),
        "piece": _piece_enum(pl.col("piece")),
        "captured": _piece_enum(pl.col("captured")),
        "promotion": _piece_enum(pl.col("promotion")),
        "is_check": pl.col("check"),
        "is_mate": pl.col("mate"),
        "is_castle": pl.col("castle"),
        "is_en_passant": target.is_null(),
        "nags": pl.col("nags"),
        "position_key": pl.col("position_key"),
        "material_white": pl.col("mw0") + _running(pl.when(white).then(promo_gain).otherwise(-cap_value)),
        "material_black": pl.col("mb0") + _running(pl.when(white).then(-cap_value).otherwise(promo_gain)),
    }
    columns.update((name, pl.col(name)) for name in COMMENT_COLUMNS)
    # stage 3: the schema's columns, in order, with their dtypes
    typed = frame.select(
        expr.cast(dtype, strict=False).alias(name) if name in _CAST_LOOSE else expr.cast(dtype).alias(name)
        for name, dtype in MOVES_SCHEMA.items()
        for expr in (columns[name],)
    )
    return typed, located


def _uci(plies: pl.DataFrame) -> pl.Series:
    """The ``uci`` column of Python-built ply columns (the core writes its own): from and to
    squares and the promotion in lower case, ``0000`` for a null move."""
    move = pl.concat_str(
        _square_name("from_sq"), _square_name("to_sq"), _promotion_letter(pl.col("promotion")).fill_null("")
    )
    null_move = pl.col("from_sq") == pl.col("to_sq")
    return plies.select(pl.when(null_move).then(pl.lit("0000")).otherwise(move).alias("uci")).to_series()


def _time_left(tl: pl.Expr) -> pl.Expr:
    """Seconds of a ``tl=`` match: milliseconds (group 4, exact decimals) or h:mm:ss (groups 1-3)."""
    hours, minutes, seconds = (tl.struct.field(g).cast(pl.Float64, strict=False) for g in ("1", "2", "3"))
    return (
        pl.when(tl.struct.field("4").is_not_null())
        .then(ranges.milliseconds_as_seconds(tl.struct.field("4")))
        .otherwise(hours * 3600.0 + minutes * 60.0 + seconds)
    )


def _milliseconds(hms: pl.Expr) -> pl.Expr:
    """Groups 1-3 (hours, minutes, seconds or null) of an ``h:mm(:ss(.f))`` match as whole
    milliseconds (``Int64``; null when they do not fit), with the arithmetic of
    :func:`notation.pgn.comment_commands.move_time_ms`."""
    hours, minutes, seconds = (hms.struct.field(g).cast(pl.Float64, strict=False) for g in ("1", "2", "3"))
    whole = hours * 3_600_000.0 + minutes * 60_000.0 + seconds.fill_null(0.0) * 1000.0
    return whole.round(0).cast(pl.Int64, strict=False)


def _promotion_letter(piece_type: pl.Expr) -> pl.Expr:
    """``n`` for piece type 2 (:data:`notation.rules.squares.PIECE_LETTERS` in lower case, as
    UCI writes a promotion); null stays null."""
    return pl.lit(pl.Series([letter.lower() for letter in PIECE_LETTERS], dtype=pl.String)).gather(piece_type)


def _piece_enum(piece_type: pl.Expr) -> pl.Expr:
    """:data:`~notation.rules.squares.PIECE_LETTERS` as the schema's piece ``Enum`` itself (no text cast per ply); piece
    type 0 (no piece) and null are null."""
    return pl.lit(pl.Series([None, *PIECES], dtype=MOVES_SCHEMA["piece"])).gather(piece_type)


#: The mover's colour by the ply's parity from White's first move (``k % 2``), as the schema's ``Enum``.
_COLOR_OF_PARITY = pl.lit(pl.Series(["white", "black"], dtype=MOVES_SCHEMA["color"]))


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


_CAST_LOOSE = frozenset({"move_number", "material_white", "material_black", "eval_cp", "eval_mate", "depth"})


def _where(game: Game | None) -> tuple[str | None, int | None, int | None]:
    """Where a game's diagnostics point: its file, number and first line (None: unknown)."""
    return (game.file, game.number, game.line) if game is not None else (None, None, None)
