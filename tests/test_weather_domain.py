"""The weather domain end to end: oracle, contract checks, NWS scored as a system, build, demo."""

from __future__ import annotations

import json

import pytest

from factcov.domains.weather.instances import instances_of
from factcov.domains.weather.nws_scoring import NWSScorer
from factcov.domains.weather.oracle import knowledge_facts, relevant_facts, sky_from_icon
from factcov.domains.weather.periods import iter_file_periods
from factcov.evaluate import Evaluator
from factcov.plugins import get_domain
from factcov.testing import check_domain


@pytest.fixture(scope="module")
def domain():
    return get_domain("weather")


def _period(shared_data, name: str, number: int):
    path = shared_data / "weather" / "forecasts" / f"{name}.forecast.json"
    return next(p for p in iter_file_periods(path) if p.number == number)


def test_oracle_reads_every_fact_of_a_period(shared_data):
    period = _period(shared_data, "e2e__BMX_59-84", 3)  # "Chance Light Snow then Cloudy", N 10 to 15 mph, 40%
    facts = {(f.type, tuple(sorted(f.key.items())), json.dumps(f.value)) for f in relevant_facts(period)}
    assert facts == {
        ("temperature", (("kind", "high"),), "30"),
        ("sky", (), '"cloudy"'),
        ("condition", (("qualifier", "chance"), ("weather", "snow")), '"snow"'),
        ("wind_direction", (), '"N"'),
        ("wind_speed", (), "[10, 15]"),
        ("precip_chance", (), "40"),
    }


def test_a_low_chance_of_precipitation_is_checkable_but_not_required(shared_data):
    period = next(p for p in iter_file_periods(shared_data / "weather" / "nws_forecast_responses_sample.jsonl.gz")
                  if p.precip_chance is not None and p.precip_chance < 15)
    assert not [f for f in relevant_facts(period) if f.type == "precip_chance"]
    assert [f.value for f in knowledge_facts(period) if f.type == "precip_chance"] == [period.precip_chance]


def test_sky_falls_back_to_the_icon():
    assert sky_from_icon("https://api.weather.gov/icons/land/day/snow,40/ovc?size=medium") == "cloudy"
    assert sky_from_icon("/icons/land/night/rain_showers,30/sct?size=medium") == "partly_cloudy"
    assert sky_from_icon("/icons/land/day/tsra,40?size=medium") is None


def test_an_icon_sky_accepts_its_neighbour_levels_but_not_further(shared_data, domain):
    """NWS writes "Sunny" under a 'few' icon: the icon is one hour, the text the period."""
    from factcov.domains.weather.oracle import icon_sky_levels

    assert icon_sky_levels("/icons/land/day/few?size=medium") == ["mostly_clear", "clear", "partly_cloudy"]
    period = next(p for p in iter_file_periods(shared_data / "weather" / "nws_forecast_responses_sample.jsonl.gz")
                  if p.short_forecast == "Patchy Blowing Dust" and "/few" in (p.icon or ""))
    instance = next(instances_of(period, ["en"]))
    evaluator = Evaluator(domain)
    assert [v.label for v in evaluator.evaluate_text(instance, "Sunny.").verdicts] == ["supported"]
    assert [v.label for v in evaluator.evaluate_text(instance, "Mostly cloudy.").verdicts] == ["contradicted"]


@pytest.mark.parametrize("language", ["en", "es", "pt"])
def test_check_domain_passes(domain, language):
    report = check_domain(domain, languages=[language])
    assert report.instances >= 10 and report.perturbations >= 10


def test_hand_edited_temperature_surfaces_as_a_contradiction(shared_data):
    """e2e__BMX_59-84 period 2: the field says 31, the text 'low around 27'."""
    period = _period(shared_data, "e2e__BMX_59-84", 2)
    verdicts, score = NWSScorer().score(period)
    contradicted = [(v.claim.type, v.claim.value, v.expected) for v in verdicts if v.label == "contradicted"]
    assert ("temperature", 27, 31) in contradicted
    assert "temperature(kind=low)" in score.missed_ids


