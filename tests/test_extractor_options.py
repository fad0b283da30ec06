"""`-X key=value`: extractor options from the command line, checked by the extractor and signed."""

from __future__ import annotations

import json

import pytest

from factcov.cli.app import run
from factcov.errors import InputError, UnknownNameError
from factcov.extractors.llm import LLMExtractor
from tests.mini_domain import MiniExtractor
from tests.test_cli_core import files, score_cli  # noqa: F401  (the fixture)


def test_options_are_typed_by_the_extractor():
    assert MiniExtractor.parse_options({"min_count": "4"}) == {"min_count": 4}
    assert LLMExtractor.parse_options({"timeout": "2.5", "model": "m"}) == {"timeout": 2.5, "model": "m"}


def test_an_undeclared_option_lists_the_declared_ones():
    with pytest.raises(UnknownNameError, match="available: min_count"):
        MiniExtractor.parse_options({"min_cnt": "4"})


def test_a_value_of_the_wrong_type_is_refused():
    with pytest.raises(InputError, match="-X min_count expects int, got 'four'"):
        MiniExtractor.parse_options({"min_count": "four"})


def test_the_llm_extractor_takes_no_api_key_from_the_command_line():
    # options are written into the signature: a secret must come from the environment
    with pytest.raises(UnknownNameError):
        LLMExtractor.parse_options({"api_key": "sk-..."})


@pytest.mark.slow
def test_score_applies_the_option_and_signs_it(files, tmp_path):  # noqa: F811
    assert score_cli(*files, tmp_path / "plain", "--no-report") == 0
    assert score_cli(*files, tmp_path / "opt", "--no-report", "-X", "min_count=4") == 0
    plain = json.loads((tmp_path / "plain" / "summary.json").read_text())
    opt = json.loads((tmp_path / "opt" / "summary.json").read_text())
    assert "extractor:mini-regex|" in plain["signature"]
    assert "extractor:mini-regex{min_count=4}|" in opt["signature"]
    claims = lambda s: {r["system"]: r["n_claims"] for r in s["systems"]}  # noqa: E731
    # "apples: 3." is no longer read: fewer claims for the systems that state it
    assert claims(opt)["terse"] < claims(plain)["terse"]


def test_extract_and_validate_take_the_option(files, tmp_path, capsys):  # noqa: F811
    out = tmp_path / "claims.jsonl"
    assert run(["extract", "-d", "mini", "-i", str(files[0]), "-g", str(files[1]), "-o", str(out),
                "-X", "min_count=4"]) == 0
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert rows and all(r["value"] >= 4 for r in rows if r["type"] == "count")
    gold = tmp_path / "gold.jsonl"
    gold.write_text(json.dumps({"instance_id": "i1", "system": "wrong", "type": "NUMBER", "start": 8, "end": 9}) + "\n")
    capsys.readouterr()
    assert run(["validate", "errors", "-d", "mini", "-i", str(files[0]), "-g", str(files[1]), "--gold", str(gold),
                "--json", "-X", "min_count=5"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert "{min_count=5}" in result["signature"]
    assert result["strict"]["missed"]["no claim read"] == 1  # "apples: 4." is below min_count


@pytest.mark.parametrize("pair", ["min_count", "=4", "nope=1", "min_count=x"])
def test_bad_options_exit_2_with_one_line(files, tmp_path, capsys, pair):  # noqa: F811
    assert score_cli(*files, tmp_path / "out", "--no-report", "-X", pair) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and ("-X" in err or "option of extractor" in err)
    assert not (tmp_path / "out").exists()


def test_validate_perturb_takes_the_option(mini_plugin, capsys):
    assert run(["validate", "perturb", "-d", "mini", "-X", "nope=1"]) == 2
    assert "unknown option 'nope' of extractor 'mini-regex'" in capsys.readouterr().err


def test_only_declared_options_are_signed(mini_plugin):
    from factcov.evaluate import Evaluator
    from factcov.plugins import get_domain

    signature = Evaluator(get_domain("mini"), extractor_options={"min_count": 2, "batch": 8}).signature()
    assert "extractor:mini-regex{min_count=2}|" in signature
