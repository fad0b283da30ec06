"""The f1 domain as a plugin: contract checks, instances, knowledge, the commands, the demo."""

from __future__ import annotations

import gzip
import json
from collections import Counter
from pathlib import Path

import pytest

from factcov.cli.app import run
from factcov.domains.f1.demo import DEMO_FILE, committed_instances
from factcov.domains.f1.instances import race_instances, split_of
from factcov.domains.f1.source import race
from factcov.evaluate import Evaluator
from factcov.inputs import load_instances
from factcov.model import Fact, Instance
from factcov.plugins import get_domain
from factcov.testing import check_domain


@pytest.fixture(scope="module")
def domain():
    return get_domain("f1")


@pytest.fixture(scope="module")
def bahrain(shared_data: Path) -> list[Instance]:
    return race_instances(race(shared_data / "f1", 2021, 1))


@pytest.mark.parametrize("language", ["en", "es", "pt"])
def test_check_domain_passes(domain, language: str) -> None:
    report = check_domain(domain, languages=[language])
    assert report.instances >= 5 and report.perturbations > 0 and report.languages == {language}


def test_check_domain_on_a_red_flag_race_and_a_wet_race(domain, shared_data: Path) -> None:
    picked = []
    for season, round_ in ((2021, 6), (2021, 16)):
        instances = race_instances(race(shared_data / "f1", season, round_), languages=("pt",))
        per_task: dict[str, Instance] = {}
        for instance in instances:
            per_task.setdefault(instance.task, instance)
        picked.extend(per_task.values())
    assert check_domain(domain, picked).instances == len(picked)


def test_claim_types_have_the_documented_names_keys_and_values(domain) -> None:
    shapes = {ct.name: (ct.key_slots, ct.value_kind, ct.comparator.kind) for ct in domain.claim_types}
    assert shapes["stop_count"] == (("driver",), "int", "exact")
    assert shapes["pit_lap"] == (("driver", "stop"), "int", "exact")
    assert shapes["stint_compound"] == (("driver", "stint"), "str", "exact")
    assert shapes["compound_change"] == (("driver", "stop"), "list", "exact")
    assert shapes["final_position"] == (("driver",), "int", "exact")
    assert shapes["undercut"] == shapes["overcut"] == (("driver", "rival"), "bool", "exact")
    assert shapes["time_gained"] == (("driver", "rival"), "float", "numeric")
    assert shapes["defense"][:2] == (("driver", "attacker"), "int")
    assert shapes["winner"] == ((), "str", "exact")
    assert shapes["neutralization"] == (("kind", "period"), "range", "range")
    for claim_type in domain.claim_types:
        assert set(claim_type.templates) == {"en", "es", "pt"}


