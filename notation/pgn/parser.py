"""Parsing one game chunk with ``grammars/pgn.lark`` into a :class:`notation.pgn.model.Game`.

The Lark parser is LALR with the contextual lexer and this module's transformer applied inline
(``Lark(..., transformer=...)``): no parse tree is built, list rules append to Python lists.
Positions are made file-absolute with the chunk's first line and offset.

Nothing here raises on bad input: the grammar accepts any text at the lexical level (``JUNK``,
``BAD_TAG``, ``UNCLOSED_COMMENT``) and structural errors (an unmatched ``)``, an unclosed
``(``, text after the result) are repaired in the ``on_error`` handler; every repair leaves a
:class:`notation.diagnostics.Diagnostic`.

Hostile input stays bounded (see :mod:`notation.pgn.model`): a variation nested deeper than
:data:`~notation.pgn.model.MAX_VARIATION_DEPTH` levels is reported (``pgn.too-deep``, at its
``(``) and not read -- its parentheses are still matched, its moves, comments and NAGs are not
kept; and a line keeps its moves up to the first one beyond ply
:data:`~notation.pgn.model.MAX_LINE_PLIES` (reported there as ``game.too-long``; replay stops
there too): the rest of the line -- moves, comments, NAGs, variations -- is not kept. Lark's
LALR parser and this transformer use no recursion: any depth parses in bounded stack.

The builder keeps per-parse state on the (process-wide) transformer, so parsing is not
thread-safe; use processes for parallelism (``notation.pgn.reader.split_games``).
"""

from __future__ import annotations

import re
from dataclasses import replace
from functools import lru_cache
from collections.abc import Iterator
from typing import Any

from lark import Lark, Token, Transformer
from lark.lexer import Lexer
from lark.exceptions import UnexpectedInput, UnexpectedToken

from notation.compiled import core_outline, core_tokens
from notation.diagnostics import Diagnostic
from notation.grammars import build_parser, lark_cython_available, overridden, regex_literal, terminal_patterns
from notation.pgn.model import (
    GLYPH_NAGS,
    MAX_LINE_PLIES,
    MAX_VARIATION_DEPTH,
    Game,
    MoveNode,
    Span,
    too_long,
)
from notation.pgn.plain import MAX_DIAGNOSTICS, close_game, core_outline_game, needs_guard
from notation.pgn.recovery import JunkRun, ParenGuard, quoted
from notation.pgn.tags import patterns as tag_patterns
from notation.pgn.tags import unquote


#: Annotation symbols written instead of ``$n`` (ChessBase style), with their NAG.
SYMBOL_NAGS: dict[str, int] = {
    **GLYPH_NAGS,
    "=": 10,
    "∞": 13,
    "+=": 14,
    "⩲": 14,
    "+/=": 14,
    "=+": 15,
    "⩱": 15,
    "=/+": 15,
    "±": 16,
    "+/-": 16,
    "∓": 17,
    "-/+": 17,
    "+-": 18,
    "-+": 19,
}

#: The digits a MOVE_NUMBER starts with (``\d``: any Unicode decimal digit, as the grammar's;
#: what follows may be any Unicode blank, ``\x0b`` or ``\u2028`` too, so it is not stripped).
_NUMBER_DIGITS = re.compile(r"\d+")
_new_tuple = tuple.__new__  # Span(...) without the NamedTuple constructor's Python frame
_new_object = object.__new__


@lru_cache(maxsize=1)
def _split_run() -> Any:
    """``finditer`` of the regex that splits a MOVES token, built from the grammar's terminals.

    Groups: 1 move number text, 2 SAN, 3 glyph, 4 a comment right after the move (one match
    per move for the common ``e4 { [%clk 0:03:00] }``), 5 a further comment, 6 NAG text.
    """
    piece = {name: f"(?:{regex})" for name, regex in terminal_patterns("pgn").items()}
    pattern = (
        f"({piece['MOVE_NUMBER']})?({piece['SAN']})({piece['GLYPH']})?{piece['MOVE_END']}"
        f"(?:({piece['BRACE_COMMENT']}|{piece['LINE_COMMENT']}){piece['BLANKS']})?"
        f"|({piece['BRACE_COMMENT']}|{piece['LINE_COMMENT']}){piece['BLANKS']}"
        f"|({piece['NAG_TEXT']}){piece['BLANKS']}"
    )
    return re.compile(pattern).finditer


