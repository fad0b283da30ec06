"""The WebNLG validation benchmarks' own measures, on the real human judgments and texts."""

import importlib.util

import pytest


def _load(repo_root, name):
    spec = importlib.util.spec_from_file_location(name, repo_root / "benchmarks" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def correctness(shared_data):
    from factcov.validation.human import load_human_judgments

    judged = load_human_judgments(shared_data / "webnlg2020" / "human" / "english_humeval_data_all_teams.json")
    return judged[judged["criterion"] == "Correctness"]


def test_within_entry_level_keeps_only_the_ranking_inside_each_entry(repo_root, correctness):
    from factcov.validation.human import correlate

    validation = _load(repo_root, "rag_webnlg_validation")
    means = correctness.groupby(["system", "instance_id"], as_index=False)["score"].mean()
    # A "metric" that knows only how hard each input is (people's mean for the entry)
    # ranks pooled segments well and texts of the same input not at all.
    difficulty = means.assign(value=means.groupby("instance_id")["score"].transform("mean"))[
        ["system", "instance_id", "value"]]
    assert correlate(difficulty, correctness, level="segment", n_boot=0)["spearman"] > 0.3
    centred_metric, centred_human = validation.centred(difficulty, correctness)
    assert centred_metric["value"].abs().max() < 1e-9
    assert len(centred_metric) == len(means)
    # People's own score, centred, still agrees with itself within entries.
    own = means.rename(columns={"score": "value"})
    assert correlate(*validation.centred(own, correctness), level="segment", n_boot=0)["spearman"] > 0.99
    entry_sums = centred_human.groupby("instance_id")["score"].sum().abs()
    assert entry_sums.max() < 1e-6


def test_variant_features_flag_repetition_and_unsupported_names_in_real_outputs(repo_root, shared_data):
    from factcov.domains.rag import webnlg
    from factcov.plugins import get_extractor

    variants = _load(repo_root, "rag_headline_variants")
    data = shared_data / "webnlg2020"
    triples = webnlg.load_instances(data / "test-en.xml", [1132])[1132].context["triples"]
    by_system = {g.system: g.text for g in webnlg.load_generations(data / "submissions", [1132])}
    # Two teams' real outputs for entry 1132 (Super Capers): a faithful one, and one that
    # loops on "the distributor of" and names "Roadside Adrakov" and "Super Clematis".
    faithful, looping = (by_system[s] for s in ("Amazon_AI_(Shanghai)", "ORANGE-NLG"))
    assert "The distributor of the distributor of" in looping
    parsed = get_extractor("rag-spacy", "en").parse([faithful, looping])
    good, bad = (variants.features(triples, p) for p in parsed)
    assert good["repeated_trigrams"] == 0.0 < 0.2 < bad["repeated_trigrams"]
    assert good["repeated_content"] == 0.0 < bad["repeated_content"]
    assert good["proper_precision"] == 1.0 > bad["proper_precision"]
    assert good["content_precision"] == 1.0 > bad["content_precision"]


def test_missing_information_labels_follow_the_annotators(repo_root, shared_data):
    import json

    from factcov.validation.human import load_human_judgments

    validation = _load(repo_root, "rag_webnlg_validation")
    human_dir = shared_data / "webnlg2020" / "human"
    averaged = load_human_judgments(human_dir / "english_humeval_data_all_teams.json")
    cuts = validation.missing_information_labels(human_dir, {"bt5", "Baseline-FORGE2017"}, averaged)
    majority = cuts["majority of annotators below 100"].set_index(["system", "instance_id"])["label"]
    raw = json.loads((human_dir / "bt5.json").read_text(encoding="utf-8"))
    checked = 0
    for sample_id, workers in raw.items():
        scores = [w["DataCoverage"] for w in workers.values()]
        expected = "missing" if sum(s < 100 for s in scores) > len(scores) / 2 else "complete"
        assert majority[("bt5", f"webnlg:{sample_id}")] == expected, sample_id
        checked += 1
    assert checked == 178 and set(majority) == {"missing", "complete"}
    below_90 = cuts["mean below 90"]
    assert set(below_90["criterion"]) == {"DataCoverage"} and 0.1 < (below_90["label"] == "missing").mean() < 0.6


def test_naive_match_is_verbatim_and_folded(repo_root):
    validation = _load(repo_root, "rag_webnlg_validation")
    triples = [["Nurhan_Atasoy", "birthDate", "1934-01-01"], ["Nurhan_Atasoy", "nationality", "Turkish_people"]]
    # Folded ("nurhan atasoy"), but the ISO date and "Turkish people" are not verbatim here.
    assert validation.naive_match("nurhan atasoy, a Turk, was born on 1 January 1934.", triples) == 1 / 3
    assert validation.naive_match("Nurhan Atasoy (1934-01-01) is Turkish people.", triples) == 1.0
