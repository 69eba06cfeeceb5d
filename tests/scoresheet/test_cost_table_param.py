"""Reading with a cost table of one's own (``read_sheets(costs=...)``), as held-out measurements
do: the table is in force for that read only, and learning puts back the table it found."""

from __future__ import annotations

from notation.scoresheet import channel
from notation.scoresheet.learn import _costs_from, _Counts, learn_costs
from notation.scoresheet.reader import read_sheets, reconstruct

SHEET = "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7"


def test_a_cost_table_is_in_force_for_one_read_only() -> None:
    shipped = dict(channel.COSTS)
    plain = reconstruct(SHEET)
    # a temperature of 50 spreads the posterior: no move is near certain
    hot = read_sheets([SHEET], costs={"temperature": 50.0})
    assert hot.sans == plain.sans
    assert min(m.confidence for m in hot.per_move) < min(m.confidence for m in plain.per_move)
    assert channel.COSTS == shipped
    again = reconstruct(SHEET)
    assert [m.confidence for m in again.per_move] == [m.confidence for m in plain.per_move]


def test_the_table_given_stands_over_the_defaults() -> None:
    with channel.costs_in_force({"box.blank": 1.25}):
        assert channel.cost("box.blank") == 1.25
        assert channel.cost("edit.swapped") == channel.DEFAULTS["edit.swapped"]  # not the shipped figure
    assert channel.cost("box.blank") == channel._load()["box.blank"]


def test_learning_puts_the_table_in_force_back() -> None:
    shipped = dict(channel.COSTS)
    sheets = [(["e4", "e5", "Nf3", "Nc6"], ("e4", "e5", "Nf3", "Nc6"))]
    learn_costs(sheets, rounds=1)
    assert channel.COSTS == shipped


def test_the_prior_pulls_a_rare_part_toward_its_default() -> None:
    counts = _Counts()
    for _ in range(1000):
        counts.chance("box")
    counts.event("char.delete")
    alone = _costs_from(counts)["char.delete"]
    pulled = _costs_from(counts, prior=10_000)["char.delete"]
    assert alone > channel.DEFAULTS["char.delete"] + 1
    assert abs(pulled - channel.DEFAULTS["char.delete"]) < abs(alone - channel.DEFAULTS["char.delete"]) / 4
