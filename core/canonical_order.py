"""Generations in one canonical order, whatever order their file has.

A run's rows (claims.parquet, scores.parquet) and the bootstrap intervals computed from
them follow the order generations are scored in. Scored in input order, the same
generations shuffled, or concatenated system after system instead of instance after
instance, gave other bytes. They are scored in the canonical order instead: the instances
file's order, then systems by name (code point order), then the generation's own line.

Memory stays bounded by the instances (``tests/test_memory.py``): a first pass validates
every line (the same errors as a streamed read) and spools each generation to an
anonymous temporary file, keeping three integers per generation; the second pass reads
them back in sorted order.
"""

from __future__ import annotations

import pickle
import tempfile
from array import array
from collections.abc import Iterable, Iterator, Mapping

import numpy as np

from factcov.model import Generation, Instance


def canonical_pairs(
    pairs: Iterable[tuple[Instance, Generation]], instances: Mapping[str, Instance]
) -> Iterator[tuple[Instance, Generation]]:
    """``pairs`` (every instance among ``instances``) in canonical order; all of ``pairs``
    is read (and so checked) before the first is yielded."""
    position = {instance_id: index for index, instance_id in enumerate(instances)}
    systems: dict[str, int] = {}
    instance_of, system_of, offset_of = array("q"), array("q"), array("q")
    with tempfile.TemporaryFile(prefix="factcov-generations-") as spool:
        for instance, generation in pairs:
            instance_of.append(position[instance.id])
            system_of.append(systems.setdefault(generation.system, len(systems)))
            offset_of.append(spool.tell())
            pickle.dump(generation, spool, protocol=pickle.HIGHEST_PROTOCOL)
        if not offset_of:
            return
        rank = np.empty(len(systems), dtype=np.int64)
        rank[[number for _, number in sorted(systems.items())]] = np.arange(len(systems))
        # lexsort's last key is the first: instance, then system's rank; a stable sort keeps line order
        order = np.lexsort((rank[np.frombuffer(system_of, dtype=np.int64)],
                            np.frombuffer(instance_of, dtype=np.int64)))
        del instance_of, system_of
        for index in order:
            spool.seek(offset_of[index])
            generation = pickle.load(spool)
            yield instances[generation.instance_id], generation
