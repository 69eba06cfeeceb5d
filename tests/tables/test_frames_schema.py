"""The games and moves schemas: names and dtypes pinned (change them like an API)."""

from __future__ import annotations

import polars as pl

from notation.tables.schema import GAMES_SCHEMA, MOVES_SCHEMA

RESULT = pl.Enum(["1-0", "0-1", "1/2-1/2", "*"])
STATUS = pl.Enum(["ok", "warning", "error", "unsupported"])
OUTCOME = pl.Enum(["checkmate", "stalemate", "dead_position", "fivefold_repetition", "seventyfive_moves"])
PIECE = pl.Enum(["P", "N", "B", "R", "Q", "K"])
CAT = pl.Categorical()

EXPECTED_GAMES: list[tuple[str, pl.DataType]] = [
    ("game_id", pl.UInt64()),
    ("source_file", CAT),
    ("game_number", pl.Int32()),
    ("event", CAT),
    ("site", pl.String()),
    ("date", pl.Date()),
    ("date_text", pl.String()),
    ("round", pl.String()),
    ("white", pl.String()),
    ("black", pl.String()),
    ("result", RESULT),
    ("white_elo", pl.Int16()),
    ("black_elo", pl.Int16()),
    ("white_title", CAT),
    ("black_title", CAT),
    ("eco", CAT),
    ("opening", CAT),
    ("eco_computed", CAT),
    ("opening_computed", CAT),
    ("time_control", CAT),
    ("base_seconds", pl.Int32()),
    ("increment_seconds", pl.Int16()),
    ("termination", CAT),
    ("utc_datetime", pl.Datetime("us", "UTC")),
    ("variant", CAT),
    ("start_fen", pl.String()),
    ("plies", pl.Int32()),
    ("status", STATUS),
    ("error_count", pl.Int32()),
    ("warning_count", pl.Int32()),
    ("first_error", CAT),
    ("final_fen", pl.String()),
    ("outcome", OUTCOME),
    ("threefold_ply", pl.Int32()),
    ("fifty_moves_ply", pl.Int32()),
    ("first_dead_ply", pl.Int32()),
    ("white_can_mate", pl.Boolean()),
    ("black_can_mate", pl.Boolean()),
    ("extra_tags", pl.List(pl.Struct({"name": pl.String, "value": pl.String}))),
]

EXPECTED_MOVES: list[tuple[str, pl.DataType]] = [
    ("game_id", pl.UInt64()),
    ("ply", pl.Int32()),
    ("move_number", pl.Int32()),
    ("color", pl.Enum(["white", "black"])),
    ("san", pl.String()),
    ("uci", pl.String()),
    ("piece", PIECE),
    ("captured", PIECE),
    ("promotion", PIECE),
    ("is_check", pl.Boolean()),
    ("is_mate", pl.Boolean()),
    ("is_castle", pl.Boolean()),
    ("is_en_passant", pl.Boolean()),
    ("clock_seconds", pl.Float64()),
    ("move_time_ms", pl.Int64()),
    ("eval_cp", pl.Int32()),
    ("eval_mate", pl.Int16()),
    ("depth", pl.Int16()),
    ("nags", pl.List(pl.UInt8)),
    ("comment", pl.String()),
    ("position_key", pl.UInt64()),
    ("material_white", pl.Int16()),
    ("material_black", pl.Int16()),
]


def test_games_schema_names_and_dtypes() -> None:
    assert list(GAMES_SCHEMA.items()) == EXPECTED_GAMES


def test_moves_schema_names_and_dtypes() -> None:
    assert list(MOVES_SCHEMA.items()) == EXPECTED_MOVES


def test_empty_frames_carry_the_schemas() -> None:
    from notation.tables.schema import empty_games, empty_moves

    assert empty_games().schema == GAMES_SCHEMA
    assert empty_moves().schema == MOVES_SCHEMA
