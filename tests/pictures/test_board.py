"""Board diagrams (notation.pictures.board / .diagram): orientation, coordinates, the last move,
the king in check, [%cal] arrows and [%csl] squares; FEN and PGN sources; a golden SVG."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import SAMPLE_GAMES, check_golden
from pictures_support import CLOCK_PGN, by_class, parse

from notation.pictures.board import CHECK_COLOUR, Overlay, board_svg, position_svg, square_name
from notation.pictures.diagram import diagram, from_fen, from_game, parse_ply
from notation.pgn.reader import read_games
from notation.formats.position import Position

FOOLS_MATE = "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3"


def _square_xy(root: object, name: str) -> tuple[float, float]:
    (rect,) = [e for e in by_class(root, "square") if e.get("data-square") == name]  # type: ignore[arg-type]
    return float(rect.get("x", "")), float(rect.get("y", ""))


def test_initial_position_has_every_square_piece_and_coordinate() -> None:
    root = parse(position_svg(Position.initial()))
    assert len(by_class(root, "square")) == 64
    assert len(by_class(root, "piece")) == 32
    assert len(by_class(root, "piece white king")) == 1
    assert [e.get("data-square") for e in by_class(root, "piece black queen")] == ["d8"]
    files = ["".join(e.itertext()) for e in by_class(root, "coordinate file")]
    assert files == list("abcdefgh")
    assert not by_class(root, "check") and not by_class(root, "last-move") and not by_class(root, "arrow")


def test_white_at_the_bottom_puts_a1_bottom_left() -> None:
    root = parse(position_svg(Position.initial()))
    a1, h8 = _square_xy(root, "a1"), _square_xy(root, "h8")
    assert a1[0] < h8[0] and a1[1] > h8[1]


def test_flipped_orientation_puts_a1_at_the_top_right() -> None:
    root = parse(position_svg(Position.initial(), flipped=True))
    xs = [float(e.get("x", "")) for e in by_class(root, "square")]
    ys = [float(e.get("y", "")) for e in by_class(root, "square")]
    a1 = _square_xy(root, "a1")
    assert a1 == (max(xs), min(ys))
    assert _square_xy(root, "h8") == (min(xs), max(ys))
    assert ["".join(e.itertext()) for e in by_class(root, "coordinate file")] == list("hgfedcba")


def test_the_king_in_check_is_highlighted() -> None:
    root = parse(position_svg(Position.from_fen(FOOLS_MATE)))
    (check,) = by_class(root, "check")
    assert check.get("data-square") == "e1"
    assert check.get("fill") == CHECK_COLOUR


def test_black_king_in_check_is_highlighted() -> None:
    pos = Position.from_fen("4k3/8/8/8/8/8/8/4R1K1 b - - 0 1")
    (check,) = by_class(parse(position_svg(pos)), "check")
    assert check.get("data-square") == "e8"


def test_last_move_arrows_and_marks_are_drawn() -> None:
    svg = board_svg(
        {4: (True, 6), 60: (False, 6)},
        overlay=Overlay(last_move=(12, 28), marks=((28, "yellow"),), arrows=((12, 28, "green"), (6, 21, "red"))),
    )
    root = parse(svg)
    assert sorted(e.get("data-square") or "" for e in by_class(root, "last-move")) == ["e2", "e4"]
    assert [(e.get("data-from"), e.get("data-to")) for e in by_class(root, "arrow")] == [("e2", "e4"), ("g1", "f3")]
    assert by_class(root, "arrow red")[0].get("fill") == "#882020"
    assert [e.get("data-square") for e in by_class(root, "mark yellow")] == ["e4"]


def test_without_coordinates_and_with_a_caption() -> None:
    root = parse(position_svg(Position.initial(), coordinates=False, caption="Start & <go>"))
    assert not by_class(root, "coordinate")
    assert "".join(by_class(root, "caption")[0].itertext()) == "Start & <go>"


def test_square_names() -> None:
    assert [square_name(s) for s in (0, 7, 56, 63, 28)] == ["a1", "h1", "a8", "h8", "e4"]


def test_position_repr_svg_is_the_diagram() -> None:
    pos = Position.from_fen(FOOLS_MATE)
    assert pos._repr_svg_() == position_svg(pos)
    assert by_class(parse(pos._repr_svg_()), "check")


def test_golden_fools_mate_diagram() -> None:
    found, problems = from_fen(FOOLS_MATE)
    assert found is not None and not problems
    check_golden("pictures/fools-mate.svg", found.svg(size=240))


def _clock_games(tmp_path: Path) -> Path:
    path = tmp_path / "clock.pgn"
    path.write_text(CLOCK_PGN, encoding="utf-8")
    return path


def test_game_diagram_has_last_move_arrows_and_squares_of_its_comment(tmp_path: Path) -> None:
    found, problems = diagram(str(_clock_games(tmp_path)), game=1, ply=5)
    assert found is not None and not problems
    root = parse(found.svg())
    assert sorted(e.get("data-square") or "" for e in by_class(root, "last-move")) == ["c4", "f1"]
    arrows = {(e.get("data-from"), e.get("data-to"), e.get("class")) for e in by_class(root, "arrow")}
    assert arrows == {("h5", "f7", "arrow green"), ("c4", "f7", "arrow red")}
    assert [e.get("data-square") for e in by_class(root, "mark yellow")] == ["f7"]
    assert "after 3. Bc4" in (found.caption or "")


def test_game_diagram_at_the_end_shows_the_mated_king(tmp_path: Path) -> None:
    found, _ = diagram(str(_clock_games(tmp_path)), game=1)
    assert found is not None and found.ply == 7
    root = parse(found.svg())
    assert [e.get("data-square") for e in by_class(root, "check")] == ["e8"]
    assert sorted(e.get("data-square") or "" for e in by_class(root, "last-move")) == ["f7", "h5"]


def test_start_position_of_a_game_has_no_last_move() -> None:
    game = next(iter(read_games(SAMPLE_GAMES / "classics.pgn")))
    found, problems = from_game(game, 0)
    assert found is not None and not problems and found.last_move is None
    assert found.position == Position.initial()


def test_chess960_game_diagram() -> None:
    found, problems = diagram(str(SAMPLE_GAMES / "chess960.pgn"), game=1, ply=0)
    assert found is not None and not problems
    assert len(by_class(parse(found.svg()), "piece")) == 32


@pytest.mark.parametrize(
    ("spec", "kwargs", "code"),
    [
        ("rnbqkbnr/pppppppp/8/8 w - - 0 1", {}, "fen.invalid"),
        ("no-such-file.pgn", {}, "pgn.io"),
        (str(SAMPLE_GAMES / "classics.pgn"), {"game": 99}, "picture.no-such-game"),
        (str(SAMPLE_GAMES / "classics.pgn"), {"ply": 999}, "picture.no-such-ply"),
        (str(SAMPLE_GAMES / "variant_crazyhouse.pgn"), {}, "variant.unsupported"),
    ],
)
def test_problems_are_diagnostics(spec: str, kwargs: dict[str, int], code: str) -> None:
    found, problems = diagram(spec, **kwargs)  # type: ignore[arg-type]
    assert found is None
    assert problems and problems[0].code == code


def test_broken_game_stops_at_its_legal_prefix() -> None:
    found, problems = diagram(str(SAMPLE_GAMES / "broken.pgn"), game=1)
    assert found is not None and not problems  # the end of the legal mainline
    too_far, problems = diagram(str(SAMPLE_GAMES / "broken.pgn"), game=1, ply=found.ply + 1)
    assert too_far is None and problems[0].code == "picture.no-such-ply"
    assert "stops at ply" in problems[0].message


@pytest.mark.parametrize(("spec", "ply"), [("12", 12), ("0", 0), ("24w", 47), ("24b", 48), ("x", None), ("1.5", None)])
def test_parse_ply(spec: str, ply: int | None) -> None:
    assert parse_ply(spec) == ply


def test_png_of_a_diagram() -> None:
    pytest.importorskip("vl_convert")
    from notation.pictures.board import svg_to_png

    png = svg_to_png(position_svg(Position.initial()), scale=1.0)
    assert png.startswith(b"\x89PNG\r\n\x1a\n")


def test_no_ids_so_diagrams_can_share_a_page() -> None:
    checked = Position.from_fen("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3")
    svg = position_svg(checked, last_move=(31, 39), arrows=[(12, 28, "green")], marks=[(4, "red")], caption="x")
    assert " id=" not in svg and "url(#" not in svg
