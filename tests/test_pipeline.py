"""One pipeline for every domain: factcov.toml's [score] table, the extra-metrics hook."""

from __future__ import annotations

import json

import pandas as pd
import pytest

from factcov.cli.app import run
from factcov.domain import Domain
from factcov.runner import score_files


@pytest.fixture(scope="module")
def weather_demo(tmp_path_factory):
    base = tmp_path_factory.mktemp("weather")
    assert run(["demo", "weather", "-o", str(base), "-q"]) == 0
    return base / "weather"


def score(demo, out, *extra):
    return run(["score", "-d", "weather", "-i", str(demo / "instances.jsonl"), "-g",
                str(demo / "generations.jsonl"), "-o", str(out), "-q", "--no-report", *extra])


def test_the_score_table_of_factcov_toml_sets_policy_and_gates(weather_demo, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "factcov.toml").write_text('[score]\naverage = "micro"\nbootstrap = 10\nfail_under = { recall = 0.5 }\n')
    assert score(weather_demo, "out") == 1  # the terse system covers a fifth of the facts
    err = capsys.readouterr().err
    assert "terse: recall" in err and "(below: " in err
    summary = json.loads((tmp_path / "out" / "summary.json").read_text())
    assert summary["policy"]["average"] == "micro" and summary["policy"]["bootstrap_samples"] == 10
    assert score(weather_demo, "out2", "--fail-under", "recall=0.1", "--average", "macro") == 0  # options win
    assert json.loads((tmp_path / "out2" / "summary.json").read_text())["policy"]["average"] == "macro"


def test_a_bad_score_table_names_the_field(weather_demo, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "factcov.toml").write_text('[score]\nbootstrap = -1\n')
    assert score(weather_demo, "out") == 2
    assert "score.bootstrap" in capsys.readouterr().err


def test_an_unknown_average_is_a_usage_error(weather_demo, tmp_path):
    assert score(weather_demo, tmp_path / "o", "--average", "median") == 2


def test_weighted_f1_gate_reads_the_weighted_column(weather_demo, tmp_path):
    assert score(weather_demo, tmp_path / "o", "--fail-under", "weighted_f1=0.3") == 0
    assert score(weather_demo, tmp_path / "o", "--fail-under", "weighted_f1=0.99") == 1


def test_a_domain_hook_adds_metric_columns_and_system_means(weather_demo, tmp_path):
    """Any domain gets the hook: here weather with a 'length' metric, undefined for empty texts."""
    from factcov.domains.weather.domain import WeatherDomain

    class Measured(WeatherDomain):
        metrics = ("words",)
        lists = ("first_word",)

        def extra_metrics(self, results, extractor, policy):
            assert extractor.name == "weather-regex" and results
            return [{"words": float(len(r.generation.text.split())) or None,
                     "first_word": r.generation.text.split()[:1]} for r in results]

    outcome = score_files(Measured(), weather_demo / "instances.jsonl", weather_demo / "generations.jsonl",
                          tmp_path / "o", report=False, chunk_size=7)
    scores = pd.read_parquet(tmp_path / "o" / "scores.parquet")
    assert scores["words"].dtype == "float64"
    assert scores["words"].tolist() == [float(len(t.split())) for t in scores["text"]]
    assert [list(v) for v in scores["first_word"]] == [t.split()[:1] for t in scores["text"]]
    for row in outcome.summary["systems"]:
        mine = scores[scores["system"] == row["system"]]
        assert row["words"] == pytest.approx(mine["words"].mean())
        assert row["n_words_defined"] == len(mine)
    assert outcome.summary["metrics"] == ["words"] and outcome.summary["lists"] == ["first_word"]