# Per-token results of the move-run split, by token text (the same few thousand SAN and
# move-number texts recur in every game); each cache is cleared when it grows large.
_CACHE_SIZE = 4096
_UNSEEN: Any = object()
_LENIENT_CACHE: dict[str, str | None] = {}
_NUMBER_CACHE: dict[str, int] = {}


def standard_spelling(san: str) -> str | None:
    """The standard spelling of a SAN token written in a lenient form that can be read without
    the position (``0-0`` -> ``O-O``, ``e8Q``/``e8(Q)`` -> ``e8=Q``, ``♘f3`` -> ``Nf3``, ``ed5``
    -> ``exd5``, ``Z0``/``0000`` -> ``--``, ``Qh7++`` -> ``Qh7#``); None when the token is
    standard, or is no move at all (replay reports that). The reading is
    :func:`notation.formats.san.parse_san_syntax`'s, the same as for a lone SAN."""
    from notation.formats.san import SanError, parse_san_syntax  # (the rules tables: not for the outline)

    try:
        syntax = parse_san_syntax(san)
    except SanError:
        return None
    return syntax.canonical if syntax.lenient else None


def _lenient_of(san: str) -> str | None:
    """``standard_spelling(san)``, remembered in ``_LENIENT_CACHE``."""
    lenient = standard_spelling(san)
    if len(_LENIENT_CACHE) >= _CACHE_SIZE:
        _LENIENT_CACHE.clear()
    _LENIENT_CACHE[san] = lenient
    return lenient


def _number_of(text: str) -> int:
    """The move number in a MOVE_NUMBER text (``12.``, ``12...``, ``12 …``), remembered."""
    number = int(_NUMBER_DIGITS.match(text).group())  # type: ignore[union-attr]  # MOVE_NUMBER starts with them
    if len(_NUMBER_CACHE) >= _CACHE_SIZE:
        _NUMBER_CACHE.clear()
    _NUMBER_CACHE[text] = number
    return number


class _Line(list):  # type: ignore[type-arg]
    """The moves of one line (mainline or variation) plus comments seen before its first move.

    ``skip``: the line is not read (nested deeper than ``MAX_VARIATION_DEPTH``, or a variation
    of a move beyond the ply cap). ``ply``: the ply of the line's next move (from the game's
    first move); the line is full once it holds its first move beyond ``MAX_LINE_PLIES``.
    """

    __slots__ = ("pending", "ply", "skip")

    def __init__(self, ply: int = 1, skip: bool = False) -> None:
        super().__init__()
        self.pending: list[str] = []
        self.ply = ply
        self.skip = skip

    @property
    def closed(self) -> bool:
        """Nothing more of this line is kept: it is not read, or it is full."""
        return self.skip or self.ply > _FULL


#: A line is full once its next move would be ply ``_FULL + 1``: it then holds its first move
#: beyond the cap (kept and reported as ``game.too-long``; replay stops there).
_FULL = MAX_LINE_PLIES + 1


#: ``_comment_text`` results by token (clock comments repeat); cleared when it grows large.
_COMMENT_CACHE: dict[str, str] = {}


def _comment_text(value: str) -> str:
    """The text of a ``{...}`` or ``;...`` comment token, whitespace runs collapsed to one space."""
    text = _COMMENT_CACHE.get(value)
    if text is None:
        text = _comment_body(value)
        if len(value) <= 80:  # long comments rarely repeat
            if len(_COMMENT_CACHE) >= _CACHE_SIZE:
                _COMMENT_CACHE.clear()
            _COMMENT_CACHE[value] = text
    return text


def _comment_body(value: str) -> str:
    if value[0] == "{":
        body = value[1 : value.rindex("}")]
    else:
        body = value[1:]
    return " ".join(body.split())


