"""Who a player is: one person under several spellings of the name.

A games table names players as the PGN wrote them, so ``Kramnik,V`` and ``Kramnik, Vladimir``
are two players unless something says otherwise. :func:`identified` rewrites the ``white`` and
``black`` columns to one name per person, by these rules, in this order:

1. **Aliases** (``--aliases FILE``: a CSV of ``name,canonical name`` rows, header optional,
   :func:`read_aliases`): a name listed (as written, surrounding blanks ignored) becomes its
   canonical name.
2. **FIDE ids** (``WhiteFideId``/``BlackFideId``): all the names written for one id become one
   name, the one written most often for it (the alphabetically first among equals).

Online user names (Lichess, Chess.com) already are identities and are taken as they are; no
rule ever merges names that merely look alike. :func:`look_alikes` (``notation players``)
lists the spellings that look like one person: the same FIDE id, or the same surname and first
initial (``Kramnik,V`` / ``Kramnik, Vladimir``; ``Hou,Y`` / ``Hou Yifan``, whose surname comes
first), compared without case or accents. Its CSV is an aliases file to edit and give back.
"""

from __future__ import annotations

import csv
import re
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Final

import polars as pl

from notation.diagnostics import Diagnostic
from notation.select.criteria import fold
from notation.tables.scoring import GamesInput, as_lazy, clean_name, csv_lines

#: the FIDE id tags, White's and Black's
FIDE_TAGS: Final = ("WhiteFideId", "BlackFideId")
#: the columns of :func:`look_alikes`
REPORT_COLUMNS: Final = ("name", "canonical", "games", "fide_id", "reason")


def read_aliases(source: str | Path | Iterable[str]) -> tuple[dict[str, str], list[Diagnostic]]:
    """``name -> canonical name`` from a CSV of ``name,canonical`` rows (a header row
    ``name,canonical`` is skipped; more columns, as :func:`look_alikes` writes, are ignored).
    A row without both names is a located ``players.bad-alias`` error."""
    name = str(source) if isinstance(source, (str, Path)) else None
    lines, unreadable = csv_lines(source, "the aliases")
    if unreadable:
        return {}, unreadable
    aliases: dict[str, str] = {}
    problems: list[Diagnostic] = []
    for number, row in enumerate(csv.reader(lines), start=1):
        cells = [cell.strip() for cell in row]
        if not any(cells):
            continue
        if number == 1 and [c.lower() for c in cells[:2]] == ["name", "canonical"]:
            continue
        if len(cells) < 2 or not cells[0] or not cells[1]:
            problems.append(
                Diagnostic.make(
                    "players.bad-alias",
                    f"expected 'name,canonical name', found {','.join(row)[:80]!r}",
                    file=name,
                    line=number,
                )
            )
            continue
        aliases[cells[0]] = cells[1]
    return aliases, problems


def _fide(side: str) -> pl.Expr:
    tag = FIDE_TAGS[0] if side == "white" else FIDE_TAGS[1]
    found = (
        pl.col("extra_tags")
        .list.eval(pl.element().filter(pl.element().struct.field("name") == tag).struct.field("value"))
        .list.first()
    )
    value = found.str.strip_chars()
    return pl.when(value.str.contains(r"^[1-9]\d*$")).then(value).otherwise(None)


def _sides(games: GamesInput, aliases: Mapping[str, str] | None) -> pl.LazyFrame:
    """One row per (game, side): ``_g`` the game's row, ``side``, ``name`` (aliases applied),
    ``fide_id``."""
    lazy = as_lazy(games, ["white", "black", "extra_tags"]).with_row_index("_g")
    rows = []
    for side in ("white", "black"):
        name = clean_name(pl.col(side).cast(pl.String))
        if aliases:
            name = name.replace(dict(aliases))
        rows.append(lazy.select("_g", pl.lit(side).alias("side"), name.alias("name"), _fide(side).alias("fide_id")))
    return pl.concat(rows)


def canonical_by_fide(sides: pl.LazyFrame) -> pl.LazyFrame:
    """``fide_id -> canonical``: the name written most often for the id (alphabetically first
    among equals)."""
    return (
        sides.filter(pl.col("fide_id").is_not_null() & pl.col("name").is_not_null())
        .group_by("fide_id", "name")
        .agg(pl.len().alias("_n"))
        .sort(["fide_id", "_n", "name"], descending=[False, True, False])
        .group_by("fide_id", maintain_order=True)
        .agg(pl.col("name").first().alias("canonical"))
    )


