"""The cyclic garbage collector while factcov scores: fewer collections, and no walk of
what a scoring call returns.

Scoring allocates many small containers (claims, verdicts, rows) that reference counting
frees; at CPython's default first-generation threshold (700 allocations) the collector
runs thousands of times per batch and, with many instances in memory, each
older-generation pass walks all of them: a third of a weather run's CPU time.
``fewer_collections`` raises the first threshold while scoring (restored after).

When the last user leaves, the young objects still alive are what the calls return (an
f1 text's claims, verdicts and scores: ~46 containers). Restoring the threshold with
them young made the next allocation walk them all to find nothing, and one such walk in
ten was followed by the middle generation's walk of them again (for warm f1 texts, a
tenth of verification and scoring's instructions). They are moved to the oldest
generation unwalked instead (``gc.freeze`` then ``gc.unfreeze``: lists spliced, nothing
visited), where reference counting frees them as it would have.

CPython walks the oldest generation only in a full collection, started by its count of
objects that survived the middle generation, a count moved objects never enter: cyclic
garbage among them (factcov's domains make none, a plugin's extractor may) would wait.
So once the objects moved since the last full collection would outnumber
``MOVED_PER_LIVE`` times the objects it left alive (at least ``MOVED_MIN``), a full
collection runs here instead of a move: garbage held back stays below that bound,
however many texts are scored, and each moved object pays a quarter of one object's
share of a full walk at most. Before the first full collection the bound is the same
multiple of the objects present when the first call ended (counted as they are moved):
a process holding a large heap (every race's knowledge, a benchmark file's instances)
does not walk it all after its first hundred thousand objects moved.

Objects someone else froze (``gc.freeze`` before forking, as ``factcov.runner`` does
while a run's workers share its instances) are left frozen: ``unfreeze`` would release
them too, so once any are seen nothing is moved again in this process.

The ``factcov`` process itself (``factcov.cli.app.main``) runs at the raised threshold from
its start (``fewer_collections_for_the_process``) and freezes what is left at its end
(``leave_to_exit``), so that its imports and its exit are not walked either.
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager

GC_FIRST_THRESHOLD = 20_000
# What moving may hold back before a full collection: at least this many objects, else
# this many times the objects alive after the last full collection (before the first, the
# objects present at the first settling).
MOVED_MIN = 100_000
MOVED_PER_LIVE = 4

_lock = threading.Lock()
_users = 0
_saved: tuple[int, ...] = ()
_moved = 0  # objects moved unwalked since the last full collection run here
_move_limit: int | None = None  # None: set by the first settling, from the objects present then
_frozen_by_others = False


@contextmanager
def fewer_collections() -> Iterator[None]:
    """Raise the collector's first threshold while scoring (restored after; nestable and
    thread-safe: the first user raises it, the last settles the survivors and restores it)."""
    global _users, _saved
    with _lock:
        if _users == 0:
            _saved = gc.get_threshold()
            gc.set_threshold(max(_saved[0], GC_FIRST_THRESHOLD), *_saved[1:])
        _users += 1
    try:
        yield
    finally:
        with _lock:
            _users -= 1
            if _users == 0:
                _settle_survivors()  # before the threshold drops: no walk may start first
                gc.set_threshold(*_saved)


def _settle_survivors() -> None:
    """Move the young and middle generations to the oldest unwalked, or run the full
    collection that bounds what moving holds back (see the module's docstring)."""
    global _moved, _move_limit, _frozen_by_others
    if _frozen_by_others or not gc.isenabled():
        return  # a process that turned the collector off keeps it off
    if gc.get_freeze_count():
        _frozen_by_others = True
        return
    # the young count is CPython's own (allocations less deallocations, what starts its
    # young collections); the middle generation, survivors of young walks, is counted as is
    moving = gc.get_count()[0] + len(gc.get_objects(generation=1))
    if _move_limit is not None and _moved + moving <= _move_limit:
        _moved += moving
        gc.freeze()
        gc.unfreeze()
        return
    if _move_limit is None:  # the first settling: the bound from every object present, moved as it is counted
        _moved = moving
    else:
        gc.collect()
        _moved = 0
    gc.freeze()  # every object alive, now in one list: counted once per full collection (or first settling)
    present = gc.get_freeze_count()
    gc.unfreeze()
    _move_limit = max(MOVED_MIN, MOVED_PER_LIVE * present)


def fewer_collections_for_the_process() -> None:
    """The process's first threshold at the one a run scores with (``GC_FIRST_THRESHOLD``)
    from its start (``factcov.cli.app.main``). A command imports most of what it uses once
    it runs (numpy, pyarrow, pydantic, a domain's grammar): hundreds of thousands of
    objects that live to the end, which the default threshold (700) walked in ~110 young
    and ~10 middle collections that found next to nothing, ~25 ms of a weather run; now a
    few. Cyclic garbage waits a little longer to be found (at most that many objects'
    worth), as it does while scoring."""
    first, *older = gc.get_threshold()
    if first and first < GC_FIRST_THRESHOLD:  # 0: the collector is off, left so
        gc.set_threshold(GC_FIRST_THRESHOLD, *older)


def leave_to_exit() -> None:
    """The command is done and the process ends: every object still alive (the libraries'
    modules, a run's instances, caches, knowledge) is moved out of the collector's sight
    (``gc.freeze``). The interpreter's exit collects the whole heap while it tears the
    modules down, walking each of those objects again to find the odd cycle: 0.14 s of a
    weather run's 1.1-1.3 s (the CPU spent after the last ``atexit`` handler, 0.17 s ->
    0.03 s). Nothing is skipped but that walk: ``atexit`` handlers (the disk caches' save)
    run as before, the modules are torn down and reference counting frees what it frees;
    a cycle left at exit is left to the operating system, as the interpreter itself does
    for what is still alive at the end. Files a command writes are closed by the command."""
    gc.freeze()
