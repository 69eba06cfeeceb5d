"""Lark's LALR automaton for ``grammars/pgn.lark``, exported for the compiled core.

The compiled core parses a game with the automaton Lark builds for the product's PGN parser
(:func:`notation.pgn.parser.pgn_grammar`: ``pgn.lark`` with its possessive ``%override`` runs,
LALR with the contextual lexer): Lark's parse table, its terminals as the regular expressions
Lark compiles them to, the terminals each parser state's lexer tries in Lark's own order, and
the rules as Lark's tree builder names them. Nothing of the grammar is written here again:
every part is read from the ``Lark`` object.

The export is the file ``grammars/pgn.lalr`` (:data:`TABLES_FILE`), committed and compiled
into the core, headed by a hash of what it was built from (:func:`source_hash`: the grammar
texts, the overrides, Lark's version). A test fails when it is stale; ``python -m
notation.pgn.tables`` writes it again.

The file is lines of tab-separated fields::

    notation-lalr 1
    hash <sha256 of the sources>
    lark <version>
    terminals <n>
    <NAME> <1 if ignored else 0> <regex>            one line per terminal
    rules <n>
    <tree name> <origin> <length of the expansion>  one line per rule
    lexers <n>
    <terminal indices, in the order Lark's lexer tries them, space-separated>
    root <lexer index>
    states <n>
    <lexer index> <symbol>=s<state>|r<rule> ...     one line per parser state
    start <state>
    end <state>

The regexes are Lark's, with Python's ``\\s``, ``\\d`` and ``\\w`` (which the core's regex engine
reads with other Unicode tables) written out as the classes Python's ``re`` matches, and
control characters as ``\\x{..}`` escapes: the same language, read the same way by both engines.

:func:`lark_events` gives Lark's own parse of a game (tree built without the transformer) in
the form the core's ``lalr_parse`` returns, so that the two can be compared.
"""

from __future__ import annotations

import hashlib
import importlib.resources
import re
import sys
from functools import cache
from typing import TYPE_CHECKING, Any, Literal

if TYPE_CHECKING:  # pragma: no cover
    from lark import Lark

#: The exported tables, package data of :mod:`notation.grammars` beside ``pgn.lark``.
TABLES_FILE = "pgn.lalr"

#: One parse event: a token ``(TYPE, start, end)`` (character offsets in the game text), or a
#: reduction ``(rule, children, -1)`` (the tree node's name, its number of children), in the
#: order of a post-order walk of Lark's tree.
Event = tuple[str, int, int]

#: Where a parse failed: ``("character", offset)`` (no terminal matches there),
#: ``("token", offset, TYPE)`` (a token the parser state does not accept; ``$END`` at the end,
#: located, as Lark locates it, at the last token's start or 0).
Failure = tuple[Literal["character", "token"], int, str]


def _parser() -> Lark:
    """The product's PGN parser, without a transformer: the same grammar, options and lexer."""
    from notation.grammars import build_parser
    from notation.pgn.parser import pgn_grammar

    return build_parser("pgn", text=pgn_grammar(), use_cython=False, lexer="contextual")


@cache
def reference_parser() -> Lark:
    """The Lark parser whose parses the core reproduces (tree built, no transformer), cached."""
    return _parser()


def source_hash() -> str:
    """A hash of what the tables are built from: the grammar text with its overrides (which
    imports ``tokens.lark``'s terminals), the imported grammar and Lark's version."""
    import lark

    from notation.grammars import grammar_text
    from notation.pgn.parser import pgn_grammar

    text = "\0".join([lark.__version__, pgn_grammar(), grammar_text("tokens")])
    return hashlib.sha256(text.encode()).hexdigest()


@cache
def _python_classes() -> dict[str, str]:
    """``\\s``, ``\\d``, ``\\w`` as Python's ``re`` reads them in a ``str`` pattern, as ranges."""
    out = {}
    for escape in ("s", "d", "w"):
        matcher = re.compile("\\" + escape).match
        ranges: list[tuple[int, int]] = []
        for code in range(sys.maxunicode + 1):
            if matcher(chr(code)):
                if ranges and ranges[-1][1] == code - 1:
                    ranges[-1] = (ranges[-1][0], code)
                else:
                    ranges.append((code, code))
        out[escape] = "".join(
            _escaped(low) if low == high else f"{_escaped(low)}-{_escaped(high)}" for low, high in ranges
        )
    return out


def _escaped(code: int) -> str:
    return f"\\x{{{code:x}}}"


def core_regex(pattern: str) -> str:
    """``pattern`` (a Python regex as Lark compiles a terminal) with ``\\s``, ``\\d``, ``\\w``
    written out as Python's classes and control characters escaped, for the core's engine."""
    classes = _python_classes()
    out: list[str] = []
    in_class = False
    at = 0
    while at < len(pattern):
        char = pattern[at]
        if char == "\\" and at + 1 < len(pattern):
            following = pattern[at + 1]
            if following in classes:
                out.append(classes[following] if in_class else f"[{classes[following]}]")
            elif following in "SDW":
                raise ValueError(f"{pattern!r}: \\{following} is not exported")
            elif ord(following) < 0x20:
                out.append(_escaped(ord(following)))
            else:
                out.append(pattern[at : at + 2])
            at += 2
            continue
        if in_class and char == "]" and out[-1] not in ("[", "[^"):
            in_class = False
        elif not in_class and char == "[":
            in_class = True
            if pattern.startswith("[^", at):
                out.append("[^")
                at += 2
                continue
        out.append(_escaped(ord(char)) if ord(char) < 0x20 else char)
        at += 1
    return "".join(out)


