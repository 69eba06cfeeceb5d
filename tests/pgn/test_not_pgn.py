"""Sources with no PGN structure (prose, code, JSON, CSV, binary data): one ``pgn.not-pgn``
stand-in instead of a hundred syntax errors, while real PGN, bare move lists and a preamble
before real games read exactly as before."""

from __future__ import annotations

import io
import json
import pickle
from pathlib import Path

import pytest
from conftest import SAMPLE_GAMES
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from notation.pgn import reader
from notation.pgn.chunks import Chunk, RawGame, ReadFailure
from notation.pgn.reader import parse_raw_game, read_games, read_headers, split_games
from notation.pgn.structure import has_structure, other_format
from notation.validation.run import validate

PROSE = (
    "Notation\n\nChess game scores, checked to the last rule.\n\n"
    "* bullet one\n* bullet two\n\n1990 was a good year. Be careful: e4 e5, Nf3, then more text.\n"
)
GAMES = (SAMPLE_GAMES / "classics.pgn").read_text(encoding="utf-8")


def _chunks(text: str | bytes) -> list[Chunk]:
    data = text.encode() if isinstance(text, str) else text
    return list(split_games(io.BytesIO(data)))


@pytest.mark.parametrize(
    "text, structured",
    [
        ('[Event "x"]\n\n1. e4 *\n', True),
        ('[Event "Wor', True),  # a tag pair cut after its quote
        ("1. e4 e5 2. Nf3 *\n", True),
        ("{a comment} 12... Nf6 *", True),
        ("e4 e5 Nf3 Nc6", True),
        ("O-O-O", True),
        ("1 e4", True),
        ("*\n", True),
        ("1-0 0-1", True),
        ("% escape\n\ufeff  1.d4", True),
        ("[Event Foo]\n\n1. d4 *", True),
        ("# notation\n\nChess", False),
        ("* item", False),
        ("---\ntitle: x", False),
        ("-- a comment in SQL", False),
        ("2024 was a year", False),
        ("e4, then", False),
        ("{only a comment}", False),
        ("[Event Foo]\n", False),
        ('{"a": [1, 2]}', False),
        ("import os\n", False),
        ("", False),
    ],
)
def test_structure_of_a_chunk(text: str, structured: bool) -> None:
    assert has_structure(text) is structured
    assert has_structure(text.encode()) is structured


def _only_not_pgn(chunks: list[Chunk], line: int, column: int) -> str:
    assert len(chunks) == 1
    raw = chunks[0]
    assert isinstance(raw, ReadFailure) and raw.kind == "not-pgn" and raw.number == 1
    diag = raw.diagnostic
    where = (diag.code, diag.severity, diag.line, diag.column, diag.game)
    assert where == ("pgn.not-pgn", "error", line, column, 1)
    return diag.message


def test_prose_is_one_not_pgn_located_at_its_first_text() -> None:
    message = _only_not_pgn(_chunks("\n\n   " + PROSE), 3, 4)
    assert "no PGN structure" in message and "'Notation'" in message
    # several structureless chunks (lines that look like bad tags split them): still one
    text = PROSE + "[Note this]\nmore prose\n\n[See also]\nthe end\n"
    assert len(list(reader._split(io.BytesIO(text.encode()).read, None, 1 << 20))) == 3
    _only_not_pgn(_chunks(text), 1, 1)


@pytest.mark.parametrize(
    "text",
    [
        "def f():\n    return 1\n",
        '[tool.poetry]\nname = "notation"\n',
        json.dumps({"games": [1, 2], "moves": "e4"}, indent=2),
        "white,black,result\nA,B,1-0\n",
        "{a comment that never closes\n1. e4",
    ],
)
def test_code_and_data_files_are_not_pgn(text: str) -> None:
    _only_not_pgn(_chunks(text), 1, 1)


@pytest.mark.parametrize(
    ("start", "kind"),
    [
        ("# notation\n\nChess game scores.\n", "a Markdown"),
        ("<!DOCTYPE html>\n<html><body><pre>", "an HTML"),
        ('<?xml version="1.0"?>\n<games>', "an XML"),
        ('<svg xmlns="http://www.w3.org/2000/svg">', "an SVG"),
        ('{\n  "games": [1, 2]', "a JSON"),
        ('[{"white": "A"}]', "a JSON"),
        ("#!/bin/sh\nnotation validate .\n", "a script"),
    ],
)
def test_a_document_of_another_format_is_one_not_pgn_even_with_pgn_inside(start: str, kind: str) -> None:
    """PGN quoted in a document (a README's examples, a web page's <pre>) is not read as games."""
    assert other_format(start) == kind
    chunks = _chunks(start + "\n\n" + GAMES)
    assert len(chunks) == 1 and isinstance(chunks[0], ReadFailure)
    assert chunks[0].diagnostic.message.startswith(f"{kind} file, not PGN")


@pytest.mark.parametrize(
    "start",
    [
        '{"Annotated by a club member"}\n',
        "{ comment }\n",
        '[Event "x"]\n',
        "1. e4 ",
        "% escape\n",
        "From: someone@example.org\n",
        "[tool.poetry]\n",
        "* item\n",
        "[[",
        '["a"]',
        "{}",
    ],
)
def test_what_is_not_another_format(start: str) -> None:
    assert other_format(start) is None


