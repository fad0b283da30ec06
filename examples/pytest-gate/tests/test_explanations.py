"""Gate a model's race explanations on factcov scores (thresholds in ../factcov.toml)."""

import json
from pathlib import Path

from factcov.pytest_plugin import assert_scores

HERE = Path(__file__).resolve().parents[1]


def my_model_outputs() -> dict[str, str]:
    """Stands in for calling your model: its texts by instance id."""
    lines = (HERE / "explanations.jsonl").read_text(encoding="utf-8").splitlines()
    return {row["instance_id"]: row["text"] for row in map(json.loads, lines)}


def test_explanations_meet_the_project_thresholds(factcov_domain):
    outputs = my_model_outputs()
    instances = [i for i in factcov_domain("f1").example_instances() if i.id in outputs]
    assert_scores([(instance, outputs[instance.id]) for instance in instances])


def test_every_explanation_is_precise(factcov_domain, factcov_assert_scores):
    outputs = my_model_outputs()
    instances = [i for i in factcov_domain("f1").example_instances() if i.id in outputs]
    factcov_assert_scores([(instance, outputs[instance.id], "my-model") for instance in instances], precision=1.0)
