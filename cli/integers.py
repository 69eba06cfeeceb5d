"""Integer options within what the commands can use: a value beyond ``2**31 - 1`` (``--limit
99999999999999999999``) is a usage error naming the option (exit 2), not an overflow deep in a
query. :func:`install` bounds Typer's integer options for this process (the command line only):
an integer option or argument without a bound of its own gets ``±(2**31 - 1)``."""

from __future__ import annotations

import importlib
from typing import Any

#: The largest integer an option takes (a count, a depth, a rating: all far below it).
LARGEST = 2**31 - 1


def install() -> None:
    """Bound every integer option and argument (idempotent). Typer 0.29 and later check numbers
    through a number adapter, wrapped here; earlier ones through Click's integer types, which
    :func:`get_click_type` is wrapped to replace with bounded ones."""
    try:  # (by name: the module exists only in some of the Typer versions the type checker may see)
        _adapters: Any = importlib.import_module("typer._adapters")
    except ImportError:
        _install_click_types()
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


def _within(param_type: Any, value: Any, param: Any, ctx: Any) -> Any:
    if isinstance(value, int) and not -LARGEST <= value <= LARGEST:
        param_type.fail(f"{value} is beyond what the option takes (-{LARGEST} to {LARGEST}).", param, ctx)
    return value


def _install_click_types() -> None:
    import importlib

    typer_main: Any = importlib.import_module("typer.main")
    click_types: Any = importlib.import_module("typer._click.types")
    get_click_type = typer_main.get_click_type
    if getattr(get_click_type, "_notation_bounded", False):
        return

    def convert_int(self: Any, value: Any, param: Any, ctx: Any) -> Any:
        return _within(self, click_types.IntParamType.convert(self, value, param, ctx), param, ctx)

    def convert_range(self: Any, value: Any, param: Any, ctx: Any) -> Any:
        # the bound first: a range that clamps must not clamp what no option takes
        number = _within(self, click_types.INT.convert(value, param, ctx), param, ctx)
        return click_types.IntRange.convert(self, number, param, ctx)

    bounded_int = type("BoundedInt", (click_types.IntParamType,), {"convert": convert_int})
    bounded_range = type("BoundedIntRange", (click_types.IntRange,), {"convert": convert_range})

    def bounded(*, annotation: Any, parameter_info: Any) -> Any:
        found = get_click_type(annotation=annotation, parameter_info=parameter_info)
        if found is click_types.INT:
            return bounded_int()
        if type(found) is click_types.IntRange:
            return bounded_range(
                min=found.min, max=found.max, min_open=found.min_open, max_open=found.max_open, clamp=found.clamp
            )
        return found

    setattr(bounded, "_notation_bounded", True)
    typer_main.get_click_type = bounded
