"""GAA-ERP, its grounded variant and the RAG metrics on the museum example and edge cases."""

import json

import pytest

from factcov.domains.rag.answers import score_answers
from factcov.domains.rag.claims import ENTITY, RELATION
from factcov.domains.rag.inputs import Answer


@pytest.fixture(scope="module")
def extractor():
    from factcov.plugins import get_extractor

    return get_extractor("rag-spacy", "en")


@pytest.fixture(scope="module")
def museum(repo_root, extractor):
    lines = (repo_root / "domains" / "rag" / "museum.jsonl").read_text(encoding="utf-8").splitlines()
    answers = [Answer.model_validate(json.loads(line)) for line in lines if line.strip()]
    return {r.answer.id: r for r in score_answers(answers, extractor)}


def test_complete_answer_covers_every_reference_fact(museum):
    metrics = museum["complete"].metrics
    assert metrics["gaa"] == 1.0 and metrics["coverage"] == 1.0


def test_a_fact_from_no_retrieved_passage_is_ungrounded(museum):
    result = museum["complete"]
    assert result.metrics["gaa_erp_g"] < result.metrics["gaa_erp"] == 1.0
    assert result.metrics["faithfulness"] < 1.0
    assert "12 EUR" in result.hallucinated
    grounded = {v.claim.value: v.label for v in result.grounded_verdicts if v.claim.type == ENTITY}
    assert grounded["12 EUR"] == "unverifiable" and grounded["10:00"] == "supported"


def test_faithful_fragment_misses_required_facts(museum):
    metrics = museum["fragment"].metrics
    assert metrics["faithfulness"] == 1.0 and metrics["citation_support"] == 1.0
    assert metrics["coverage"] == pytest.approx(1 / 3)
    assert metrics["relation_recall"] == pytest.approx(1 / 3)


def test_outdated_source_well_cited_is_contradicted_by_the_current_reference(museum):
    result = museum["outdated"]
    assert result.metrics["citation_support"] == 1.0 and result.metrics["citation_precision"] == 1.0
    contradicted = {(v.claim.key["predicate"], v.claim.value, v.expected)
                    for v in result.verdicts if v.label == "contradicted"}
    assert ("open on", "2024-05-05", "2025-05-03") in contradicted
    assert result.metrics["relation_precision"] == 0.0 and result.metrics["gaa"] < 0.2


def test_off_topic_answer_is_faithful_but_scores_zero(museum):
    metrics = museum["off-topic"].metrics
    assert metrics["faithfulness"] == 1.0
    assert metrics["gaa"] == 0.0 and metrics["coverage"] == 0.0


def test_empty_answer_gets_no_fabricated_perfect_score(museum):
    metrics = museum["empty"].metrics
    for undefined in ("entity_precision", "relation_precision", "faithfulness", "citation_support",
                      "citation_precision"):
        assert metrics[undefined] is None
    assert metrics["gaa"] == 0.0 and metrics["coverage"] == 0.0 and metrics["entity_recall"] == 0.0


def test_hallucinated_entity_lowers_precision_not_recall(museum):
    result = museum["embellished"]
    assert "marta quill" in result.hallucinated
    assert result.metrics["entity_precision"] < 1.0 and result.metrics["entity_recall"] == 1.0


def test_context_relevance_counts_relevant_retrieved_passages(museum):
    assert museum["complete"].metrics["context_relevance"] == pytest.approx(1 / 3)


def test_alpha_weights_entity_and_relation_f1(extractor, museum):
    answer = museum["embellished"].answer
    for alpha in (0.0, 0.3, 1.0):
        (result,) = score_answers([answer], extractor, alpha=alpha)
        m = result.metrics
        assert m["gaa"] == pytest.approx(alpha * m["entity_f1"] + (1 - alpha) * m["relation_f1"])


def test_grounded_flag_makes_gaa_the_grounded_variant(extractor, museum):
    (result,) = score_answers([museum["complete"].answer], extractor, grounded=True)
    assert result.metrics["gaa"] == result.metrics["gaa_erp_g"] < 1.0


def base(**fields):
    return Answer.model_validate({"id": "x", "answer": "The Harbour Light Museum opens at 10 am.",
                                  "reference": "The Harbour Light Museum opens at 10 am.", **fields})


