"""Rendering a reconstructed game as a scoresheet: plain text and a printable HTML page.

Both show the header (event, site, date, round, players, result), the moves in numbered
White/Black columns (FIDE scoresheet style), the corrections (marked ``*`` in text, highlighted
in HTML with the written text and alternatives) and, in HTML, SVG diagrams of the final position
and of any positions asked for.
"""

from __future__ import annotations

from html import escape
from typing import TYPE_CHECKING

from notation.diagnostics import ply_to_move_number
from notation.scoresheet.tokens import LANGUAGE_NAMES
from notation.scoresheet.verdict import move_label

if TYPE_CHECKING:  # pragma: no cover
    from notation.scoresheet.verdict import Correction, MoveConfidence, Reconstruction

_STATUS_TEXT = {
    "ok": "read as written",
    "corrected": "reconstructed with corrections",
    "needs-human": "NEEDS A HUMAN: no confident reconstruction",
}


def _rows(rec: Reconstruction) -> list[tuple[int, list[tuple[int, str] | None]]]:
    """(move number, [white cell, black cell]) rows; a cell is (ply index, SAN) or None."""
    rows: list[tuple[int, list[tuple[int, str] | None]]] = []
    for index, san in enumerate(rec.sans):
        number, colour = ply_to_move_number(rec.start_ply + index + 1)
        if not rows or rows[-1][0] != number:
            rows.append((number, [None, None]))
        rows[-1][1][0 if colour == "white" else 1] = (index + 1, san)
    return rows


def _tag(rec: Reconstruction, name: str) -> str:
    return rec.tags.get(name, "?")


def _ply_of(correction: Correction, rec: Reconstruction) -> int | None:
    """The 1-based index into ``rec.sans`` a correction refers to (its ply minus the start)."""
    return correction.ply


def render_text(rec: Reconstruction, *, width: int = 16) -> str:
    """The plain-text scoresheet (ends with a newline)."""
    marked = {p for c in rec.corrections if c.chosen for p in [_ply_of(c, rec)] if p is not None}
    lines = [
        "SCORESHEET",
        f"Event:  {_tag(rec, 'Event')}",
        f"Site:   {_tag(rec, 'Site')}",
        f"Date:   {_tag(rec, 'Date')}    Round: {_tag(rec, 'Round')}",
        f"White:  {_tag(rec, 'White')}",
        f"Black:  {_tag(rec, 'Black')}",
        f"Result: {rec.result}",
        f"Sheet:  {LANGUAGE_NAMES.get(rec.language, rec.language)} piece letters, {rec.layout} layout; "
        f"{_STATUS_TEXT.get(rec.status, rec.status)}",
        "",
        f"{'No.':>4}  {'White':<{width}}{'Black':<{width}}".rstrip(),
        f"{'---':>4}  {'-' * (width - 2):<{width}}{'-' * (width - 2)}",
    ]
    for number, cells in _rows(rec):
        texts: list[str] = []
        for column, cell in enumerate(cells):
            if cell is None:
                texts.append("..." if column == 0 else "")
            else:
                ply, san = cell
                texts.append(san + (" *" if ply in marked else ""))
        lines.append(f"{number:>4}  {texts[0]:<{width}}{texts[1]}".rstrip())
    if rec.sans:
        lines.append(f"{'':>4}  {rec.result}")
    if rec.corrections:
        lines.append("")
        lines.append("Corrections (* in the table):")
        for c in rec.corrections:
            lines.append(f"  {move_label(c.ply, rec.start_ply):>6} {c.message()}")
    if rec.flagged:
        lines.append("")
        lines.append("Moves to check (below 0.99), with the option that settles each:")
        for m in rec.flagged:
            lines.append(
                f"  {move_label(m.ply, rec.start_ply):>6} {m.san} (p={m.confidence:.2f}): "
                + "; ".join(
                    f"{c.san} p={c.probability:.2f} --pin {_pin(m, c.san, rec.start_ply)}" for c in m.choices or ()
                )
            )
    if rec.status == "needs-human" and len(rec.readings) > 1:
        lines.append("")
        lines.append("Likeliest readings:")
        for r in rec.readings[:3]:
            lines.append(f"  p={r.probability:.2f}, cost {r.cost:g}: {' '.join(r.sans[-12:])}")
    return "\n".join(lines) + "\n"


def _pin(move: MoveConfidence, san: str, start_ply: int) -> str:
    """The ``--pin`` option's value that settles ``move``'s ply as ``san``."""
    return f"{move_label(move.ply, start_ply)}{san}"


def _writing(rec: Reconstruction) -> dict[int, list[str]]:
    """Per ply (1-based), what each copy wrote for it (``copy N: text``, or the text alone for one
    copy)."""
    out: dict[int, list[str]] = {}
    for view in rec.boxes:
        if view.ply is not None:
            text = view.written if rec.copies == 1 else f"copy {view.copy}: {view.written}"
            out.setdefault(view.ply, []).append(text)
    return out


