"""Injected faults on real games.

A slice of a real Lichess export is validated once as is, then with one fault injected into one
game: an illegal move, an ambiguous move, a wrong piece letter, a truncated comment, a missing
result, a wrong Result tag. Each must be reported at the right game, ply and line:column, and
every other game's report must stay exactly the same.
"""

from __future__ import annotations

import gzip
import re
from pathlib import Path
from typing import Any

import pytest
from conftest import corpus_path

from notation.formats.position import Position
from notation.pgn.reader import read_games
from notation.formats.san import SanError
from notation.validation.run import validate

GAMES = 30
TARGET = 12  # the game that gets the fault


@pytest.fixture(scope="module")
def original(tmp_path_factory: pytest.TempPathFactory) -> str:
    path = corpus_path("games", "lichess", "lichess-jishanshaikh4.pgn.gz")
    lines: list[str] = []
    events = 0
    with gzip.open(path, "rt", encoding="utf-8") as handle:
        for line in handle:
            if line.startswith("[Event "):
                events += 1
                if events > GAMES:
                    break
            lines.append(line)
    return "".join(lines)


def run(text: str, tmp_path: Path) -> list[dict[str, Any]]:
    file = tmp_path / "slice.pgn"
    file.write_text(text, encoding="utf-8")
    return [r.to_dict() for r in validate(file, file="slice.pgn")]


def others_unchanged(before: list[dict[str, Any]], after: list[dict[str, Any]], target: int) -> None:
    assert len(before) == len(after) == GAMES
    for old, new in zip(before, after):
        if old["game"] != target:
            assert old == new, f"game {old['game']} changed"


def replace_at(text: str, line: int, column: int, old: str, new: str) -> str:
    rows = text.split("\n")
    row = rows[line - 1]
    assert row[column - 1 : column - 1 + len(old)] == old, (row, column, old)
    rows[line - 1] = row[: column - 1] + new + row[column - 1 + len(old) :]
    return "\n".join(rows)


def target_game(text: str, number: int = TARGET) -> Any:
    return next(g for g in read_games_text(text) if g.number == number)


def read_games_text(text: str) -> Any:
    import io

    return read_games(io.StringIO(text))


def find(report: dict[str, Any], code: str) -> dict[str, Any]:
    found = [d for d in report["diagnostics"] if d["code"] == code]
    assert found, (code, report["diagnostics"])
    return found[0]


@pytest.fixture(scope="module")
def baseline(original: str, tmp_path_factory: pytest.TempPathFactory) -> list[dict[str, Any]]:
    reports = run(original, tmp_path_factory.mktemp("base"))
    assert reports[TARGET - 1]["status"] in ("ok", "warning")
    return reports


def test_illegal_move(original: str, baseline: list[dict[str, Any]], tmp_path: Path) -> None:
    g = target_game(original)
    ply = 14
    node = g.moves[ply - 1]
    pos = Position.initial()
    for n in g.moves[: ply - 1]:
        pos = pos.play(pos.parse_san(n.san))
    bad = next(s for s in ("Ke8", "Ka1", "Qa8", "Nh8", "Rh5", "Bb1", "Ka4") if _illegal(pos, s))
    text = replace_at(original, node.span.line, node.span.column, node.san, bad)
    after = run(text, tmp_path)
    others_unchanged(baseline, after, TARGET)
    rep = after[TARGET - 1]
    diag = find(rep, "san.illegal")
    assert (diag["ply"], diag["line"], diag["column"], diag["san"]) == (ply, node.span.line, node.span.column, bad)
    assert rep["status"] == "error" and rep["plies"] == ply - 1


def _illegal(pos: Position, san: str) -> bool:
    try:
        pos.parse_san(san)
    except SanError as exc:
        return exc.code == "san.illegal"
    return False


def test_ambiguous_move(original: str, baseline: list[dict[str, Any]], tmp_path: Path) -> None:
    pattern = re.compile(r"^([NBRQ])([a-h1-8])(x?[a-h][1-8][+#]?)$")
    for g in read_games_text(original):
        hit = next(((i, n) for i, n in enumerate(g.moves) if pattern.match(n.san)), None)
        if hit is not None:
            break
    else:  # pragma: no cover - the slice has disambiguated moves
        pytest.skip("no disambiguated move in the slice")
    index, node = hit
    stripped = pattern.sub(r"\1\3", node.san)
    text = replace_at(original, node.span.line, node.span.column, node.san, stripped)
    after = run(text, tmp_path)
    others_unchanged(baseline, after, g.number)
    diag = find(after[g.number - 1], "san.ambiguous")
    assert (diag["ply"], diag["line"], diag["column"]) == (index + 1, node.span.line, node.span.column)
    assert node.san.rstrip("+#") in diag["candidates"] and len(diag["candidates"]) >= 2
    assert diag["fen"]


def test_wrong_piece_letter(original: str, baseline: list[dict[str, Any]], tmp_path: Path) -> None:
    g = target_game(original)
    index, node = next((i, n) for i, n in enumerate(g.moves) if n.san.startswith("N"))
    text = replace_at(original, node.span.line, node.span.column, node.san, "S" + node.san[1:])
    after = run(text, tmp_path)
    others_unchanged(baseline, after, TARGET)
    rep = after[TARGET - 1]
    diag = find(rep, "san.unknown-piece")
    assert (diag["ply"], diag["line"], diag["column"]) == (index + 1, node.span.line, node.span.column)
    assert rep["plies"] == index and rep["status"] == "error"


def test_truncated_comment(original: str, baseline: list[dict[str, Any]], tmp_path: Path) -> None:
    g = target_game(original)
    node = g.moves[9]
    rows = original.split("\n")
    row = rows[node.span.line - 1]
    open_at = row.index("{", node.span.column - 1)
    rows[node.span.line - 1] = row[: open_at + 6]  # the game text ends inside this comment
    after = run("\n".join(rows), tmp_path)
    others_unchanged(baseline, after, TARGET)
    rep = after[TARGET - 1]
    diag = find(rep, "pgn.unclosed-comment")
    assert (diag["line"], diag["column"]) == (node.span.line, open_at + 1)
    assert rep["status"] == "error" and rep["plies"] == 10
    find(rep, "pgn.missing-result")


def test_missing_result(original: str, baseline: list[dict[str, Any]], tmp_path: Path) -> None:
    g = target_game(original)
    marker = g.result
    rows = original.split("\n")
    last = g.moves[-1].span.line
    line = next(i for i in range(last - 1, len(rows)) if rows[i].rstrip().endswith(marker))
    rows[line] = rows[line].rstrip()[: -len(marker)].rstrip()
    after = run("\n".join(rows), tmp_path)
    others_unchanged(baseline, after, TARGET)
    rep = after[TARGET - 1]
    find(rep, "pgn.missing-result")
    assert rep["status"] == "error" and rep["line"] == g.line


def test_wrong_result_tag(original: str, baseline: list[dict[str, Any]], tmp_path: Path) -> None:
    g = target_game(original)
    tag = g.tags["Result"]
    wrong = "0-1" if tag != "0-1" else "1-0"
    rows = original.split("\n")
    line = next(i for i in range(g.line - 1, len(rows)) if rows[i].startswith("[Result "))
    rows[line] = f'[Result "{wrong}"]'
    after = run("\n".join(rows), tmp_path)
    others_unchanged(baseline, after, TARGET)
    rep = after[TARGET - 1]
    diag = find(rep, "pgn.result-mismatch")
    assert diag["san"] == g.result and diag["line"] > g.line
    assert rep["status"] == "error" and rep["result"] == wrong
