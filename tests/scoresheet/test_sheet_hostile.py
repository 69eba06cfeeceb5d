"""Hostile scoresheets: bounded work on long tokens and pathological sheets, the result a final
position implies, and tag names checked against the PGN tag-name syntax."""

from __future__ import annotations

import time

import pytest
from typer.testing import CliRunner

from notation.cli.main import app
from notation.scoresheet.reader import reconstruct
from notation.scoresheet.tags import parse_tags
from notation.scoresheet.tokens import MAX_TOKEN_LENGTH, parse_token


def _cpu(text: str) -> float:
    """Best of two CPU times of reconstructing ``text`` (process time: other jobs don't count)."""
    best = float("inf")
    for _ in range(2):
        started = time.process_time()
        reconstruct(text)
        best = min(best, time.process_time() - started)
    return best


# --- (a) CPU: token length capped, work linear in the input ----------------------------------------


def test_long_token_is_unreadable_at_once_with_a_located_diagnostic() -> None:
    text = "1. e4 e5 " + "x" * 20_000
    started = time.process_time()
    rec = reconstruct(text)
    assert time.process_time() - started < 2.0  # was 21 s (edit distance against every move)
    assert rec.sans == ["e4", "e5"]
    (diag,) = [d for d in rec.diagnostics if d.code == "sheet.unreadable"]
    assert (diag.line, diag.column) == (1, 10)
    assert "20000 characters" in diag.message and len(diag.san or "") == MAX_TOKEN_LENGTH + 1
    assert parse_token("N" + "f" * MAX_TOKEN_LENGTH + "3") is None


def test_256_kb_token_finishes() -> None:
    rec = reconstruct("1. e4 e5 2. " + "e.p." * 65_536 + " Nf3 *")
    assert rec.sans[:2] == ["e4", "e5"]


# Each family at n and 4n units: linear work gives a ratio near 4, quadratic 16. The ratio is
# generous (10) and an absolute slack of 50 ms keeps tiny times from making noise.
FAMILIES = {
    "one long token": lambda n: "1. e4 e5 " + "x" * (n * 16),
    "long token of marks": lambda n: "1. e4 e5 " + "e.p." * (n * 4),
    "garbage tokens": lambda n: " ".join(f"zq{i % 7}" for i in range(n)),
    "one very long line of moves": lambda n: "1. e4 e5 " + "Nf3 " * n,
    "many move numbers": lambda n: "1. e4 e5 " + " ".join(f"{i}." for i in range(2, n)),
    "unclosed comments": lambda n: "1. e4 e5 " + "{" * (n * 4),
    "tag line with a run of blanks": lambda n: "Event: a" + " " * (n * 8) + "b\n1. e4 e5 *",
    "csv cell with a run of blanks": lambda n: "#,White,Black\n1,e4" + " " * (n * 8) + "x,e5\n",
}


@pytest.mark.parametrize("family", sorted(FAMILIES))
def test_work_is_linear_in_the_input(family: str) -> None:
    make = FAMILIES[family]
    reconstruct(make(100))  # warm-up: parsers built, caches filled
    small, large = _cpu(make(6_000)), _cpu(make(24_000))
    assert large < 10 * small + 0.05, f"{family}: {small:.3f} s -> {large:.3f} s for 4x the input"


def test_100k_garbage_tokens() -> None:
    started = time.process_time()
    rec = reconstruct(" ".join(f"zz{i % 13}q" for i in range(100_000)))
    assert time.process_time() - started < 30.0
    assert rec.status == "needs-human"


# --- (b) the result the final position implies ------------------------------------------------------


def test_checkmate_without_a_written_result_gets_the_result() -> None:
    rec = reconstruct("1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7#")
    assert rec.result == "1-0" and rec.tags["Result"] == "1-0"
    assert '[Result "1-0"]' in rec.pgn() and rec.pgn().rstrip().endswith("1-0")
    assert reconstruct("1. f3 e5 2. g4 Qh4#").result == "0-1"


def test_stalemate_and_dead_position_are_draws() -> None:
    assert reconstruct("1. Qf7", fen="7k/8/6K1/8/8/8/8/5Q2 w - - 0 1").result == "1/2-1/2"
    assert reconstruct("1. Bxa2", fen="7k/8/8/8/8/8/p7/1B5K w - - 0 1").result == "1/2-1/2"


def test_a_written_result_or_an_open_game_is_kept() -> None:
    assert reconstruct("1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7# 0-1").result == "0-1"  # as written
    assert reconstruct("1. e4 e5 2. Nf3").result == "*"


# --- (c) tag names --------------------------------------------------------------------------------


def test_parse_tags_uses_the_grammar_tag_name() -> None:
    assert parse_tags("White=Anna, Black = Bernd,,Event=Club ch") == (
        {"White": "Anna", "Black": "Bernd", "Event": "Club ch"},
        [],
    )
    assert parse_tags("Bad Name=y,=x,White,Ok=1") == ({"Ok": "1"}, ["Bad Name=y", "=x", "White"])
    rec = reconstruct("1. e4 e5", tags="Bad Name=y,White=A")
    assert "Bad Name" not in rec.tags and rec.tags["White"] == "A"
    assert [d.code for d in rec.diagnostics if d.code != "sheet.needs-human"] == ["sheet.bad-tag"]


@pytest.mark.parametrize("tags", ["Bad Name=y", "=x", "White", "White=A,Bl ack=B"])
def test_cli_bad_tag_is_a_usage_error_naming_it(tags: str) -> None:
    result = CliRunner().invoke(app, ["scoresheet", "-", "--tags", tags], input="1. e4 e5\n")
    assert result.exit_code == 2
    bad = [part.strip() for part in tags.split(",") if not parse_tags(part)[0]][0]
    assert repr(bad) in result.stderr
