"""Scoresheet layouts: from the text of a sheet to the ordered list of written move cells.

Recognised layouts (detected, never configured):

* ``numbered``: ``1. e4 e5 2. Nf3 Nc6``, ``1.e4 e5``, ``1) e4, e5``, ``12... Nf6`` (any line breaks);
* ``columns``: one row per move number, ``12  Nf3  Nc6`` (the number without a dot);
* ``blocks``: a printed sheet typed as it looks, two blocks side by side
  (``1  e4  e5    31  Rd1  Qe6``): numbered cells are put back in move order;
* ``one-per-line``: one move per line, numbered or not;
* ``csv``: a table with ``White`` and ``Black`` columns (``,``/``;``/tab separated; a number
  column is optional; localised headers such as ``Weiß/Schwarz``, ``Blancs/Noirs``, ``白/黑``).

A header block before the moves (PGN tag pairs ``[Event "…"]`` or ``Event: …`` lines) becomes
tags. A result (``1-0``, ``0-1``, ``1/2-1/2``, ``½-½``, ``*``) ends the move list. Empty cells
written as ``?``, ``...``/``…``/``—`` are kept as placeholder cells (blank boxes: the repair search
may skip them; the channel reading of :mod:`notation.scoresheet.copies` fills each with a move).
"""

from __future__ import annotations

import csv
import re
from dataclasses import dataclass, field
from functools import lru_cache

from notation.grammars import terminal_patterns

RESULT_TOKENS: dict[str, str] = {
    "1-0": "1-0",
    "0-1": "0-1",
    "1/2-1/2": "1/2-1/2",
    "½-½": "1/2-1/2",
    "1/2": "1/2-1/2",
    "0.5-0.5": "1/2-1/2",
    "=": "1/2-1/2",
    "*": "*",
}
_PLACEHOLDERS = {"...", "…", "—", "–", "-", "_", "..", "--", "?"}

_WHITE_HEADERS = {
    "white",
    "w",
    "weiß",
    "weiss",
    "blancs",
    "blanc",
    "blancas",
    "blanco",
    "bianco",
    "wit",
    "белые",
    "白",
    "白方",
    "white move",
}
_BLACK_HEADERS = {
    "black",
    "b",
    "schwarz",
    "noirs",
    "noir",
    "negras",
    "negro",
    "nero",
    "zwart",
    "черные",
    "чёрные",
    "黑",
    "黑方",
    "black move",
}
_NUMBER_HEADERS = {
    "#",
    "no",
    "no.",
    "nr",
    "nr.",
    "n",
    "move",
    "zug",
    "coup",
    "jugada",
    "mossa",
    "zet",
    "ход",
    "回合",
    "步",
}

# the value is stripped in code: "(.+?)\s*$" backtracks quadratically over a run of blanks
_TAG_LINE = re.compile(r"^\s*([^\W\d_][\w ]{0,24}?)\s*[:：=]\s*(\S.*)$")
_KNOWN_TAG_LINES = {
    "event": "Event",
    "site": "Site",
    "date": "Date",
    "round": "Round",
    "white": "White",
    "black": "Black",
    "result": "Result",
    "board": "Board",
    "whiteelo": "WhiteElo",
    "blackelo": "BlackElo",
    "timecontrol": "TimeControl",
    "eco": "ECO",
    "annotator": "Annotator",
    # common localised labels on printed scoresheets
    "turnier": "Event",
    "veranstaltung": "Event",
    "ort": "Site",
    "datum": "Date",
    "runde": "Round",
    "weiß": "White",
    "weiss": "White",
    "schwarz": "Black",
    "ergebnis": "Result",
    "tournoi": "Event",
    "lieu": "Site",
    "ronde": "Round",
    "blancs": "White",
    "noirs": "Black",
    "résultat": "Result",
    "torneo": "Event",
    "fecha": "Date",
    "blancas": "White",
    "negras": "Black",
    "bianco": "White",
    "nero": "Black",
    "toernooi": "Event",
    "wit": "White",
    "zwart": "Black",
    "турнир": "Event",
    "дата": "Date",
    "тур": "Round",
    "белые": "White",
    "черные": "Black",
    "赛事": "Event",
    "日期": "Date",
    "轮次": "Round",
    "白方": "White",
    "黑方": "Black",
}
# number + marker: "12." "12..." "12…" "12)" ; or a bare number at the start of a line
_PIECE = re.compile(
    r"(?P<number>\d+)\s*(?P<mark>\.\.\.|…|\.|\))"  # numbered
    r"|(?P<comment>\{[^{}]*\})"  # not across another "{": each brace starts one scan at most
    r"|(?P<cell>[^\s,;]+)"
)
_PIECE_START = re.compile(r"^\s*\d")  # a line starting with a digit is a move row, not a header
# a mark written apart from its move: en passant, check or mate, annotation, or a mix ("e.p.+")
_SUFFIX_ONLY = re.compile(r"(?=.)(?:e\.?p\.?)?(?:\+\+?|#)?(?:[!?]{1,2})?")
_BARE_NUMBER = re.compile(r"^\s*(\d+)(?=\s)")


