"""What the command line prints with: number formats, consoles and one progress counter.

Every command formats an undefined value as "—", a value with three decimals and an
interval as "[lo, hi]" through these, and shows long work with ``progress``.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from contextlib import contextmanager
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


# When stderr is not a terminal (piped, a CI log, nohup), a progress bar draws nothing:
# a plain line every this many seconds says the work goes on instead.
PLAIN_EVERY_S = 10.0


@contextmanager
def progress(
    label: str, unit: str = "", enabled: bool = True, transient: bool = True
) -> Iterator[Callable[..., None]]:
    """A counter on stderr: ``advance(n)``, or ``advance(completed=, total=, description=)``.

    A no-op when not ``enabled`` (``--quiet``). On a terminal, a rich progress bar; else
    one plain line every ``PLAIN_EVERY_S`` seconds (and at the end unless ``transient``).
    """
    if not enabled:
        yield lambda *args, **kwargs: None
        return
    from rich.console import Console

    err = Console(stderr=True)
    if not err.is_terminal:
        with _plain_progress(label, unit, transient) as advance:
            yield advance
        return
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

    columns = [SpinnerColumn(), TextColumn(f"[bold]{label}[/] {{task.description}}"), BarColumn(),
               MofNCompleteColumn(), TextColumn(unit), TimeElapsedColumn()]
    with Progress(*columns, console=err, transient=transient) as bar:
        task = bar.add_task("", total=None)

        def advance(n: int = 0, **update: Any) -> None:
            if update:
                bar.update(task, **update)
            if n:
                bar.advance(task, n)

        yield advance


@contextmanager
def _plain_progress(label: str, unit: str, transient: bool) -> Iterator[Callable[..., None]]:
    import sys
    import time

    started = time.monotonic()
    state: dict[str, Any] = {"done": 0, "total": None, "description": "", "said": started}

    def line() -> str:
        total = f" of {state['total']:,}" if state["total"] else ""
        description = f" {state['description']}" if state["description"] else ""
        elapsed = int(time.monotonic() - started)
        return f"{label}{description}: {state['done']:,}{total} {unit} ({elapsed // 60}m{elapsed % 60:02d}s)"

    def advance(n: int = 0, **update: Any) -> None:
        state["done"] = update.get("completed", state["done"]) + n
        state["total"] = update.get("total", state["total"])
        state["description"] = update.get("description", state["description"])
        now = time.monotonic()
        if now - state["said"] >= PLAIN_EVERY_S:
            state["said"] = now
            print(line(), file=sys.stderr, flush=True)

    yield advance
    if not transient:
        print(line(), file=sys.stderr, flush=True)