class GameBuilder(Transformer):  # type: ignore[type-arg]
    """Inline transformer: builds the model while Lark parses; holds the current chunk's state."""

    def __init__(self) -> None:
        super().__init__(visit_tokens=False)
        self.reset()

    # -- per-parse state -------------------------------------------------------------------
    def reset(self, file: str | None = None, game: int = 1, line: int = 1, offset: int = 0) -> None:
        self.file = file
        self.game = game
        self.base_line = line - 1
        self.base_offset = offset
        self.diagnostics: list[Diagnostic] = []
        self.open_parens: list[Any] = []
        self.lines: list[_Line] = []  # the lines being built, outermost first
        self.after_result = False
        self.closing = False
        self.recovered_result: str | None = None
        self.junk: JunkRun | None = None  # the run of junk tokens being read, if any
        self.deep_reported: Any = None  # the '(' of the last variation reported too deep
        self.end_of_text: tuple[int, int | None] = (line, None)  # where a missing result belongs

    def diag(self, code: str, message: str, token: Any, text: str | None = None, **extra: Any) -> None:
        if len(self.diagnostics) >= MAX_DIAGNOSTICS:
            return
        line = token.line if token is not None else None
        self.diagnostics.append(
            Diagnostic.make(
                code,
                message,
                file=self.file,
                game=self.game,
                line=(line + self.base_line) if line is not None else None,
                column=token.column if token is not None else None,
                san=text,
                **extra,
            )
        )

    def diag_at(self, code: str, message: str, line: int, column: int, text: str | None = None) -> None:
        """Like :meth:`diag` at a chunk-relative ``line`` and ``column`` inside a token."""
        if len(self.diagnostics) >= MAX_DIAGNOSTICS:
            return
        self.diagnostics.append(
            Diagnostic.make(
                code, message, file=self.file, game=self.game, line=line + self.base_line, column=column, san=text
            )
        )

    # -- tags ------------------------------------------------------------------------------
    def tags_start(self, _: list[Any]) -> dict[str, str]:
        return {}

    def tags_add(self, children: list[Any]) -> dict[str, str]:
        """A run of well-formed tag pairs (one TAGS token), split with the tag pair regex."""
        tags, token = children
        run: str = token.value
        if not tags:
            # the common case, the game's first run of tags: one C-level regex pass, and the
            # dict's size tells whether a name was given twice
            pairs = tag_patterns().pair.findall(run)
            found = {name: string[1:-1] if "\\" not in string else unquote(string) for name, string in pairs}
            if len(found) == len(pairs):
                return found
        row, counted = token.line, 0  # the newlines before ``counted`` are in ``row``: linear in the run
        for match in tag_patterns().pair.finditer(run):
            name, value = match.group(1), unquote(match.group(2))
            if name in tags:
                at = match.start()
                line_start = run.rfind("\n", 0, at) + 1
                row += run.count("\n", counted, at)
                counted = at
                column = at - line_start + 1 if line_start else token.column + at
                self.diag_at(
                    "pgn.duplicate-tag", f"tag {name!r} given twice; the last value is kept", row, column, name
                )
            tags[name] = value
        return tags  # type: ignore[no-any-return]

    def tags_bad(self, children: list[Any]) -> dict[str, str]:
        tags, token = children
        text = token.value.rstrip()
        match = tag_patterns().bad.match(text)
        if match and match.group(1):
            name, value = match.group(1), match.group(2)
            self.diag("pgn.bad-tag", f"malformed tag pair {text!r}; read as {name} = {value!r}", token, text)
            if name not in tags:
                tags[name] = value
        else:
            self.diag("pgn.bad-tag", f"malformed tag pair {text!r} ignored", token, text)
        return tags  # type: ignore[no-any-return]

    # -- movetext --------------------------------------------------------------------------
    def line_start(self, _: list[Any]) -> _Line:
        """A new line: the mainline, or a variation (of the line being built, right after its
        ``(``). A variation one level deeper than the cap is reported here, at its ``(``."""
        lines = self.lines
        if not lines:
            line = _Line()
        else:
            parent = lines[-1]
            line = _Line(parent.ply - 1, parent.closed)
            if not line.skip and len(self.open_parens) > MAX_VARIATION_DEPTH:
                line.skip = True
                self.too_deep(self.open_parens[-1])
        lines.append(line)
        return line

    def line_moves(self, children: list[Any]) -> _Line:
        """A run of moves (each with the comments and NAGs right after it), split by regex."""
        line, token = children
        if line.closed:
            return line  # type: ignore[no-any-return]
        run: str = token.value
        file, game, diagnostics = self.file, self.game, self.diagnostics
        row = token.line + self.base_line
        line_start = 1 - token.column  # index in ``run`` where the current line starts
        base = token.start_pos + self.base_offset
        next_newline = run.find("\n")
        if next_newline < 0:
            next_newline = len(run)
        node: MoveNode | None = line[-1] if line else None
        lenient_cache = _LENIENT_CACHE
        number_cache = _NUMBER_CACHE
        comment_cache = _COMMENT_CACHE
        # comments seen before the line's first move go to that move; every later move gets
        # the line's (empty) pending list, as a comment after a move belongs to that move
        pending = line.pending
        if pending:
            line.pending = []
        later = line.pending
        ply = line.ply
        match = None
        for match in _split_run()(run):
            number_text, san, glyph, after, comment, nag = match.groups()
            if san is not None:
                at = match.start(2)
                while next_newline < at:  # the move is on a later line of the run
                    row += 1
                    line_start = next_newline + 1
                    next_newline = run.find("\n", line_start)
                    if next_newline < 0:
                        next_newline = len(run)
                lenient = lenient_cache.get(san, _UNSEEN)
                if lenient is _UNSEEN:
                    lenient = _lenient_of(san)
                if lenient is not None and len(diagnostics) < MAX_DIAGNOSTICS:
                    diagnostics.append(
                        Diagnostic.make(
                            "pgn.lenient-token",
                            f"non-standard move {san!r} read as {lenient!r}",
                            file=file,
                            game=game,
                            line=row,
                            column=at - line_start + 1,
                            san=san,
                        )
                    )
                if after is None:
                    comments = []
                else:
                    text = comment_cache.get(after)
                    comments = [text if text is not None else _comment_text(after)]
                # MoveNode(...) without the dataclass __init__ frame (one per move: the hot path)
                node = _new_object(MoveNode)
                node.san = san
                node.span = _new_tuple(Span, (row, at - line_start + 1, base + at))
                node.nags = [GLYPH_NAGS[glyph]] if glyph else []
                node.comments = comments
                node.pre_comments = pending
                node.variations = []
                node.number = (number_cache.get(number_text) or _number_of(number_text)) if number_text else None
                node.lenient = lenient
                line.append(node)
                pending = later
                ply += 1
                if ply > _FULL:  # the first move beyond the cap: the rest of the line is not read
                    if len(diagnostics) < MAX_DIAGNOSTICS:
                        where = {"file": file, "game": game, "line": row, "column": at - line_start + 1}
                        diagnostics.append(too_long(ply - 1, san, **where))
                    break
            elif comment is not None:
                assert node is not None
                node.comments.append(_comment_text(comment))
            else:
                assert node is not None
                node.nags.append(int(nag[1:]) if nag[0] == "$" else SYMBOL_NAGS[nag])
        # The split regex is built from the same terminals as MOVES, so its matches tile the run;
        # tests check that (test_grammar_pgn.py::test_split_regex_tiles_runs).
        line.ply = ply
        if ply <= _FULL and (match is None or match.end() != len(run)):  # pragma: no cover
            self.diag("pgn.syntax", f"cannot split the move run {run!r}", token, run)
        return line  # type: ignore[no-any-return]

    def line_nag(self, children: list[Any]) -> _Line:
        line, token = children
        if line.closed:
            return line  # type: ignore[no-any-return]
        text = token.value.rstrip()
        nag = int(text[1:]) if text[0] == "$" else SYMBOL_NAGS[text]
        if line:
            line[-1].nags.append(nag)
        else:
            self.diag("pgn.unexpected-token", f"annotation {text!r} before any move ignored", token, text)
        return line  # type: ignore[no-any-return]

    def line_comment(self, children: list[Any]) -> _Line:
        line, token = children
        if line.closed:
            return line  # type: ignore[no-any-return]
        text = _comment_text(token.value)
        if line:
            line[-1].comments.append(text)
        else:
            line.pending.append(text)
        return line  # type: ignore[no-any-return]

    def line_unclosed_comment(self, children: list[Any]) -> _Line:
        line, token = children
        self.diag("pgn.unclosed-comment", "'{' comment is never closed; it runs to the end of the game", token, "{")
        if line.closed:
            return line  # type: ignore[no-any-return]
        text = " ".join(token.value[1:].split())
        if line:
            line[-1].comments.append(text)
        else:
            line.pending.append(text)
        return line  # type: ignore[no-any-return]

    def line_junk(self, children: list[Any]) -> _Line:
        """A token that is not PGN. A run of them with nothing else between (prose, a pasted
        page) is one ``pgn.syntax`` finding, located at its first token, with their count and
        where the run ends."""
        line, token = children
        if line.closed:
            return line  # type: ignore[no-any-return]
        text = token.value.rstrip()
        run = self.junk
        count = len(self.diagnostics)
        if run is not None and run.line is line and run.moves == len(line) and run.index == count - 1:
            run.add(text, f"{token.line + self.base_line}:{token.column}")
            return line  # type: ignore[no-any-return]
        self.end_junk()
        self.diag("pgn.syntax", f"{quoted(text)} is not a move, comment, annotation or result", token, text)
        if len(self.diagnostics) > count:
            self.junk = JunkRun(line, len(line), count, text[:49])
        return line  # type: ignore[no-any-return]

    def end_junk(self) -> None:
        """The finding of the run of junk tokens read last, if it has more than one, gets its
        message (count and end)."""
        run = self.junk
        if run is not None and run.count > 1:
            self.diagnostics[run.index] = replace(self.diagnostics[run.index], message=run.message())
        self.junk = None

    def too_deep(self, lpar: Any) -> None:
        """The variation opened at ``lpar`` is nested deeper than the cap: reported once."""
        if lpar is not self.deep_reported:
            self.deep_reported = lpar
            self.diag("pgn.too-deep", f"variation nested deeper than {MAX_VARIATION_DEPTH} levels: not read", lpar, "(")

    def lpar(self, children: list[Any]) -> Any:
        self.open_parens.append(children[0])
        return children[0]

    def line_variation(self, children: list[Any]) -> _Line:
        line, lpar, variation, _ = children
        self._attach(line, lpar, variation)
        return line  # type: ignore[no-any-return]

    def line_variation_result(self, children: list[Any]) -> _Line:
        line, lpar, variation, result, _ = children
        text = result.value.rstrip()
        if self.closing:
            self.recovered_result = text
        else:
            self.diag(
                "pgn.unexpected-token",
                f"result {text!r} inside a variation ignored",
                result,
                text,
                severity="warning",
            )
        self._attach(line, lpar, variation)
        return line  # type: ignore[no-any-return]

    def _attach(self, line: _Line, lpar: Any, variation: _Line) -> None:
        if self.open_parens:
            self.open_parens.pop()
        if self.lines and self.lines[-1] is variation:
            self.lines.pop()
        if variation.skip or line.closed:
            return  # not read: too deep, or a variation of a move beyond the cap
        if not variation:
            if variation.pending:
                self.diag("pgn.unexpected-token", "variation without moves ignored", lpar, "(", severity="warning")
            return
        if line:
            self._add_variation(line, variation)
        else:
            self.diag("pgn.unexpected-token", "variation before any move ignored", lpar, "(")

    def _add_variation(self, line: _Line, variation: _Line) -> None:
        line[-1].variations.append(list(variation))

    # -- end -------------------------------------------------------------------------------
    def end_result(self, children: list[Any]) -> Any:
        return children[0]

    def end_none(self, _: list[Any]) -> None:
        return None

    def start(self, children: list[Any]) -> tuple[dict[str, str], _Line, Any]:
        return children[0], children[1], children[2]

    # -- recovery (Lark on_error) ------------------------------------------------------------
    def on_error(self, error: UnexpectedInput) -> bool:
        if not isinstance(error, UnexpectedToken):  # the grammar makes this unreachable
            return False
        token = error.token
        kind = token.type
        if kind == "RPAR" and not self.open_parens:
            self.diag("pgn.unmatched-paren", "')' without an opening '('", token, ")")
            return True
        stack = error.interactive_parser.parser_state.value_stack
        unreduced = stack[-1] if stack and getattr(stack[-1], "type", None) == "LPAR" else None
        opens = self.open_parens + ([unreduced] if unreduced is not None else [])
        if opens and kind in ("$END", "RESULT"):
            self.closing = True
            if len(opens) > MAX_VARIATION_DEPTH:  # its line may never have started: reported first
                self.too_deep(opens[MAX_VARIATION_DEPTH])
            token_class = type(token)  # lark's Token, or lark-cython's own Token class
            for lpar in reversed(opens):
                self.diag("pgn.unclosed-variation", "'(' variation is never closed", lpar, "(")
            try:
                for _ in range(len(opens)):
                    error.interactive_parser.feed_token(token_class("RPAR", ")"))
                if kind == "RESULT":
                    error.interactive_parser.feed_token(token)
            except UnexpectedInput:  # pragma: no cover - defensive
                return False
            return True
        if kind == "$END":
            return False
        if kind == "COMMENT":  # after the termination marker: outside the game, reported
            text = " ".join(str(token.value).split())
            shown = text if len(text) <= 60 else text[:57] + "..."
            self.diag(
                "pgn.comment-after-result",
                f"comment {shown!r} after the game termination marker is not part of the game",
                token,
                shown,
            )
            return True
        if not self.after_result:
            self.after_result = True
            text = str(token.value).rstrip()
            self.diag("pgn.unexpected-token", f"{quoted(text)} after the game termination marker ignored", token, text)
        return True


