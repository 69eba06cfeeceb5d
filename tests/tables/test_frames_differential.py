"""One games row per game and one moves row per legal mainline ply, every
column of every ply checked against python-chess (test-only reference).

Both sides read the same raw game text (the chunk ``split_games`` gives), so games pair up
exactly. Per ply we compare SAN, UCI, move number, colour, piece, captured piece, promotion,
check/mate/castle/en passant flags, material after the move, ``%clk``, ``%eval`` and ``%emt``
(engine comments' ``tl=``, ``wv=``, ``mt=``, ``d=`` read by the test's own patterns); per game
the number of rows, tags, plies and the final FEN. The default run checks a fixed sample of
every corpus file; ``-m slow`` checks every game, and imports the whole corpus as a dataset.

Known, deliberate difference (counted, not compared): python-chess reads an unknown piece
letter such as ``Sf3`` as the pawn move ``f3``; our replay reports ``san.unknown-piece``.
"""

from __future__ import annotations

import io
import re
from collections import Counter
from pathlib import Path

import chess
import chess.pgn
import polars as pl
import pytest
from conftest import corpus_path

from notation.pgn.reader import split_games
from notation.tables.rows import game_id, raw_text, tabulate_raw

# corpus file -> stride of the default sample (every n-th game): about 200 games
GAME_FILES: dict[str, int] = {
    "otb-pgnmentor/Anand.pgn.gz": 300,
    "otb-pgnmentor/Capablanca.pgn.gz": 80,
    "otb-pgnmentor/Carlsen.pgn.gz": 300,
    "otb-pgnmentor/Fischer.pgn.gz": 120,
    "otb-pgnmentor/Kasparov.pgn.gz": 120,
    "otb-pgnmentor/Kosteniuk.pgn.gz": 300,
    "lichess/lichess-jishanshaikh4.pgn.gz": 400,
    "lichess/lichess_DannyTheDonkey_2019-01-29.pgn.gz": 10,
    "lichess/chesscom_MagnusCarlsen_games.pgn.gz": 20,
    "classic/London1851.pgn": 20,
    "classic/WorldChamp1886.pgn": 2,
    "classic/tatamast22.pgn": 20,
    "classic/Carlsen8games.pgn": 1,
    "classic/Philidor.pgn": 1,
    "classic/Tarrasch7games.pgn": 1,
    "engine/tcec-other.pgn.gz": 80,
    "engine/tcec-chess960-first1500.pgn.gz": 150,
}

LETTER = {None: None, 1: "P", 2: "N", 3: "B", 4: "R", 5: "Q", 6: "K"}
VALUES = {chess.PAWN: 1, chess.KNIGHT: 3, chess.BISHOP: 3, chess.ROOK: 5, chess.QUEEN: 9}


class _Quiet(chess.pgn.GameBuilder):  # type: ignore[type-arg]
    def handle_error(self, error: Exception) -> None:
        self.game.errors.append(error)


_TL = re.compile(r"(?:^|[\s,{])tl=(?:(\d+)|(\d+):(\d\d):(\d\d))[\s,}]")
_WV = re.compile(r"(?:^|[\s,{])wv=(?:(-?)M(\d+)|([+-]?[0-9.]+))[\s,}]")
_MT = re.compile(r"(?:^|[\s,{])mt=(?:(\d+)|(\d+):(\d\d):(\d\d))[\s,}]")
_D = re.compile(r"(?:^|[\s,{])d=(\d+)[\s,}]")
# Arena/cutechess "score/depth time" at the start of a comment, from the mover's view
_SCORE_DEPTH = re.compile(r"^\s*([+-]?)(?:M(\d+)|(\d*\.\d*))/(\d+)(?=[\s,}]|$)")


