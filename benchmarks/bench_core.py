"""Benchmark: the compiled core's targets, as whole processes, interleaved on one file.

    python benchmarks/bench_core.py [PATH] [--rounds R] [--only validate import]

Default PATH is ``lichess-jishanshaikh4.pgn.gz`` (37,221 games). Every contender runs as a
process under ``/usr/bin/time`` (CPU seconds = user + system, peak RSS), in the same order each
round, so the machine's drift hits all of them alike:

validate
  * python-chess: a ``chess.pgn.read_game`` loop over the file (parse + SAN legality);
  * ``notation validate FILE --format jsonl`` with ``--jobs 1`` and ``--jobs 2``;
  * ``pgn-extract -s -r FILE`` (the Debian package; skipped when it is not installed).
import
  * python-chess: ``read_game``, then the same two tables (one row per game, one per mainline
    ply: SAN, UCI, pieces, check/mate/castle/en passant, clock, eval, NAGs, comment, Polyglot
    key, material) built in Polars and written as Parquet (``_PYTHON_CHESS_IMPORT`` below);
  * ``notation import FILE --out DIR`` (``--jobs 1``);
  * ``rust-pgn-reader-python-binding`` (PyPI; the PyO3 binding of the GPL rust-pgn-reader and
    shakmaty, installed for this benchmark only, never a dependency): the file read and cut into
    one string per game, ``parse_games(..., num_threads=1)``, and its arrays (moves: from, to,
    promotion, clock, eval; games: move offset, checkmate, stalemate, legal move count, valid)
    written to Parquet with pyarrow (``_BINDING_IMPORT``); skipped when it is not installed.

Prints each contender's median CPU seconds, wall seconds and peak RSS, and the CPU ratios
against python-chess. python-chess is a benchmark-only reference, never a dependency.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEFAULT = ROOT.parent / "shared" / "corpus" / "games" / "lichess" / "lichess-jishanshaikh4.pgn.gz"

# the read_game loop of bench_validate.py (this folder is on sys.path when a script here runs)
from bench_validate import _PYTHON_CHESS_LOOP as _PYTHON_CHESS_VALIDATE  # noqa: E402

_PYTHON_CHESS_IMPORT = r"""
import gzip, re, sys, chess, chess.pgn, chess.polyglot, polars as pl
path, out = sys.argv[1], sys.argv[2]
handle = gzip.open(path, "rt", encoding="utf-8", errors="replace") if path.endswith(".gz") else open(path, encoding="utf-8", errors="replace")
VALUES = {chess.PAWN: 1, chess.KNIGHT: 3, chess.BISHOP: 3, chess.ROOK: 5, chess.QUEEN: 9, chess.KING: 0}
CLK = re.compile(r"\[%clk\s+(\d+):(\d+):(\d+(?:\.\d+)?)\]")
EVAL = re.compile(r"\[%eval\s+(#)?(-?\d+(?:\.\d+)?)")
games = {k: [] for k in ("game", "event", "white", "black", "result", "white_elo", "black_elo", "eco",
                         "time_control", "termination", "plies", "final_fen")}
moves = {k: [] for k in ("game", "ply", "move_number", "color", "san", "uci", "piece", "captured", "promotion",
                         "is_check", "is_mate", "is_castle", "is_en_passant", "clock_seconds", "eval_cp",
                         "eval_mate", "nags", "comment", "position_key", "material_white", "material_black")}
