"""Instance files store a shared context block once; format-1 files still read."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from factcov.domains.f1.build import write_instances
from factcov.domains.f1.instances import race_instances
from factcov.domains.f1.source import race
from factcov.errors import InputError
from factcov.inputs import load_instances
from factcov.instance_files import InstanceWriter, iter_instance_file
from factcov.plugins import get_domain


@pytest.fixture(scope="module")
def two_races(shared_data: Path):
    return [race_instances(race(shared_data / "f1", 2021, r), languages=["en", "es"]) for r in (1, 2)]


def test_a_format_2_file_gives_back_every_instance_and_fact_and_shares_each_race(tmp_path, two_races):
    path = tmp_path / "f1.jsonl"
    write_instances(path, iter(two_races))
    built = [i for batch in two_races for i in batch]
    loaded = list(load_instances(path, get_domain("f1")).values())
    assert loaded == built  # ids, prompts, contexts and every fact
    assert len({id(i.context["race"]) for i in loaded}) == 2  # one race object per race


def test_the_race_block_is_written_once_per_race(tmp_path, two_races):
    path = tmp_path / "f1.jsonl"
    write_instances(path, iter(two_races))
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    blocks = [line for line in lines if "block" in line]
    assert len(blocks) == 2 and len(lines) == 1 + 2 + sum(map(len, two_races))
    flat = sum(len(i.model_dump_json()) + 1 for batch in two_races for i in batch)
    assert path.stat().st_size < flat / 5


def test_a_format_1_file_reads_as_before(tmp_path, two_races):
    path = tmp_path / "old.jsonl"
    path.write_text("".join(i.model_dump_json() + "\n" for i in two_races[0]))
    assert [i for _, i in iter_instance_file(path)] == two_races[0]


def test_a_reference_to_a_block_not_yet_defined_names_its_line_and_field(tmp_path, two_races):
    handle = io.StringIO()
    writer = InstanceWriter(handle, shared=("race",))
    writer.write(two_races[0][0])
    header, block, instance = handle.getvalue().splitlines()
    path = tmp_path / "bad.jsonl"
    path.write_text("\n".join([header, instance, block]) + "\n")
    with pytest.raises(InputError, match="unknown block") as caught:
        list(iter_instance_file(path))
    assert "bad.jsonl:2" in str(caught.value) and "context.race" in str(caught.value)


def test_a_newer_format_is_refused_with_what_to_do(tmp_path):
    path = tmp_path / "new.jsonl"
    path.write_text('{"factcov_instances": 3}\n')
    with pytest.raises(InputError, match="upgrade factcov"):
        list(iter_instance_file(path))


def test_a_compact_store_gives_the_same_instances_and_shares_blocks(tmp_path, two_races):
    path = tmp_path / "f1.jsonl"
    write_instances(path, iter(two_races))
    domain = get_domain("f1")
    parsed = load_instances(path, domain, compact=False)
    compact = load_instances(path, domain, compact=True)
    assert not isinstance(compact, dict) and len(compact) == len(parsed) and list(compact) == list(parsed)
    assert all(compact[i] == parsed[i] for i in parsed)
    first, last = list(compact)[0], list(compact)[len(compact) // 4]
    assert compact[first].context["race"] is compact[last].context["race"]  # one race: one block object
    assert "f1:nope" not in compact
    with pytest.raises(KeyError):
        compact["f1:nope"]
