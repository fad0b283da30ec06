"""`factcov validate agreement`: two scorings of the same generations, side by side."""

from __future__ import annotations

import json
import types

import pytest

from factcov import hookimpl
from factcov.errors import InputError
from factcov.plugins import register_plugin, unregister_plugin
from factcov.statistics import pearson
from factcov.validation.agreement import compare_scorings
from tests.mini_domain import MiniExtractor
from tests.test_compare import make_mini_run, mini_generations


class ColourBlindExtractor(MiniExtractor):
    """Reads everything the mini extractor reads except colours: a second, weaker backend."""

    name = "mini-colourblind"
    description = "mini extractor that misses colour claims"

    def extract(self, text, instance):
        return [c for c in super().extract(text, instance) if c.type != "colour"]


@pytest.fixture
def colourblind(mini_plugin):
    plugin = types.SimpleNamespace(register_extractors=hookimpl(lambda register: register(ColourBlindExtractor)))
    register_plugin(plugin, "colourblind")
    try:
        yield
    finally:
        unregister_plugin("colourblind")


def score_twice(tmp_path, generations=None):
    a = make_mini_run(tmp_path, "regex", generations=generations)
    b = make_mini_run(tmp_path, "colourblind", generations=generations, extractor="mini-colourblind")
    return a, b


@pytest.fixture
def two_runs(tmp_path, colourblind):
    return score_twice(tmp_path)


def test_pearson_is_undefined_without_variation():
    assert pearson([1, 2, 3], [2, 4, 6]) == pytest.approx(1.0)
    assert pearson([1, 1, 1], [1, 2, 3]) is None


@pytest.mark.slow
def test_a_scoring_agrees_perfectly_with_itself(two_runs):
    a, _ = two_runs
    result = compare_scorings(a, a)
    assert result["instance_pearson"]["f1"] == pytest.approx(1.0)
    assert result["system_spearman"]["f1"] == pytest.approx(1.0)
    assert result["disagreements"] == []


@pytest.mark.slow
def test_a_colour_blind_extractor_disagrees_on_colour_claims_only(two_runs):
    a, b = two_runs
    result = compare_scorings(a, b, metric="precision", top=3)
    assert result["n_generations"] == len(mini_generations())
    by_type = {row["type"]: row for row in result["by_type"]}
    assert by_type["colour"]["claims_b"] == 0 < by_type["colour"]["claims_a"]
    assert by_type["count"]["claims_a"] == by_type["count"]["claims_b"]
    assert by_type["count"]["claims_pearson"] == pytest.approx(1.0)
    # 'figs: 2. pears are green.' is half right for one extractor and all wrong for the
    # other (it misses the true colour): the largest disagreement, precision 0.5 vs 0.
    worst = result["disagreements"]
    assert len(worst) == 3 and all(row["system"] == "hostile" for row in worst)
    assert all((row["a"], row["b"]) == (0.5, 0.0) for row in worst)
    assert result["instance_pearson"]["recall"] < 1


@pytest.mark.slow
def test_agreement_command_prints_tables_and_json(two_runs, cli_app, capsys):
    a, b = two_runs
    assert cli_app(["validate", "agreement", str(a), str(b)]) == 0
    out = capsys.readouterr().out
    assert "largest disagreements" in out and "mini-colourblind" in out
    assert cli_app(["validate", "agreement", str(a), str(b), "--json", "--metric", "recall"]) == 0
    assert json.loads(capsys.readouterr().out)["metric"] == "recall"


@pytest.mark.slow
def test_runs_without_shared_generations_are_an_input_error(tmp_path, mini_plugin):
    a = make_mini_run(tmp_path, "a", generations=[g for g in mini_generations() if g["system"] == "terse"])
    b = make_mini_run(tmp_path, "b", generations=[g for g in mini_generations() if g["system"] == "complete"])
    with pytest.raises(InputError, match="share no"):
        compare_scorings(a, b)


@pytest.fixture
def cli_app():
    from factcov.cli.app import run

    return run


@pytest.mark.slow
def test_two_policies_on_real_forecasts_agree_on_recall_and_differ_on_precision(tmp_path, cli_app):
    assert cli_app(["demo", "weather", "-o", str(tmp_path / "demo"), "-q"]) == 0
    demo = tmp_path / "demo" / "weather"
    ignore = tmp_path / "ignore"
    assert cli_app(["score", "-d", "weather", "-i", str(demo / "instances.jsonl"), "-g",
                    str(demo / "generations.jsonl"), "-o", str(ignore), "--unverifiable", "ignore", "-q",
                    "--no-report"]) == 0
    result = compare_scorings(demo, ignore, metric="precision", top=5)
    assert result["n_generations"] == 144 and result["only_in_a"] == result["only_in_b"] == 0
    # The policy decides only whether unverifiable claims count against precision.
    assert result["instance_pearson"]["recall"] == pytest.approx(1.0)
    assert all(row["claims_a"] == row["claims_b"] for row in result["by_type"])
    worst = result["disagreements"]
    assert worst and all(row["b"] > row["a"] for row in worst)
    assert all(row["system"] == "nws" for row in worst)  # NWS's own texts say things the oracle cannot check


@pytest.mark.slow
def test_texts_and_names_that_look_like_markup_are_printed_as_they_are(tmp_path, colourblind, cli_app, capsys):
    generations = [{"instance_id": "m1", "system": "[bold]odd[/bold]", "text": "[/] pears are red. apples: 3."}]
    a, b = score_twice(tmp_path, generations)
    assert cli_app(["validate", "agreement", str(a), str(b)]) == 0
    out = capsys.readouterr().out
    assert "[bold]odd[/bold]" in out and "[/] pears are red." in out