@dataclass(frozen=True, slots=True)
class Cell:
    """One written move (or an empty placeholder cell) with where it stands on the sheet.

    ``number`` and ``colour`` (``"w"``/``"b"``) are what the sheet's numbering says, when it
    says anything; ``line``/``column`` are 1-based in the input text.
    """

    text: str
    line: int
    column: int
    number: int | None = None
    colour: str | None = None
    placeholder: bool = False


@dataclass(slots=True)
class Sheet:
    """The cells of a sheet in reading order, its header tags, result and detected layout."""

    cells: list[Cell] = field(default_factory=list)
    tags: dict[str, str] = field(default_factory=dict)
    result: str | None = None
    layout: str = "numbered"

    @property
    def moves(self) -> list[Cell]:
        """The cells that hold a written move (placeholders excluded)."""
        return [c for c in self.cells if not c.placeholder]


@lru_cache(maxsize=1)
def _tag_pair() -> re.Pattern[str]:
    """A header line holding one PGN tag pair (groups: name, string with its quotes), built from
    the parts of tokens.lark's TAG_PAIR. Looser than a tag pair in one way only: any white space
    (a typed sheet's no-break or ideographic space too), not only spaces and tabs, may stand
    around the brackets, the name and the string."""
    t = terminal_patterns("tokens")
    return re.compile(
        rf"^\s*+(?>{t['TAG_OPEN']})\s*+({t['TAG_NAME']})\s*+({t['TAG_STRING']})\s*+(?:{t['TAG_CLOSE']})\s*+$"
    )


def read_header(lines: list[str]) -> tuple[dict[str, str], int]:
    """Tags from a leading header block, and the index of the first line after it."""
    tags: dict[str, str] = {}
    index = 0
    while index < len(lines):
        line = lines[index]
        if not line.strip():
            index += 1
            continue
        m = _tag_pair().match(line)
        if m:
            tags[m.group(1)] = m.group(2)[1:-1].replace('\\"', '"').replace("\\\\", "\\")
            index += 1
            continue
        m = _TAG_LINE.match(line)
        if m and not _PIECE_START.match(line):
            label = m.group(1).replace(" ", "")
            name = _KNOWN_TAG_LINES.get(label.lower())
            if name is None and re.fullmatch(r"[A-Za-z][A-Za-z0-9_]*", label):
                name = label[0].upper() + label[1:]
            if name is not None:
                tags.setdefault(name, m.group(2).strip())
            index += 1
            continue
        if is_title(line):
            for name, value in title_tags(line, tags).items():
                tags.setdefault(name, value)
            index += 1
            continue
        break
    return tags, index


#: A word of a free-text line: four letters or more in a row (a name, a place), which no
#: written move has (the longest piece letter is two: Кр).
_WORD = re.compile(r"[^\W\d_]{4,}")
_MOVE_NUMBER = re.compile(r"(?:^|\s)[0-9]{1,3}\s*(?:\.|\)|…)", re.ASCII)
_PLAYERS = re.compile(r"^\s*(?P<white>.+?)\s+[-–—]\s+(?P<black>.+?)\s*$")
_YEAR = re.compile(r"\b(1[5-9][0-9]{2}|20[0-9]{2})\b", re.ASCII)
_ROUND = re.compile(r"(?i)\b(?:round|rd|runde|ronde|ronda|turno|тур)\.?\s*([0-9]{1,3})\b")


