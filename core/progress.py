"""One progress counter for long work, on stderr.

It lives below the command line because the engine (``runner``, ``generate``, ``refine``)
and the domains' builders show their own progress; the commands only say whether to.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any


@contextmanager
def progress(
    label: str, unit: str = "", enabled: bool = True, transient: bool = True
) -> Iterator[Callable[..., None]]:
    """A counter on stderr: ``advance(n)``, or ``advance(completed=, total=, description=)``.

    A no-op when not ``enabled`` (``--quiet``, or output that is not a terminal's).
    """
    if not enabled:
        yield lambda *args, **kwargs: None
        return
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

    columns = [SpinnerColumn(), TextColumn(f"[bold]{label}[/] {{task.description}}"), BarColumn(),
               MofNCompleteColumn(), TextColumn(unit), TimeElapsedColumn()]
    with Progress(*columns, console=Console(stderr=True), transient=transient) as bar:
        task = bar.add_task("", total=None)

        def advance(n: int = 0, **update: Any) -> None:
            if update:
                bar.update(task, **update)
            if n:
                bar.advance(task, n)

        yield advance