def test_nothing_retrieved_leaves_context_relevance_undefined(extractor):
    (result,) = score_answers([base(contexts=[{"id": "c", "text": "x", "retrieved": False}])], extractor)
    assert result.metrics["context_relevance"] is None
    # Nothing retrieved: nothing to be faithful to, nothing a citation could point at.
    assert result.metrics["faithfulness"] is None
    assert result.metrics["citation_support"] is None


def test_no_passages_leave_faithfulness_and_citation_support_undefined_not_zero(extractor):
    (result,) = score_answers([base()], extractor)
    assert result.metrics["faithfulness"] is None
    assert result.metrics["citation_support"] is None
    # The reference alone still grades the answer's units.
    assert result.metrics["unit_precision"] == 1.0
    assert result.metrics["unit_recall"] == 1.0


def test_no_citations_leave_citation_precision_undefined_and_support_zero(extractor):
    (result,) = score_answers([base(contexts=[{"id": "c", "text": "The Harbour Light Museum opens at 10 am."}])],
                              extractor)
    assert result.metrics["citation_precision"] is None
    assert result.metrics["citation_support"] == 0.0
    assert result.metrics["faithfulness"] == 1.0


def test_relevance_is_derived_from_the_reference_when_not_given(extractor):
    contexts = [{"id": "a", "text": "The Harbour Light Museum opens at 10 am."},
                {"id": "b", "text": "The ferry leaves at 8 am."}]
    (result,) = score_answers([base(contexts=contexts)], extractor)
    assert result.metrics["context_relevance"] == 0.5


def test_no_required_facts_leaves_coverage_undefined(extractor):
    (result,) = score_answers([base()], extractor)
    assert result.metrics["coverage"] is None


def test_citing_a_claim_by_index(extractor):
    contexts = [{"id": "c", "text": "The Harbour Light Museum opens at 10 am."}]
    (result,) = score_answers([base(contexts=contexts, citations=[{"claim": 0, "context_id": "c"}])], extractor)
    claims = [v.claim for v in result.verdicts]
    assert result.metrics["citation_support"] == pytest.approx(1 / len(claims))
    assert result.metrics["citation_precision"] == 1.0


def test_right_subject_and_predicate_with_another_object_is_a_contradiction(extractor):
    (result,) = score_answers([base(answer="The Harbour Light Museum opens at 11 am.")], extractor)
    labels = {v.claim.type: v.label for v in result.verdicts if v.claim.type == RELATION}
    assert labels == {RELATION: "contradicted"}


def test_each_text_is_parsed_once_in_one_batch_per_step(museum, monkeypatch):
    from factcov.plugins import get_extractor

    extractor = get_extractor("rag-spacy", "en")
    calls: list[list[str]] = []
    parse = extractor.parser.parse
    monkeypatch.setattr(extractor.parser, "parse", lambda texts: calls.append(list(texts)) or parse(texts))
    answers = [r.answer for r in museum.values()]
    list(score_answers(answers, extractor))
    # One batch per chunk for each step: references (instances), answers (scoring),
    # passages and required facts (RAG metrics); no text is parsed twice.
    assert len(calls) == 3
    assert calls[1] == [a.answer for a in answers]
    assert len(calls[2]) == sum(len(a.contexts) + len(a.required_facts) for a in answers)
    assert sum(map(len, calls)) == sum(1 + bool(a.reference) + len(a.contexts) + len(a.required_facts) for a in answers)


def test_n_process_gives_the_same_scores(museum):
    from factcov.plugins import get_extractor

    answers = [r.answer for r in museum.values()]
    parallel = get_extractor("rag-spacy", "en", n_process=2, batch_size=4)
    assert [r.metrics for r in score_answers(answers, parallel)] == [museum[a.id].metrics for a in answers]


def test_alias_table_links_another_name_of_a_reference_entity():
    from factcov.plugins import get_extractor

    extractor = get_extractor("rag-spacy", "en", aliases={"Lumen House": "Harbour Light Museum"})
    (result,) = score_answers([base(answer="Lumen House opens at 10 am.")], extractor)
    assert {v.label for v in result.verdicts} == {"supported"}
    assert result.metrics["gaa"] == 1.0
