"""`SpacyParser` parses each distinct text once (by content digest): within a call, across
calls, and in any order; the parses it shares are the ones a fresh parse gives."""

import random

import pytest

from factcov.extractors import spacy_backend


@pytest.fixture(scope="module")
def halueval(shared_data):
    """Real passages and answers: HaluEval QA's first 12 questions, each passage asked
    about by three answers (the right one, two hallucinated), as `rag score` meets them."""
    import json

    lines = (shared_data / "halueval-qa" / "qa_one-turn_data.json").read_text(encoding="utf-8").splitlines()[:12]
    texts = []
    for line in lines:
        row = json.loads(line)
        for answer in (row["right_answer"], row["hallucinated_answer"], row["right_answer"]):
            texts += [answer, row["knowledge"], row["right_answer"]]
    return texts


def counting(parser: spacy_backend.SpacyParser) -> list[str]:
    """The texts ``parser`` hands to spaCy from now on."""
    sent: list[str] = []
    pipe = parser.pipe

    def recorded(texts):
        return pipe(sent.append(text) or text for text in texts)

    parser.pipe = recorded  # type: ignore[method-assign]
    return sent


def test_each_distinct_text_is_parsed_once_and_parses_are_those_of_a_fresh_parse(halueval):
    fresh = spacy_backend.SpacyParser()
    expected = {text: spacy_backend.to_parsed(doc) for text, doc in zip(halueval, fresh.pipe(halueval))}
    parser = spacy_backend.SpacyParser(batch_size=7)  # batches cut across repeated texts
    sent = counting(parser)
    shuffled = random.Random(3).sample(halueval, len(halueval))
    parsed = parser.parse(shuffled)
    assert [p.text for p in parsed] == shuffled  # in order, one parse per text given
    assert all(p == expected[text] for p, text in zip(parsed, shuffled))
    assert sorted(sent) == sorted(set(halueval)) and len(set(halueval)) < len(halueval) / 2
    again = list(parser.iter_parse(halueval[:9]))  # parsed before: nothing goes to spaCy
    assert len(sent) == len(set(halueval)) and [p.text for p in again] == halueval[:9]
    by_text = dict(zip(shuffled, parsed))
    assert all(p is by_text[p.text] for p in again)  # shared, not copied


def test_the_cache_is_bounded_the_oldest_out_first(halueval):
    distinct = list(dict.fromkeys(halueval))[:6]
    parser = spacy_backend.SpacyParser(cache_size=3)
    sent = counting(parser)
    parser.parse(distinct)
    assert len(parser._parses) == 3
    parser.parse(distinct[-3:])  # the last three are held
    assert len(sent) == 6
    parser.parse(distinct[:1])  # the first is not any more
    assert sent[-1] == distinct[0] and len(sent) == 7