#: The run terminals' regexes as Lark compiles them, with their repetitions made possessive:
#: ``(?:MOVE)+`` -> ``(?:MOVE)++`` and a move's ``ANNOTATION*`` -> ``ANNOTATION*+`` (and the
#: tag run likewise). Nothing in a terminal follows these repetitions, so they match exactly
#: the same text; but Python's ``re`` then keeps no backtracking state per repetition: a run of
#: 400,000 moves lexes in constant memory (greedy, it took over 500 MB), and faster.
POSSESSIVE_RUNS: dict[str, tuple[str, str]] = {"MOVES": (")*)+", ")*+)++"), "TAGS": (")+", ")++")}


@lru_cache(maxsize=1)
def pgn_grammar() -> str:
    """``pgn.lark``, its run terminals (:data:`POSSESSIVE_RUNS`) made possessive by ``%override``."""
    patterns = terminal_patterns("pgn")
    runs = {
        term: regex_literal(patterns[term].removesuffix(greedy) + possessive)
        for term, (greedy, possessive) in POSSESSIVE_RUNS.items()
        if patterns[term].endswith(greedy)
    }
    return overridden("pgn", runs)


def _guarded_parser(outline: bool) -> tuple[Lark, GameBuilder]:
    """The parser of games that need a :class:`~notation.pgn.recovery.ParenGuard` (Lark's own
    lexer: lark-cython takes no post-lexer), with a builder of its own; the guard reset."""
    parser, builder, guard = _guarded(outline)
    guard.reset()
    return parser, builder