def _engine_comment(row: dict[str, object], comment: str, white_moved: bool) -> None:
    """python-chess reads [%clk]/[%eval] only; TCEC and cutechess comments give the time left
    (``tl=`` ms) and White's evaluation (``wv=``), which the moves table reads when those are absent."""
    text = comment + " "
    if row["clock_seconds"] is None and (tl := _TL.search(text)):
        if tl.group(1):
            row["clock_seconds"] = int(tl.group(1)) / 1000
        else:
            row["clock_seconds"] = float(int(tl.group(2)) * 3600 + int(tl.group(3)) * 60 + int(tl.group(4)))
    if row["eval_cp"] is None and row["eval_mate"] is None and (wv := _WV.search(text)):
        if wv.group(2):
            row["eval_mate"] = -int(wv.group(2)) if wv.group(1) else int(wv.group(2))
        else:
            row["eval_cp"] = round(float(wv.group(3)) * 100)
    if row["move_time_ms"] is None and (mt := _MT.search(text)):
        if mt.group(1):
            row["move_time_ms"] = int(mt.group(1))
        else:
            row["move_time_ms"] = (int(mt.group(2)) * 3600 + int(mt.group(3)) * 60 + int(mt.group(4))) * 1000
    if row["depth"] is None and (d := _D.search(text)):
        row["depth"] = int(d.group(1))
    scored = _SCORE_DEPTH.match(comment)
    if scored and (scored.group(2) or scored.group(3) not in (None, ".")):
        view = (1 if white_moved else -1) * (-1 if scored.group(1) == "-" else 1)
        if row["eval_cp"] is None and row["eval_mate"] is None:
            if scored.group(2):
                row["eval_mate"] = view * int(scored.group(2))
            else:
                row["eval_cp"] = round(view * float(scored.group(3)) * 100)
        if row["depth"] is None:
            row["depth"] = int(scored.group(4))


def _material(board: chess.Board, colour: bool) -> int:
    return sum(v * len(board.pieces(pt, colour)) for pt, v in VALUES.items())


# python-chess ends a game at a second blank line after the tags (3 pgnmentor games have
# "]\r\n\r\n\r\n1.b3"); the standard allows any whitespace there, so give it one blank line.
_BLANKS_AFTER_TAGS = re.compile(r"\]\r?\n(?:[ \t]*\r?\n){2,}")


def reference(text: str) -> tuple[dict[str, object], list[dict[str, object]]] | None:
    """python-chess's rows for one game (None for variants other than standard/Chess960)."""
    text = _BLANKS_AFTER_TAGS.sub("]\n\n", text, count=1)
    game = chess.pgn.read_game(io.StringIO(text), Visitor=_Quiet)
    if game is None:
        return None
    board = game.board()
    if type(board) is not chess.Board:
        return None
    rows: list[dict[str, object]] = []
    for node in game.mainline():
        move = node.move
        castle = board.is_castling(move)
        ep = board.is_en_passant(move)
        captured = chess.PAWN if ep else (None if castle else board.piece_type_at(move.to_square))
        row: dict[str, object] = {
            "ply": len(rows) + 1,
            "move_number": board.fullmove_number,
            "color": "white" if board.turn else "black",
            "san": board.san(move),
            "uci": board.uci(move),
            "piece": LETTER[board.piece_type_at(move.from_square)],
            "captured": LETTER[captured],
            "promotion": LETTER[move.promotion],
            "is_castle": castle,
            "is_en_passant": ep,
        }
        board.push(move)
        row["is_check"] = board.is_check()
        row["is_mate"] = board.is_checkmate()
        row["material_white"] = _material(board, chess.WHITE)
        row["material_black"] = _material(board, chess.BLACK)
        row["clock_seconds"] = node.clock()
        score = node.eval()
        row["eval_cp"] = score.white().score() if score is not None and not score.is_mate() else None
        row["eval_mate"] = score.white().mate() if score is not None and score.is_mate() else None
        emt = node.emt()
        row["move_time_ms"] = round(emt * 1000) if emt is not None else None
        row["depth"] = node.eval_depth()
        _engine_comment(row, node.comment, not board.turn)
        rows.append(row)
    headers = game.headers
    facts: dict[str, object] = {
        "white": headers.get("White"),
        "black": headers.get("Black"),
        "plies": len(rows),
        "final_fen": board.fen(),
    }
    return facts, rows


COMPARED = [
    "ply",
    "move_number",
    "color",
    "san",
    "uci",
    "piece",
    "captured",
    "promotion",
    "is_castle",
    "is_en_passant",
    "is_check",
    "is_mate",
    "material_white",
    "material_black",
    "clock_seconds",
    "eval_cp",
    "eval_mate",
    "move_time_ms",
    "depth",
]


