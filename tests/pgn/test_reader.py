"""The streaming reader: sources, compression, encodings, locations, boundaries, size cap,
the split/parse pair used by process pools, the headers-only path, and the corpus sweep."""

from __future__ import annotations

import bz2
import gzip
import io
import itertools
import lzma
import subprocess
import sys
import time
from pathlib import Path

import pytest
import zstandard

from notation.pgn.model import Game
from notation.pgn.chunks import ReadFailure
from notation.pgn.reader import parse_raw_game, read_games, read_headers, split_games
from conftest import OUTSIDE, corpus_game_files, corpus_path

TWO_GAMES = (
    '[Event "One"]\n[White "A"]\n[Result "1-0"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n\n'
    '[Event "Two"]\n[Result "*"]\n\n1. d4 {a comment} d5 (1... Nf6) *\n'
)


def _located(game: Game) -> tuple[object, ...]:
    return (game.file, game.number, game.line, game.offset, game.encoding, game)


def _games(source: object) -> list[Game]:
    return list(read_games(source))  # type: ignore[arg-type]


# --- sources -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "suffix, compress",
    [
        (".pgn", lambda b: b),
        (".pgn.gz", gzip.compress),
        (".pgn.bz2", bz2.compress),
        (".pgn.zst", lambda b: zstandard.ZstdCompressor().compress(b)),
        (".pgn.xz", lzma.compress),
    ],
)
def test_paths_with_compression(tmp_path: Path, suffix: str, compress: object) -> None:
    path = tmp_path / ("games" + suffix)
    path.write_bytes(compress(TWO_GAMES.encode()))  # type: ignore[operator]
    games = _games(path)
    assert [g.tags["Event"] for g in games] == ["One", "Two"]
    assert [g.number for g in games] == [1, 2]
    assert games[0].file == str(path)
    assert _games(str(path)) == games


def test_handles_text_and_binary() -> None:
    expected = _games(io.BytesIO(TWO_GAMES.encode()))
    assert [len(g.moves) for g in expected] == [7, 2]
    text = _games(io.StringIO(TWO_GAMES))
    assert [_located(g)[1:] for g in text] == [_located(g)[1:] for g in expected]


def test_stdin() -> None:
    code = "import notation,sys; print([len(g.moves) for g in notation.read_games('-')])"
    out = subprocess.run(
        [sys.executable, "-c", code],
        input=gzip.compress(TWO_GAMES.encode()),
        capture_output=True,
        cwd=OUTSIDE,
        check=True,
    )
    assert out.stdout.strip() == b"[7, 2]"


def test_missing_file_raises_in_the_api_and_is_a_diagnostic_in_the_split(tmp_path: Path) -> None:
    from notation.pgn.reader import split_games

    with pytest.raises(FileNotFoundError):
        _games(tmp_path / "nope.pgn")
    with pytest.raises(FileNotFoundError):
        list(read_headers(tmp_path / "nope.pgn"))
    (raw,) = list(split_games(tmp_path / "nope.pgn"))  # what the commands use: reported, not raised
    assert isinstance(raw, ReadFailure) and "No such file" in raw.reason


def test_empty_and_blank_sources() -> None:
    assert _games(io.BytesIO(b"")) == []
    assert _games(io.BytesIO(b"\n\n  \r\n")) == []
    assert _games(io.StringIO("")) == []


# --- encodings, line ends, locations ------------------------------------------------------------


def test_bom_crlf_and_offsets() -> None:
    data = b"\xef\xbb\xbf" + TWO_GAMES.replace("\n", "\r\n").encode()
    games = _games(io.BytesIO(data))
    assert [g.line for g in games] == [1, 7]
    assert games[0].offset == 3
    assert data[games[1].offset :].startswith(b'[Event "Two"]')
    assert [m.san for m in games[0].moves][-1] == "Qxf7#"
    e4 = games[0].moves[0]
    assert (e4.span.line, e4.span.column) == (5, 4)
    assert data[e4.span.offset : e4.span.offset + 2] == b"e4"
    d5 = games[1].moves[1]
    assert (d5.span.line, d5.span.column) == (10, 19)


