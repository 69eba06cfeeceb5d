"""Scoresheet renderings: golden text and HTML, strict HTML check, well-formed SVG.

Regenerate the golden files with ``NOTATION_UPDATE_GOLDEN=1 pytest tests/scoresheet/test_render_sheet.py``
and review the diff like an API change.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from html.parser import HTMLParser
from pathlib import Path

import pytest

from notation import reconstruct
from notation.scoresheet.render import diagrams_for, render_html, render_text
from notation.pictures.board import Overlay, board_svg, diagram_ply, position_svg
from conftest import ROOT, SAMPLE_GAMES, check_golden

GOLDEN = ROOT / "tests" / "golden" / "scoresheet"
SHEETS = {
    "club-game-german": SAMPLE_GAMES / "sheets" / "club-game-german.txt",
    "immortal-damaged": SAMPLE_GAMES / "sheets" / "immortal-damaged.csv",
    "opera-game-chinese": SAMPLE_GAMES / "sheets" / "opera-game-chinese.txt",
}
DIAGRAMS = {"club-game-german": ["12b"], "immortal-damaged": ["17w"], "opera-game-chinese": []}


def _check_golden(name: str, text: str) -> None:
    check_golden(f"scoresheet/{name}", text)


VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


class StrictHTML(HTMLParser):
    """Balanced tags (void elements excepted, SVG self-closing tags allowed), one html root."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[str] = []
        self.errors: list[str] = []
        self.doctype = False
        self.roots = 0

    def handle_decl(self, decl: str) -> None:
        self.doctype = decl.lower() == "doctype html"

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if not self.stack:
            self.roots += 1
        names = [a for a, _ in attrs]
        if len(names) != len(set(names)):
            self.errors.append(f"duplicate attribute in <{tag}>")
        if tag not in VOID:
            self.stack.append(tag)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag not in VOID and "svg" not in self.stack:
            self.errors.append(f"self-closing <{tag}/> outside SVG")

    def handle_endtag(self, tag: str) -> None:
        if tag in VOID:
            self.errors.append(f"end tag for void element </{tag}>")
        elif not self.stack or self.stack[-1] != tag:
            self.errors.append(f"unbalanced </{tag}> (open: {self.stack[-3:]})")
        else:
            self.stack.pop()


def assert_valid_html(text: str) -> None:
    try:
        import html5lib  # type: ignore[import-not-found]
    except ImportError:
        html5lib = None
    if html5lib is not None:  # pragma: no cover - used when installed
        parser = html5lib.HTMLParser(strict=True)
        parser.parse(text)
    checker = StrictHTML()
    checker.feed(text)
    checker.close()
    assert checker.doctype, "missing <!DOCTYPE html>"
    assert checker.roots == 1
    assert not checker.stack, f"unclosed: {checker.stack}"
    assert not checker.errors, checker.errors


@pytest.mark.parametrize("name", sorted(SHEETS))
def test_text_golden(name: str) -> None:
    rec = reconstruct(SHEETS[name].read_text(encoding="utf-8"))
    _check_golden(f"{name}.txt", render_text(rec))


@pytest.mark.parametrize("name", sorted(SHEETS))
def test_html_golden_and_valid(name: str) -> None:
    rec = reconstruct(SHEETS[name].read_text(encoding="utf-8"))
    diagrams, problems = diagrams_for(rec, DIAGRAMS[name])
    assert not problems
    html = render_html(rec, diagrams=diagrams)
    assert_valid_html(html)
    _check_golden(f"{name}.html", html)
    for _, svg in diagrams:
        ET.fromstring(svg)


def test_corrections_are_marked() -> None:
    rec = reconstruct(SHEETS["immortal-damaged"].read_text(encoding="utf-8"))
    text = render_text(rec)
    assert "Nc3 *" in text and "Corrections (* in the table):" in text
    html = render_html(rec)
    assert html.count('class="corrected"') + html.count('class="doubtful flagged"') == 3
    assert "written &#x27;Bc3&#x27; read as Nc3" in html


def test_needs_human_page_lists_each_flagged_move_with_its_pins() -> None:
    from test_sheet_trust import TRANSPOSED  # a transposition against a missing disambiguation: a tie

    rec = reconstruct(TRANSPOSED)
    assert rec.needs_human and rec.flagged
    html = render_html(rec)
    assert_valid_html(html)
    assert 'class="doubtful' in html and "Likeliest readings" in html and "Moves to check" in html
    first = rec.flagged[0]
    label = f"{(first.ply - 1) // 2 + 1}{'.' if first.ply % 2 else '...'}"
    for choice in first.choices:  # each move weighed, with the option that chooses it
        assert f"--pin {label}{choice.san}" in html
    assert "NEEDS A HUMAN" in render_text(rec) and f"--pin {label}{first.choices[0].san}" in render_text(rec)


