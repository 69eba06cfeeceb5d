"""PGN structure: whether a game chunk of the reader looks like PGN at all, and the one
``pgn.not-pgn`` diagnostic of a file that does not.

A chunk *has PGN structure* when, after blanks, a byte-order mark, ``{...}`` and ``;`` comments,
``%`` escape lines and ``[`` lines that are no tag pair (``[Event Foo]``), it starts with

* the start of a tag pair: ``[``, a tag name, blanks, and the opening quote of its value
  (``[Event "x"]``; a pair cut after its quote, ``[Event "Wor``, still counts);
* a move number with its dot (``1.``, ``12...``, ``3…``), or a number followed by a SAN move
  (``1 e4``);
* a SAN move (castling and the lenient spellings of ``tokens.lark`` included, null moves such
  as ``--`` not) standing alone: followed by a blank, ``{``, ``(``, ``)``, ``;``, ``$``, ``!``,
  ``?`` or the end;
* a game termination marker (``1-0``, ``0-1``, ``1/2-1/2``, ``*``) followed by the end of the
  chunk or by another such token (so ``*`` alone is an empty game, ``* item`` a bullet list).

The syntax of tag names, SAN, move numbers and markers is the grammars' own (built from their
terminals). A file whose first text has no PGN structure and begins the way another format
does (:func:`other_format`: a Markdown heading, an HTML, XML or SVG document, JSON, a script's
``#!`` line) is that format, whatever follows: PGN quoted inside a document is not read. A
reader over the chunks (:func:`notation.pgn.reader.split_games`) decides from these answers
which leading chunks are no PGN and reports them with :func:`not_pgn`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from notation.diagnostics import Diagnostic
from notation.grammars import terminal_patterns

#: How much of a chunk is looked at to tell text from binary data, and how long the quote is.
_HEAD = 1024
_QUOTE = 40


@dataclass(frozen=True, slots=True)
class _Patterns:
    skip: re.Pattern[str]
    tag: re.Pattern[str]
    number: re.Pattern[str]
    san: re.Pattern[str]
    null: re.Pattern[str]
    result: re.Pattern[str]


@lru_cache(maxsize=1)
def _patterns() -> _Patterns:
    t = terminal_patterns("tokens")
    p = terminal_patterns("pgn")
    # blanks (and a BOM), closed brace comments, line comments, escape lines, '[' lines that
    # do not open a tag pair (the grammar's BAD_TAG)
    tag = f'(?:{t["TAG_OPEN"]})(?:{t["TAG_NAME"]})(?:{t["TAG_SPACE"]})"'
    skip = f"(?:[\\s\\ufeff]+|\\{{[^}}]*\\}}|;[^\\n]*|(?<![^\\n])%[^\\n]*|(?!{tag})\\[[^\\n]*)*"
    end = "(?=[\\s{}();$!?]|\\Z)"
    return _Patterns(
        skip=re.compile(skip),
        tag=re.compile(tag),
        number=re.compile(f"(?:{p['MOVE_NUMBER']})"),
        san=re.compile(f"(?:{t['SAN']})(?:{t['GLYPH']})?{end}"),
        null=re.compile(f"(?:{t['NULL_MOVE']})"),
        result=re.compile(f"(?:{p['RESULT']})"),
    )


def has_structure(data: bytes | str) -> bool:
    """Whether a chunk's text has PGN structure (see the module docstring)."""
    text = data if isinstance(data, str) else data.decode("utf-8", "replace")
    pat = _patterns()
    at = pat.skip.match(text).end()  # type: ignore[union-attr]
    if at >= len(text):
        return False
    if pat.tag.match(text, at):
        return True
    number = pat.number.match(text, at)
    if number is not None:
        if any(mark in number.group() for mark in ".…"):
            return True
        return _is_move(text, number.end())
    if _is_move(text, at):
        return True
    while (result := pat.result.match(text, at)) is not None:
        # a marker: the end of the chunk, or another move, number or marker after it
        at = pat.skip.match(text, result.end()).end()  # type: ignore[union-attr]
        if at >= len(text) or pat.number.match(text, at) is not None or _is_move(text, at):
            return True
    return False


