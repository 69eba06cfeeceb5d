"""Openings: ECO classification by position (:mod:`.eco`, its table built by :mod:`.build` from
the CC0 Lichess ``chess-openings`` files) and the opening explorer (:mod:`.tree`)."""
