"""Selection criteria, material patterns and duplicates on hand-made games."""

from __future__ import annotations

import io
import re

import pytest
from conftest import SAMPLE_GAMES

from notation.select.criteria import (
    Criteria,
    CriteriaError,
    date_span,
    fold,
    parse_bound_date,
    parse_eco_ranges,
    parse_moves,
)
from notation.select.material import MaterialError, parse_material
from notation.select.run import filter_games, raw_tags, select
from notation.pgn.reader import split_games
from notation.formats.position import Position


def _pgn(*games: tuple[dict[str, str], str]) -> str:
    out = []
    for tags, moves in games:
        out.append("".join(f'[{k} "{v}"]\n' for k, v in tags.items()) + "\n" + moves + "\n")
    return "\n".join(out)


def _names(text: str, criteria: Criteria, **kw: bool) -> list[str]:
    return [g.tags.get("White", "?") for g in filter_games(io.StringIO(text), criteria, **kw)]


GAMES = _pgn(
    (
        {
            "White": "Ljubojević, Ljubomir",
            "Black": "Carlsen, Magnus",
            "Date": "2019.??.??",
            "Result": "0-1",
            "WhiteElo": "2500",
            "BlackElo": "2860",
            "ECO": "B90",
            "Event": "Wijk aan Zee",
        },
        "1. e4 c5 2. Nf3 d6 0-1",
    ),
    (
        {
            "White": "Carlsen, Magnus",
            "Black": "Anand, Viswanathan",
            "Date": "2014.11.23",
            "Result": "1-0",
            "WhiteElo": "2863",
            "BlackElo": "2792",
            "ECO": "C65",
            "Event": "WCh",
        },
        "1. e4 e5 2. Nf3 Nc6 3. Bb5 1-0",
    ),
    (
        {"White": "Morphy", "Black": "Allies", "Date": "1858.??.??", "Result": "1-0", "Event": "Paris"},
        "1. e4 e5 2. Nf3 d6 3. d4 Bg4 4. dxe5 Bxf3 5. Qxf3 dxe5 6. Bc4 Nf6 7. Qb3 Qe7 8. Nc3 c6 9. Bg5 b5 "
        "10. Nxb5 cxb5 11. Bxb5+ Nbd7 12. O-O-O Rd8 13. Rxd7 Rxd7 14. Rd1 Qe6 15. Bxd7+ Nxd7 16. Qb8+ Nxb8 "
        "17. Rd8# 1-0",
    ),
)


def test_names_fold_case_and_accents() -> None:
    assert fold("Ljubojević") == "ljubojevic"
    assert _names(GAMES, Criteria(white="ljubojevic")) == ["Ljubojević, Ljubomir"]
    assert _names(GAMES, Criteria(player="CARLSEN")) == ["Ljubojević, Ljubomir", "Carlsen, Magnus"]
    assert _names(GAMES, Criteria(black="carlsen", event="wijk")) == ["Ljubojević, Ljubomir"]


def test_partial_dates_match_when_their_span_meets_the_range() -> None:
    assert date_span("2019.??.??") == (20190101, 20191231)
    assert date_span("????.??.??") is None
    since = Criteria(date_from=parse_bound_date("2015", upper=False))
    assert _names(GAMES, since) == ["Ljubojević, Ljubomir"]
    upto = Criteria(date_to=parse_bound_date("2019.03", upper=True))
    assert _names(GAMES, upto) == ["Ljubojević, Ljubomir", "Carlsen, Magnus", "Morphy"]
    with pytest.raises(CriteriaError):
        parse_bound_date("yesterday", upper=False)