_CSS = """
body { font-family: Georgia, 'Times New Roman', serif; margin: 2em; color: #111; }
h1 { font-size: 1.4em; margin-bottom: 0.3em; }
table.header td { padding: 0.1em 1em 0.1em 0; }
table.header td.label { font-weight: bold; }
table.moves { border-collapse: collapse; margin-top: 1em; }
table.moves th, table.moves td { border: 1px solid #777; padding: 0.15em 0.6em; min-width: 7em; }
table.moves td.number { min-width: 2em; text-align: right; color: #555; }
td.corrected { background: #fff3a8; font-weight: bold; }
td.doubtful { background: #ffc9c9; font-weight: bold; }
td.flagged { outline: 2px solid #b00000; }
code.pin { font-size: 0.9em; background: #eee; padding: 0 0.3em; }
span.written { display: block; font-weight: normal; font-size: 0.8em; color: #555; }
p.status { font-style: italic; }
p.status.needs-human { color: #b00000; font-weight: bold; }
ol.corrections li { margin-bottom: 0.3em; }
div.diagrams { display: flex; flex-wrap: wrap; gap: 1.5em; margin-top: 1.5em; }
figure { margin: 0; }
@media print { body { margin: 0.5cm; } div.diagrams { page-break-inside: avoid; } }
""".strip()


def render_html(rec: Reconstruction, *, diagrams: list[tuple[str, str]] | None = None) -> str:
    """A standalone printable HTML page; ``diagrams`` are (caption, SVG text) pairs."""
    title = f"{_tag(rec, 'White')} - {_tag(rec, 'Black')}, {_tag(rec, 'Event')}"
    return _page(title, _sheet_html(rec, diagrams, "Scoresheet"))


def render_html_games(sheets: list[tuple[Reconstruction, list[tuple[str, str]]]]) -> str:
    """One printable HTML page for several games (a PGN input): one section per game, each as
    :func:`render_html` draws it (headed ``Game N``), with its (caption, SVG) diagrams. The
    page is :func:`html_games_head`, :func:`html_game_section` per game and :func:`html_games_tail`
    (written one after another, a page of any number of games needs one game at a time)."""
    sections = [html_game_section(number, rec, diagrams) for number, (rec, diagrams) in enumerate(sheets, 1)]
    return html_games_head(len(sheets)) + "".join(sections) + html_games_tail()


_GAMES_CSS = "section.game + section.game { page-break-before: always; margin-top: 2em; }"


def html_games_head(count: int) -> str:
    """The start of :func:`render_html_games`'s page of ``count`` games, up to ``<body>``."""
    return "\n".join(_page_head(f"Scoresheets ({count} games)", _GAMES_CSS)) + "\n"


def html_game_section(number: int, rec: Reconstruction, diagrams: list[tuple[str, str]]) -> str:
    """The section of the ``number``-th game of :func:`render_html_games`'s page."""
    body = [f'<section class="game" id="game-{number}">', *_sheet_html(rec, diagrams, f"Game {number}"), "</section>"]
    return "\n".join(body) + "\n"


def html_games_tail() -> str:
    """The end of :func:`render_html_games`'s page."""
    return "</body>\n</html>\n"


def _page_head(title: str, css: str = "") -> list[str]:
    return [
        "<!DOCTYPE html>",
        '<html lang="en">',
        "<head>",
        '<meta charset="utf-8">',
        f"<title>{escape(title)}</title>",
        f"<style>\n{_CSS}\n{css}\n</style>" if css else f"<style>\n{_CSS}\n</style>",
        "</head>",
        "<body>",
    ]


def _page(title: str, body: list[str], css: str = "") -> str:
    return "\n".join([*_page_head(title, css), *body, "</body>", "</html>"]) + "\n"


