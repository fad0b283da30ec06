"""One progress counter for long work, on stderr.

It lives below the command line because the engine (``runner``, ``generate``, ``refine``)
and the domains' builders show their own progress; the commands only say whether to.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

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