def test_eco_ranges_results_elo_and_tags() -> None:
    assert parse_eco_ranges("B,C4") == (("B00", "B99"), ("C40", "C49"))
    with pytest.raises(CriteriaError):
        parse_eco_ranges("Z12")
    assert _names(GAMES, Criteria(eco=parse_eco_ranges("A00-B99"))) == ["Ljubojević, Ljubomir"]
    assert _names(GAMES, Criteria(results=("1-0",))) == ["Carlsen, Magnus", "Morphy"]
    assert _names(GAMES, Criteria(min_elo=2700)) == ["Carlsen, Magnus"]
    assert _names(GAMES, Criteria(elo_diff=100)) == ["Carlsen, Magnus"]
    assert _names(GAMES, Criteria(tags=(("Event", re.compile("^wch$", re.I)),))) == ["Carlsen, Magnus"]
    assert _names(GAMES, Criteria(results=("1-0",), invert=True)) == ["Ljubojević, Ljubomir"]


def test_moves_fen_material_endings_and_plies() -> None:
    assert parse_moves("1. e4 c5 2. Nf3 2... d6") == ("e4", "c5", "Nf3", "d6")
    assert _names(GAMES, Criteria(moves=parse_moves("1. e4 c5 2. Nf3"))) == ["Ljubojević, Ljubomir"]
    assert _names(GAMES, Criteria(moves=("e4", "e5", "Ngf3"))) == ["Carlsen, Magnus", "Morphy"]
    assert _names(GAMES, Criteria(moves=("e4", "*", "Nf3", "Nc6"))) == ["Carlsen, Magnus"]
    pos = Position.initial()
    for san in ("e4", "e5", "Nf3"):
        pos = pos.play(pos.parse_san(san))
    # counters differ from the game's: FIDE identity ignores them
    fen = " ".join(pos.fen().split()[:4]) + " 7 30"
    assert _names(GAMES, Criteria(fen=fen)) == ["Carlsen, Magnus", "Morphy"]
    assert _names(GAMES, Criteria(endings=frozenset({"checkmate"}))) == ["Morphy"]
    assert _names(GAMES, Criteria(min_plies=5)) == ["Carlsen, Magnus", "Morphy"]
    assert _names(GAMES, Criteria(max_plies=4)) == ["Ljubojević, Ljubomir"]
    # reached near the end (16. Qb8+: White queen, rook, bishop; Black queen, rook, bishop, knight)
    assert _names(GAMES, Criteria(material=parse_material("KRBP*:KQRBNP*"))) == ["Morphy"]


def test_material_syntax() -> None:
    pattern = parse_material("KQR:kr")
    start = Position.initial()
    assert not pattern.matches_position(start)
    assert parse_material("QR2B2N2P8:QR2B2N2P8").matches_position(start)
    assert parse_material("RRBBNNQP8+:*").matches_position(start)
    assert parse_material("Q*R=P*B*N*:Q=R2B*N*P5+").matches_position(start)
    assert not parse_material("QR2B2N2P7-:*").matches_position(start)
    either = parse_material("KR~KQ")
    assert either.matches(((0, 0, 0, 0, 1, 1), (0, 0, 0, 1, 0, 1)))
    assert either.matches(((0, 0, 0, 1, 0, 1), (0, 0, 0, 0, 1, 1)))
    assert not parse_material("KR:KQ").matches(((0, 0, 0, 0, 1, 1), (0, 0, 0, 1, 0, 1)))
    for bad in ("KQR", "KX:k", "K:", "R2=:k"):
        with pytest.raises(MaterialError):
            parse_material(bad)


def test_duplicates_ignore_tags_comments_and_spelling() -> None:
    text = _pgn(
        ({"White": "A"}, "1. e4 e5 2. Ngf3 {a comment} Nc6 *"),
        ({"White": "B"}, "1. e4 e5 2. Nf3 Nc6 (2... d6) 1-0"),
        ({"White": "C"}, "1. e4 e5 2. Nf3 Nc6 3. Bb5 *"),
        ({"White": "D", "FEN": "4k3/8/8/8/8/8/8/4K2R w K - 0 1", "SetUp": "1"}, "1. O-O *"),
        ({"White": "E", "FEN": "4k3/8/8/8/8/8/8/4K2R w K - 0 1", "SetUp": "1"}, "1. 0-0 Kd7 *"),
        ({"White": "F", "FEN": "4k3/8/8/8/8/8/8/4K2R w K - 0 1", "SetUp": "1"}, "1. O-O+ *"),
    )
    items = list(select([io.StringIO(text)], Criteria(), unique=True))
    assert [(i.subject.tags["White"], i.duplicate) for i in items] == [
        ("A", False),
        ("B", True),
        ("C", False),
        ("D", False),
        ("E", False),
        ("F", True),
    ]
    assert _names(text, Criteria(), unique=True) == ["A", "C", "D", "E"]


