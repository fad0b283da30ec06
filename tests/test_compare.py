"""`factcov compare`: P/R/F1 with CIs per system, precision rank vs F1 rank, coverage penalty."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from factcov.compare import compare_runs, load_run
from factcov.errors import InputError
from factcov.runner import score_files

HOSTILE = '<script>window.__pwned = 1</script><img src=x onerror="window.__pwned = 2"> apples: 3.'


@pytest.fixture
def cli():
    """The factcov command line in process: ``cli([...])`` returns the exit code."""
    from factcov.cli.app import run

    return run


def mini_instances(n: int = 6) -> list[dict]:
    return [
        {"id": f"m{i}", "domain": "mini", "task": "count" if i % 2 else "colour", "language": "en",
         "facts": [{"type": "count", "key": {"item": "apples"}, "value": 3},
                   {"type": "colour", "key": {"item": "pears"}, "value": "green"},
                   {"type": "count", "key": {"item": "figs"}, "value": i},
                   {"type": "window", "value": [2, 5 + i]}]}
        for i in range(n)
    ]


def mini_generations(n: int = 6) -> list[dict]:
    rows = []
    for i in range(n):
        rows.append({"instance_id": f"m{i}", "system": "terse", "text": "apples: 3."})
        rows.append({"instance_id": f"m{i}", "system": "complete",
                     "text": f"apples: 3. pears are red. figs: {i}. window 2-{5 + i}. kiwis note ripe."})
        rows.append({"instance_id": f"m{i}", "system": "hostile", "text": HOSTILE if i == 0 else f"figs: {i + 1}. pears are green."})
    return rows


def write_jsonl(path: Path, rows: list[dict]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return path


def make_mini_run(tmp: Path, name: str = "run", generations: list[dict] | None = None, **options) -> Path:
    """Score the tiny test domain into ``tmp/name`` (needs the ``mini_plugin`` fixture)."""
    instances = write_jsonl(tmp / f"{name}-instances.jsonl", mini_instances())
    texts = write_jsonl(tmp / f"{name}-generations.jsonl", generations or mini_generations())
    score_files("mini", instances, texts, tmp / name, **options)
    return tmp / name


def test_compare_shows_the_precision_to_f1_reversal_with_intervals(tmp_path, mini_plugin):
    result = compare_runs([make_mini_run(tmp_path)])
    (domain,) = result["domains"]
    systems = {s["system"]: s for s in domain["systems"]}
    assert systems["terse"]["precision"] == 1.0 and systems["terse"]["recall"] == 0.25
    assert systems["terse"]["rank_precision"] == 1 and systems["terse"]["rank_f1"] == 2
    assert systems["complete"]["rank_f1"] == 1 and systems["complete"]["rank_change"] > 0
    low, high = systems["hostile"]["f1_ci"]
    assert low <= systems["hostile"]["f1"] <= high and low < high
    assert domain["ranking"]["by_precision"] == ["terse", "complete", "hostile"]
    assert domain["ranking"]["by_f1"] == ["complete", "terse", "hostile"]
    assert domain["ranking"]["kendall"] == pytest.approx(1 / 3)
    assert systems["terse"]["coverage_penalty"] == pytest.approx(1.0 - 0.4)


def test_runs_of_one_domain_pool_and_clashing_systems_are_named_by_run(tmp_path, mini_plugin):
    a = make_mini_run(tmp_path, "a")
    b = make_mini_run(tmp_path, "b", generations=[g for g in mini_generations() if g["system"] == "terse"])
    (domain,) = compare_runs([a, b])["domains"]
    names = {s["system"] for s in domain["systems"]}
    assert names == {"terse@a", "terse@b", "complete", "hostile"}


def test_differently_scored_runs_are_not_pooled(tmp_path, mini_plugin):
    from factcov.scoring import ScoringPolicy

    a = make_mini_run(tmp_path, "a")
    b = make_mini_run(tmp_path, "b", policy=ScoringPolicy(unverifiable="ignore"))
    with pytest.raises(InputError, match="validate agreement"):
        compare_runs([a, b])


def test_compare_command_prints_tables_and_json(tmp_path, mini_plugin, capsys, cli):
    outdir = make_mini_run(tmp_path)
    assert cli(["compare", str(outdir)]) == 0
    out = capsys.readouterr().out
    assert "by precision: terse" in out and "Kendall tau" in out
    assert cli(["compare", str(outdir), "--json", "--bootstrap", "50"]) == 0
    parsed = json.loads(capsys.readouterr().out)
    assert parsed["domains"][0]["domain"] == "mini"


def test_a_folder_that_is_not_an_outdir_is_an_input_error(tmp_path, capsys, cli):
    (tmp_path / "empty").mkdir()
    with pytest.raises(InputError, match="summary.json"):
        load_run(tmp_path / "empty")
    assert cli(["compare", str(tmp_path / "empty")]) == 2
    assert "summary.json" in capsys.readouterr().err


@pytest.mark.slow
def test_compare_across_domains_relates_the_coverage_penalty_to_facts_per_instance(
    tmp_path, mini_plugin, shared_data
):
    from tests.test_validate_human import score_webnlg_sample

    webnlg = score_webnlg_sample(shared_data, tmp_path / "webnlg", entries=12)
    result = compare_runs([webnlg, make_mini_run(tmp_path)], bootstrap=100)
    assert [d["domain"] for d in result["domains"]] == ["mini", "rag"]
    rag = result["domains"][1]
    assert rag["n_generations"] == 6 * 12 and len(rag["systems"]) == 6
    for system in rag["systems"]:
        low, high = system["f1_ci"]
        assert low <= system["f1"] <= high
        assert system["coverage_penalty"] == pytest.approx(system["precision"] - system["f1"])
    penalty = result["coverage_penalty"]
    assert [d["domain"] for d in penalty["by_domain"]] == ["mini", "rag"]  # sorted by facts per instance
    assert penalty["by_domain"][0]["facts_per_instance"] == 4.0 < penalty["by_domain"][1]["facts_per_instance"]
    assert penalty["spearman_facts_vs_penalty"] is not None and len(penalty["systems"]) == 9