def is_title(line: str) -> bool:
    """True for a free-text header line above the moves (``Carlsen - Brameld, Gausdal 2001``):
    no move number, a word of four letters or more, and no token that reads as a written move
    in any language. A line that may hold moves is never taken for a title."""
    from notation.scoresheet.tokens import LANGUAGES, parse_token

    if _MOVE_NUMBER.search(line) or not _WORD.search(line):
        return False
    fields = {f.strip().lower() for f in re.split(r"[,;\t|]", line)}
    if fields & _WHITE_HEADERS and fields & _BLACK_HEADERS:
        return False  # a table's header row
    tokens = [t.strip(",;") for t in line.split()]
    return not any(parse_token(t, lang) is not None for t in tokens if t for lang in LANGUAGES)


def title_tags(line: str, known: dict[str, str]) -> dict[str, str]:
    """Tags read from a free-text title line: ``White - Black`` (each name may hold a comma:
    ``Carlsen, Magnus - Brameld, Torbjorn``), and after the players or alone, the event or
    place with a year (``Date``) and a round; what is not understood becomes ``Event``."""
    out: dict[str, str] = {}
    text = line.strip()
    m = _PLAYERS.match(text) if "White" not in known and "Black" not in known else None
    rest = text
    if m:
        white, black = m.group("white").strip(), m.group("black").strip()
        rest = ""
        if "," in black and "," not in white:  # "Carlsen - Brameld, Gausdal 2001"
            black, _, rest = black.partition(",")
        elif "," in white and black.count(",") >= 2:  # "Carlsen, M - Brameld, T, Gausdal"
            first, _, tail = black.partition(",")
            given, _, rest = tail.partition(",")
            black = f"{first},{given}"
        out["White"], out["Black"] = white.strip(), black.strip()
        rest = rest.strip()
    if rest:
        year = _YEAR.search(rest)
        if year and "Date" not in known:
            out["Date"] = f"{year.group(1)}.??.??"
        found = _ROUND.search(rest)
        if found and "Round" not in known:
            out["Round"] = found.group(1)
        out["Event"] = rest.strip(" ,")
    return out


def _csv_rows(lines: list[str], delimiter: str) -> list[list[str]]:
    """The rows of a CSV table, one per line; a line the csv module refuses (a field over its
    size limit) is split at the delimiter."""
    rows: list[list[str]] = []
    for line in lines:
        try:
            rows.append(next(csv.reader([line], delimiter=delimiter), []))
        except csv.Error:
            rows.append(line.split(delimiter))
    return rows


def _csv_sheet(body: str, first_line: int) -> Sheet | None:
    """A CSV table with White/Black columns, or None when the text is not one."""
    lines = body.splitlines()
    head_index = next((i for i, line in enumerate(lines) if line.strip()), None)
    if head_index is None:
        return None
    head = lines[head_index]
    delimiter = next((d for d in (",", ";", "\t") if d in head), None)
    if delimiter is None:
        return None
    names = [h.strip().strip('"').lower() for h in head.split(delimiter)]
    if not any(n in _WHITE_HEADERS for n in names) or not any(n in _BLACK_HEADERS for n in names):
        return None
    white = next(i for i, n in enumerate(names) if n in _WHITE_HEADERS)
    black = next(i for i, n in enumerate(names) if n in _BLACK_HEADERS)
    number_col = next((i for i, n in enumerate(names) if n in _NUMBER_HEADERS), None)
    sheet = Sheet(layout="csv")
    for row_index, row in enumerate(_csv_rows(lines[head_index + 1 :], delimiter)):
        line_no = first_line + head_index + 1 + row_index
        number: int | None = None
        if number_col is not None and number_col < len(row):
            digits = re.sub(r"\D", "", row[number_col])
            number = int(digits) if digits else None
        for col, colour in ((white, "w"), (black, "b")):
            if col >= len(row):
                continue
            text = row[col].strip()
            column = sum(len(c) + 1 for c in row[:col]) + 1
            if not text:
                continue
            if text in RESULT_TOKENS:
                sheet.result = RESULT_TOKENS[text]
                continue
            sheet.cells.append(Cell(text, line_no, column, number, colour, text in _PLACEHOLDERS))
    return sheet