def test_tags_are_read_without_parsing_the_moves() -> None:
    raws = list(split_games(SAMPLE_GAMES / "round_robin.pgn"))
    from notation.pgn.reader import parse_raw_game

    for raw in raws:
        assert raw_tags(raw) == parse_raw_game(raw).tags
    items = list(select([SAMPLE_GAMES / "round_robin.pgn"], Criteria(white="Cedar")))
    assert sum(i.selected for i in items) == 3
    assert all(i.subject._game is None for i in items if not i.selected)


def test_bad_games_never_raise() -> None:
    text = _pgn(({"White": "X", "FEN": "not a fen"}, "1. e4 *"), ({"White": "Y"}, "1. e4 Ke7?? 2. Sf3 *"))
    assert _names(text, Criteria(fen=Position.initial().fen(), moves=("e4",))) == ["Y"]
    assert _names(text, Criteria(moves=("e4", "Ke7", "Nf3"))) == []  # the legal prefix stops at Sf3
    assert _names(text, Criteria(results=("*",)), unique=True) == ["X", "Y"]
    assert len(list(select(["/no/such/file.pgn"], Criteria()))) == 1


def test_unread_rejection_of_tag_sections_agrees_with_reading_them() -> None:
    data = GAMES.encode("utf-8") + b'\n[White "Plain, Player"]\n[Black "X"]\n\n1. e4 *\n'
    for criteria in (
        Criteria(white="ljubojevic"),
        Criteria(white="PLAYER"),
        Criteria(white="carlsen", black="anand"),
        Criteria(player="wijk"),
        Criteria(event="wijk"),
        Criteria(white="player", invert=True),
    ):
        fast = [i.selected for i in select([io.BytesIO(data)], criteria)]
        slow = [criteria.matches_tags(raw_tags(raw)) != criteria.invert for raw in split_games(io.BytesIO(data))]
        assert fast == slow, criteria
    twice = data + b"\n" + data
    kept = list(filter_games(io.BytesIO(twice), Criteria(white="plain", invert=True), unique=True))
    assert [g.tags["White"] for g in kept] == ["Ljubojević, Ljubomir", "Carlsen, Magnus", "Morphy"]
    assert Criteria.rejects_header(b'[White "Abc"]\n', (b"xyz",))
    assert not Criteria.rejects_header('[White "Ljubojević"]\n'.encode(), (b"ljubojevic",))


def test_mainline_cut_by_the_core_equals_the_parsed_mainline() -> None:
    from itertools import islice

    from conftest import corpus_path

    from notation.pgn.reader import parse_raw_game
    from notation.select.criteria import Subject

    for name in ("lichess/lichess-jishanshaikh4.pgn.gz", "otb-pgnmentor/Kasparov.pgn.gz", "engine/tcec-other.pgn.gz"):
        for raw in islice(split_games(corpus_path("games", *name.split("/"))), 400):
            fast = Subject(raw, raw_tags(raw)).sans()
            assert fast == [n.lenient or n.san for n in parse_raw_game(raw).moves], (name, raw.number)


def test_eco_without_a_tag_is_classified() -> None:
    text = _pgn(
        ({"White": "NoTag"}, "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 *"), ({"White": "Tagged", "ECO": "A00"}, "1. e4 e5 *")
    )
    assert _names(text, Criteria(eco=parse_eco_ranges("C60-C99"))) == ["NoTag"]
    assert _names(text, Criteria(eco=parse_eco_ranges("A"))) == ["Tagged"]