number = 0
while True:
    game = chess.pgn.read_game(handle)
    if game is None:
        break
    number += 1
    h = game.headers
    board = game.board()
    ply = 0
    # other variants (Atomic, Crazyhouse, ...) get a games row without moves, as in notation
    for node in game.mainline() if board.uci_variant == "chess" else ():
        move = node.move
        ply += 1
        moves["game"].append(number); moves["ply"].append(ply)
        moves["move_number"].append(board.fullmove_number)
        moves["color"].append("white" if board.turn else "black")
        moves["san"].append(board.san(move)); moves["uci"].append(move.uci())
        moves["piece"].append(board.piece_at(move.from_square).symbol().upper())
        ep = board.is_en_passant(move)
        captured = chess.PAWN if ep else board.piece_type_at(move.to_square) if board.is_capture(move) else None
        moves["captured"].append(chess.piece_symbol(captured).upper() if captured else None)
        moves["promotion"].append(chess.piece_symbol(move.promotion).upper() if move.promotion else None)
        moves["is_castle"].append(board.is_castling(move)); moves["is_en_passant"].append(ep)
        board.push(move)
        moves["is_check"].append(board.is_check()); moves["is_mate"].append(board.is_checkmate())
        comment = node.comment
        clk, ev = CLK.search(comment), EVAL.search(comment)
        moves["clock_seconds"].append(int(clk[1]) * 3600 + int(clk[2]) * 60 + float(clk[3]) if clk else None)
        moves["eval_cp"].append(round(float(ev[2]) * 100) if ev and not ev[1] else None)
        moves["eval_mate"].append(int(ev[2]) if ev and ev[1] else None)
        moves["nags"].append(sorted(node.nags) or None)
        moves["comment"].append(comment or None)
        moves["position_key"].append(chess.polyglot.zobrist_hash(board))
        white = sum(VALUES[p.piece_type] for p in board.piece_map().values() if p.color)
        black = sum(VALUES[p.piece_type] for p in board.piece_map().values() if not p.color)
        moves["material_white"].append(white); moves["material_black"].append(black)
    games["game"].append(number)
    for key, tag in (("event", "Event"), ("white", "White"), ("black", "Black"), ("result", "Result"),
                     ("white_elo", "WhiteElo"), ("black_elo", "BlackElo"), ("eco", "ECO"),
                     ("time_control", "TimeControl"), ("termination", "Termination")):
        games[key].append(h.get(tag))
    games["plies"].append(ply); games["final_fen"].append(board.fen())
pl.DataFrame(games).write_parquet(out + "/games.parquet")
pl.DataFrame(moves, schema_overrides={"nags": pl.List(pl.UInt8), "position_key": pl.UInt64}, strict=False).write_parquet(out + "/moves.parquet")
print(number)
"""


_BINDING_IMPORT = r"""
import gzip, re, sys
import pyarrow as pa, pyarrow.parquet as pq
import rust_pgn_reader_python_binding as rb
path, out = sys.argv[1], sys.argv[2]
opened = gzip.open(path, "rt", encoding="utf-8", errors="replace") if path.endswith(".gz") else open(path, encoding="utf-8", errors="replace")
with opened as handle:
    text = handle.read()
games = re.split(r"\n\s*\n(?=\[)", text)  # one string per game, what the binding reads
parsed = rb.parse_games(pa.chunked_array([pa.array(games, pa.large_string())]), num_threads=1)
moves, per_game = [], []
for chunk in parsed.chunks:
    moves.append(pa.table({"from": chunk.from_squares, "to": chunk.to_squares, "promotion": chunk.promotions,
                           "clock": chunk.clocks, "eval": chunk.evals}))
    offsets = chunk.move_offsets
    per_game.append(pa.table({"move_offset": offsets[:chunk.num_games], "checkmate": chunk.is_checkmate,
                              "stalemate": chunk.is_stalemate, "legal_moves": chunk.legal_move_count,
                              "valid": chunk.valid}))