def test_html_shows_what_each_copy_wrote() -> None:
    from notation.scoresheet.reader import read_sheets

    rec = read_sheets(["1. e4 e5 2. Nf3 Nc6 *", "1. e4 e5 2. Nf4 Nc6 *"])
    html = render_html(rec)
    assert "copy 1: Nf3; copy 2: Nf4" in html


def test_html_escapes_tags() -> None:
    rec = reconstruct("1. e4 e5", tags='White=<b>&"x"')
    html = render_html(rec)
    assert_valid_html(html)
    assert "&lt;b&gt;&amp;" in html


def test_svg_initial_position_is_well_formed() -> None:
    from notation.formats.position import Position

    svg = position_svg(Position.initial(), caption="start & <go>")
    root = ET.fromstring(svg)
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    texts = [
        t
        for t in root.iter("{http://www.w3.org/2000/svg}text")
        if t.find("{http://www.w3.org/2000/svg}title") is not None
    ]
    assert len(texts) == 32
    titles = sorted(t.find("{http://www.w3.org/2000/svg}title").text or "" for t in texts)  # type: ignore[union-attr]
    assert titles.count("white pawn") == 8 and titles.count("black king") == 1


_SVG = "{http://www.w3.org/2000/svg}"


def _squares(root: ET.Element, cls: str = "square") -> dict[str, tuple[float, float]]:
    """``data-square`` -> (x, y) of the rects of one class (``square``: the 64 board squares)."""
    return {
        r.get("data-square", ""): (float(r.get("x", "0")), float(r.get("y", "0")))
        for r in root.iter(f"{_SVG}rect")
        if cls in (r.get("class") or "").split()
    }


def test_svg_flipped_and_empty() -> None:
    """Flipped: a1 is drawn top right and h8 bottom left (Black's view), the pieces with their
    squares and the file letters from h; empty: 64 squares, no piece, no coordinates asked."""
    empty = ET.fromstring(board_svg({}, flipped=True, coordinates=False))
    squares = _squares(empty)
    assert len(squares) == 64
    assert not [t for t in empty.iter(f"{_SVG}text") if "piece" in (t.get("class") or "")]
    assert not [t for t in empty.iter(f"{_SVG}text") if "coordinate" in (t.get("class") or "")]
    xs, ys = [x for x, _ in squares.values()], [y for _, y in squares.values()]
    assert squares["a1"] == (max(xs), min(ys)) and squares["h8"] == (min(xs), max(ys))
    upright = _squares(ET.fromstring(board_svg({}, coordinates=False)))
    assert upright["a1"] == (min(xs), max(ys)) and upright["h8"] == (max(xs), min(ys))

    kings = ET.fromstring(board_svg({0: (True, 6), 63: (False, 6)}, flipped=True, overlay=Overlay(last_move=(0, 63))))
    pieces = {
        t.get("data-square"): (t.get("class"), float(t.get("x", "0")))
        for t in kings.iter(f"{_SVG}text")
        if "piece" in (t.get("class") or "")
    }
    assert {sq: cls for sq, (cls, _) in pieces.items()} == {"a1": "piece white king", "h8": "piece black king"}
    assert pieces["a1"][1] > pieces["h8"][1]  # flipped: the white king (a1) right of the black one
    assert set(_squares(kings, "last-move")) == {"a1", "h8"}
    files = [t.text for t in kings.iter(f"{_SVG}text") if (t.get("class") or "") == "coordinate file"]
    assert files == list("hgfedcba")


@pytest.mark.parametrize(
    ("spec", "ply"),
    [("24w", 47), ("24b", 48), ("24", 47), ("1w", 1), ("3...", 6), ("x", None), ("0w", None), ("24z", None)],
)
def test_diagram_spec(spec: str, ply: int | None) -> None:
    assert diagram_ply(spec) == ply


def test_diagram_out_of_game_is_a_problem() -> None:
    rec = reconstruct("1. e4 e5 2. Nf3")
    diagrams, problems = diagrams_for(rec, ["2w", "2b", "x"])
    assert [c for c, _ in diagrams] == ["after 2. Nf3", "final position (*)"]
    assert len(problems) == 2


def test_golden_directory_is_complete() -> None:
    names = {p.name for p in Path(GOLDEN).glob("*")}
    for name in SHEETS:
        assert f"{name}.txt" in names and f"{name}.html" in names
