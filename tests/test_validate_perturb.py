"""`factcov validate perturb`: every metric moves the way it must when a text is damaged."""

from __future__ import annotations

import json
import random

import pytest

from factcov.model import Fact, Instance
from factcov.plugins import domains, get_domain, load_plugins
from factcov.validation.perturb import EXPECTATIONS, moved, run_perturbations
from tests.test_compare import mini_instances, write_jsonl


@pytest.fixture
def cli():
    from factcov.cli.app import run

    return run


def _registered_domains() -> list[str]:
    load_plugins()
    return domains.names()


def _mini(count: int = 4) -> list[Instance]:
    return [Instance.model_validate(row) for row in mini_instances(count)]


def test_direction_of_a_move():
    assert moved(1.0, 0.5) == "down" and moved(0.5, 1.0) == "up" and moved(1.0, 1.0) == "same"
    assert moved(None, 1.0) is None


def test_every_perturbation_moves_every_metric_the_expected_way(mini_plugin):
    outcome = run_perturbations(get_domain("mini"), _mini(), seed=3)
    assert outcome.instances == 4
    assert not outcome.violations, outcome.violations
    kinds = {row["perturbation"] for row in outcome.summary()}
    assert kinds == set(EXPECTATIONS)
    rows = {(r["perturbation"], r["metric"]): r for r in outcome.summary()}
    assert rows[("drop", "recall")]["after"] < 1.0 == rows[("drop", "precision")]["after"]
    assert rows[("corrupt", "contradicted")]["after"] >= 1
    assert rows[("add_unsupported", "recall")]["after"] == 1.0 > rows[("add_unsupported", "precision")]["after"]


def test_a_perturbation_the_metric_cannot_see_is_a_violation(mini_plugin):
    domain = get_domain("mini")

    class Blind(type(domain)):
        def perturb(self, fact: Fact, rng: random.Random, instance=None) -> Fact:
            return fact  # "corrupts" nothing: precision cannot fall

    outcome = run_perturbations(Blind(), _mini(2))
    bad = {(v.kind, v.metric) for v in outcome.violations}
    assert ("corrupt", "precision") in bad and ("corrupt", "contradicted") in bad


def test_perturb_command_passes_and_a_blind_metric_exits_1(tmp_path, mini_plugin, cli, capsys, monkeypatch):
    instances = write_jsonl(tmp_path / "instances.jsonl", mini_instances(3))
    assert cli(["validate", "perturb", "-d", "mini", "-i", str(instances)]) == 0
    out = capsys.readouterr().out
    assert "perturbations of mini" in out and "add_unsupported" in out
    assert cli(["validate", "perturb", "-d", "mini", "-i", str(instances), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["violations"] == []

    monkeypatch.setattr(type(get_domain("mini")), "perturb", lambda self, fact, rng, instance=None: fact)
    assert cli(["validate", "perturb", "-d", "mini", "-i", str(instances)]) == 1
    assert "moved the wrong way" in capsys.readouterr().err


def test_a_domain_without_instances_is_an_input_error(mini_plugin, cli, capsys):
    assert cli(["validate", "perturb", "-d", "mini"]) == 2
    assert "no instance with facts" in capsys.readouterr().err


@pytest.mark.parametrize("name", _registered_domains())
def test_perturbations_pass_for_every_registered_domain(name):
    outcome = run_perturbations(get_domain(name), seed=0, max_instances=6)
    assert outcome.instances > 0
    assert {c.kind for c in outcome.checks} >= {"drop", "corrupt", "duplicate"}
    assert not outcome.violations, "\n".join(
        f"{v.instance_id} {v.kind} {v.metric}: expected {v.expected} {v.before} -> {v.after} ({v.detail})\n  {v.text}"
        for v in outcome.violations[:5]
    )


def _installed_plugins() -> list[str]:
    from importlib.metadata import entry_points

    return sorted(ep.name for ep in entry_points(group="factcov"))


@pytest.mark.parametrize("plugin", _installed_plugins())
def test_perturbations_pass_for_the_domains_of_installed_plugins(plugin, monkeypatch):
    from factcov import plugins

    builtin = set(_registered_domains())
    monkeypatch.setenv("FACTCOV_PLUGINS", plugin)
    plugins.reset()
    try:
        plugins.load_plugins()
        added = [name for name in plugins.domains.names() if name not in builtin]
        if not added:
            pytest.skip(f"plugin '{plugin}' registers no domain")
        for name in added:
            outcome = run_perturbations(get_domain(name), seed=0, max_instances=6)
            assert outcome.instances > 0 and not outcome.violations, outcome.violations[:3]
    finally:
        plugins.unregister_plugin(plugin)


def test_a_fact_the_extractor_cannot_read_back_fails_the_baseline_and_is_not_perturbed(mini_plugin):
    domain = get_domain("mini")

    class Mumbling(type(domain)):
        def realize_fact(self, fact, language):
            if fact.type == "colour":
                return f"{fact.key['item']} look {fact.value}."  # the extractor reads "are", not "look"
            return super().realize_fact(fact, language)

    outcome = run_perturbations(Mumbling(), _mini(3))
    baseline = [v for v in outcome.violations if v.kind == "baseline"]
    assert {v.metric for v in baseline} == {"recall"} and len(baseline) == 3
    assert all("colour(item=pears)" in v.detail for v in baseline)
    others = [c for c in outcome.checks if c.kind in ("drop", "corrupt", "duplicate")]
    assert others and not any("colour" in c.detail for c in others)
    assert not [v for v in outcome.violations if v.kind != "baseline"]


def test_a_fact_the_other_facts_state_anyway_is_not_dropped(mini_plugin):
    from factcov.validation.perturb import _implied

    domain = get_domain("mini")
    instance = Instance(id="x", domain="mini", task="count", language="en", facts=[
        Fact(type="count", key={"item": "apples"}, value=3),
        Fact(type="note", key={"item": "apples"}, value="3"),  # "apples note 3." names apples and 3
        Fact(type="count", key={"item": "figs"}, value=4),
    ])
    facts = list(instance.facts)
    assert _implied(domain, facts, 0, instance)
    assert not _implied(domain, facts, 2, instance)
