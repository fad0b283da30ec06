"""``canonical_pairs``: generations in the instances file's order, then by system name, then by
line; a file of a few thousand generations held in memory, a larger one spooled to disk (the
same order and values either way), so memory stays bounded by the instances."""

import random

import pytest

from factcov import canonical_order
from factcov.canonical_order import canonical_pairs
from factcov.model import Generation, Instance


def _instances(count: int) -> dict[str, Instance]:
    return {f"i{n}": Instance(id=f"i{n}", domain="mini", task="count", language="en") for n in range(count)}


def _pairs(instances: dict[str, Instance]) -> list[tuple[Instance, Generation]]:
    lines = [Generation(instance_id=instance_id, system=system, text=f"{system} on {instance_id}", meta={"n": n})
             for n, (system, instance_id) in enumerate((s, i) for s in ("b", "a", "c") for i in instances)]
    random.Random(5).shuffle(lines)
    return [(instances[g.instance_id], g) for g in lines]


def _canonical(pairs: list[tuple[Instance, Generation]]) -> list[tuple[Instance, Generation]]:
    # the instances' order is their number (``_instances``); a stable sort keeps line order
    return sorted(pairs, key=lambda pair: (int(pair[0].id[1:]), pair[1].system))


def test_a_small_file_is_read_back_as_the_generations_themselves_in_canonical_order() -> None:
    instances = _instances(50)
    pairs = _pairs(instances)
    found = list(canonical_pairs(pairs, instances))
    assert [(i.id, g.system) for i, g in found] == [(i.id, g.system) for i, g in _canonical(pairs)]
    originals = {id(g) for _, g in pairs}
    assert all(id(g) in originals for _, g in found)  # held, not written to disk and read back as copies


@pytest.mark.parametrize("limit", ["HELD_TEXT_CHARS", "HELD_GENERATIONS"])
def test_past_the_memory_budget_the_generations_are_spooled_with_the_same_order_and_values(monkeypatch, limit) -> None:
    instances = _instances(50)
    pairs = _pairs(instances)
    monkeypatch.setattr(canonical_order, limit, 40)  # 150 generations of ~10 characters each
    found = list(canonical_pairs(pairs, instances))
    expected = _canonical(pairs)
    assert [(i, g.model_dump(), g.model_fields_set) for i, g in found] == \
           [(i, g.model_dump(), g.model_fields_set) for i, g in expected]
    originals = {id(g) for _, g in pairs}
    assert not any(id(g) in originals for _, g in found)  # read back from the spool


def test_what_the_user_passes_through_counts_toward_the_budget_not_the_text_alone() -> None:
    # a line may carry megabytes of ``meta`` beside an empty text: held by count alone
    # (20,000 of them), such a file would sit in memory whole
    instances = _instances(4)
    heavy = [(instances[f"i{n}"], Generation(instance_id=f"i{n}", system="s", text="",
                                              meta={"blob": "x" * (canonical_order.HELD_TEXT_CHARS // 3)}))
             for n in range(4)]
    original = {id(g) for _, g in heavy}
    found = list(canonical_pairs(heavy, instances))
    assert [g.meta for _, g in found] == [g.meta for _, g in heavy]
    assert not any(id(g) in original for _, g in found)  # spooled: the budget saw the meta


def test_a_generations_held_size_counts_its_text_id_and_meta() -> None:
    bare = Generation(instance_id="i", system="s", text="four")
    assert bare.held_chars() == 4
    assert Generation(instance_id="i", system="s", text="four", id="ab", meta={"k": "vé"}).held_chars() == 4 + 2 + 10


def test_no_generations_yield_nothing() -> None:
    assert list(canonical_pairs([], _instances(3))) == []
