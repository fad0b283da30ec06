"""Generations in one canonical order, whatever order their file has.

A run's rows (claims.parquet, scores.parquet) and the bootstrap intervals computed from
them follow the order generations are scored in. Scored in input order, the same
generations shuffled, or concatenated system after system instead of instance after
instance, gave other bytes. They are scored in the canonical order instead: the instances
file's order, then systems by name (code point order), then the generation's own line.

Memory stays bounded by the instances (``tests/test_memory.py``): a first pass validates
every line (the same errors as a streamed read) and keeps three integers per generation
and the generation itself, the generations held in memory until they hold
``HELD_TEXT_CHARS`` characters (text and the user's ``meta``: ``Generation.held_chars``)
or number ``HELD_GENERATIONS``; past that, every
generation goes to an anonymous temporary file (pickled) and the second pass reads them
back in sorted order. A file of a few thousand generations is never pickled: writing and
reading back each pydantic ``Generation`` was 0.085 s of a 5,600-text weather run.
"""

from __future__ import annotations

import pickle
import tempfile
from array import array
from collections.abc import Iterable, Iterator, Mapping
from typing import IO

import numpy as np

from factcov.limits import CHUNK_TEXT_CHARS
from factcov.model import Generation, Instance

# What is held in memory before the generations are spooled: a chunk's worth of text
# (what a run holds while it scores a chunk anyway), and a count for short texts.
HELD_TEXT_CHARS = CHUNK_TEXT_CHARS
HELD_GENERATIONS = 20_000


class _Generations:
    """Generations by their number in the file: held while they are few, else spooled."""

    def __init__(self) -> None:
        self._held: list[Generation | None] = []
        self._chars = 0
        self._spool: IO[bytes] | None = None
        self._offsets = array("q")

    def add(self, generation: Generation) -> None:
        if self._spool is None:
            self._held.append(generation)
            self._chars += generation.held_chars()
            if self._chars > HELD_TEXT_CHARS or len(self._held) > HELD_GENERATIONS:
                self._spool = tempfile.TemporaryFile(prefix="factcov-generations-")
                held, self._held = self._held, []
                for each in held:
                    self._write(each)  # type: ignore[arg-type]
        else:
            self._write(generation)

    def _write(self, generation: Generation) -> None:
        self._offsets.append(self._spool.tell())  # type: ignore[union-attr]
        pickle.dump(generation, self._spool, protocol=pickle.HIGHEST_PROTOCOL)  # type: ignore[arg-type]

    def get(self, number: int) -> Generation:
        if self._spool is None:  # each is read back once: the list lets go of it
            generation, self._held[number] = self._held[number], None  # type: ignore[call-overload]
            return generation
        self._spool.seek(self._offsets[number])
        return pickle.load(self._spool)

    def close(self) -> None:
        self._held = []
        if self._spool is not None:
            self._spool.close()


def canonical_pairs(
    pairs: Iterable[tuple[Instance, Generation]], instances: Mapping[str, Instance]
) -> Iterator[tuple[Instance, Generation]]:
    """``pairs`` (every instance among ``instances``) in canonical order; all of ``pairs``
    is read (and so checked) before the first is yielded."""
    position = {instance_id: index for index, instance_id in enumerate(instances)}
    systems: dict[str, int] = {}
    instance_of, system_of = array("q"), array("q")
    generations = _Generations()
    try:
        for instance, generation in pairs:
            instance_of.append(position[instance.id])
            system_of.append(systems.setdefault(generation.system, len(systems)))
            generations.add(generation)
        if not instance_of:
            return
        rank = np.empty(len(systems), dtype=np.int64)
        rank[[number for _, number in sorted(systems.items())]] = np.arange(len(systems))
        # lexsort's last key is the first: instance, then system's rank; a stable sort keeps line order
        order = np.lexsort((rank[np.frombuffer(system_of, dtype=np.int64)],
                            np.frombuffer(instance_of, dtype=np.int64)))
        del instance_of, system_of
        for index in order.tolist():
            generation = generations.get(index)
            yield instances[generation.instance_id], generation
    finally:
        generations.close()
