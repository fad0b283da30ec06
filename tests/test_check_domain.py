"""`check_domain`: a clear failure for a claim type it cannot perturb, and hand-written examples."""

from __future__ import annotations

import json

import pytest

from factcov.cli.app import run
from factcov.model import Claim, Fact, Instance
from factcov.plugins import get_domain
from factcov.testing import Example, check_domain


def _mini_instance() -> Instance:
    facts = [Fact(type="count", key={"item": "apples"}, value=3),
             Fact(type="note", key={"item": "apples"}, value="crisp")]
    return Instance(id="m1", domain="mini", task="count", language="en", facts=facts)


def test_a_free_text_type_without_choices_fails_naming_the_type_and_the_fixes(mini_plugin):
    domain = get_domain("mini")
    with pytest.raises(AssertionError) as raised:
        check_domain(domain, [_mini_instance()])
    message = str(raised.value)
    assert "cannot perturb claim type(s) note" in message and "'crisp'" in message
    assert "`choices`" in message and "perturb(self, fact, rng, instance=None)" in message
    assert "skip_perturb=['note']" in message


def test_skip_perturb_leaves_the_type_out_of_the_perturbation_check_only(mini_plugin):
    report = check_domain(get_domain("mini"), [_mini_instance()], skip_perturb=["note"])
    assert report.instances == 1 and report.perturbations == 1  # the count fact only


@pytest.fixture(scope="module")
def hamilton() -> Instance:
    return next(i for i in get_domain("f1").example_instances() if i.id == "f1:2021:1:tyre_strategy:HAM:en")


def test_a_hand_written_example_in_real_phrasing_passes(hamilton):
    example = Example(hamilton, "Lewis pitted on lap 13 for hards; he finished first.", [
        Claim(type="pit_lap", key={"driver": "HAM"}, value=13),
        Claim(type="stint_compound", key={"driver": "HAM"}, value="HARD"),
        Claim(type="final_position", key={"driver": "HAM"}, value=1),
    ])
    report = check_domain(get_domain("f1"), [hamilton], examples=[example])
    assert report.examples == 1


def test_an_example_names_the_claims_missing_and_not_expected(hamilton):
    example = Example(hamilton, "Lewis pitted on lap 13 for hards; he finished first.", [
        Claim(type="pit_lap", key={"driver": "HAM", "stop": 1}, value=13),
        Claim(type="final_position", key={"driver": "HAM"}, value=1),
    ])
    with pytest.raises(AssertionError) as raised:
        check_domain(get_domain("f1"), [], examples=[example])
    message = str(raised.value)
    assert "missing: pit_lap(driver=HAM,stop=1) = 13" in message
    assert 'not expected: pit_lap(driver=HAM) = 13, stint_compound(driver=HAM) = "HARD"' in message


def test_validate_perturb_names_the_types_it_cannot_corrupt(mini_plugin, tmp_path, capsys):
    path = tmp_path / "instances.jsonl"
    path.write_text(_mini_instance().model_dump_json() + "\n", encoding="utf-8")
    run(["validate", "perturb", "-d", "mini", "-i", str(path), "--json"])
    result = json.loads(capsys.readouterr().out)
    assert list(result["unperturbable"]) == ["note"] and "'crisp'" in result["unperturbable"]["note"]
    run(["validate", "perturb", "-d", "mini", "-i", str(path)])
    assert "not corrupted (override Domain.perturb or give the claim type choices): note" in capsys.readouterr().out