def test_nws_text_of_a_clean_period_is_fully_supported_apart_from_grid_facts(shared_data):
    period = _period(shared_data, "e2e__BMX_59-84", 3)
    verdicts, score = NWSScorer().score(period)
    labels = {v.claim.type: v.label for v in verdicts}
    assert score.total.contradicted == 0 and score.total.covered == score.total.n_facts
    assert labels["wind_gust"] == labels["timing"] == labels["precip_amount"] == "unverifiable"


def test_nws_texts_of_all_forecast_files_score_between_terse_and_perfect(shared_data):
    from factcov.domains.weather.periods import iter_periods

    report = NWSScorer().run(iter_periods([shared_data / "weather" / "forecasts"]))
    summary = report.summary(NWSScorer().policy)
    assert report.periods > 250
    assert 0.6 < summary["macro"]["precision"] < 0.95 and 0.7 < summary["macro"]["recall"] < 1.0
    assert summary["counts"]["contradicted"] >= 3


def test_evaluator_on_built_instances_agrees_with_the_streaming_scorer(shared_data, domain):
    """NWS text is English: for an es instance the generation says language=en."""
    from factcov.model import Generation

    period = _period(shared_data, "testing__SEW_96-55", 4)
    _, streamed = NWSScorer().score(period)
    for instance in instances_of(period):
        generation = Generation(instance_id=instance.id, system="nws", text=period.detailed_forecast, language="en")
        result = Evaluator(domain).evaluate([(instance, generation)])[0]
        assert result.language == "en"
        assert result.score.total == streamed.total


def test_instance_ids_and_prompts(shared_data):
    period = _period(shared_data, "e2e__BMX_59-84", 2)
    ids = [i.id for i in instances_of(period)]
    assert ids == [f"weather:e2e__BMX_59-84:2:{lang}" for lang in ("en", "es", "pt")]
    instance = next(instances_of(period))
    assert "detailedForecast" not in instance.context and period.detailed_forecast not in instance.prompt


def test_demo_ranks_by_precision_and_by_f1_disagree(domain):
    from factcov.evaluate import Evaluator

    instances = domain.demo_instances()
    generations = domain.demo_generations(instances)
    by_id = {i.id: i for i in instances}
    results = Evaluator(domain).evaluate([(by_id[g.instance_id], g) for g in generations])
    means: dict[str, dict[str, list[float]]] = {}
    for result in results:
        metrics = result.score.metrics(Evaluator(domain).policy)
        for name in ("precision", "f1"):
            if metrics[name] is not None:
                means.setdefault(result.generation.system, {}).setdefault(name, []).append(metrics[name])
    score = {s: {m: sum(v) / len(v) for m, v in d.items()} for s, d in means.items()}
    assert set(score) == {"nws", "terse", "realizer"}
    assert score["terse"]["precision"] > score["nws"]["precision"]
    assert score["terse"]["f1"] < score["nws"]["f1"]


def test_the_example_in_the_weather_docs_runs(repo_root, monkeypatch):
    """docs/domains/weather.md's example is executed, so it cannot rot."""
    doc = (repo_root / "docs" / "domains" / "weather.md").read_text()
    code = doc.split("```python\n", 1)[1].split("```", 1)[0]
    monkeypatch.chdir(repo_root)
    exec(compile(code, "docs/domains/weather.md", "exec"), {})


@pytest.mark.parametrize("language", ["en", "es", "pt"])
def test_realized_text_of_every_forecast_file_period_reads_back_exactly(shared_data, domain, language):
    from factcov.domains.weather.periods import iter_periods
    from factcov.model import Generation

    pairs = []
    for period in iter_periods([shared_data / "weather" / "forecasts"]):
        instance = next(instances_of(period, [language]))
        text = domain.realize(list(instance.facts), language, instance)
        pairs.append((instance, Generation(instance_id=instance.id, system="realizer", text=text)))
    results = Evaluator(domain).evaluate(pairs)
    imperfect = [(r.instance.id, r.generation.text) for r in results
                 if r.score.total.covered != r.score.total.n_facts or r.score.total.supported != r.score.total.n_claims]
    assert len(results) == 298 and imperfect == []
