"""``Position.key()`` is the Polyglot hash (python-chess is the test-only reference).

The one deliberate difference: the key counts the en passant file only when an en passant
capture is *legal* (FIDE 10.10), Polyglot whenever it is *pseudo-legal*. Every position where
the two keys differ must be one where python-chess sees a pseudo-legal but illegal en passant
capture (``has_pseudo_legal_en_passant() and not has_legal_en_passant()``), and there the key is
the Polyglot key without the file's number. The corpus differential counts those positions.
"""

from __future__ import annotations

import io
import itertools
import re
from collections import Counter
from importlib.resources import files
from pathlib import Path

import chess
import chess.polyglot
import pytest
from conftest import corpus_game_files, corpus_path
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from notation.formats.san import parse_san_syntax
from notation.pgn.reader import read_games
from notation.rules import zobrist
from notation.rules.move import Move
from notation.formats.position import Position
from notation.rules.step import advance
from notation.validation.replay import replay

RANDOM = chess.polyglot.POLYGLOT_RANDOM_ARRAY


# ---------------------------------------------------------------------------------- the data file
def test_the_data_file_holds_the_polyglot_random64_array_in_the_simple_format() -> None:
    text = files("notation.rules").joinpath("polyglot.txt").read_text(encoding="ascii")
    lines = text.splitlines()
    header = list(itertools.takewhile(lambda line: line.startswith("#"), lines))
    body = lines[len(header) :]
    assert header and "Polyglot" in header[0] and any("POLYGLOT_RANDOM_ARRAY" in h for h in header)
    assert len(body) == 781 and all(re.fullmatch(r"0x[0-9A-F]{16}", line) for line in body)
    assert text.endswith("\n") and "\r" not in text
    assert [int(line, 16) for line in body] == list(RANDOM)
    assert zobrist.RANDOM64 == tuple(RANDOM)


def test_the_tables_follow_polyglot_indices() -> None:
    for piece_type in range(1, 7):
        for white in (False, True):
            kind = 2 * (piece_type - 1) + white
            code = piece_type | (8 if white else 0)
            assert zobrist.PIECE[code] == list(RANDOM[64 * kind : 64 * kind + 64])
    for code in (0, 7, 8, 15):
        assert zobrist.PIECE[code] == [0] * 64
    assert list(zobrist.CASTLING) == list(RANDOM[768:772])
    assert zobrist.EP_FILE == list(RANDOM[772:780])
    assert zobrist.TURN == RANDOM[780]


# ---------------------------------------------------------------------------------- test vectors
# From the Polyglot book format specification (also python-chess's test suite).
VECTORS = [
    ("", 0x463B96181691FC9C),
    ("e2e4", 0x823C9B50FD114196),
    ("e2e4 d7d5", 0x0756B94461C50FB0),
    ("e2e4 d7d5 e4e5", 0x662FAFB965DB29D4),
    ("e2e4 d7d5 e4e5 f7f5", 0x22A48B5A8E47FF78),  # exf6 e.p. is legal: the file counts
    ("e2e4 d7d5 e4e5 f7f5 e1e2", 0x652A607CA3F242C1),
    ("e2e4 d7d5 e4e5 f7f5 e1e2 e8f7", 0x00FDD303C946BDD9),
    ("a2a4 b7b5 h2h4 b5b4 c2c4", 0x3C8123EA7B067637),  # bxc3 e.p. is legal
    ("a2a4 b7b5 h2h4 b5b4 c2c4 b4c3 a1a3", 0x5C3F9B829B279560),
]


@pytest.mark.parametrize(("moves", "expected"), VECTORS)
def test_polyglot_test_vectors(moves: str, expected: int) -> None:
    pos = Position.initial()
    for uci in moves.split():
        pos = pos.play(pos.parse_uci(uci))
    assert pos.key() == expected
    assert pos._hash == pos._compute_hash()
    assert Position.from_fen(pos.fen(en_passant="fen")).key() == expected