@lru_cache(maxsize=2)
def _guarded(outline: bool) -> tuple[Lark, GameBuilder, ParenGuard]:
    builder, guard = OutlineBuilder() if outline else GameBuilder(), ParenGuard(MAX_DIAGNOSTICS)
    parser = build_parser(
        "pgn", text=pgn_grammar(), use_cython=False, lexer="contextual", transformer=builder, cache=True, postlex=guard
    )
    return parser, builder, guard


@lru_cache(maxsize=2)
def _parser(use_cython: bool) -> tuple[Lark, GameBuilder]:
    builder = GameBuilder()
    # cache=True: Lark keeps the grammar analysis in a temp file, so later processes start faster.
    parser = build_parser(
        "pgn", text=pgn_grammar(), use_cython=use_cython, lexer="contextual", transformer=builder, cache=True
    )
    return parser, builder


def get_parser(use_cython: bool | None = None) -> tuple[Lark, GameBuilder]:
    """The cached (parser, builder) pair; lark-cython when available unless told otherwise."""
    if use_cython is None:
        use_cython = lark_cython_available()
    return _parser(use_cython)


def parse_game_text(
    text: str,
    *,
    file: str | None = None,
    number: int = 1,
    line: int = 1,
    offset: int = 0,
    encoding: str = "utf-8",
    use_cython: bool | None = None,
) -> Game:
    """Parse one game's text (a chunk from the reader) into a :class:`Game`; never raises."""
    parser, builder = _guarded_parser(False) if needs_guard(text, MAX_DIAGNOSTICS) else get_parser(use_cython)
    builder.reset(file, number, line, offset)
    try:
        tags, mainline, result_token = parser.parse(text, on_error=builder.on_error)  # type: ignore[misc]
    except UnexpectedInput as error:  # pragma: no cover - defensive, the grammar is total
        builder.diag("pgn.syntax", f"internal parser failure ({error.__class__.__name__}); movetext skipped", None)
        tags, mainline, result_token = {}, _Line(), None  # type: ignore[var-annotated]
    builder.end_junk()
    game = Game(
        file=file,
        number=number,
        line=line,
        offset=offset,
        tags=tags,
        moves=list(mainline),
        result=None,
        intro_comments=[],
        diagnostics=builder.diagnostics,
        encoding=encoding,
    )
    if mainline:
        first = mainline[0]
        if first.pre_comments:
            game.intro_comments = first.pre_comments
            first.pre_comments = []
    else:
        game.intro_comments = list(mainline.pending)
    if result_token is None and builder.recovered_result is None:
        body = text.rstrip()
        last_newline = body.rfind("\n")
        builder.end_of_text = (line + body.count("\n"), len(body) - last_newline)
    _finish(game, builder, result_token, bool(mainline))
    return game


