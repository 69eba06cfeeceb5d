"""The Lark grammars of notation (the one definition of every syntax) and how to load them.

- ``tokens.lark``: the shared terminals: the tag pair, the SAN move token and its parts;
- ``pgn.lark``: one game of PGN (tags, movetext, variations, result), coarse for speed;
- ``san.lark``: one SAN move, structured, for reading what it says (``notation.formats.san``);
- ``sheet.lark``: one move as written on a paper scoresheet, per language.

The files are package data of this package (installed as ``notation.grammars``) and are always
read from where it is installed, so ``%import tokens (...)`` between them resolves the same way
in a checkout and in site-packages. Parsers are built once per process by their users and cached.
When the optional ``lark-cython`` plugin is installed (``notation[fast]``) it is used for LALR
parsers, unless ``NOTATION_PURE_LARK=1`` is set (tests use that to check both agree).
"""

from __future__ import annotations

import importlib.resources
import os
from functools import lru_cache, cache
from typing import Any, cast

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover - Lark is imported when a grammar is loaded, not before
    from collections.abc import Callable

    from lark import Lark


@lru_cache(maxsize=1)
def loader() -> Any:
    """Resolves ``%import tokens (...)`` (and any other grammar of this package) from package data."""
    from lark.load_grammar import FromPackageLoader

    return FromPackageLoader(__name__, ("",))


@cache
def grammar_text(name: str) -> str:
    """The text of ``<name>.lark`` from this package's installed data."""
    return importlib.resources.files(__name__).joinpath(f"{name}.lark").read_text(encoding="utf-8")


@lru_cache(maxsize=1)
def lark_cython_available() -> bool:
    """True when the lark-cython plugin can be used (installed and not disabled with
    ``NOTATION_PURE_LARK=1``); decided once per process."""
    if os.environ.get("NOTATION_PURE_LARK") == "1":
        return False
    try:
        import lark_cython  # noqa: F401
    except ImportError:
        return False
    return True


def build_parser(name: str, *, text: str | None = None, use_cython: bool | None = None, **options: Any) -> Lark:
    """A new LALR parser for ``<name>.lark`` (``options`` go to :class:`lark.Lark`).

    ``text`` is the grammar to build instead of the file's own: the file with Lark
    ``%override`` lines after it (:func:`overridden`: the scoresheet's piece letters per
    language, the PGN grammar's possessive runs). Callers cache the result since building
    costs milliseconds.
    """
    options.setdefault("parser", "lalr")
    options.setdefault("import_paths", [loader()])
    if use_cython is None:
        use_cython = lark_cython_available()
    if use_cython and options["parser"] == "lalr":
        import lark_cython

        options["_plugins"] = lark_cython.plugins
    from lark import Lark

    return Lark(grammar_text(name) if text is None else text, **options)


@cache
def _terminals(name: str) -> dict[str, Any]:
    """Every terminal of ``<name>.lark`` as Lark compiles it (a ``TerminalDef``), by name
    (imported ones, mangled as ``<grammar>__<NAME>``, under their own names)."""
    from lark.load_grammar import load_grammar

    grammar, _ = load_grammar(grammar_text(name), f"{name}.lark", [loader()], False)  # type: ignore[no-untyped-call]
    terminals, _, _ = grammar.compile([], "*")  # every terminal, whatever the rules use
    return {str(terminal.name).rpartition("__")[2]: terminal for terminal in terminals}


@cache
def terminal_patterns(name: str) -> dict[str, str]:
    """Every terminal of ``<name>.lark`` (imported ones under their own names; the parts of an
    imported terminal are in ``terminal_patterns("tokens")``) as the regular expression Lark
    compiles it to: the way Python code builds a regex from the grammar instead of writing the
    syntax out again.

    Like Lark's own ``cache=True``, the result is kept in a file of the temporary folder, named
    after a hash of the grammar texts and the Lark version, so that later processes skip
    Lark's grammar compilation (about 0.1 s a grammar); a missing, unreadable or damaged file
    is computed again (and rewritten atomically)."""
    found = _kept("terminals", name, str, _compiled_terminals)
    return cast("dict[str, str]", found)


