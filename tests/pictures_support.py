"""Helpers for the picture tests: SVG parsing, mark and axis-title look-ups, and a small PGN
with clocks, evaluations, engine comments and arrows (written for these tests)."""

from __future__ import annotations

import xml.etree.ElementTree as ET

SVG = "{http://www.w3.org/2000/svg}"

#: Game 1: a Lichess-style game with [%clk] and [%eval] after every move, arrows and squares on
#: ply 3, checkmate at the end. Game 2: engine comments with wv= (TCEC style), unfinished.
CLOCK_PGN = """[Event "Pictures test"]
[Date "2024.05.01"]
[White "Alder, Anna"]
[Black "Brook, Ben"]
[Result "1-0"]
[WhiteElo "2000"]
[BlackElo "1900"]
[ECO "C20"]
[TimeControl "180+2"]

1. e4 { [%clk 0:03:00] [%eval 0.3] } 1... e5 { [%clk 0:02:58] [%eval 0.25] }
2. Qh5 { [%clk 0:02:55] [%eval -0.5] } 2... Nc6 { [%clk 0:02:50] [%eval 0.1] }
3. Bc4 { [%clk 0:02:50] [%eval 0.0] [%cal Gh5f7,Rc4f7] [%csl Yf7] } 3... Nf6 { [%clk 0:02:30] [%eval #2] }
4. Qxf7# { [%clk 0:02:45] } 1-0

[Event "Engine match"]
[White "Engine One"]
[Black "Engine Two"]
[Result "*"]

1. d4 {d=10, wv=0.20, R50=50,} 1... d5 {d=11, wv=0.15,} 2. c4 {d=12, wv=-M3,} *
"""


def parse(svg: str) -> ET.Element:
    """The root element of SVG text (fails the test when it is not well-formed XML)."""
    root = ET.fromstring(svg)
    assert root.tag == SVG + "svg"
    return root


def marks(root: ET.Element, name: str) -> int:
    """How many items the Vega mark layer ``name`` drew (``<g class="... name_marks">``; in a
    concatenated chart Vega adds an index: ``name_0_marks``)."""
    found = [
        g
        for g in root.iter(SVG + "g")
        if "role-mark" in g.get("class", "")
        and any(
            c == f"{name}_marks" or (c.startswith(f"{name}_") and c.endswith("_marks"))
            for c in g.get("class", "").split()
        )
    ]
    assert found, f"no mark layer {name!r}"
    return sum(len(list(g)) for g in found)


def axis_titles(root: ET.Element) -> list[str]:
    """The axis titles of a Vega SVG, in drawing order."""
    return [
        "".join(t.itertext())
        for g in root.iter(SVG + "g")
        if "role-axis-title" in g.get("class", "")
        for t in g.iter(SVG + "text")
    ]


def by_class(root: ET.Element, cls: str) -> list[ET.Element]:
    """Elements whose class list contains every word of ``cls``."""
    want = set(cls.split())
    return [e for e in root.iter() if want <= set(e.get("class", "").split())]
