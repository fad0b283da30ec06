"""The columns a run writes (``claim_columns``, ``score_columns``) against a plain per-row
reference: every claim's and every generation's fields read one by one, encoded with
``canonical_json``. Real instances (the f1 and weather demos, built from the shared data),
texts that state all, some and perturbed facts, so every verdict and missed facts occur."""

from __future__ import annotations

import random

import pytest

from factcov.evaluate import Evaluator
from factcov.model import Fact, Generation, Instance, canonical_json, key_json
from factcov.outputs import claim_columns, missed_json, score_columns
from factcov.plugins import get_domain
from factcov.scoring import ScoringPolicy


def _reference_claim_rows(results) -> list[dict]:
    rows = []
    for result in results:
        meta = result.generation.meta
        for index, verdict in enumerate(result.verdicts):
            claim, value = verdict.claim, verdict.claim.value
            rows.append({
                "instance_id": result.instance.id, "system": result.generation.system, "task": result.instance.task,
                "language": result.language, "claim_index": index, "type": claim.type,
                "key": canonical_json(claim.key), "value": canonical_json(value),
                "span_start": claim.span[0] if claim.span else None, "span_end": claim.span[1] if claim.span else None,
                "text": claim.text, "verdict": verdict.label,
                "expected": canonical_json(verdict.expected) if verdict.label == "contradicted" else None,
                "fact_id": verdict.fact.id if verdict.fact is not None else None, "extractor": claim.extractor,
                "out_of_scope": claim.out_of_scope,
                "value_number": float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None,
                "value_text": value if isinstance(value, str) else None,
                "generation_id": result.generation.id, "meta": None if meta is None else canonical_json(meta),
            })
    return rows


def _reference_missed(result) -> str:
    facts_by_id = {fact.id: fact for fact in result.instance.facts}
    return canonical_json([{"id": i, "type": facts_by_id[i].type, "key": facts_by_id[i].key,
                            "value": facts_by_id[i].value} for i in result.score.missed_ids])


def _as_rows(columns: dict[str, list]) -> list[dict]:
    return [dict(zip(columns, values)) for values in zip(*columns.values())]


def _results(domain_name: str, count: int):
    domain = get_domain(domain_name)
    instances = [i for i in domain.demo_instances() if i.facts][:count]
    rng = random.Random(7)
    pairs = []
    for n, instance in enumerate(instances):
        half = instance.facts[::2]
        perturbed = []
        for fact in instance.facts:
            try:
                perturbed.append(domain.perturb(fact, rng, instance))
            except ValueError:
                perturbed.append(fact)
        texts = {"all": instance.facts, "half": half, "perturbed": perturbed, "none": []}
        for system, facts in texts.items():
            text = domain.realize(facts, instance.language, instance) if facts else "Nothing to say."
            meta = {"n": n, "system": system, "x": [1.5, None]} if n % 2 else None
            pairs.append((instance, Generation(instance_id=instance.id, system=system, text=text,
                                               id=f"g{n}-{system}" if n % 3 else None, meta=meta)))
    return Evaluator(domain).evaluate(pairs)


@pytest.mark.parametrize("domain_name", ["f1", "weather"])
def test_columns_match_a_row_by_row_reference_on_real_instances(domain_name):
    results = _results(domain_name, 12)
    labels = {v.label for r in results for v in r.verdicts}
    assert labels == {"supported", "contradicted", "unverifiable"} or labels >= {"supported", "contradicted"}
    assert any(r.score.missed_ids for r in results) and any(not r.score.missed_ids for r in results)
    assert _as_rows(claim_columns(results)) == _reference_claim_rows(results)
    scores = score_columns(results)
    assert scores["missed"] == [_reference_missed(r) for r in results]
    assert scores["missed_ids"] == [list(r.score.missed_ids) for r in results]
    assert scores["n_claims"] == [len(r.verdicts) - r.score.total.out_of_scope for r in results]
    assert scores["precision"] == [r.metrics["precision"] for r in results]
    assert scores["meta"] == [None if r.generation.meta is None else canonical_json(r.generation.meta)
                              for r in results]
    for policy in (None, ScoringPolicy(unverifiable="ignore"), None):  # remembered entries follow the policy
        by_type = score_columns(results, policy)["by_type"]
        assert by_type == [canonical_json({t: c.as_dict(policy or r.policy) for t, c in r.score.by_type.items()})
                           for r in results]


def test_missed_entries_follow_the_instance_object_not_only_its_id():
    facts = [Fact(type="count", key={"item": "apples"}, value=3), Fact(type="count", key={"item": "pears"}, value=5)]
    other = [Fact(type="count", key={"item": "apples"}, value=4), Fact(type="count", key={"item": "pears"}, value=6)]
    domain = get_domain("f1")
    first = Instance(id="same", domain="f1", task="t", language="en", facts=facts)
    second = Instance(id="same", domain="f1", task="t", language="en", facts=other)  # another file, same id
    for instance in (first, second, first):
        result = Evaluator(domain).evaluate([(instance, Generation(instance_id="same", system="s", text="-"))])[0]
        assert result.score.missed_ids
        assert missed_json(result) == _reference_missed(result)


def test_key_json_tells_apart_what_python_equality_merges():
    keys = [{"a": 1}, {"a": True}, {"a": 1.0}, {"a": 0.0}, {"a": -0.0}, {"a": 0}, {"a": False}, {"a": "1"},
            {1: "x"}, {True: "x"}, {1.0: "x"}, {"stop": 1, "driver": "HAM"}, {"driver": "HAM", "stop": 1},
            {"a": None}, {"a": [1]}, {"a": float("nan")}, {}]
    for _ in range(2):  # the second round reads what the first remembered
        for key in keys + keys[::-1]:
            assert key_json(key) == canonical_json(key)


def test_a_texts_repeats_share_what_is_made_of_its_score_and_get_the_same_rows(monkeypatch):
    """Systems that agree on a text are read once (``Extractor.deterministic``): their results
    share one score and its verdicts, whose metrics, per-type JSON, missed facts and claim
    columns are made once for all of them, each row the same as if it had been made apart."""
    from factcov.scoring import GenerationScore

    domain = get_domain("weather")
    instances = [i for i in domain.demo_instances() if i.facts][:3]
    pairs = [(instance, Generation(instance_id=instance.id, system=f"s{k}",
                                   text=domain.realize(instance.facts[::2], instance.language, instance)))
             for instance in instances for k in range(4)]
    results = Evaluator(domain).evaluate(pairs)
    assert len({id(r.score) for r in results}) == len(instances)  # four rows, one score, per instance
    made = []
    metrics = GenerationScore.metrics
    monkeypatch.setattr(GenerationScore, "metrics", lambda self, policy: made.append(self) or metrics(self, policy))
    columns = score_columns(results)
    assert len(made) == len(instances)
    for policy in (None, ScoringPolicy(unverifiable="ignore")):
        rows = _as_rows(score_columns(results, policy))
        assert rows == [_as_rows(score_columns([r], policy))[0] for r in results]
    assert columns["missed"] == [_reference_missed(r) for r in results]
    assert columns["f1"] == [r.metrics["f1"] for r in results]
    # claims.parquet: each shared verdict's columns made once (its key encoded once), every row as made apart
    from factcov import outputs

    keys = []
    monkeypatch.setattr(outputs, "key_json", lambda key: keys.append(key) or key_json(key))
    claims = _as_rows(claim_columns(results))
    assert claims == _reference_claim_rows(results)
    assert len(keys) == len({id(v) for r in results for v in r.verdicts}) < len(claims)
