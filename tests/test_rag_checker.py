"""`-X checker=llm`: a chat model splits and judges rag answers; tested against a local fake server."""

from __future__ import annotations

import functools
import json
import re

import pandas as pd
import pytest

from factcov.chat import ChatClient
from factcov.cli.app import run
from factcov.domains.rag.checker import COLUMNS, CheckRequest, LLMChecker, judged
from tests.chat_server import ChatServer, ModelBehaviour

EXAMPLE = "docs/examples/rag_answers.jsonl"


def sentences(text: str) -> list[str]:
    return [s.strip().rstrip(".").lower() for s in re.split(r"(?<=[.!?])\s+", text.strip()) if s.strip()]


def section(content: str, name: str) -> str:
    return content.split(f"{name}:\n", 1)[1].split("\n\n", 1)[0]


def verdict(claim: str, against: list[str]) -> str:
    """A literal judge: a sentence found word for word is supported; one sharing its first two
    words with a sentence there but not the rest is contradicted; else unsupported."""
    if any(claim in s for s in against):
        return "supported"
    if any(claim.split()[:2] == s.split()[:2] for s in against):
        return "contradicted"
    return "unsupported"


def fake_model(body: dict) -> str:
    """What the fake server's 'model' answers: sentences as claims, judged literally."""
    content = body["messages"][-1]["content"]
    answer = sentences(section(content, "ANSWER"))
    reference = [] if section(content, "REFERENCE") == "(none)" else sentences(section(content, "REFERENCE"))
    passages = [s for line in section(content, "PASSAGES").splitlines() if line.startswith("[")
                for s in sentences(line.split("] ", 1)[1])]
    if "Velmora" in section(content, "ANSWER"):  # this one answers with broken JSON
        return '{"answer_claims": [{"claim": "founded by'
    return json.dumps({
        "answer_claims": [{"claim": c, "reference": verdict(c, reference), "passages": verdict(c, passages)}
                          for c in answer],
        "reference_claims": [{"claim": r, "covered": any(r in a for a in answer)} for r in reference],
    })


@pytest.fixture
def server():
    model = ModelBehaviour([])
    model.respond = fake_model
    with ChatServer(model) as running:
        yield running


def expected_faithfulness(line: dict, first: dict) -> float | None:
    passages = [s for c in first.get("contexts", []) for s in sentences(c["text"])]
    claims = sentences(line["answer"])
    if not passages or not claims:
        return None
    return sum(verdict(c, passages) == "supported" for c in claims) / len(claims)


def test_columns_come_from_the_models_verdicts():
    request = CheckRequest("A. B. C.", reference="A. D.", passages=("A.",))
    content = json.dumps({
        "answer_claims": [{"claim": "A", "reference": "supported", "passages": "supported"},
                          {"claim": "B", "reference": "contradicted", "passages": "supported"},  # reference decides
                          {"claim": "C", "reference": "unsupported", "passages": "Contradicted"}],  # then passages
        "reference_claims": [{"claim": "A", "covered": True}, {"claim": "D", "covered": False}],
    })
    checked = judged(request, content)
    assert [u.verdict for u in checked.units] == ["supported", "contradicted", "contradicted", "covered", "missed"]
    assert checked.metrics["precision"] == pytest.approx(1 / 3) and checked.metrics["recall"] == 0.5
    assert checked.metrics["f1"] == pytest.approx(2 * (1 / 3) * 0.5 / (1 / 3 + 0.5))
    assert checked.metrics["faithfulness"] == pytest.approx(2 / 3)
    assert checked.hallucinated == ["B (contradicted)", "C (contradicted)"] and checked.failure is None


def test_undefined_stays_undefined():
    no_passages = judged(CheckRequest("A.", reference="A."), json.dumps(
        {"answer_claims": [{"claim": "A", "reference": "supported"}], "reference_claims": [{"claim": "A", "covered": 1}]}))
    assert no_passages.metrics == {"precision": 1.0, "recall": 1.0, "f1": 1.0, "faithfulness": None}
    nothing_to_check = judged(CheckRequest("A."), '{"answer_claims": [{"claim": "A"}]}')
    assert nothing_to_check.metrics["precision"] is None and nothing_to_check.metrics["recall"] is None


@pytest.mark.parametrize("content", ["not json", "[1, 2]", '{"answer_claims": [{"claim": "A", "reference": "maybe"}]}',
                                     '{"answer_claims": "A"}', "[" * 100000])