def identified(games: pl.LazyFrame, aliases: Mapping[str, str] | None = None) -> pl.LazyFrame:
    """``games`` with ``white``/``black`` as one name per person (aliases, then FIDE ids: see
    the module docstring); every other column as it was. A table without ``extra_tags`` (no
    FIDE ids to read) gets the aliases only."""
    schema = games.collect_schema()
    if "extra_tags" not in schema:
        if not aliases:
            return games
        return games.with_columns(
            *(
                clean_name(pl.col(side).cast(pl.String)).replace(dict(aliases)).alias(side)
                for side in ("white", "black")
            )
        )
    canon = canonical_by_fide(_sides(games, aliases))
    out = games
    for side in ("white", "black"):
        name = clean_name(pl.col(side).cast(pl.String))
        if aliases:
            name = name.replace(dict(aliases))
        out = (
            out.with_columns(name.alias(side), _fide(side).alias("_fide"))
            .join(
                canon.rename({"fide_id": "_fide", "canonical": "_canonical"}),
                on="_fide",
                how="left",
                maintain_order="left",
            )
            .with_columns(pl.coalesce("_canonical", side).alias(side))
            .drop("_fide", "_canonical")
        )
    return out


_WORD = re.compile(r"[^\W\d_]+(?:['-][^\W\d_]+)*")


def name_keys(name: str) -> set[tuple[str, str]]:
    """The (surname, first initial) pairs a name may stand for, folded: ``Kramnik, V.`` ->
    {(kramnik, v)}; ``Hou Yifan`` -> {(hou, y), (yifan, h)} (without a comma either word order
    is possible); a single word (an online user name) has none."""
    folded = fold(name)
    if "," in folded:
        surname, _, rest = folded.partition(",")
        words, given = _WORD.findall(surname), _WORD.findall(rest)
        return {(" ".join(words), given[0][0])} if words and given else set()
    words = _WORD.findall(folded)
    if len(words) < 2:
        return set()
    return {(words[0], words[1][0]), (" ".join(words[1:]) if len(words) > 2 else words[-1], words[0][0])}


def look_alikes(games: GamesInput, aliases: Mapping[str, str] | None = None) -> pl.DataFrame:
    """The spellings that look like one person (:data:`REPORT_COLUMNS`): per group, every
    spelling with its games, its FIDE id (the first one seen), the group's ``canonical`` name
    (the spelling with the most games; among equals the longest, then the first alphabetically)
    and the ``reason`` (``same FIDE id 4101588`` or ``same surname and initial``). Names are
    not merged here: the rows, as CSV, are an aliases file (:func:`read_aliases`)."""
    lazy = as_lazy(games, ["white", "black", "extra_tags"])
    sides = _sides(lazy, aliases).filter(pl.col("name").is_not_null()).collect()
    counts = sides.group_by("name").agg(
        pl.len().alias("games"), pl.col("fide_id").drop_nulls().first().alias("fide_id")
    )
    rows = {name: (games_count, fide) for name, games_count, fide in counts.iter_rows()}
    parent = {name: name for name in rows}

    def root(name: str) -> str:
        while parent[name] != name:
            parent[name] = parent[parent[name]]
            name = parent[name]
        return name

    def join(a: str, b: str) -> None:
        ra, rb = root(a), root(b)
        if ra != rb:
            parent[max(ra, rb)] = min(ra, rb)

    by_key: dict[object, str] = {}
    for name, (_, fide) in sorted(rows.items()):
        keys: set[object] = set(name_keys(name))
        if fide is not None:
            keys.add(("fide", fide))
        for key in keys:
            if key in by_key:
                join(by_key[key], name)
            else:
                by_key[key] = name
    groups: dict[str, list[str]] = {}
    for name in sorted(rows):
        groups.setdefault(root(name), []).append(name)
    out: list[tuple[str, str, int, str | None, str]] = []
    for members in groups.values():
        if len(members) < 2:
            continue
        canonical = sorted(members, key=lambda n: (-rows[n][0], -len(n), n))[0]
        ids = {rows[n][1] for n in members if rows[n][1] is not None}
        reason = (
            f"same FIDE id {sorted(ids)[0]}"
            if len(ids) == 1 and all(rows[n][1] for n in members)
            else "same surname and initial"
        )
        for name in sorted(members, key=lambda n: (n != canonical, n)):
            out.append((name, canonical, rows[name][0], rows[name][1], reason))
    return pl.DataFrame(
        out,
        schema={
            "name": pl.String,
            "canonical": pl.String,
            "games": pl.Int64,
            "fide_id": pl.String,
            "reason": pl.String,
        },
        orient="row",
    )