def _finish(game: Game, builder: GameBuilder, token: Any, has_moves: bool) -> None:
    result: str | None = None
    if token is not None:
        result = token.value.rstrip()
        if result == "½-½":
            builder.diag("pgn.lenient-token", "result '½-½' read as '1/2-1/2'", token, result)
            result = "1/2-1/2"
    elif builder.recovered_result is not None:
        result = builder.recovered_result
    at = (token.line + builder.base_line, token.column) if token is not None else (game.line, None)
    close_game(game, result, at, builder.end_of_text, has_moves)


# ---------------------------------------------------------------------------------- outline
class OutlineBuilder(GameBuilder):
    """The same parse with the move runs left whole: each line is a list of ``(MOVES token
    text, file line, column)`` tuples and, after a run, the non-empty variation lists that
    follow its last move, the comments (``str``, their text as the full builder keeps it) and
    the NAGs (``int``) that follow it outside a run. Comments and NAGs before a line's first
    move are left out (they are no move's). Reader diagnostics are the full builder's, except
    those of the run split (``pgn.lenient-token``): whoever reads the runs reports on them. Used
    by the compiled core (:mod:`notation.validation.core`)."""

    def line_moves(self, children: list[Any]) -> _Line:
        line, token = children
        if not line.skip:
            line.append((token.value, token.line + self.base_line, token.column))
        return line  # type: ignore[no-any-return]

    def line_nag(self, children: list[Any]) -> _Line:
        line, token = children
        if line.skip:
            return line  # type: ignore[no-any-return]
        text = token.value.rstrip()
        if line:
            line.append(int(text[1:]) if text[0] == "$" else SYMBOL_NAGS[text])
        else:
            self.diag("pgn.unexpected-token", f"annotation {text!r} before any move ignored", token, text)
        return line  # type: ignore[no-any-return]

    def line_comment(self, children: list[Any]) -> _Line:
        line, token = children
        if not line.skip:
            # before the first move: pending, as in the full builder (a variation of comments
            # only is then reported the same way), though no move of the outline keeps it
            (line if line else line.pending).append(_comment_text(token.value))
        return line  # type: ignore[no-any-return]

    def line_unclosed_comment(self, children: list[Any]) -> _Line:
        line, token = children
        self.diag("pgn.unclosed-comment", "'{' comment is never closed; it runs to the end of the game", token, "{")
        if not line.skip:
            (line if line else line.pending).append(" ".join(token.value[1:].split()))
        return line  # type: ignore[no-any-return]

    def _add_variation(self, line: _Line, variation: _Line) -> None:
        line.append(list(variation))


