"""Integer options within what the commands can use: a value beyond ``2**31 - 1`` (``--limit
99999999999999999999``) is a usage error naming the option (exit 2), not an overflow deep in a
query. :func:`install` bounds Typer's integer options for this process (the command line only):
an integer option or argument without a bound of its own gets ``±(2**31 - 1)``."""

from __future__ import annotations

from typing import Any

#: The largest integer an option takes (a count, a depth, a rating: all far below it).
LARGEST = 2**31 - 1


def install() -> None:
    """Bound every integer option and argument (idempotent; a no-op on a Typer without the
    number adapter this hooks)."""
    try:
        from typer import _adapters
    except ImportError:  # pragma: no cover - another Typer
        return
    build = getattr(_adapters, "_build_number_adapter", None)
    if build is None or getattr(build, "_notation_bounded", False):  # pragma: no cover
        return

    def bounded(number_class: type[Any], *, min: Any, max: Any, clamp: Any) -> Any:
        if number_class is int:
            min = -LARGEST if min is None else min
            max = LARGEST if max is None else max
        return build(number_class, min=min, max=max, clamp=clamp)

    bounded._notation_bounded = True  # type: ignore[attr-defined]
    _adapters._build_number_adapter = bounded
