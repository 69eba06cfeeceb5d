"""Converting games: normalised SAN, stripping, added tags (``normalise``), and rendering in the
export format, UCI, LAN, FEN, EPD or JSON lines (``render``); ``notation convert`` and
:func:`notation.convert.render.convert` drive them."""