def test_latin1_fallback_per_game() -> None:
    data = '[White "Müller"]\n\n1. e4 *\n\n'.encode("latin-1") + '[White "Müller"]\n\n1. d4 *\n'.encode()
    first, second = _games(io.BytesIO(data))
    assert first.tags["White"] == second.tags["White"] == "Müller"
    assert first.encoding == "cp1252" and second.encoding == "utf-8"
    assert [(d.code, d.line, d.column) for d in first.diagnostics] == [("pgn.encoding", 1, 10)]
    assert second.diagnostics == []


def test_kasparov_latin1_names() -> None:
    path = corpus_path("games", "otb-pgnmentor", "Kasparov.pgn.gz")
    odd = [g for g in read_headers(path) if g.encoding != "utf-8"]
    assert [g.tags["Black"] for g in odd] == ["Quadros,André"]
    raws = [r for r in split_games(path) if isinstance(r.data, bytes) and not r.data.isascii()]
    games = [parse_raw_game(r) for r in raws]
    assert [(g.number, g.tags["Black"], g.encoding) for g in games] == [(odd[0].number, "Quadros,André", "cp850")]
    assert [d.code for d in games[0].diagnostics] == ["pgn.encoding"]


# --- boundaries and recovery --------------------------------------------------------------------


def test_tag_section_right_after_result_starts_a_game() -> None:
    text = '[Event "A"]\n\n1. e4 1-0\n[Event "B"]\n1. d4 0-1\n[Event "C"]\n[Result "*"]\n*'
    games = _games(io.StringIO(text))
    assert [(g.tags["Event"], g.line, g.result) for g in games] == [("A", 1, "1-0"), ("B", 4, "0-1"), ("C", 6, "*")]


def test_unclosed_brace_and_paren_do_not_swallow_games() -> None:
    text = '[Event "A"]\n\n1. e4 { never closed\n\n[Event "B"]\n\n1. d4 ( 1. c4 \n\n[Event "C"]\n\n1. Nf3 *\n'
    games = _games(io.StringIO(text))
    assert [g.tags["Event"] for g in games] == ["A", "B", "C"]
    assert [d.code for d in games[0].diagnostics][:1] == ["pgn.unclosed-comment"]
    assert "pgn.unclosed-variation" in [d.code for d in games[1].diagnostics]
    assert games[2].diagnostics == [] and games[2].mainline() == ["Nf3"]


def test_oversized_game_is_reported_and_skipped() -> None:
    big = '[Event "Big"]\n[Result "*"]\n\n' + "1. e4 e5 " * 2000 + "*\n\n"
    text = big + '[Event "Next"]\n\n1. d4 *\n'
    games = list(read_games(io.StringIO(text), max_game_bytes=1000))
    assert [g.tags.get("Event") for g in games] == ["Big", "Next"]
    assert [d.code for d in games[0].diagnostics] == ["pgn.oversized-game"]
    assert games[0].moves == [] and games[1].mainline() == ["d4"]
    headers = list(read_headers(io.StringIO(text), max_game_bytes=1000))
    assert [d.code for d in headers[0].diagnostics] == ["pgn.oversized-game"]


def test_long_line_without_newlines_is_bounded() -> None:
    start = time.perf_counter()
    games = list(read_games(io.BytesIO(b'[Event "x"]\n\n' + b"e4 " * 500_000), max_game_bytes=10_000))
    assert len(games) == 1 and "pgn.oversized-game" in [d.code for d in games[0].diagnostics]
    assert time.perf_counter() - start < 10


def test_blocks_do_not_change_results(monkeypatch: pytest.MonkeyPatch) -> None:
    from notation.pgn import reader

    text = (TWO_GAMES * 20).encode()
    expected = [_located(g) for g in read_games(io.BytesIO(text))]
    monkeypatch.setattr(reader, "BLOCK", 7)
    assert [_located(g) for g in read_games(io.BytesIO(text))] == expected
    assert len(expected) == 40 and expected[-1][1] == 40


# --- split / parse pair and headers --------------------------------------------------------------


def _sample_paths() -> list[Path]:
    return [
        corpus_path("games", "lichess", "chesscom_MagnusCarlsen_games.pgn.gz"),
        corpus_path("games", "classic", "London1851.pgn"),
        corpus_path("parser-tests", "fastchess", "empty_body.pgn"),
    ]


