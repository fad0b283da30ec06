"""The rag domain honours the core contract and its demo separates precision from F1."""

from factcov.evaluate import Evaluator
from factcov.plugins import get_domain
from factcov.testing import check_domain


def test_rag_passes_the_domain_contract():
    report = check_domain(get_domain("rag"))
    assert report.instances >= 1 and report.perturbations >= 1


def test_realizer_renders_dates_and_amounts_the_extractor_reads_back():
    domain = get_domain("rag")
    (instance,) = domain.example_instances()
    text = domain.realize(instance.facts, "en", instance)
    assert "3 May 2025" in text and "12 euros" in text


def test_demo_systems_rank_differently_by_precision_and_by_f1():
    domain = get_domain("rag")
    instances = domain.demo_instances()
    generations = domain.demo_generations(instances)
    assert len({g.system for g in generations}) >= 4
    evaluator = Evaluator(domain)
    by_id = {i.id: i for i in instances}
    metrics = {r.generation.system: r.score.metrics(evaluator.policy)
               for r in evaluator.evaluate([(by_id[g.instance_id], g) for g in generations])}
    assert metrics["fragment"]["precision"] > metrics["embellished"]["precision"]
    assert metrics["fragment"]["f1"] < metrics["embellished"]["f1"]