def test_instance_ids_tasks_and_languages(bahrain: list[Instance]) -> None:
    ids = [i.id for i in bahrain]
    assert len(ids) == len(set(ids))
    assert "f1:2021:1:undercut:HAM:VER:es" in ids and "f1:2021:1:race_summary:pt" in ids
    assert "f1:2021:1:tyre_strategy:HAM:en" in ids
    # no defense in 2021 Bahrain: no pursuer within 1 s for 5 laps was 0.1 s quicker on its
    # faster half of laps (DEFENSE_PACE_MARGIN_S); the DRS trains are not defenses
    assert {i.task for i in bahrain} == {"tyre_strategy", "undercut", "overcut", "race_summary"}
    assert Counter(i.language for i in bahrain) == {"en": len(ids) // 3, "es": len(ids) // 3, "pt": len(ids) // 3}
    assert {i.split for i in bahrain} == {"train"}
    assert split_of(2024) == "train" and split_of(2025) == "test" and split_of(2026) == "test"


def test_prompts_are_neutral_and_localized(bahrain: list[Instance]) -> None:
    prompts = {i.language: i.prompt for i in bahrain if i.id.startswith("f1:2021:1:undercut:HAM:VER")}
    assert "using only the data" in prompts["en"] and "Lewis Hamilton" in prompts["en"]
    assert "usando solo los datos" in prompts["es"] and "apenas os dados" in prompts["pt"]
    for prompt in prompts.values():
        assert not any(word in prompt.lower() for word in ("words", "sentences", "palabras", "palavras", "brief"))


def test_undercut_instance_facts(bahrain: list[Instance]) -> None:
    instance = next(i for i in bahrain if i.id == "f1:2021:1:undercut:HAM:VER:en")
    facts = {f.id: f.value for f in instance.facts}
    assert facts["undercut(driver=HAM,rival=VER)"] is True
    assert facts["pit_lap(driver=HAM,stop=1)"] == 13 and facts["pit_lap(driver=VER,stop=1)"] == 17
    assert facts["time_gained(driver=HAM,rival=VER)"] > 0
    focus = instance.context["focus"]
    assert focus["move"]["worked"] is True and focus["laps"][0]["lap"] <= 12


def test_knowledge_covers_every_driver_of_the_race(domain, bahrain: list[Instance]) -> None:
    instance = next(i for i in bahrain if i.id == "f1:2021:1:tyre_strategy:HAM:en")
    knowledge = domain.knowledge(instance)
    drivers = {f.key["driver"] for f in knowledge.facts("stop_count")}
    # every car that completed a lap: Mazepin crashed out on lap 1, before completing one
    assert len(drivers) == 19 and "MAZ" not in drivers and len(knowledge) > len(instance.facts)
    assert any(f.id == "winner()" and f.value == "HAM" for f in knowledge.facts("winner"))
    assert {f.value[0] for f in knowledge.facts("neutralization")} == {1, 4}


def test_perturbed_compound_change_and_winner_are_wrong(domain) -> None:
    import random

    rng = random.Random(0)
    change = Fact(type="compound_change", key={"driver": "HAM", "stop": 2}, value=["HARD", "HARD"])
    assert domain.perturb(change, rng).value != ["HARD", "HARD"]
    winner = Fact(type="winner", key={}, value="HAM")
    assert domain.perturb(winner, rng).value != "HAM"


def test_f1_build_and_stats_commands(shared_data: Path, tmp_path: Path, domain, capsys) -> None:
    out = tmp_path / "bahrain.jsonl.gz"
    code = run([
        "f1", "build", "--laps", str(shared_data / "f1" / "laps" / "2021.csv.gz"),
        "--ergast", str(shared_data / "f1" / "ergast"), "--rounds", "1", "--languages", "en,pt",
        "--out", str(out), "--quiet",
    ])
    assert code == 0
    with gzip.open(out, "rt", encoding="utf-8") as handle:
        lines = [json.loads(line) for line in handle]
    assert lines[0] == {"factcov_instances": 2} and sum("block" in r for r in lines) == 1  # one race, one block
    rows = [r for r in lines if "id" in r]
    assert {r["language"] for r in rows} == {"en", "pt"} and all(r["id"].startswith("f1:2021:1:") for r in rows)
    assert len(load_instances(out, domain)) == len(rows)
    capsys.readouterr()
    assert run(["f1", "stats", str(out)]) == 0
    printed = capsys.readouterr().out
    assert f"{len(rows)} instances from 1 races" in printed and "tyre_strategy" in printed


def test_f1_build_rejects_bad_input(shared_data: Path, tmp_path: Path, capsys) -> None:
    broken = tmp_path / "2021.csv"
    broken.write_text("Driver,LapNumber\nHAM,1\n", encoding="utf-8")
    code = run(["f1", "build", "--laps", str(broken), "--ergast", str(shared_data / "f1" / "ergast"),
                "--out", str(tmp_path / "x.jsonl"), "--quiet"])
    assert code == 2
    error = capsys.readouterr().err
    assert "2021.csv" in error and "Team" in error
    assert not (tmp_path / "x.jsonl").exists()
    code = run(["f1", "build", "--laps", str(shared_data / "f1" / "laps" / "2021.csv.gz"),
                "--ergast", str(shared_data / "f1" / "ergast"), "--languages", "fr",
                "--out", str(tmp_path / "y.jsonl"), "--quiet"])
    assert code == 2


def test_committed_demo_file_is_what_the_builder_makes(shared_data: Path) -> None:
    from factcov.domains.f1.demo import build_demo_instances

    committed = committed_instances()
    rebuilt = build_demo_instances(shared_data / "f1")
    assert [i.model_dump() for i in committed] == [i.model_dump() for i in rebuilt]
    assert DEMO_FILE.stat().st_size < 200_000
    assert (DEMO_FILE.parent / "DEMO_DATA.md").is_file()


def test_demo_precision_ranking_and_f1_ranking_disagree(domain) -> None:
    instances = committed_instances(per_task=2)
    generations = domain.demo_generations(instances)
    by_id = {i.id: i for i in instances}
    results = Evaluator(domain).evaluate([(by_id[g.instance_id], g) for g in generations])
    totals: dict[str, list[float]] = {}
    for result in results:
        metrics = result.score.metrics(Evaluator(domain).policy)
        totals.setdefault(result.generation.system, []).append(metrics)
    mean = {
        system: {k: sum(m[k] for m in ms if m[k] is not None) / len(ms) for k in ("precision", "f1")}
        for system, ms in totals.items()
    }
    assert mean["terse"]["precision"] > mean["verbose"]["precision"]
    assert mean["verbose"]["f1"] > mean["terse"]["f1"]
    assert mean["complete"]["f1"] == pytest.approx(1.0)
    # F1Domain.demo_noise adds to the default noise an undercut the race does not hold
    unverifiable = {(v.claim.type, r.generation.system) for r in results for v in r.verdicts if v.label == "unverifiable"}
    assert ("undercut", "verbose") in unverifiable
    assert {system for _, system in unverifiable} == {"verbose"}


def test_demo_reads_the_committed_file_without_shared_data(domain, monkeypatch) -> None:
    import factcov.domains.f1.source as source

    monkeypatch.setattr(source, "shared_f1_dir", lambda: None)
    instances = domain.demo_instances()
    assert [i.id for i in instances] == [i.id for i in committed_instances()]
    assert {i.split for i in instances} == {"train", "test"}  # 2021 races and 2025 Australia
    systems = Counter(g.system for g in domain.demo_generations(instances))
    assert systems == {"complete": len(instances), "terse": len(instances), "verbose": len(instances)}


@pytest.mark.slow
def test_parallel_build_writes_the_same_file(shared_data: Path, tmp_path: Path) -> None:
    from factcov.domains.f1.build import iter_race_instances, write_instances

    laps, ergast_dir = [shared_data / "f1" / "laps" / "2021.csv.gz"], shared_data / "f1" / "ergast"
    one, two = tmp_path / "one.jsonl", tmp_path / "two.jsonl"
    write_instances(one, iter_race_instances(laps, ergast_dir, rounds=[1, 2, 3], languages=["es"]))
    write_instances(two, iter_race_instances(laps, ergast_dir, rounds=[1, 2, 3], languages=["es"], jobs=2))
    assert one.read_bytes() == two.read_bytes() and one.stat().st_size > 0


def test_retirement_is_a_fact_of_a_retired_drivers_strategy(domain, shared_data: Path) -> None:
    instances = {i.id: i for i in race_instances(race(shared_data / "f1", 2023, 1))}
    leclerc = instances["f1:2023:1:tyre_strategy:LEC:en"]
    assert Fact(type="retired", key={"driver": "LEC"}, value=True) in leclerc.facts
    assert not [f for f in leclerc.facts if f.type == "final_position"]
    verstappen = instances["f1:2023:1:tyre_strategy:VER:en"]
    assert not [f for f in verstappen.facts if f.type == "retired"]  # finishing is told by the position
    assert check_domain(domain, [instances[f"f1:2023:1:tyre_strategy:LEC:{lang}"] for lang in ("en", "es", "pt")])
    evaluator = Evaluator(domain)
    texts = {
        "en": "Leclerc retired with an engine failure, while Verstappen took the chequered flag. Alonso retired too.",
        "es": "Leclerc abandonó por un fallo de motor, mientras Verstappen vio la bandera a cuadros. Alonso abandonó.",
        "pt": "Leclerc abandonou com o motor quebrado, enquanto Verstappen recebeu a bandeirada. Alonso abandonou.",
    }
    for language, text in texts.items():
        result = evaluator.evaluate_text(instances[f"f1:2023:1:tyre_strategy:LEC:{language}"], text)
        labels = {(v.claim.key["driver"], v.claim.value, v.label) for v in result.verdicts}
        assert labels == {("LEC", True, "supported"), ("VER", False, "supported"), ("ALO", True, "contradicted")}