@cache
def terminal_priorities(name: str) -> dict[str, int]:
    """The priority of every terminal of ``<name>.lark`` (named as in :func:`terminal_patterns`),
    kept in the temporary folder as :func:`terminal_patterns` keeps the patterns."""
    found = _kept("priorities", name, int, lambda n: {term: t.priority for term, t in _terminals(n).items()})
    return cast("dict[str, int]", found)


@lru_cache(maxsize=1)
def _lark_release() -> str:
    """What names the installed Lark in the cache's key, without importing Lark (a run of plain
    games never does): the text of its ``__init__`` (which holds ``__version__``) and where it is."""
    import importlib.util

    spec = importlib.util.find_spec("lark")
    origin = spec.origin if spec is not None else None
    if origin is None:  # pragma: no cover - Lark is a dependency
        return ""
    try:
        with open(origin, encoding="utf-8") as handle:
            return f"{origin}\0{handle.read()}"
    except OSError:  # pragma: no cover
        return origin


def _kept(kind: str, name: str, value: type, compute: Callable[[str], dict[str, Any]]) -> dict[str, Any]:
    """``compute(name)``, read from (or written to) a file of the temporary folder named after
    ``kind``, a hash of the grammar texts and the Lark version; a missing, unreadable or damaged
    file (a value not of type ``value``) is computed again and rewritten atomically."""
    import json
    import tempfile

    try:
        from _blake2 import blake2b  # hashlib's own, without hashlib's OpenSSL start-up (~10 M instructions)
    except ImportError:  # pragma: no cover - an interpreter without it
        from hashlib import blake2b

    texts = "\0".join(grammar_text(n) for n in sorted({name, "tokens"}))
    digest = blake2b(f"{_lark_release()}\0{name}\0{texts}".encode(), digest_size=12).hexdigest()
    path = os.path.join(tempfile.gettempdir(), f".notation_{kind}_{name}_{digest}.json")
    try:
        with open(path, encoding="utf-8") as handle:
            cached = json.load(handle)
        if isinstance(cached, dict) and all(isinstance(k, str) and type(v) is value for k, v in cached.items()):
            return cached
    except (OSError, ValueError):
        pass
    out = compute(name)
    try:
        fd, partial = tempfile.mkstemp(prefix=f".notation_{kind}_", dir=os.path.dirname(path))
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            json.dump(out, handle)
        os.replace(partial, path)
    except OSError:
        pass  # no cache: the next process computes them again
    return out


def _compiled_terminals(name: str) -> dict[str, str]:
    return {term: definition.pattern.to_regexp() for term, definition in _terminals(name).items()}


def regex_literal(pattern: str) -> str:
    """``pattern`` (a Python regular expression) written as a Lark ``/regexp/`` literal: a
    ``/`` escaped, line ends and tabs written as escapes (the same regular expression)."""
    out: list[str] = []
    at = 0
    while at < len(pattern):
        char = pattern[at]
        if char == "\\" and at + 1 < len(pattern):
            out.append(pattern[at : at + 2])
            at += 2
            continue
        out.append({"/": "\\/", "\n": "\\n", "\r": "\\r", "\t": "\\t"}.get(char, char))
        at += 1
    return "/" + "".join(out) + "/"


def overridden(name: str, terminals: dict[str, str]) -> str:
    """The text of ``<name>.lark`` with ``terminals`` (name -> new definition, Lark syntax)
    redefined through Lark's own ``%override`` (each keeps the priority the grammar gives it):
    a grammar changed the way Lark changes grammars, never by editing its text."""
    lines = [grammar_text(name)]
    for term, definition in terminals.items():
        priority = terminal_priorities(name)[term]
        head = term if priority == 0 else f"{term}.{priority}"
        lines.append(f"%override {head}: {definition}")
    return "\n".join(lines) + "\n"