@pytest.mark.parametrize(("moves", "expected"), VECTORS)
def test_polyglot_test_vectors_through_replay(moves: str, expected: int) -> None:
    pos = Position.initial()
    for uci in moves.split():
        pos = pos.play(pos.parse_uci(uci))
    san = _sans(moves)
    text = f'[Event "v"]\n[Result "*"]\n\n{san} *\n'
    (game,) = list(read_games(io.StringIO(text)))
    rep = replay(game)
    assert not rep.diagnostics
    final = rep.plies[-1].key if rep.plies else rep.start.key()  # type: ignore[union-attr]
    assert final == expected


def _sans(moves: str) -> str:
    board = chess.Board()
    out = []
    for i, uci in enumerate(moves.split()):
        move = chess.Move.from_uci(uci)
        out.append((f"{i // 2 + 1}. " if i % 2 == 0 else "") + board.san(move))
        board.push(move)
    return " ".join(out)


# ---------------------------------------------------------------------------------- en passant
def reference_key(board: chess.Board) -> int:
    """What ``Position.key()`` must be: the Polyglot key, minus the en passant file when the
    capture is pseudo-legal but illegal."""
    h = chess.polyglot.zobrist_hash(board)
    if _illegal_pseudo_ep(board):
        h ^= RANDOM[772 + chess.square_file(board.ep_square)]  # type: ignore[arg-type]
    return h


def _illegal_pseudo_ep(board: chess.Board) -> bool:
    return board.ep_square is not None and board.has_pseudo_legal_en_passant() and not board.has_legal_en_passant()


@pytest.mark.parametrize(
    "fen",
    [
        # the capturing pawn is pinned on a diagonal (Bh8 to Kb2) that the capture leaves
        "4k2b/8/8/3pP3/8/8/1K6/8 w - d6 0 2",
        # the capturing pawn is pinned on its file (Re8 to Ke1)
        "4r1k1/8/8/3pP3/8/8/8/4K3 w - d6 0 2",
        # both pawns leave the fifth rank and the rook then sees the king
        "8/8/8/K2pP2r/8/8/8/7k w - d6 0 1",
        # Black: the pawn on e4 is pinned by Re1 to Ke8
        "4k3/8/8/8/3Pp3/8/8/K3R3 b - d3 0 1",
        # d7-d5 discovered check from Bb5 to Ke8, which exd6 does not answer
        "4K3/8/8/1b1pP3/8/8/8/k7 w - d6 0 2",
    ],
)
def test_pseudo_legal_but_illegal_en_passant_leaves_the_file_out(fen: str) -> None:
    board = chess.Board(fen)
    assert _illegal_pseudo_ep(board), fen
    pos = Position.from_fen(fen)
    polyglot = chess.polyglot.zobrist_hash(board)
    assert pos.key() != polyglot
    assert pos.key() == polyglot ^ RANDOM[772 + chess.square_file(board.ep_square)]  # type: ignore[arg-type]
    assert pos.key() == reference_key(board)
    # ... and equals the key of the same position without the en passant square
    assert pos.key() == Position.from_fen(re.sub(r" [a-h][36] ", " - ", fen)).key()


def test_legal_en_passant_counts_like_polyglot() -> None:
    for fen in ("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2", "4k3/8/8/8/3Pp3/8/8/4K3 b - d3 0 1"):
        board = chess.Board(fen)
        assert board.has_legal_en_passant()
        assert Position.from_fen(fen).key() == chess.polyglot.zobrist_hash(board)


@pytest.mark.parametrize(
    "fen",
    [
        "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
        "r3k2r/8/8/8/8/8/8/R3K2R b Kq - 3 9",
        "r3k2r/8/8/8/8/8/8/R3K2R w Qk - 3 9",
        "1r2k1r1/8/8/8/8/8/8/1R2K1R1 w GBgb - 0 1",
        "1rk4r/8/8/8/8/8/8/1RK4R w HBhb - 0 1",  # king on c1/c8
        "rk5r/8/8/8/8/8/8/RK5R w HAha - 0 1",  # king on b1: a-rook long, h-rook short
        "rk5r/8/8/8/8/8/8/RK5R b Ah - 0 1",
        "3rkr2/8/8/8/8/8/8/3RKR2 w FDfd - 0 1",
        "5rkr/8/8/8/8/8/8/5RKR w HF - 0 1",
        # the king castles past the other rook's square: rights are short/long by the king's
        # square before the move (b1: the c1 rook is short, the a1 rook long)
        "4k3/8/8/8/8/8/8/RKR5 w CA - 0 1",
        "rkr5/8/8/8/8/8/8/4K3 b ca - 0 1",
        "4k3/8/8/8/8/8/8/5RKR w HF - 0 1",
    ],
)
def test_castling_rights_are_short_or_long_by_the_king_side_of_the_rook(fen: str) -> None:
    pos = Position.from_fen(fen)
    board = chess.Board(fen, chess960=pos.chess960)
    assert pos.key() == chess.polyglot.zobrist_hash(board)
    for move in pos.legal_moves():  # castling and rook moves lose rights incrementally
        after = pos.play(move)
        board.push(chess.Move.from_uci(move.uci()))
        assert after.key() == chess.polyglot.zobrist_hash(board) == after._compute_hash() ^ _ep(after), move.uci()
        board.pop()