def test_split_then_parse_equals_read_games() -> None:
    for path in _sample_paths():
        direct = [(*_located(g), g.diagnostics) for g in read_games(path)]
        pooled = [(*_located(g), g.diagnostics) for g in map(parse_raw_game, split_games(path))]
        assert pooled == direct


def test_headers_agree_with_full_parse() -> None:
    for path in _sample_paths():
        full = [(g.number, g.line, g.offset, g.tags) for g in read_games(path)]
        fast = [(g.number, g.line, g.offset, g.tags) for g in read_headers(path)]
        assert fast == full
    assert list(read_games(path, headers_only=True)) == list(read_headers(path))


def test_chesscom_export_has_all_334_games() -> None:
    path = corpus_path("games", "lichess", "chesscom_MagnusCarlsen_games.pgn.gz")
    games = list(read_games(path))
    assert len(games) == 334
    assert sum(1 for g in games if g.result is None) == 0


# --- corpus sweep ----------------------------------------------------------------------------------


def _expected_count(path: Path) -> int:
    data = gzip.decompress(path.read_bytes()) if path.suffix == ".gz" else path.read_bytes()
    return data.count(b"\n[Event ") + data.startswith(b"[Event ")


def _corpus_files() -> list[Path]:
    return corpus_game_files()


def test_corpus_counts_sampled() -> None:
    """Every corpus file: the headers path counts all games; the first 40 parse fully."""
    totals = []
    for path in _corpus_files():
        expected = _expected_count(path)
        assert sum(1 for _ in read_headers(path)) == expected, path
        sample = list(itertools.islice(read_games(path), 40))
        assert len(sample) == min(40, expected)
        assert all(g.tags.get("Event") is not None for g in sample)
        totals.append((path.name, expected))
    print("\n".join(f"{name}: {count} games" for name, count in totals))
    print(f"total: {sum(c for _, c in totals)} games in {len(totals)} files")


@pytest.mark.slow
def test_corpus_counts_full() -> None:
    """Every game of every corpus file parses: counts equal the '[Event ' lines."""
    grand = 0
    for path in _corpus_files():
        expected = _expected_count(path)
        count = 0
        errors = 0
        for game in read_games(path):
            count += 1
            errors += game.has_errors()
        assert count == expected, path
        grand += count
        print(f"{path.name}: {count} games ({errors} with syntax errors)")
    print(f"total: {grand} games")


def test_truncated_compressed_file_keeps_games_and_reports() -> None:
    data = gzip.compress((TWO_GAMES * 50).encode())
    *games, failed = read_games(io.BytesIO(data[: len(data) // 2]))
    assert len(games) < 100 and isinstance(failed, ReadFailure) and failed.diagnostic.code == "pgn.io"
    assert all(isinstance(g, Game) and "pgn.io" not in [d.code for d in g.diagnostics] for g in games)
    headers = list(read_headers(io.BytesIO(data[: len(data) // 2])))
    assert len(headers) == len(games) + 1 and isinstance(headers[-1], ReadFailure)
    (broken,) = read_games(io.BytesIO(b"\x1f\x8b\x08garbage"))
    assert isinstance(broken, ReadFailure) and broken.diagnostic.code == "pgn.io"


def test_move_offsets_are_byte_offsets_in_utf8_games() -> None:
    """Accented names before the moves: span offsets still point at the move's bytes."""
    text = (
        '[Event "Tübingen Open"]\n[White "Réti, Richard"]\n[Black "Alekhine, Ąlexander"]\n'
        '[Result "*"]\n\n1. e4 {Réti’s favourite} e5 (1... c5 {Sicilian – ok}) 2. Nf3 *\n'
    )
    data = b'[Event "First"]\n\n1. d4 *\n\n' + text.encode("utf-8")
    games = _games(io.BytesIO(data))
    game = games[1]
    nodes = [game.moves[0], game.moves[1], game.moves[1].variations[0][0], game.moves[2]]
    for node in nodes:
        written = node.san.encode("utf-8")
        assert data[node.span.offset : node.span.offset + len(written)] == written, node.san