def _text_sheet(lines: list[str], first_line: int) -> Sheet:
    sheet = Sheet()
    cells: list[Cell] = []
    number: int | None = None
    colour: str | None = None
    numbered = bare = 0
    cells_per_line: list[int] = []
    for offset, line in enumerate(lines):
        line_no = first_line + offset
        count = 0
        start = 0
        bare_match = _BARE_NUMBER.match(line)
        if bare_match and not re.match(r"\s*\d+\s*(\.|\)|…)", line):
            number, colour = int(bare_match.group(1)), "w"
            start = bare_match.end()
            bare += 1
        for m in _PIECE.finditer(line, start):
            if m.group("number"):
                number = int(m.group("number"))
                colour = "b" if m.group("mark") in ("...", "…") else "w"
                numbered += 1
                continue
            if m.group("comment"):
                continue
            text = m.group("cell")
            if bare_match and text.isascii() and text.isdigit() and 0 < int(text) < 1000:
                # "1  e4  e5    31  Rd1  Qe6": a printed sheet typed with two column blocks
                number, colour = int(text), "w"
                continue
            if text in RESULT_TOKENS and not re.fullmatch(r"[O0o]-[O0o]", text):
                sheet.result = RESULT_TOKENS[text]
                continue
            if cells and _SUFFIX_ONLY.fullmatch(text) and text not in _PLACEHOLDERS and not cells[-1].placeholder:
                prev = cells[-1]  # "exd6 e.p.", "Qh5 +": a mark written apart from its move
                cells[-1] = Cell(prev.text + text, prev.line, prev.column, prev.number, prev.colour)
                continue
            placeholder = text in _PLACEHOLDERS
            cells.append(Cell(text, line_no, m.start() + 1, number, colour, placeholder))
            count += 1
            if colour == "w":
                colour = "b"
            elif colour == "b":
                colour = "w"
                number = number + 1 if number is not None else None
        if count:
            cells_per_line.append(count)
    if _out_of_order(cells):
        # numbered cells read out of order (two blocks of moves side by side): sort by number
        cells = sorted(cells, key=lambda c: (c.number or 0, 0 if c.colour == "w" else 1))
        sheet.layout = "blocks"
    sheet.cells = cells
    if sheet.layout == "blocks":
        return sheet
    if cells_per_line and max(cells_per_line) == 1 and len(cells_per_line) > 1:
        sheet.layout = "one-per-line"
    elif bare >= max(1, len(cells_per_line) // 2):
        sheet.layout = "columns"
    elif numbered:
        sheet.layout = "numbered"
    else:
        sheet.layout = "plain"
    return sheet


def _out_of_order(cells: list[Cell]) -> bool:
    """True when every cell is numbered and the numbers go back somewhere in reading order."""
    if not cells or any(c.number is None or c.colour is None for c in cells):
        return False
    keys = [(c.number or 0, c.colour == "b") for c in cells]
    return any(b < a for a, b in zip(keys, keys[1:])) and len(set(keys)) == len(keys)


def read_sheet(text: str, *, first_line: int = 1) -> Sheet:
    """Split a scoresheet's text into header tags, move cells (reading order) and result.

    ``first_line`` is the line number of the text's first line (a game inside a longer file):
    the cells' lines count from it."""
    text = text.replace("\r\n", "\n").replace("\r", "\n").lstrip("\ufeff")
    lines = text.split("\n")
    tags, index = read_header(lines)
    body = "\n".join(lines[index:])
    sheet = _csv_sheet(body, index + first_line) or _text_sheet(lines[index:], index + first_line)
    sheet.tags = tags
    if sheet.result is None and tags.get("Result") in RESULT_TOKENS:
        sheet.result = RESULT_TOKENS[tags["Result"]]
    return sheet