def test_a_hook_returning_a_non_number_is_refused(weather_demo, tmp_path):
    from factcov.domains.weather.domain import WeatherDomain

    class Broken(WeatherDomain):
        metrics = ("words",)

        def extra_metrics(self, results, extractor, policy):
            return [{"words": "many"} for _ in results]

    with pytest.raises(TypeError, match="expected a number"):
        score_files(Broken(), weather_demo / "instances.jsonl", weather_demo / "generations.jsonl",
                    tmp_path / "o", report=False)
    assert not (tmp_path / "o" / "scores.parquet").exists()


def test_the_base_domain_adds_no_metrics():
    assert Domain.metrics == () and Domain.lists == () and Domain.type_weights == {}


def test_generation_id_and_meta_pass_through_to_both_tables(weather_demo, tmp_path):
    from factcov.jsonl import iter_models
    from factcov.model import Generation

    rows = [g for _, g in iter_models(weather_demo / "generations.jsonl", Generation)]
    labelled = tmp_path / "generations.jsonl"
    from factcov.jsonl import write_jsonl_atomic

    write_jsonl_atomic(labelled, [
        g.model_copy(update={"id": f"g{i}", "meta": {"annotator": "ana", "score": i % 5, "tags": ["a"]}})
        for i, g in enumerate(rows)
    ])
    score_files("weather", weather_demo / "instances.jsonl", labelled, tmp_path / "o", report=False)
    scores = pd.read_parquet(tmp_path / "o" / "scores.parquet")
    # rows come in the canonical order (instances file, system by name, line): each keeps its id
    written = {f"g{i}": (g.instance_id, g.system) for i, g in enumerate(rows)}
    assert sorted(scores["generation_id"]) == sorted(written)
    assert [written[g] for g in scores["generation_id"]] == list(zip(scores["instance_id"], scores["system"]))
    third = scores.index[scores["generation_id"] == "g3"][0]
    assert json.loads(scores["meta"][third]) == {"annotator": "ana", "score": 3, "tags": ["a"]}
    claims = pd.read_parquet(tmp_path / "o" / "claims.parquet")
    joined = claims.merge(scores[["instance_id", "system", "generation_id"]], on=["instance_id", "system"])
    assert (joined["generation_id_x"] == joined["generation_id_y"]).all() and len(joined) == len(claims)


def test_claim_values_and_missed_facts_are_typed_columns(weather_demo, tmp_path):
    score_files("weather", weather_demo / "instances.jsonl", weather_demo / "generations.jsonl", tmp_path / "o",
                report=False)
    claims = pd.read_parquet(tmp_path / "o" / "claims.parquet")
    values = claims["value"].map(json.loads)
    numeric = values.map(lambda v: isinstance(v, (int, float)) and not isinstance(v, bool))
    assert numeric.any() and (claims.loc[numeric, "value_number"] == values[numeric].astype(float)).all()
    assert claims.loc[~numeric, "value_number"].isna().all()
    text = values.map(lambda v: isinstance(v, str))
    assert text.any() and (claims.loc[text, "value_text"] == values[text]).all()
    scores = pd.read_parquet(tmp_path / "o" / "scores.parquet")
    for missed, ids in zip(scores["missed"], scores["missed_ids"]):
        assert [m["id"] for m in json.loads(missed)] == list(ids)
    assert scores["generation_id"].isna().all() and scores["meta"].isna().all()


@pytest.mark.parametrize(("toml", "message"), [
    ("score = 5\n", "'score' must be a table"),
    ("[scor]\nseed = 1\n", "unknown table(s) scor"),
    (b"[score]\nseed = '\xe9'\n", "not UTF-8"),
    ("[score\n", "not valid TOML"),
])
def test_a_bad_factcov_toml_names_the_file(weather_demo, tmp_path, monkeypatch, capsys, toml, message):
    config = tmp_path / "factcov.toml"
    config.write_bytes(toml if isinstance(toml, bytes) else toml.encode())
    monkeypatch.chdir(tmp_path)
    assert score(weather_demo, "out") == 2
    err = capsys.readouterr().err
    assert message in err and "factcov.toml" in err