def test_binary_data_is_not_pgn_quoted_as_bytes() -> None:
    png = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(256)) * 40
    message = _only_not_pgn(_chunks(png), 1, 1)
    assert message.startswith("binary data") and "\\x89PNG" in message


def test_blank_and_escape_only_sources_are_empty_not_errors() -> None:
    for text in ("", "\n  \n\t\n", "% a comment line\n\n%another\n", "\ufeff\n"):
        assert _chunks(text) == []


def _unwrapped(text: str) -> list[tuple[bytes | str, int, int, int, int]]:
    """The boundary split alone (no structure check): what the reader gave before."""
    raws = reader._split(io.BytesIO(text.encode()).read, None, reader.DEFAULT_MAX_GAME_BYTES)
    return [(r.data, r.number, r.line, r.offset, r.size) for r in raws]


def _located(raws: list[RawGame]) -> list[tuple[bytes | str, int, int, int, int]]:
    return [(r.data, r.number, r.line, r.offset, r.size) for r in raws]


def test_real_pgn_and_bare_move_lists_read_as_before() -> None:
    bare = "1. e4 e5 2. Nf3 *\n\n1. d4 d5 *\n"
    assert _located(_chunks(bare)) == _unwrapped(bare)
    # text after a finished game (its marker, then a blank line) is located on its own: here
    # a second bare move list, read as a second game (it was ignored text after the first)
    first, second = read_games(io.StringIO(bare))
    assert first.mainline()[:3] == ["e4", "e5", "Nf3"] and second.mainline() == ["d4", "d5"]
    assert _located(_chunks(GAMES)) == _unwrapped(GAMES)


def test_a_preamble_before_games_is_read_as_before_and_keeps_every_game() -> None:
    preamble = "From: someone@example.org\nSubject: games of the club\n\nHere they are.\n\n"
    text = preamble + GAMES
    chunks = _chunks(text)
    assert _located(chunks) == _unwrapped(text)
    assert chunks[0].size > 0 and "pgn.syntax" in {d.code for d in parse_raw_game(chunks[0]).diagnostics}
    assert len(chunks) == 1 + len(_chunks(GAMES))
    headers = [(h.number, h.line, h.offset, h.tags) for h in read_headers(io.BytesIO(text.encode()))]
    assert headers == [(g.number, g.line, g.offset, g.tags) for g in read_games(io.BytesIO(text.encode()))]


def test_a_preamble_past_the_hold_cap_is_one_not_pgn_then_every_game(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(reader, "HOLD_CHUNKS", 2)
    preamble = "".join(f"[Part {i}]\nsome words\n\n" for i in range(5))  # five structureless chunks
    text = "intro\n\n" + preamble + GAMES
    chunks = _chunks(text)
    first_game = 2 + preamble.count("\n") + 1
    message = _only_not_pgn(chunks[:1], 1, 1)
    assert f"lines 1-{first_game - 1}" in message
    games = chunks[1:]
    assert [r.data for r in games] == [r.data for r in _chunks(GAMES)]
    assert games[0].line == first_game and games[0].number == 7  # numbers and lines as in the file
    failure, *headers = read_headers(io.BytesIO(text.encode()))
    assert isinstance(failure, ReadFailure) and failure.kind == "not-pgn"
    assert [g.tags for g in headers] == [g.tags for g in read_games(io.StringIO(GAMES))]  # type: ignore[union-attr]


def test_not_pgn_everywhere_the_reader_is(tmp_path: Path) -> None:
    path = tmp_path / "README.md"
    path.write_text(PROSE, encoding="utf-8")
    for source in (path, str(path), io.StringIO(PROSE), io.BytesIO(PROSE.encode())):
        [failure] = list(read_games(source))  # type: ignore[arg-type]
        assert isinstance(failure, ReadFailure) and failure.diagnostic.code == "pgn.not-pgn"
    [head] = list(read_headers(path))
    assert isinstance(head, ReadFailure) and head.diagnostic.code == "pgn.not-pgn"
    [report] = list(validate(path))
    assert report.status == "error" and [d.code for d in report.diagnostics] == ["pgn.not-pgn"]
    raw = _chunks(PROSE)[0]
    assert pickle.loads(pickle.dumps(raw)) == raw  # crosses to worker processes whole


@settings(max_examples=60, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck), database=None)
@given(st.one_of(st.binary(max_size=300), st.text(max_size=300)), st.booleans())
@example(b"\xfe\xff", True)  # a UTF-16 byte order mark before 8-bit text: two stray bytes, not UTF-16
def test_any_input_gives_chunks_or_one_not_pgn_never_a_crash(data: bytes | str, games_after: bool) -> None:
    blob = data.encode("utf-8", "replace") if isinstance(data, str) else data
    if games_after:
        blob += b"\n\n" + GAMES.encode()
    chunks = _chunks(blob)
    problems = [r for r in chunks if isinstance(r, ReadFailure)]
    assert len(problems) <= 1
    if problems:
        assert chunks[0] is problems[0] and problems[0].diagnostic.code == "pgn.not-pgn"
    if games_after and other_format(blob) is None:  # (a document of another format is not read on)
        assert sum(1 for r in chunks if isinstance(r, RawGame) and r.size > 0 and '[Event "' in r.text) >= GAMES.count(
            '[Event "'
        )
    list(read_headers(io.BytesIO(blob)))
