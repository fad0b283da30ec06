"""A `score` run writes the same bytes whatever the order of its generations: system
after system (as users concatenate per-system outputs), sorted by instance, or shuffled.
Generations are scored in a canonical order (the instances file's, then system by name:
``factcov.canonical_order``), so every row and every bootstrap interval is the same. The
per-race reader setup is cached by what it depends on, so the order changes no more than
~10% of CPU either (measured by benchmarks/end_to_end.py)."""

import random
import re
import zlib

from factcov.cli.app import run
from factcov.domains.f1.demo import DEMO_FILE
from factcov.domains.f1.domain import F1Domain
from factcov.instance_files import iter_instance_file
from factcov.jsonl import write_jsonl_atomic
from factcov.model import Generation

SENTENCE = re.compile(r"(?<=[.!?])\s+")
OUTPUTS = ("claims.parquet", "scores.parquet", "systems.csv", "summary.json", "manifest.json", "report.html")


def generations(instances_path) -> list[Generation]:
    """Four systems per instance, each dropping a growing share of the realized text's sentences."""
    domain = F1Domain()
    out = []
    instances = [instance for _, instance in iter_instance_file(instances_path)]
    for k in range(4):
        for instance in instances:
            sentences = SENTENCE.split(domain.realize(instance.facts, instance.language, instance))
            rng = random.Random(zlib.crc32(f"{instance.id}/{k}".encode()))
            gone = set(rng.sample(range(len(sentences)), min(len(sentences) - 1, round(len(sentences) * k / 4))))
            text = " ".join(s for i, s in enumerate(sentences) if i not in gone)
            out.append(Generation(instance_id=instance.id, system=f"drop{k}", text=text))
    return out


def test_the_same_bytes_in_any_order_of_the_generations(tmp_path) -> None:
    instances = DEMO_FILE
    by_system = generations(instances)
    orders = {
        "system": by_system,
        "instance": sorted(by_system, key=lambda g: (g.instance_id, g.system)),
        "shuffled": random.Random(4).sample(by_system, len(by_system)),
    }
    found = {}
    for name, lines in orders.items():
        # one file name for every order: summary.json records the input's name
        source = tmp_path / name / "generations.jsonl"
        source.parent.mkdir()
        write_jsonl_atomic(source, lines)
        out = tmp_path / name / "out"
        assert run(["score", "-d", "f1", "-i", str(instances), "-g", str(source), "-o", str(out), "-q"]) == 0
        found[name] = {file: (out / file).read_bytes() for file in OUTPUTS}
    first = found["system"]
    assert all(first.values())
    for name in ("instance", "shuffled"):
        for file in OUTPUTS:
            assert found[name][file] == first[file], f"{name}: {file} differs"
