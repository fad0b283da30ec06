"""A `score` run reads the same claims and scores whatever the order of its generations:
system after system (as users concatenate per-system outputs), sorted by instance, or
shuffled. The per-race reader setup is cached by what it depends on, so the order can
change no claim (and, measured by benchmarks/end_to_end.py, no more than ~10% of CPU).

Rows are written in input order, so claims.parquet and scores.parquet are compared as
sets of rows; systems.csv and summary.json byte for byte, but for the bootstrap
intervals, which resample the values in input order."""

import json
import random
import re
import zlib

import pandas as pd

from factcov.cli.app import run
from factcov.domains.f1.demo import DEMO_FILE
from factcov.domains.f1.domain import F1Domain
from factcov.instance_files import iter_instance_file
from factcov.jsonl import write_jsonl_atomic
from factcov.model import Generation

SENTENCE = re.compile(r"(?<=[.!?])\s+")


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


def outputs(folder) -> dict[str, object]:
    claims = pd.read_parquet(folder / "claims.parquet")
    scores = pd.read_parquet(folder / "scores.parquet")
    systems = pd.read_csv(folder / "systems.csv")
    summary = json.loads((folder / "summary.json").read_text(encoding="utf-8"))
    summary.pop("inputs", None)
    return {
        "claims": claims.astype(str).sort_values(list(claims.columns)).reset_index(drop=True),
        "scores": scores.astype(str).sort_values(list(scores.columns)).reset_index(drop=True),
        "systems": systems[[c for c in systems.columns if not c.endswith(("_lo", "_hi"))]],
        "summary": _without_intervals(summary),
    }


def _without_intervals(value):
    if isinstance(value, dict):
        return {k: _without_intervals(v) for k, v in value.items() if not k.endswith(("_lo", "_hi"))}
    if isinstance(value, list):
        return [_without_intervals(v) for v in value]
    return value


def test_the_same_claims_and_scores_in_any_order_of_the_generations(tmp_path) -> None:
    instances = DEMO_FILE
    by_system = generations(instances)
    orders = {
        "system": by_system,
        "instance": sorted(by_system, key=lambda g: (g.instance_id, g.system)),
        "shuffled": random.Random(4).sample(by_system, len(by_system)),
    }
    found = {}
    for name, lines in orders.items():
        write_jsonl_atomic(tmp_path / f"{name}.jsonl", lines)
        out = tmp_path / f"out-{name}"
        assert run(["score", "-d", "f1", "-i", str(instances), "-g", str(tmp_path / f"{name}.jsonl"), "-o", str(out),
                    "--no-report", "-q"]) == 0
        found[name] = outputs(out)
    first = found["system"]
    assert len(first["claims"]) > 1000 and len(first["scores"]) == len(by_system)
    for name in ("instance", "shuffled"):
        for part in ("claims", "scores", "systems"):
            pd.testing.assert_frame_equal(found[name][part], first[part], check_exact=True, obj=f"{name}: {part}")
        assert found[name]["summary"] == first["summary"], name