def test_malformed_model_json_is_a_failure_of_that_answer(content):
    checked = judged(CheckRequest("A.", reference="A."), content)
    assert checked.failure is not None and checked.metrics == {} and len(checked.failure) < 200


def test_the_checker_fills_the_scorers_columns_and_caches_what_it_asked(server, repo_root, tmp_path):
    cache = tmp_path / "cache"
    argv = ["score", "-d", "rag", "-i", str(repo_root / EXAMPLE), "-q", "--no-report", "-X", "checker=llm",
            "-X", f"checker_url={server.url}", "-X", "checker_model=fake-judge", "-X", f"checker_cache={cache}"]
    with pytest.warns(RuntimeWarning, match="no usable verdicts for 1 of 5"):  # the broken JSON: counted, no crash
        assert run([*argv, "-o", str(tmp_path / "a")]) == 0
    asked = len(server.model.requests)
    assert asked == 5  # one request per non-empty answer
    table = pd.read_parquet(tmp_path / "a" / "scores.parquet").set_index(["instance_id", "system"])
    lines = [json.loads(line) for line in (repo_root / EXAMPLE).read_text().splitlines()]
    firsts: dict[str, dict] = {}
    for line in lines:
        first = firsts.setdefault(line["question_id"], line)
        value = table.loc[(line["question_id"], line["system"]), "faithfulness"]
        if "Velmora" in line["answer"]:
            assert pd.isna(value)  # the model's answer was unusable: undefined, not the rule-based number
            continue
        wanted = expected_faithfulness(line, first)
        assert (pd.isna(value) if wanted is None else value == pytest.approx(wanted)), line["system"]
    for name in COLUMNS.values():  # every column of the scorer the checker fills (more once rag-units lands)
        if name in table.columns:
            assert table[name].notna().sum() >= 1
    for headline, column in COLUMNS.items():  # the core's headline is what the checker filled (graded_scores)
        if column != headline:
            assert table[headline].equals(table[column]), headline
    summary = json.loads((tmp_path / "a" / "summary.json").read_text())
    assert "checker=llm" in summary["signature"] and "checker_model=fake-judge" in summary["signature"]
    assert server.url not in summary["signature"]
    # a rerun asks the server nothing: every answer is in the cache, the scores are the same bytes
    with pytest.warns(RuntimeWarning):  # the cached broken answer is still broken
        assert run([*argv, "-o", str(tmp_path / "b")]) == 0
    assert len(server.model.requests) == asked
    assert (tmp_path / "a" / "scores.parquet").read_bytes() == (tmp_path / "b" / "scores.parquet").read_bytes()
    # and `rag score` takes the same -X
    with pytest.warns(RuntimeWarning):
        assert run(["rag", "score", *argv[3:], "-o", str(tmp_path / "c")]) == 0
    assert (tmp_path / "a" / "scores.parquet").read_bytes() == (tmp_path / "c" / "scores.parquet").read_bytes()


def test_a_dead_server_is_an_environment_failure_and_bad_options_are_usage_errors(repo_root, tmp_path, capsys,
                                                                                   monkeypatch):
    base = ["score", "-d", "rag", "-i", str(repo_root / EXAMPLE), "-q", "--no-report", "-o", str(tmp_path / "o")]
    assert run([*base, "-X", "checker=oracle"]) == 2
    assert "unknown checker 'oracle'" in capsys.readouterr().err
    assert run([*base, "-X", "checker=llm", "-X", "checker_url=http://127.0.0.1:9/v1"]) == 2
    assert "checker_model" in capsys.readouterr().err
    monkeypatch.setenv("FACTCOV_LLM_CACHE", str(tmp_path / "default-cache"))
    assert LLMChecker.cache_of({}) == tmp_path / "default-cache"  # generate's default cache
    assert LLMChecker.cache_of({"checker_cache": "none"}) is None
    monkeypatch.setattr(ChatClient, "__init__", functools.partialmethod(ChatClient.__init__, retries=1, backoff=0.0))
    dead = ["-X", "checker=llm", "-X", "checker_url=http://127.0.0.1:9/v1", "-X", "checker_model=m"]
    assert run([*base, *dead]) == 3  # no server: the environment failed, nothing is written
    assert "is the server running at http://127.0.0.1:9/v1?" in capsys.readouterr().err  # the probe finds it at once
    assert not (tmp_path / "o").exists()