pq.write_table(pa.concat_tables(moves), out + "/moves.parquet")
pq.write_table(pa.concat_tables(per_game), out + "/games.parquet")
print(parsed.num_games)
"""


def _binding_installed() -> bool:
    probe = subprocess.run(
        [sys.executable, "-c", "import rust_pgn_reader_python_binding"], capture_output=True, check=False
    )
    return probe.returncode == 0


def timed(argv: list[str], cwd: Path) -> tuple[float, float, int]:
    """(CPU seconds, wall seconds, peak RSS KiB) of ``argv`` under /usr/bin/time."""
    report = tempfile.NamedTemporaryFile(suffix=".time", delete=False)
    report.close()
    done = subprocess.run(
        ["/usr/bin/time", "-o", report.name, "-f", "%U %S %e %M", *argv],
        cwd=cwd,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        check=False,
    )
    if done.returncode not in (0, 1):  # 1: notation found problems in the games
        raise RuntimeError(f"{argv[:3]} failed: {done.stderr[-2000:].decode(errors='replace')}")
    user, system, wall, rss = Path(report.name).read_text().split()[-4:]
    os.unlink(report.name)
    return float(user) + float(system), float(wall), int(rss)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("path", nargs="?", type=Path, default=DEFAULT)
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--only", nargs="+", default=["validate", "import"], choices=["validate", "import"])
    args = parser.parse_args()
    path = args.path.resolve()
    outside = Path(tempfile.mkdtemp(prefix="bench_core_"))
    notation = [sys.executable, "-m", "notation.cli.main"]
    contenders: dict[str, list[str] | None] = {}
    if "validate" in args.only:
        contenders["python-chess read_game"] = [sys.executable, "-c", _PYTHON_CHESS_VALIDATE, str(path)]
        contenders["notation validate --jobs 1"] = [
            *notation,
            "validate",
            str(path),
            "--format",
            "jsonl",
            "--jobs",
            "1",
        ]
        contenders["notation validate --jobs 2"] = [
            *notation,
            "validate",
            str(path),
            "--format",
            "jsonl",
            "--jobs",
            "2",
        ]
        extract = shutil.which("pgn-extract") or (
            "/usr/games/pgn-extract" if Path("/usr/games/pgn-extract").exists() else None
        )
        contenders["pgn-extract -s -r"] = [extract, "-s", "-r", str(path)] if extract else None
    if "import" in args.only:
        contenders["python-chess import (two Polars tables)"] = [
            sys.executable,
            "-c",
            _PYTHON_CHESS_IMPORT,
            str(path),
            str(outside / "pc"),
        ]
        contenders["notation import"] = [*notation, "import", str(path), "--out", str(outside / "nt"), "--jobs", "1"]
        contenders["rust-pgn-reader binding (arrays to Parquet)"] = (
            [sys.executable, "-c", _BINDING_IMPORT, str(path), str(outside / "pc")] if _binding_installed() else None
        )
    results: dict[str, list[tuple[float, float, int]]] = {name: [] for name, argv in contenders.items() if argv}
    for _ in range(args.rounds):
        for name, argv in contenders.items():
            if argv is None:
                continue
            for target in ("pc", "nt"):
                shutil.rmtree(outside / target, ignore_errors=True)
            (outside / "pc").mkdir()
            results[name].append(timed(argv, outside))
    load = os.getloadavg()[0]
    print(f"file: {path.name}, rounds: {args.rounds}, CPUs {os.cpu_count()}, load average {load:.1f}")
    medians = {name: tuple(statistics.median(r[i] for r in runs) for i in range(3)) for name, runs in results.items()}
    for name, (cpu, wall, rss) in medians.items():
        print(f"{name:42s} CPU {cpu:7.2f} s  wall {wall:7.2f} s  peak RSS {rss / 1024:7.1f} MiB")

    def ratio(reference: str, ours: str, index: int = 0) -> None:
        if reference in medians and ours in medians:
            print(
                f"{ours} vs {reference}: {medians[reference][index] / medians[ours][index]:.2f}x "
                f"({'CPU' if index == 0 else 'wall'})"
            )

    ratio("python-chess read_game", "notation validate --jobs 1")
    ratio("python-chess read_game", "notation validate --jobs 2", 1)
    ratio("notation validate --jobs 1", "notation validate --jobs 2", 1)
    ratio("python-chess import (two Polars tables)", "notation import")
    ratio("rust-pgn-reader binding (arrays to Parquet)", "notation import")
    if "pgn-extract -s -r" in medians and "notation validate --jobs 1" in medians:
        ratio("notation validate --jobs 1", "pgn-extract -s -r")
    if "python-chess read_game" in medians and "notation validate --jobs 1" in medians:
        print(
            f"peak RSS validate / python-chess: "
            f"{medians['notation validate --jobs 1'][2] / medians['python-chess read_game'][2]:.2f}"
        )
    shutil.rmtree(outside, ignore_errors=True)


if __name__ == "__main__":
    main()