def _ep(pos: Position) -> int:
    ep = pos.ep_square
    return zobrist.EP_FILE[ep & 7] if ep is not None and pos.has_legal_en_passant() else 0


# ---------------------------------------------------------------------------------- hypothesis
def chess960_start(number: int) -> str:
    """The FEN of Chess960 start position ``number`` (0..959, Scharnagl numbering; 518 is the
    standard position)."""
    rank: list[str | None] = [None] * 8
    n, light = divmod(number, 4)
    rank[2 * light + 1] = "B"
    n, dark = divmod(n, 4)
    rank[2 * dark] = "B"
    n, queen = divmod(n, 6)
    empty = [i for i, p in enumerate(rank) if p is None]
    rank[empty[queen]] = "Q"
    a, b = [(0, 1), (0, 2), (0, 3), (0, 4), (1, 2), (1, 3), (1, 4), (2, 3), (2, 4), (3, 4)][n]
    empty = [i for i, p in enumerate(rank) if p is None]
    rank[empty[a]] = rank[empty[b]] = "N"
    for square, letter in zip([i for i, p in enumerate(rank) if p is None], "RKR"):
        rank[square] = letter
    white = "".join(p or "?" for p in rank)
    return f"{white.lower()}/pppppppp/8/8/8/8/PPPPPPPP/{white} w KQkq - 0 1"


def test_chess960_numbering() -> None:
    assert chess960_start(518).split()[0] == chess.STARTING_BOARD_FEN
    assert chess960_start(0).startswith("bbqnnrkr/")


STARTS = [
    Position.initial(),
    Position.from_fen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"),
    Position.from_fen("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"),
    Position.from_fen("r3k2r/1pp1pp1p/8/8/8/8/1PP1PP1P/R3K2R w KQkq - 0 1"),  # pawns ready to e.p.
    Position.from_fen("1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w GBgb - 0 1"),
    Position.from_fen("rk5r/p6p/8/8/8/8/P6P/RK5R w HAha - 0 1"),
    Position.from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", chess960=True),
]


@st.composite
def games(draw: st.DrawFn) -> list[tuple[Move | None, Position]]:
    """A random legal game as (move, position after it) pairs, the first ``(None, start)``:
    up to 200 plies, castling as soon as
    it is legal half of the time, captures preferred now and then (so rights are lost in every
    way), and a null move now and then."""
    if draw(st.booleans()):
        start = Position.from_fen(chess960_start(draw(st.integers(0, 959))), chess960=True)
    else:
        start = draw(st.sampled_from(STARTS))
    rng = draw(st.randoms(use_true_random=False))
    line: list[tuple[Move | None, Position]] = [(None, start)]
    pos = start
    for _ in range(draw(st.integers(0, 200))):
        moves = pos.legal_moves()
        if not moves:
            break
        castles = [m for m in moves if pos.is_castling(m)]
        captures = [m for m in moves if pos.is_capture(m)]
        roll = rng.random()
        if castles and roll < 0.5:
            move = rng.choice(castles)
        elif captures and roll < 0.75:
            move = rng.choice(captures)
        elif roll > 0.97 and not pos.is_check():
            move = Move.null()
        else:
            move = rng.choice(moves)
        pos = pos.play(move)
        line.append((move, pos))
    return line


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games())
def test_incremental_key_equals_a_fresh_one_and_python_chess(line: list[tuple[Move | None, Position]]) -> None:
    """Along a random game (``play``, null moves, and ``step.advance`` where it applies), the
    incremental hash equals a from-scratch one and one from the FEN, and the key equals
    python-chess's Polyglot key up to the illegal-en-passant rule."""
    start = line[0][1]
    board = chess.Board(_fen(start), chess960=start.chess960)
    before = start
    for move, pos in line:
        if move is not None:
            board.push(chess.Move.from_uci(move.uci()))
            _check_advance(before, move, pos)
        fresh = Position.from_fen(_fen(pos), chess960=pos.chess960)
        assert pos._hash == pos._compute_hash() == fresh._hash
        assert pos.key() == fresh.key() == reference_key(board), board.fen()
        before = pos