def export(parser: Lark | None = None) -> str:
    """The text of :data:`TABLES_FILE` for the product's PGN parser (see the module's docs)."""
    from lark.grammar import Terminal
    from lark.lexer import PatternRE
    from lark.parsers.lalr_analysis import Shift

    if parser is None:
        parser = _parser()
    frontend: Any = parser.parser
    table = frontend.parser.parser.parse_table
    contextual = frontend.lexer
    terminals = sorted(contextual.root_lexer.terminals, key=lambda t: t.name)
    index = {t.name: i for i, t in enumerate(terminals)}
    ignored = set(parser.ignore_tokens)
    lines = ["notation-lalr 1", f"hash {source_hash()}", f"lark {__import__('lark').__version__}"]
    lines.append(f"terminals {len(terminals)}")
    for terminal in terminals:
        if not isinstance(terminal.pattern, PatternRE) or terminal.pattern.flags:
            raise ValueError(f"terminal {terminal.name}: only flagless regex terminals are exported")
        lines.append(f"{terminal.name}\t{int(terminal.name in ignored)}\t{core_regex(terminal.pattern.to_regexp())}")
    rules = list(parser.rules)
    rule_index = {id(rule): i for i, rule in enumerate(rules)}
    lines.append(f"rules {len(rules)}")
    for rule in rules:
        kept = [s for s in rule.expansion if not (isinstance(s, Terminal) and s.filter_out)]
        if len(kept) != len(rule.expansion) or rule.options.expand1 or rule.origin.name.startswith("_"):
            raise ValueError(f"rule {rule}: the core builds the tree of rules that keep every child")
        lines.append(f"{rule.alias or rule.origin.name}\t{rule.origin.name}\t{len(rule.expansion)}")
    lexers: list[tuple[int, ...]] = []

    def lexer_of(basic: Any) -> int:
        order = tuple(index[t.name] for t in basic.terminals)
        if order not in lexers:
            lexers.append(order)
        return lexers.index(order)

    root = lexer_of(contextual.root_lexer)
    # Lark numbers its states in an order that varies with Python's string hashing: they are
    # numbered here in the order a walk from the start state meets them (symbols sorted).
    start = table.start_states["start"]
    order = [start]
    for state in order:
        for _symbol, (action, arg) in sorted(table.states[state].items()):
            if action is Shift and arg not in order:
                order.append(arg)
    end = table.end_states["start"]
    if end not in order:
        order.append(end)
    number = {state: i for i, state in enumerate(order)}
    state_lines = []
    for state in order:
        actions = []
        for symbol, (action, arg) in sorted(table.states[state].items()):
            actions.append(f"{symbol}=s{number[arg]}" if action is Shift else f"{symbol}=r{rule_index[id(arg)]}")
        state_lines.append(f"{lexer_of(contextual.lexers[state])}\t{' '.join(actions)}")
    lines.append(f"lexers {len(lexers)}")
    lines.extend(" ".join(map(str, order)) for order in lexers)
    lines.append(f"root {root}")
    lines.append(f"states {len(state_lines)}")
    lines.extend(state_lines)
    lines.append(f"start {number[start]}")
    lines.append(f"end {number[end]}")
    return "\n".join(lines) + "\n"


def committed() -> str:
    """The text of the committed :data:`TABLES_FILE` (as installed with the grammars)."""
    return importlib.resources.files("notation.grammars").joinpath(TABLES_FILE).read_text(encoding="utf-8")


def lark_events(text: str) -> tuple[list[Event], Failure | None]:
    """Lark's parse of one game chunk as the core's ``lalr_parse`` gives it: the post-order
    events of the tree, or no events and where Lark failed."""
    from lark import Token, Tree
    from lark.exceptions import UnexpectedCharacters, UnexpectedToken

    try:
        tree = reference_parser().parse(text)
    except UnexpectedToken as error:
        token = error.token
        return [], ("token", token.start_pos or 0, token.type)
    except UnexpectedCharacters as error:
        return [], ("character", error.pos_in_stream or 0, "")
    events: list[Event] = []
    stack: list[tuple[Any, bool]] = [(tree, False)]
    while stack:  # post-order without recursion: the left-recursive lines nest deep
        node, done = stack.pop()
        if isinstance(node, Token):
            events.append((node.type, node.start_pos or 0, node.end_pos or 0))
        elif done:
            assert isinstance(node, Tree)
            events.append((str(node.data), len(node.children), -1))
        else:
            stack.append((node, True))
            stack.extend((child, False) for child in reversed(node.children))
    return events, None


def main() -> None:  # pragma: no cover - the maintainer's command
    """Write :data:`TABLES_FILE` into the checkout's ``grammars/``."""
    from pathlib import Path

    target = Path(__file__).resolve().parents[2] / "grammars" / TABLES_FILE
    target.write_text(export(), encoding="utf-8")


if __name__ == "__main__":  # pragma: no cover
    main()
