"""pgn-extract's own test battery (``../shared/corpus/parser-tests/pgn-extract/test``): for each
test whose feature `notation filter` / `convert` covers, our equivalent command runs on the same
``infiles/`` and must select the same games as the expected ``outfiles/`` file, in the same order,
compared by start position and mainline moves (tags, comments and layout are not compared).

The Makefile line of each test is quoted beside its case. Differences on purpose:

- ``test-t`` (``-t taglist.txt``: White "Fischer", Black "Petrosian", Date "1970"): pgn-extract's
  tag file is a list of criteria; ours are options (``--date-from 1970 --date-to 1970``: a
  partial date matches when its span meets the range).
- ``test-x`` (``-x xvars.txt``, a positional variation): ``--fen`` with the position the listed
  moves reach (we take a position, not a move list; the match is the same: reached anywhere).
- ``test-v`` (``-v vvars.txt``, textual variation with ``*`` wildcards): ``--moves`` with the same
  moves and wildcards.
- ``test-z`` (``-z zmatch.txt``: ``q*r*p*b2n2< q=r=p=b2<n2``): our ``--material`` syntax has no
  relative-count form ``n2<`` (``at least 2 fewer``); the same balance is written with absolute
  counts, ``~`` asking for either colour as ``-z`` does: ``Q*R*P*B2N0~Q=R=P=B0N2``.
- ``test-repetition`` (``--repetition``): ``--threefold``; ``--fifty``/``--seventyfive`` the same
  names; ``--markmatches`` (a comment at the matching ply) is not offered.
- ``test-elodiff`` (``-t`` with ``EloDiff <= "50"``): ``--elo-diff 50``.
- ``test-n`` (``-TpFischer`` with ``-n`` for the games not matched): ``--player Fischer``, and
  the same with ``--invert`` for the other file (we write one file per run).
- ``test-nocomments`` (``-C``), ``test-noresults`` (``--noresults``), ``test-plycount``
  (``--plycount --totalplycount``) and ``test-plylimit`` (``--plylimit 10``) transform every
  game rather than select: ``convert`` keeps every game (compared as above), strips comments
  or adds ``PlyCount``. We never drop the result (the export format requires a termination
  marker), add no ``TotalPlyCount`` (variations included), and do not truncate games: for
  ``--plylimit`` the expected 10-ply game must be the start of ours.
- Not compared: ``test-addhashcode`` (pgn-extract's ``HashCode`` is its own 32-bit hash of the
  game; ours is the Polyglot key of the final position, checked against python-chess in
  ``tests/convert/test_convert.py``) and ``test-e`` (ECO: pgn-extract classifies with its own
  ``eco.pgn``, we with the Lichess table).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import corpus_path
from tables_support import run_cli

from notation.pgn.reader import read_games
from notation.formats.position import Position
from notation.validation.replay import replay

Key = tuple[str | None, tuple[str, ...]]


def _test_dir() -> Path:
    return corpus_path("parser-tests", "pgn-extract", "test")


def keys(path: Path) -> list[Key]:
    """(start FEN, mainline UCI moves) of every game of ``path``."""
    out: list[Key] = []
    for game in read_games(path):
        rep = replay(game, variations=False, notes=False)
        out.append((rep.start.fen() if rep.start else None, tuple(r.move.uci() for r in rep.plies)))
    return out


def _fen_after(moves: str) -> str:
    pos = Position.initial()
    for san in moves.split():
        pos = pos.play(pos.parse_san(san))
    return pos.fen()


def _x_fen() -> str:
    return _fen_after((_test_dir() / "infiles" / "xvars.txt").read_text().strip())


FILTER_CASES = [
    # name, inputs, our options, expected output file
    (
        "test-t",
        ["test-t.pgn"],
        ["--white", "Fischer", "--black", "Petrosian", "--date-from", "1970", "--date-to", "1970"],
        "test-t-out.pgn",
    ),
    ("test-noduplicates", ["fischer.pgn", "petrosian.pgn"], ["--unique"], "test-DD-unique.pgn"),
    ("test-checkmate", ["test-checkmate.pgn"], ["--checkmate"], "test-checkmate-out.pgn"),
    ("test-stalemate", ["test-stalemate.pgn"], ["--stalemate"], "test-stalemate-out.pgn"),
    ("test-fifty", ["test-fifty.pgn"], ["--fifty"], "test-fifty-out.pgn"),
    ("test-seventyfive", ["test-seventyfive.pgn"], ["--seventyfive"], "test-seventyfive-out.pgn"),
    ("test-repetition", ["test-repetition.pgn"], ["--threefold"], "test-repetition-out.pgn"),
    ("test-x", ["najdorf.pgn"], ["--fen", "<x>"], "test-x-out.pgn"),
    (
        "test-v",
        ["najdorf.pgn"],
        ["--moves", "1. e4 c5 2. Nf3 d6 3. d4 cxd4 4. Nxd4 * 5. Nc3 * 6. Be3"],
        "test-v-out.pgn",
    ),
    ("test-z", ["fischer.pgn"], ["--material", "Q*R*P*B2N0~Q=R=P=B0N2"], "test-z-out.pgn"),
    ("test-elodiff", ["test-seventyfive.pgn"], ["--elo-diff", "50"], "test-elodiff-out.pgn"),
    # test-n: pgn-extract -TpFischer -otest-n-matched.pgn -ntest-n-unmatched.pgn petrosian.pgn
    ("test-n-matched", ["petrosian.pgn"], ["--player", "Fischer"], "test-n-matched.pgn"),
    ("test-n-unmatched", ["petrosian.pgn"], ["--player", "Fischer", "--invert"], "test-n-unmatched.pgn"),
]


@pytest.mark.parametrize(("name", "inputs", "options", "expected"), FILTER_CASES, ids=[c[0] for c in FILTER_CASES])
def test_filter_selects_what_pgn_extract_selects(
    name: str, inputs: list[str], options: list[str], expected: str, tmp_path: Path
) -> None:
    test = _test_dir()
    options = [_x_fen() if o == "<x>" else o for o in options]
    out = tmp_path / "out.pgn"
    result = run_cli("filter", *[test / "infiles" / f for f in inputs], *options, "--out", out)
    assert result.exit_code == 0, result.output
    wanted = keys(test / "outfiles" / expected)
    assert wanted, f"{expected} holds no game"
    assert keys(out) == wanted


def test_duplicates_file_matches_pgn_extract_d(tmp_path: Path) -> None:
    # Makefile test-duplicates: pgn-extract -C -dtest-d-dupes.pgn -otest-d-unique.pgn fischer.pgn petrosian.pgn
    test = _test_dir()
    unique, dupes = tmp_path / "unique.pgn", tmp_path / "dupes.pgn"
    result = run_cli(
        "filter",
        test / "infiles" / "fischer.pgn",
        test / "infiles" / "petrosian.pgn",
        "--unique",
        "--duplicates",
        dupes,
        "--out",
        unique,
    )
    assert result.exit_code == 0, result.output
    assert keys(dupes) == keys(test / "outfiles" / "test-d-dupes.pgn")
    assert keys(unique) == keys(test / "outfiles" / "test-d-unique.pgn")


CONVERT_CASES = [
    ("test-nocomments", "test-C.pgn", ["--strip", "comments"], "test-CC-out.pgn"),
    ("test-noresults", "test-noresults.pgn", [], "test-noresults-out.pgn"),
    ("test-plycount", "test-plycount.pgn", ["--add-tags", "plycount"], "test-plycount-out.pgn"),
]


@pytest.mark.parametrize(("name", "infile", "options", "expected"), CONVERT_CASES, ids=[c[0] for c in CONVERT_CASES])
def test_convert_keeps_the_games_pgn_extract_keeps(
    name: str, infile: str, options: list[str], expected: str, tmp_path: Path
) -> None:
    test = _test_dir()
    out = tmp_path / "out.pgn"
    result = run_cli("convert", test / "infiles" / infile, *options, "--out", out)
    assert result.exit_code == 0, result.output
    assert keys(out) == keys(test / "outfiles" / expected)
    games = list(read_games(out))
    if name == "test-nocomments":
        assert all(not n.comments for g in games for n in g.moves) and not games[0].intro_comments
    if name == "test-plycount":
        theirs = next(read_games(test / "outfiles" / expected)).tags["PlyCount"]
        assert games[0].tags["PlyCount"] == theirs


def test_plylimit_game_is_the_start_of_ours(tmp_path: Path) -> None:
    # Makefile test-plylimit: pgn-extract --plylimit 10; we do not truncate (see the module docstring)
    test = _test_dir()
    out = tmp_path / "out.pgn"
    result = run_cli("filter", test / "infiles" / "test-plylimit.pgn", "--min-plies", "10", "--out", out)
    assert result.exit_code == 0, result.output
    ((start, ours),) = keys(out)
    ((their_start, theirs),) = keys(test / "outfiles" / "test-plylimit-out.pgn")
    assert start == their_start and len(theirs) == 10 and ours[:10] == theirs