def _fen(pos: Position) -> str:
    return pos.fen(shredder=pos.chess960, en_passant="fen")


def _check_advance(before: Position, move: Move, after: Position) -> None:
    """Replay's fast path (``step.advance``), when it takes the move, gives the same key."""
    if not move:
        return
    syntax = parse_san_syntax(before.san(move).rstrip("+#"))
    kind, target, mask = syntax.fast
    if not kind or syntax.lenient:
        return
    got = advance(before, kind, target, mask, syntax.capture)
    if got is not None:
        assert got[0] == move and got[1] == after
        assert got[1]._hash == after._hash == got[1]._compute_hash() and got[1].key() == after.key()


# ---------------------------------------------------------------------------------- corpus
# (file under ../shared/corpus/games, number of games from its start) of the default run
SAMPLE = [
    ("otb-pgnmentor/Carlsen.pgn.gz", 1000),
    ("lichess/lichess-jishanshaikh4.pgn.gz", 1000),
    ("engine/tcec-chess960-first1500.pgn.gz", 300),
]


def compare_games(path: Path, limit: int | None, counts: Counter[str]) -> None:
    """Replay the mainlines of ``path``'s first ``limit`` games with this project and with
    python-chess, comparing ``key()`` with the Polyglot key at every position."""
    for game in itertools.islice(read_games(path), limit):
        rep = replay(game, variations=False, notes=False)
        if rep.start is None:
            counts["games skipped (unsupported or bad FEN)"] += 1
            continue
        counts["games"] += 1
        counts["chess960 games"] += rep.start.chess960
        board = chess.Board(_fen(rep.start), chess960=rep.start.chess960)
        _compare(rep.start, rep.start.key(), board, counts, f"{path.name} game {game.number} start")
        for record in rep.plies:
            board.push(chess.Move.from_uci(record.move.uci()))
            assert record.key == record.after.key()
            _compare(record.after, record.key, board, counts, f"{path.name} game {game.number} ply {record.ply}")
        assert board.board_fen() == (rep.final or rep.start).board_fen()


def _compare(pos: Position, key: int, board: chess.Board, counts: Counter[str], where: str) -> None:
    counts["positions"] += 1
    polyglot = chess.polyglot.zobrist_hash(board)
    if key == polyglot:
        # equal keys: then the position must not be one where the e.p. file is left out
        assert board.ep_square is None or not _illegal_pseudo_ep(board), where
        return
    assert _illegal_pseudo_ep(board), f"{where}: key {key:#018x} != Polyglot {polyglot:#018x} ({board.fen()})"
    assert key == polyglot ^ RANDOM[772 + chess.square_file(board.ep_square)], where  # type: ignore[arg-type]
    counts["illegal e.p. differences"] += 1


def test_key_matches_python_chess_polyglot_on_corpus_sample() -> None:
    counts: Counter[str] = Counter()
    for name, limit in SAMPLE:
        compare_games(corpus_path("games", name), limit, counts)
    print(f"\npolyglot key differential (sample): {dict(counts)}")
    assert counts["games"] >= 2000 and counts["chess960 games"] >= 250
    assert counts["positions"] > 150_000


@pytest.mark.slow
def test_key_matches_python_chess_polyglot_on_whole_corpus() -> None:
    counts: Counter[str] = Counter()
    for path in corpus_game_files():
        compare_games(path, None, counts)
    print(f"\npolyglot key differential (whole corpus): {dict(counts)}")
    assert counts["games"] > 10_000
