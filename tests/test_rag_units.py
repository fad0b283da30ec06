"""Content units (factcov.domains.rag.units): each rule on a real text, and perturbations.

Texts: HaluEval QA passages and answers (../shared/data/halueval-qa, MIT) and
tests/data/rag_unit_perturbations.jsonl (three of those passages as references, with
clauses left out one by one and values changed one by one).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from factcov.domains.rag.answers import score_answers
from factcov.domains.rag.grounding import precision_grades
from factcov.domains.rag.inputs import Answer
from factcov.domains.rag.units import formatting_spans, grade, number_value, read_units, text_units

PERTURBATIONS = Path(__file__).parent / "data" / "rag_unit_perturbations.jsonl"


@pytest.fixture(scope="module")
def extractor():
    from factcov.plugins import get_extractor

    return get_extractor("rag-spacy", "en")


@pytest.fixture(scope="module")
def halueval(shared_data):
    path = shared_data / "halueval-qa" / "qa_one-turn_data.json"
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def units_of(extractor, text, span=False):
    return read_units(extractor.parse([text])[0], span=span)


def labels(extractor, answer, passage):
    graded = grade(units_of(extractor, answer, span=True).units, text_units(extractor.parse([passage])))
    return {(g.unit.kind, g.unit.text): g.label for g in graded}


@pytest.mark.parametrize("word, value", [
    ("twelve", "12"), ("12,000", "12000"), ("third", "3"), ("3rd", "3"), ("twice", "2"), ("once", "1"),
    ("dozen", "12"), ("1844", "1844"), ("3.5", "3.5"), ("photo", None),
])
def test_numbers_in_words_are_values(word, value):
    assert number_value(word) == value


def test_formatting_is_not_content(extractor):
    text = "1. **Delhi** is the head office [1].\n2. The group runs *hotels* [2, 3]."
    spans = formatting_spans(text)
    assert [text[a:b] for a, b in spans] == ["1. ", "**", "**", "[1]", "2. ", "*", "*", "[2, 3]"]
    units = units_of(extractor, text)
    assert not [u for u in units.units if u.kind == "number"]  # neither list nor citation markers
    assert {"delhi", "hotel"} <= units.stems


def test_a_count_in_words_meets_the_same_count_in_digits_and_a_wrong_one_is_contradicted(extractor):
    passage = "She has won the title two times and lived in Britain for 30 years."
    assert labels(extractor, "She won the title twice.", passage)[("number", "twice")] == "supported"
    assert labels(extractor, "She won the title three times.", passage)[("number", "three")] == "contradicted"
    # Another count of another thing is no contradiction.
    assert labels(extractor, "She has three children.", passage)[("number", "three")] == "unsupported"


def test_a_wrong_year_of_a_real_passage_is_contradicted(extractor, halueval):
    passage = halueval[0]["knowledge"]  # Arthur's Magazine (1844–1846) ...
    assert labels(extractor, "Arthur's Magazine was started in 1844.", passage)[("number", "1844")] == "supported"
    assert labels(extractor, "Arthur's Magazine was started in 1846.", passage)[("number", "1846")] == "supported"
    assert labels(extractor, "Arthur's Magazine was started in 1850.", passage)[("number", "1850")] == "contradicted"


def test_photo_does_not_cover_photoshopped(extractor):
    found = labels(extractor, "The picture was photoshopped.", "The photo of the picture was printed.")
    assert found[("verb", "photoshopped")] == "unsupported"
    assert found[("word", "picture")] == "supported"


def test_a_negation_the_passage_does_not_make_is_contradicted(extractor, halueval):
    passage = halueval[1]["knowledge"]  # The Oberoi family ... famous for its involvement in hotels
    found = labels(extractor, "The Oberoi family is not involved in any hotel company.", passage)
    assert found[("negation", "not involved")] == "contradicted"
    assert "contradicted" not in labels(extractor, "The Oberoi family is involved in hotels.", passage).values()


def test_names_the_passage_never_puts_together_are_an_unsupported_link(extractor, halueval):
    passage = next(h["knowledge"] for h in halueval if "Chestnut Hill" in h["knowledge"] and "Stanford" in h["knowledge"])
    right = labels(extractor, "Boston College is a research university located in Chestnut Hill.", passage)
    wrong = labels(extractor, "Stanford University is located in Chestnut Hill.", passage)
    assert all(label == "supported" for (kind, _), label in right.items() if kind == "link")
    assert wrong[("link", "Stanford University … Chestnut Hill")] == "unsupported"
    # Every word of the wrong answer is in the passage: only the link tells them apart.
    assert all(label == "supported" for (kind, _), label in wrong.items() if kind == "word")


def test_a_short_answer_is_graded_as_a_span(extractor, halueval):
    passage = halueval[2]["knowledge"]  # ... named the character after President Richard Nixon's middle name
    spans = {text: label for (kind, text), label in labels(extractor, "President Richard Nixon", passage).items()
             if kind == "span"}
    assert spans == {"President Richard Nixon": "supported"}
    assert not [u for u in units_of(extractor, "Milhouse was named after a famous baseball player who played for "
                                               "the Chicago Cubs.", span=True).units if u.kind == "span"]


def test_a_name_must_appear_whole(extractor):
    found = labels(extractor, "Milhouse was voiced by Pamela Groening.",
                   "Milhouse is voiced by Pamela Hayden and created by Matt Groening.")
    assert found[("entity", "Pamela Groening")] == "unsupported"


def test_the_reference_contradicts_what_an_outdated_passage_supports(extractor):
    answer, reference, passage = (read_units(p) for p in extractor.parse([
        "The museum opens on 5 May 2024.", "The museum opens on 3 May 2025.", "The museum opens on 5 May 2024."]))
    graded = {g.unit.text: g.label for g in precision_grades(answer, reference, passage)}
    assert graded["2024"] == "contradicted" and graded["5"] == "contradicted"
    assert graded["museum"] == "supported"


def perturbed(extractor):
    rows = [json.loads(line) for line in PERTURBATIONS.read_text(encoding="utf-8").splitlines()]
    answers = [Answer.model_validate({"id": f"{r['group']}-{r['kind']}-{r['step']}", "answer": r["answer"],
                                      "reference": r["reference"]}) for r in rows]
    return [(r, res.metrics) for r, res in zip(rows, score_answers(answers, extractor))]


def test_each_omitted_unit_lowers_recall_and_each_wrong_one_precision(extractor):
    results = perturbed(extractor)
    groups = {r["group"] for r, _ in results}
    assert len(groups) == 3
    for group in groups:
        steps = {(r["kind"], r["step"]): m for r, m in results if r["group"] == group}
        original = steps[("original", 0)]
        assert original["unit_precision"] == 1.0 and original["unit_recall"] == 1.0
        omissions = [original] + [m for (kind, _), m in sorted(steps.items()) if kind == "omission"]
        errors = [original] + [m for (kind, _), m in sorted(steps.items()) if kind == "error"]
        recalls = [m["unit_recall"] for m in omissions]
        assert recalls == sorted(recalls, reverse=True) and len(set(recalls)) == len(recalls), (group, recalls)
        # Leaving something out is no error: precision stays.
        assert all(m["unit_precision"] == 1.0 for m in omissions), group
        precisions = [m["unit_precision"] for m in errors]
        assert precisions == sorted(precisions, reverse=True) and len(set(precisions)) == len(precisions), group
        # A wrong value also leaves its fact uncovered.
        assert all(m["unit_recall"] < 1.0 for m in errors[1:]), group
