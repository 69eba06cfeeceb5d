"""The core's plain outline (:mod:`notation.pgn.plain`): which movetext needs the parser's guard."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from notation.pgn.model import MAX_VARIATION_DEPTH
from notation.pgn.plain import needs_guard


def _guarded(text: str, reported: int) -> bool:
    """The rule itself: nesting deeper than the cap, or more unmatched ``)`` than can be reported."""
    depth = unmatched = 0
    for char in text:
        if char == "(":
            depth += 1
            if depth > MAX_VARIATION_DEPTH:
                return True
        elif char == ")":
            if depth:
                depth -= 1
            else:
                unmatched += 1
                if unmatched > reported:
                    return True
    return False


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="()e4 {}", max_size=4 * MAX_VARIATION_DEPTH), st.integers(0, 8))
def test_needs_guard_follows_the_nesting_and_unmatched_rule(text: str, reported: int) -> None:
    assert needs_guard(text, reported) == _guarded(text, reported)


def test_movetext_without_parentheses_never_needs_the_guard() -> None:
    assert not needs_guard("1. e4 { [%clk 0:03:00] } e5 2. Nf3 1-0", 0)
    assert needs_guard("(" * (MAX_VARIATION_DEPTH + 1) + "e4", 50)
    assert needs_guard("e4 ))", 1) and not needs_guard("e4 ))", 2)
