"""One contract checker: check_domain runs validate perturb's checks; 0.1-style perturb still works."""

from __future__ import annotations

import random

import pytest

from factcov.model import Fact, Instance
from factcov.plugins import get_domain
from factcov.testing import check_domain
from factcov.validation.perturb import run_perturbations
from tests.test_compare import mini_instances


def _mini(count: int = 4) -> list[Instance]:
    return [Instance.model_validate(row) for row in mini_instances(count)]


def test_check_domain_runs_the_validate_perturb_checks(mini_plugin):
    instances = _mini(3)
    report = check_domain(get_domain("mini"), instances)
    assert report.checks == len(run_perturbations(get_domain("mini"), instances, max_instances=3).checks) > 0


def test_check_domain_fails_on_a_perturbation_only_validate_perturb_makes(mini_plugin):
    """A realizer that adds a remark the data does not know whenever a text does not start
    with the instance's first fact: the realized text, corrupted texts and prefixes that
    check_domain's own checks write all start with it, so only the shared perturbations
    (random drops, repeated facts) catch it, and check_domain must report them."""
    domain = get_domain("mini")

    class Echo(type(domain)):
        def realize(self, facts, language, instance=None):
            text = super().realize(facts, language, instance)
            if facts and instance is not None and facts[0] != instance.facts[0]:
                text += " apples note echo."
            return text

    instances = _mini(3)
    outcome = run_perturbations(Echo(), instances, max_instances=3)
    assert outcome.violations and {v.metric for v in outcome.violations} == {"precision"}
    with pytest.raises(AssertionError, match="validate perturb: "):
        check_domain(Echo(), instances)


def test_a_perturb_written_for_0_1_warns_once_and_still_works(mini_plugin):
    domain = get_domain("mini")
    with pytest.warns(DeprecationWarning, match=r"perturb\(fact, rng\) is deprecated"):
        class Legacy(type(domain)):
            def perturb(self, fact: Fact, rng: random.Random) -> Fact:  # the 0.1 signature
                return super().perturb(fact, rng)

    instances = _mini(2)
    fact = instances[0].facts[0]
    assert Legacy().perturb(fact, random.Random(0), instances[0]).value != fact.value
    assert check_domain(Legacy(), instances).checks > 0
    assert not run_perturbations(Legacy(), instances).violations


def test_built_in_domains_take_the_instance():
    import inspect

    for name in ("f1", "weather", "rag"):
        assert "instance" in inspect.signature(type(get_domain(name)).perturb).parameters


def test_a_domain_with_examples_gets_a_demo_with_the_reversal(mini_plugin, tmp_path):
    from factcov.demo import run_demo

    class WithExamples(type(get_domain("mini"))):
        def example_instances(self):
            return _mini(6)

    outcome = run_demo(WithExamples(), tmp_path / "demo")
    systems = {row["system"]: row for row in outcome.summary["systems"]}
    assert set(systems) == {"complete", "terse", "noisy"}
    assert systems["terse"]["precision"] == systems["complete"]["precision"] == 1.0 > systems["noisy"]["precision"]
    assert outcome.summary["rankings"]["by_f1"][-1] == "terse"
    assert run_demo(WithExamples(), tmp_path / "again").summary == outcome.summary  # seeded: same texts


def test_a_domain_without_instances_has_no_demo(mini_plugin, tmp_path):
    from factcov.demo import run_demo
    from factcov.errors import FactcovError

    with pytest.raises(FactcovError, match="has no demo"):
        run_demo("mini", tmp_path / "demo")