@lru_cache(maxsize=2)
def _outline_parser(use_cython: bool) -> tuple[Lark, OutlineBuilder]:
    builder = OutlineBuilder()
    parser = build_parser(
        "pgn", text=pgn_grammar(), use_cython=use_cython, lexer="contextual", transformer=builder, cache=True
    )
    return parser, builder


class _CoreTokens(Lexer):
    """A Lark lexer that hands over the tokens the compiled core cut for the game being parsed
    (``notation._core.lex_game``: ``TAGS``, ``MOVES``, ``RESULT``, the grammar's terminals)."""

    __future_interface__ = 2
    tokens: list[Token] = []

    def __init__(self, conf: Any) -> None:
        pass

    def lex(self, lexer_state: Any, parser_state: Any) -> Iterator[Token]:
        return iter(_CoreTokens.tokens)


@lru_cache(maxsize=1)
def _core_lexed_parser() -> tuple[Lark, OutlineBuilder]:
    builder = OutlineBuilder()
    parser = build_parser("pgn", use_cython=False, lexer=_CoreTokens, transformer=builder, cache=True)
    return parser, builder


def parse_game_outline(
    text: str,
    *,
    file: str | None = None,
    number: int = 1,
    line: int = 1,
    offset: int = 0,
    encoding: str = "utf-8",
    use_cython: bool | None = None,
) -> tuple[Game, list[Any]]:
    """Parse one game chunk like :func:`parse_game_text`, leaving the move runs unsplit: the
    :class:`Game` (tags, result, reader diagnostics; no moves) and the outline of its mainline
    (see :class:`OutlineBuilder`). Never raises.

    When the compiled core can cut the game's tokens (a game of tag pairs, moves in standard
    SAN with comments and NAGs, and a result), the core runs Lark's automaton on them and
    builds the outline as :class:`OutlineBuilder` does (``notation._core.game_outline``), unless
    the builder has something to report (a tag given twice), when Lark parses the tokens the
    core cut; otherwise Lark lexes the game itself. Tests prove all three agree."""
    guard = needs_guard(text, MAX_DIAGNOSTICS)
    outline, failure = (None, None) if guard else core_outline(text, line)
    if outline is not None:
        return core_outline_game(text, outline, file, number, line, offset, encoding)
    fields = None
    if not guard and failure is None:
        fields, failure = core_tokens(text, line)
    parser: Lark
    builder: GameBuilder
    if fields is not None:
        parser, builder = _core_lexed_parser()
        _CoreTokens.tokens = [Token(*field) for field in fields]
    elif guard:
        parser, builder = _guarded_parser(True)
    else:
        if use_cython is None:
            use_cython = lark_cython_available()
        parser, builder = _outline_parser(use_cython)
    builder.reset(file, number, line, offset)
    try:
        tags, mainline, result_token = parser.parse(text, on_error=builder.on_error)  # type: ignore[misc]
    except UnexpectedInput:  # pragma: no cover - defensive, the grammar is total
        builder.diag("pgn.syntax", "internal parser failure; movetext skipped", None)
        tags, mainline, result_token = {}, _Line(), None  # type: ignore[var-annotated]
    builder.end_junk()
    if failure is not None:
        builder.diagnostics.insert(0, failure.located(file=file, game=number))
    game = Game(
        file=file,
        number=number,
        line=line,
        offset=offset,
        tags=tags,
        result=None,
        diagnostics=builder.diagnostics,
        encoding=encoding,
    )
    if result_token is None and builder.recovered_result is None:
        body = text.rstrip()
        builder.end_of_text = (line + body.count("\n"), len(body) - body.rfind("\n"))
    _finish(game, builder, result_token, bool(mainline))
    return game, list(mainline)