def compare_file(path: Path, stride: int) -> tuple[Counter[str], list[str]]:
    counts: Counter[str] = Counter()
    problems: list[str] = []
    raws = [raw for raw in split_games(path) if (raw.number - 1) % stride == 0]
    items = [(game_id(raw_text(raw)), raw) for raw in raws]
    games, moves, _ = tabulate_raw(items, source_file=path.name)
    counts["games"] += len(raws)
    if games.height != len(raws):
        return counts, [f"{path.name}: {games.height} games rows for {len(raws)} games"]
    by_game = moves.partition_by("game_id", as_dict=True, maintain_order=True)
    for raw, row in zip(raws, games.iter_rows(named=True)):
        where = f"{path.name} game {raw.number}"
        if row["game_number"] != raw.number:
            problems.append(f"{where}: game_number {row['game_number']}")
        ours = by_game.get((row["game_id"],))
        ours_rows = ours.select(COMPARED).to_dicts() if ours is not None else []
        if len(ours_rows) != row["plies"]:
            problems.append(f"{where}: {len(ours_rows)} moves rows but plies = {row['plies']}")
        if row["status"] == "unsupported":
            counts["unsupported"] += 1
            if ours_rows:
                problems.append(f"{where}: moves rows for an unsupported variant")
            continue
        if row["first_error"] == "san.unknown-piece":
            counts["unknown_piece"] += 1
            continue
        ref = reference(raw.text)
        if ref is None:
            counts["reference_skipped"] += 1
            continue
        facts, ref_rows = ref
        counts["compared"] += 1
        counts["plies"] += len(ref_rows)
        if row["plies"] != facts["plies"]:
            problems.append(f"{where}: plies {row['plies']} != python-chess {facts['plies']}")
            continue
        if row["final_fen"] != facts["final_fen"]:
            problems.append(f"{where}: final_fen {row['final_fen']} != {facts['final_fen']}")
        for name in ("white", "black"):
            # the games table strips surrounding blanks from tag values ("Nimzowitsch, Aaron ")
            value = facts[name].strip() if isinstance(facts[name], str) else facts[name]
            expected = value if value not in ("?", "") else None
            if "\\" not in str(expected) and row[name] != expected:  # python-chess keeps escapes
                problems.append(f"{where}: {name} {row[name]!r} != {expected!r}")
        for mine, theirs in zip(ours_rows, ref_rows):
            if mine != theirs:
                diff = {k: (mine[k], theirs[k]) for k in COMPARED if mine[k] != theirs[k]}
                problems.append(f"{where} ply {theirs['ply']}: {diff}")
                break
    return counts, problems


def _run(sample: bool) -> None:
    total: Counter[str] = Counter()
    problems: list[str] = []
    for name, stride in GAME_FILES.items():
        counts, found = compare_file(corpus_path("games", name), stride if sample else 1)
        total.update(counts)
        problems.extend(found)
    print(
        f"\nframes vs python-chess ({'fixed sample' if sample else 'whole corpus'}): "
        + ", ".join(f"{k} {v}" for k, v in sorted(total.items()))
    )
    assert not problems, "\n".join(problems[:40])


def test_frames_match_python_chess_sample() -> None:
    _run(True)


@pytest.mark.slow
def test_frames_match_python_chess_whole_corpus() -> None:
    _run(False)


@pytest.mark.slow
def test_import_whole_corpus(tmp_path: Path) -> None:
    """`notation import` of the whole corpus: one games row per distinct game (the same game
    text in two files is one game: 240 such pairs between the pgnmentor files), one moves row
    per legal mainline ply, no duplicate ids, python-chess's ply count for every game."""
    from notation.tables.dataset import import_files
    from notation.tables.frames import scan

    root = corpus_path("games")
    summary = import_files([root], tmp_path / "ds")
    games, moves = scan(tmp_path / "ds")
    g = games.select("game_id", "source_file", "game_number", "plies", "status").collect()
    assert g.height == summary.games_imported == summary.games_read - summary.duplicates
    assert g["game_id"].n_unique() == g.height
    per_game = moves.group_by("game_id").agg(pl.len().alias("rows")).collect()
    joined = g.join(per_game, on="game_id", how="left").with_columns(pl.col("rows").fill_null(0))
    assert (joined["rows"] == joined["plies"].cast(pl.UInt32)).all()
    assert moves.select(pl.len()).collect().item() == summary.plies == g["plies"].sum()
    # python-chess's legal-ply count for every game imported
    plies = {
        (r[0], r[1]): r[2] for r in g.select(pl.col("source_file").cast(pl.String), "game_number", "plies").iter_rows()
    }
    status = {
        (r[0], r[1]): r[2]
        for r in g.select(
            pl.col("source_file").cast(pl.String), "game_number", pl.col("status").cast(pl.String)
        ).iter_rows()
    }
    mismatches = []
    for path in sorted(p for p in root.rglob("*") if p.is_file()):
        for raw in split_games(path):
            key = (path.name, raw.number)
            if key not in plies or status[key] == "unsupported":
                continue
            ref = reference(raw.text)
            if ref is not None and ref[0]["plies"] != plies[key]:
                mismatches.append((key, plies[key], ref[0]["plies"]))
    print(
        f"\nimported {g.height} games, {summary.plies} plies, {summary.duplicates} duplicates skipped; "
        f"{len(mismatches)} ply-count mismatches"
    )
    assert not mismatches, mismatches[:20]
