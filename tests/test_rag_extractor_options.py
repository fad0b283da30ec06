"""`-X key=value` for the rag extractors: the [rag] parser settings, typed, checked, unsigned."""

import json

import pandas as pd
import pytest

from factcov.cli.app import run
from factcov.domains.rag.extractors import RagSpacyExtractor, RagStanzaExtractor
from factcov.errors import InputError, UnknownNameError


def test_the_spacy_options_are_typed():
    assert RagSpacyExtractor.parse_options({"batch_size": "64", "n_process": "2", "model": "en_core_web_sm"}) == {
        "batch_size": 64, "n_process": 2, "model": "en_core_web_sm"}
    assert RagStanzaExtractor.parse_options({"model_dir": "/models/stanza"}) == {"model_dir": "/models/stanza"}


@pytest.mark.parametrize("raw, message", [
    ({"batch_size": "many"}, "-X batch_size expects int, got 'many'"),
    ({"batch_size": "0"}, "-X batch_size expects a whole number of 1 or more, got '0'"),
    ({"n_process": "-2"}, "-X n_process expects a whole number of 1 or more, got '-2'"),
])
def test_a_bad_value_is_refused(raw, message):
    with pytest.raises(InputError, match=message):
        RagSpacyExtractor.parse_options(raw)


def test_an_undeclared_option_lists_the_declared_ones():
    with pytest.raises(UnknownNameError, match="available: batch_size, checker, checker_cache, checker_model, "
                                               "checker_timeout, checker_url, model, n_process"):
        RagSpacyExtractor.parse_options({"aliases": "x"})  # a table: factcov.toml's [rag], not -X


def test_options_given_go_on_top_of_the_configured_ones_and_stay_unsigned():
    from factcov.domains.rag.domain import RagDomain
    from factcov.evaluate import Evaluator

    domain = RagDomain().configure({"aliases": {"Big Apple": "New York"}, "batch_size": 32})
    plain = Evaluator(domain)
    given = Evaluator(domain, extractor_options={"batch_size": 8, "n_process": 1})
    assert given.extractor_options["aliases"] == plain.extractor_options["aliases"]  # kept, not replaced
    assert (plain.extractor_options["batch_size"], given.extractor_options["batch_size"]) == (32, 8)
    # speed only, or named by the extractor's own signature (the resolved model): same signature
    assert given.signature() == plain.signature() and "{" not in plain.signature().split("|extractor:")[1]


@pytest.fixture
def museum_files(repo_root, tmp_path):
    from factcov.domains.rag.inputs import iter_answers
    from factcov.domains.rag.scoring import iter_pairs
    from factcov.jsonl import write_jsonl_atomic
    from factcov.plugins import get_extractor

    answers = repo_root / "domains" / "rag" / "museum.jsonl"
    pairs = list(iter_pairs(iter_answers(answers), get_extractor("rag-spacy", "en")))
    write_jsonl_atomic(tmp_path / "instances.jsonl", [i for i, _ in pairs])
    write_jsonl_atomic(tmp_path / "generations.jsonl", [g for _, g in pairs])
    return ["-i", str(tmp_path / "instances.jsonl"), "-g", str(tmp_path / "generations.jsonl")]


def test_score_takes_the_options_with_the_same_results(museum_files, tmp_path):
    assert run(["score", "-d", "rag", *museum_files, "-o", str(tmp_path / "a"), "-q", "--no-report"]) == 0
    assert run(["score", "-d", "rag", *museum_files, "-o", str(tmp_path / "b"), "-q", "--no-report",
                "-X", "batch_size=2", "-X", "n_process=1"]) == 0
    a, b = (pd.read_parquet(tmp_path / d / "scores.parquet") for d in ("a", "b"))
    pd.testing.assert_frame_equal(a, b)
    signatures = {json.loads((tmp_path / d / "summary.json").read_text())["signature"] for d in ("a", "b")}
    assert len(signatures) == 1


@pytest.mark.parametrize("pair", ["batch_size=0", "batch_size=big", "n_procs=2"])
def test_score_refuses_a_bad_option_in_one_line_with_exit_2(museum_files, tmp_path, capsys, pair):
    assert run(["score", "-d", "rag", *museum_files, "-o", str(tmp_path / "out"), "-q", "-X", pair]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and ("-X" in err or "option of extractor 'rag-spacy'" in err)
    assert not (tmp_path / "out").exists()