#: How other text formats begin (after blanks and a byte-order mark), and their names (with
#: their article, as the message says them).
_FORMATS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("a script", re.compile(r"#!")),
    ("a Markdown", re.compile(r"#{1,6}[ \t]+\S")),
    ("an HTML", re.compile(r"<(?:!doctype\s+html|html[\s>]|head[\s>]|body[\s>])", re.IGNORECASE)),
    ("an SVG", re.compile(r"<svg[\s>]", re.IGNORECASE)),
    ("an XML", re.compile(r"<\?xml[\s?]", re.IGNORECASE)),
    # an object's first key and colon, alone or first in an array ('[[' or '["' may be bad tags)
    ("a JSON", re.compile(r'(?:\[\s*)?\{\s*"(?:[^"\\\n]|\\.)*"\s*:')),
)


def other_format(data: bytes | str) -> str | None:
    """The name of the text format the start of ``data`` belongs to, if it is one that PGN never
    starts like (see :data:`_FORMATS`); None otherwise."""
    head = data[:_HEAD]
    text = (head if isinstance(head, str) else head.decode("utf-8", "replace")).lstrip(" \t\r\n\ufeff")
    return next((name for name, start in _FORMATS if start.match(text)), None)


def _is_move(text: str, at: int) -> bool:
    pat = _patterns()
    return pat.san.match(text, at) is not None and pat.null.match(text, at) is None


def not_pgn(
    data: bytes | str,
    *,
    file: str | None,
    game: int,
    line: int,
    upto: int | None = None,
    kind: str | None = None,
    stopped: int | None = None,
) -> Diagnostic:
    """The ``pgn.not-pgn`` error of text with no PGN structure, ``game`` the number its first
    chunk had: located at its first non-blank text (``data`` starts at the first non-blank
    line of the file, which is ``line``), quoting that text briefly (binary data as bytes).
    ``upto``: the last line of the text when games follow it (else it runs to the end);
    ``kind``: the other format the file is (:func:`other_format`), then not read further;
    ``stopped``: the bytes read from ``line`` on with no game starting, after which the reader
    stopped (an endless stream such as ``/dev/zero``)."""
    head = data[:_HEAD]
    text = head if isinstance(head, str) else head.decode("utf-8", "replace")
    first = text.split("\n", 1)[0]
    lead = len(first) - len(first.lstrip(" \t\ufeff"))
    if _binary(text):
        what = "binary data, not PGN text,"
        raw = head.lstrip(b" \t") if isinstance(head, bytes) else head[lead:].encode("utf-8", "replace")
        quote = repr(raw[: _QUOTE // 2])[1:] + ("…" if len(raw) > _QUOTE // 2 else "")
    else:
        what = "no PGN structure (no tag pair, move number, move or result)"
        shown = first[lead:].rstrip("\r")
        quote = repr(shown[:_QUOTE] + "…" if len(shown) > _QUOTE else shown)
    if kind is not None:
        what = f"{kind} file, not PGN; it is not read as games"
        where = ""
    elif stopped is not None:
        size = f"{stopped // (1 << 20)} MiB" if stopped >= 1 << 20 else f"{stopped} bytes"
        where = f" in more than {size} from line {line}: reading stopped there"
        if not text.strip(" \t\r\n\ufeff"):
            return Diagnostic.make("pgn.not-pgn", f"only blank space{where}", file=file, game=game, line=line, column=1)
        if not _binary(text):
            what = "no game that starts or ends"
    else:
        where = f" in lines {line}-{upto}, which are skipped" if upto is not None else " in the file"
    return Diagnostic.make(
        "pgn.not-pgn", f"{what}{where}: it begins {quote}", file=file, game=game, line=line, column=lead + 1
    )


def _binary(text: str) -> bool:
    """NUL characters, or more than one in eight characters control or undecodable."""
    if "\x00" in text:
        return True
    odd = sum(1 for ch in text if (ch < " " and ch not in "\t\n\r\f\x1b") or ch == "\ufffd")
    return odd * 8 > len(text)