def _sheet_html(rec: Reconstruction, diagrams: list[tuple[str, str]] | None, heading: str) -> list[str]:
    """The HTML of one sheet: heading, header table, status, moves, corrections, diagrams."""
    per_ply = {p: c for c in rec.corrections if c.chosen for p in [_ply_of(c, rec)] if p is not None}
    writing = _writing(rec)
    flagged = {m.ply for m in rec.flagged}
    out = [
        f"<h1>{escape(heading)}</h1>",
        '<table class="header">',
    ]
    header = [
        ("Event", _tag(rec, "Event"), "Round", _tag(rec, "Round")),
        ("Site", _tag(rec, "Site"), "Date", _tag(rec, "Date")),
        ("White", _tag(rec, "White"), "Black", _tag(rec, "Black")),
        ("Result", rec.result, "Sheet", f"{LANGUAGE_NAMES.get(rec.language, rec.language)}, {rec.layout}"),
    ]
    for a, av, b, bv in header:
        out.append(
            f'<tr><td class="label">{a}</td><td>{escape(av)}</td><td class="label">{b}</td><td>{escape(bv)}</td></tr>'
        )
    out.append("</table>")
    status_class = "status needs-human" if rec.status == "needs-human" else "status"
    out.append(f'<p class="{status_class}">{escape(_STATUS_TEXT.get(rec.status, rec.status))}</p>')
    out.append('<table class="moves">')
    out.append("<thead><tr><th>No.</th><th>White</th><th>Black</th></tr></thead>")
    out.append("<tbody>")
    for number, cells in _rows(rec):
        tds = [f'<td class="number">{number}</td>']
        for cell in cells:
            if cell is None:
                tds.append("<td></td>")
                continue
            ply, san = cell
            fix = per_ply.get(ply)
            shown = "; ".join(writing.get(ply, [])) or "no box"
            css = [] if fix is None else ["corrected" if fix.confident else "doubtful"]
            if ply in flagged:
                css.append("flagged")
            title = f' title="{escape(fix.message())}"' if fix is not None else ""
            classes = f' class="{" ".join(css)}"' if css else ""
            tds.append(f'<td{classes}{title}>{escape(san)}<span class="written">{escape(shown)}</span></td>')
        out.append("<tr>" + "".join(tds) + "</tr>")
    out.append("</tbody>")
    out.append("</table>")
    out.append(f"<p>Result: <strong>{escape(rec.result)}</strong></p>")
    if rec.corrections:
        out.append("<h2>Corrections</h2>")
        out.append('<ol class="corrections">')
        for c in rec.corrections:
            out.append(f"<li><strong>{escape(move_label(c.ply, rec.start_ply))}</strong> {escape(c.message())}</li>")
        out.append("</ol>")
    if rec.flagged:
        out.append("<h2>Moves to check</h2>")
        out.append('<ol class="flagged">')
        for m in rec.flagged:
            label = move_label(m.ply, rec.start_ply)
            options = "".join(
                f"<li>{escape(c.san)} (p={c.probability:.2f}): "
                f'<code class="pin">--pin {escape(_pin(m, c.san, rec.start_ply))}</code></li>'
                for c in m.choices
            )
            wrote = "; ".join(writing.get(m.ply, [])) or "no box"
            out.append(
                f"<li><strong>{escape(label)} {escape(m.san)}</strong> (p={m.confidence:.2f}; written: "
                f"{escape(wrote)})<ul>{options}</ul></li>"
            )
        out.append("</ol>")
    if rec.status == "needs-human" and len(rec.readings) > 1:
        out.append("<h2>Likeliest readings</h2>")
        out.append("<ul>")
        for r in rec.readings[:3]:
            out.append(f"<li>p={r.probability:.2f}, cost {r.cost:g}: {escape(' '.join(r.sans))}</li>")
        out.append("</ul>")
    if diagrams:
        out.append('<div class="diagrams">')
        for caption, svg in diagrams:
            out.append(f'<figure aria-label="{escape(caption)}">\n{svg}\n</figure>')  # the SVG has its caption
        out.append("</div>")
    return out


#: the size of a scoresheet's diagrams (pixels)
SHEET_BOARD = 320


def diagrams_for(
    rec: Reconstruction, specs: list[str], *, final: bool = True
) -> tuple[list[tuple[str, str]], list[str]]:
    """SVG diagrams for a reconstruction: ``specs`` like ``24w``/``24b`` and the final position.

    Returns ((caption, svg) pairs, problems); a spec that is not a position of the game is a
    problem (text), not an exception.
    """
    from notation.pictures.board import diagram_ply, position_svg

    out: list[tuple[str, str]] = []
    problems: list[str] = []
    for spec in specs:
        absolute = diagram_ply(spec)
        if absolute is None:
            problems.append(f"diagram '{spec}' is not a move like 24w or 24b")
            continue
        index = absolute - rec.start_ply
        if not 1 <= index <= len(rec.moves):
            problems.append(f"diagram '{spec}': the game has no such move")
            continue
        number, colour = ply_to_move_number(absolute)
        san = rec.sans[index - 1]
        caption = f"after {number}{'.' if colour == 'white' else '...'} {san}"
        move = rec.moves[index - 1]
        svg = position_svg(rec.position_after(index), last_move=(move[0], move[1]), size=SHEET_BOARD, caption=caption)
        out.append((caption, svg))
    if final and rec.moves:
        move = rec.moves[-1]
        caption = f"final position ({rec.result})"
        out.append(
            (
                caption,
                position_svg(
                    rec.position_after(len(rec.moves)), last_move=(move[0], move[1]), size=SHEET_BOARD, caption=caption
                ),
            )
        )
    return out, problems
