"""The collector while scoring: survivors moved to the oldest generation unwalked, the
garbage that moving holds back bounded by full collections, others' frozen objects left
frozen (``factcov.collector``)."""

from __future__ import annotations

import gc
import weakref

import pytest

from factcov import collector
from factcov.collector import fewer_collections


@pytest.fixture
def fresh_collector(monkeypatch):
    """The module's counts as in a new process, restored after; the collector on."""
    monkeypatch.setattr(collector, "_moved", 0)
    monkeypatch.setattr(collector, "_move_limit", None)
    monkeypatch.setattr(collector, "_frozen_by_others", False)
    was_enabled = gc.isenabled()
    gc.enable()
    yield collector
    if not was_enabled:
        gc.disable()


def _generation_of(obj: object) -> int | None:
    for generation in range(3):
        if any(o is obj for o in gc.get_objects(generation)):
            return generation
    return None


def test_what_a_call_keeps_goes_to_the_oldest_generation_unwalked(fresh_collector):
    threshold = gc.get_threshold()
    collections = []
    gc.callbacks.append(record := lambda phase, info: phase == "start" and collections.append(info["generation"]))
    try:
        with fewer_collections():
            assert gc.get_threshold()[0] == max(threshold[0], collector.GC_FIRST_THRESHOLD)
            kept = [[i] for i in range(5_000)]
        young_count = gc.get_count()[0]
    finally:
        gc.callbacks.remove(record)
    assert gc.get_threshold() == threshold
    assert collections == [] and young_count == 0  # no walk ran, and none is due
    assert _generation_of(kept) == 2 and _generation_of(kept[-1]) == 2  # where young walks never look
    assert collector._moved >= 5_000


def test_the_first_bound_is_a_multiple_of_the_objects_present(fresh_collector):
    """A process that already holds many objects does not walk them all after its first
    MOVED_MIN objects moved: the first settling sets the bound from what is present."""
    held = [[i] for i in range(200_000)]  # a large heap, as a run's instances make
    with fewer_collections():
        kept = [[i] for i in range(1_000)]
    assert collector._move_limit >= collector.MOVED_PER_LIVE * len(held)
    assert _generation_of(kept) == 2  # moved, not walked


def test_a_nested_call_leaves_the_settling_to_the_outer_one(fresh_collector):
    with fewer_collections():
        with fewer_collections():
            inner = [[i] for i in range(100)]
        assert gc.get_threshold()[0] >= collector.GC_FIRST_THRESHOLD
        assert _generation_of(inner) == 0  # still young: the outer call is not over
    assert _generation_of(inner) == 2


class _Cyclic:
    """A cycle of two objects: garbage only the collector frees."""

    alive: weakref.WeakSet = weakref.WeakSet()

    def __init__(self) -> None:
        self.partner = [self]
        _Cyclic.alive.add(self)


@pytest.mark.slow
def test_garbage_held_back_by_moving_stays_bounded(fresh_collector, monkeypatch):
    """Calls that each leave cyclic garbage: a full collection runs once the moved objects
    pass the bound, so the garbage never grows with the number of calls."""
    monkeypatch.setattr(collector, "MOVED_MIN", 20_000)
    monkeypatch.setattr(collector, "_move_limit", 20_000)
    monkeypatch.setattr(collector, "MOVED_PER_LIVE", 0)  # the bound is MOVED_MIN, whatever is alive
    gc.collect()
    _Cyclic.alive = weakref.WeakSet()
    most = 0
    for _ in range(60):
        with fewer_collections():
            for _ in range(1_000):
                _Cyclic()  # two tracked objects each, garbage at once
        most = max(most, len(_Cyclic.alive))
    assert most >= 5_000  # moving did hold garbage back between full collections
    # 2 objects each: at most the bound's worth of cycles (plus one call's) ever waits
    assert most <= collector.MOVED_MIN // 2 + 1_000
    gc.collect()
    assert len(_Cyclic.alive) == 0


def test_objects_frozen_by_someone_else_stay_frozen(fresh_collector):
    gc.collect()
    gc.freeze()
    try:
        frozen = gc.get_freeze_count()
        with fewer_collections():
            kept = [[i] for i in range(1_000)]
        assert gc.get_freeze_count() == frozen
        assert _generation_of(kept) in (0, 1)  # not moved: left to the ordinary collections
        assert collector._frozen_by_others
    finally:
        gc.unfreeze()


def test_a_disabled_collector_is_left_alone(fresh_collector):
    gc.disable()
    try:
        with fewer_collections():
            kept = [[i] for i in range(1_000)]
        assert not gc.isenabled()
        assert _generation_of(kept) == 0 and collector._moved == 0
    finally:
        gc.enable()
