"""The tags of a game read from its scoresheets: the user's ``Name=value`` pairs, the sheets'
header blocks merged, and the Seven Tag Roster in PGN order."""

from __future__ import annotations

import re
from functools import cache

from notation.diagnostics import Diagnostic
from notation.grammars import terminal_patterns


@cache
def _tag_name() -> re.Pattern[str]:
    """PGN tag-name syntax, taken from ``grammars/tokens.lark`` (``TAG_NAME``)."""
    return re.compile(terminal_patterns("tokens")["TAG_NAME"])


def parse_tags(text: str) -> tuple[dict[str, str], list[str]]:
    """``"White=Anna,Black=Bernd"`` as tags, and the entries that are no ``Name=value`` pair
    with a valid PGN tag name (as written; empty entries between commas are skipped)."""
    out: dict[str, str] = {}
    bad: list[str] = []
    for part in text.split(","):
        if not part.strip():
            continue
        name, eq, value = part.partition("=")
        name = name.strip()
        if not eq or not _tag_name().fullmatch(name):
            bad.append(part.strip())
            continue
        out[name] = value.strip()
    return out, bad


def tag_pairs(tags: dict[str, str] | str | None) -> tuple[dict[str, str], list[str]]:
    """The user's tags (a dict or ``"White=…,Black=…"``) with a valid PGN tag name, and the
    entries that are not (as written)."""
    if tags is None:
        return {}, []
    if isinstance(tags, dict):
        good = {k: v for k, v in tags.items() if _tag_name().fullmatch(k)}
        return good, [f"{k}={v}" for k, v in tags.items() if k not in good]
    return parse_tags(tags)


_ROSTER_DEFAULTS = {"Event": "?", "Site": "?", "Date": "????.??.??", "Round": "?", "White": "?", "Black": "?"}


def roster_tags(tags: dict[str, str], result: str, start_fen: str | None) -> dict[str, str]:
    """The game's tags in PGN order: the Seven Tag Roster (``?`` where unknown, ``Result`` as
    given), the other tags, then ``SetUp``/``FEN`` when the game starts from ``start_fen``."""
    full = {name: tags.get(name, default) for name, default in _ROSTER_DEFAULTS.items()}
    full["Result"] = result
    for name, value in tags.items():
        if name not in full:
            full[name] = value
    if start_fen:
        full["SetUp"] = "1"
        full["FEN"] = start_fen
    return full


def merge_tags(
    sheet_tags: list[dict[str, str]], tags: dict[str, str] | str | None, fen: str | None
) -> tuple[dict[str, str], list[Diagnostic], str | None]:
    """The tags of a game from its sheets' headers (the first copy that has one wins) and the
    user's ``tags`` over them, the diagnostics of bad ``tags`` entries, and the start FEN (the
    given one, else a ``FEN`` tag)."""
    merged: dict[str, str] = {}
    for found in sheet_tags:
        for name, value in found.items():
            merged.setdefault(name, value)
    extra_tags, bad_tags = tag_pairs(tags)
    merged.update(extra_tags)
    diagnostics: list[Diagnostic] = [
        Diagnostic.make("sheet.bad-tag", f"tag {entry!r} is no Name=value pair with a PGN tag name: ignored", san=entry)
        for entry in bad_tags
    ]
    if fen is None and merged.get("FEN"):
        fen = merged["FEN"]
    return merged, diagnostics, fen


__all__ = ["merge_tags", "parse_tags", "roster_tags", "tag_pairs"]
