"""What the command line prints with: number formats and consoles.

Every command formats an undefined value as "—", a value with three decimals and an
interval as "[lo, hi]" through these, and shows long work with ``factcov.progress``.
"""

from __future__ import annotations

import math
from typing import Any

UNDEFINED = "—"


def fmt(value: Any, digits: int = 3) -> str:
    """A number with ``digits`` decimals; "—" for None or NaN; anything else as text."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return UNDEFINED
    if isinstance(value, float):
        return f"{value:.{digits}f}"
    return str(value)


def interval(bounds: list[float] | tuple[float, float] | None, digits: int = 3) -> str:
    return UNDEFINED if not bounds else f"[{bounds[0]:.{digits}f}, {bounds[1]:.{digits}f}]"


def with_interval(value: Any, bounds: list[float] | tuple[float, float] | None) -> str:
    return fmt(value) if not bounds else f"{fmt(value)} {interval(bounds)}"


def console(min_width: int = 120, stderr: bool = False) -> Any:
    """A rich console at least ``min_width`` wide (tables with intervals stay on one line)."""
    from rich.console import Console

    return Console(width=max(min_width, Console().width), stderr=stderr)
