"""spaCy's attribute ruler and rule lemmatizer doing their work by look-up
(`extractors/spacy_rules.py`): the same matches, the same annotations as spaCy's own
components, on real HaluEval texts and on texts made to meet every kind of rule."""

import json

import pytest
import spacy

from factcov.extractors import spacy_backend
from factcov.extractors.spacy_rules import IndexedMatches, IndexWords, exact_rules, indexed

# Every attribute the pipeline's components set, as arrays and as strings.
COLUMNS = ["ORTH", "TAG", "POS", "MORPH", "LEMMA", "DEP", "HEAD", "ENT_IOB", "ENT_TYPE", "SENT_START", "NORM"]
# Texts meeting the English ruler's word rules: two-token rules ("y' all"), sets ("ai" +
# "n't"), regular expressions ("nothin'"), and texts that are little or nothing.
HOSTILE = [
    "", " ", "\n\n", "!!!", "🙂" * 40, "Y'all ain't seen nothin' yet, y all!",
    "AIN'T it so? It isn't, I'd've gone, we're here 'cause they'd said so.",
    "Ünïcödé café naïve — “quotes” and ‘single’ ones… ½ of $20, 20% in 3.5 million years.",
    "Nuthin' doin', ya know, gonna gotta wanna lemme cuz tho coz til whilst.",
    "The U.S.A. vs. Mr. O'Neil's dog's bone: e-mail me@example.com at 10:30 p.m. on 1/2/2003.",
]


@pytest.fixture(scope="module")
def texts(shared_data):
    """HaluEval QA's first 150 questions: passages, right and hallucinated answers."""
    found = []
    with open(shared_data / "halueval-qa" / "qa_one-turn_data.json", encoding="utf-8") as lines:
        for number, line in enumerate(lines):
            if number >= 150:
                break
            row = json.loads(line)
            found += [row["knowledge"], row["right_answer"], row["hallucinated_answer"], row["question"]]
    return list(dict.fromkeys(found)) + HOSTILE


@pytest.fixture(scope="module")
def plain():
    """spaCy's own pipeline, a load of its own (the parser's is indexed in place)."""
    return spacy.load(spacy_backend.resolve_model())


def annotations(doc):
    return doc.to_array(COLUMNS).tolist(), [(t.lemma_, str(t.morph), t.pos_) for t in doc], \
        [(e.start, e.end, e.label_) for e in doc.ents]


def test_the_parsers_pipeline_annotates_as_spacys_own(texts, plain):
    parser = spacy_backend.SpacyParser()
    ours = list(parser.pipe(texts))
    theirs = list(plain.pipe(texts, batch_size=parser.batch_size))
    assert [annotations(doc) for doc in ours] == [annotations(doc) for doc in theirs]
    assert [spacy_backend.to_parsed(doc) for doc in ours] == [spacy_backend.to_parsed(doc) for doc in theirs]


def test_the_parsers_pipeline_never_runs_the_rulers_matcher_and_scans_no_word_list(texts):
    nlp = spacy_backend.load_pipeline(spacy_backend.resolve_model())
    ruler = nlp.get_pipe("attribute_ruler")
    matcher, calls = ruler.matcher, []

    class Counting:  # the ruler's Matcher, its calls counted
        def __call__(self, *args, **kwargs):
            calls.append(1)
            return matcher(*args, **kwargs)

        def __getattr__(self, name):
            return getattr(matcher, name)

    ruler.matcher = Counting()
    try:
        parser = spacy_backend.SpacyParser()
        list(parser.pipe(texts[:20]))
    finally:
        ruler.matcher = matcher
    assert not calls
    index = parser.nlp.get_pipe("lemmatizer").lookups.get_table("lemma_index")
    assert index and all(isinstance(words, IndexWords) for words in index.values())


def test_the_english_rulers_matches_are_the_matchers_every_kind_of_rule_met(texts, plain):
    ruler = plain.get_pipe("attribute_ruler")
    rules = exact_rules(ruler)
    assert rules is not None
    kinds = {number: frozenset({kind for _, tests in tokens for _, kind, _ in tests}
                               | ({"two tokens"} if len(tokens) > 1 else set()))
             for number, _, tokens in rules}
    lookup = IndexedMatches(ruler, rules)
    met = set()
    with plain.select_pipes(disable=["attribute_ruler", "lemmatizer", "ner"]):
        for doc in plain.pipe(texts):
            found = lookup(doc)
            assert found == ruler.match(doc)
            met |= {kinds[number] for number, *_ in found}
    # the texts meet every kind of rule: values, sets, negated sets, expressions, two tokens
    assert {frozenset(), frozenset({"IN"}), frozenset({"NOT_IN", "IN"}), frozenset({"REGEX"}), frozenset({"two tokens"}),
            frozenset({"two tokens", "REGEX"}), frozenset({"two tokens", "IN", "REGEX"})} <= met


def ruler_of(patterns):
    nlp = spacy.blank("en")
    ruler = nlp.add_pipe("attribute_ruler")
    ruler.add_patterns(patterns)
    return nlp, ruler


SPECIAL = [
    {"patterns": [[{"LOWER": "the"}], [{"ORTH": "The"}], [{"TEXT": {"IN": ["The", "A"]}}]], "attrs": {"LEMMA": "DET!"}},
    {"patterns": [[{"LOWER": {"NOT_IN": ["the", "a"]}, "IS_ALPHA": True}, {"LOWER": {"REGEX": "^c"}}]],
     "attrs": {"NORM": "pair"}, "index": -1},
    {"patterns": [[{"LOWER": {"REGEX": "^[0-9]+$"}}]], "attrs": {"TAG": "CD", "POS": "NUM"}},
    {"patterns": [[{"IS_PUNCT": True}], [{"ORTH": "!"}]], "attrs": {"POS": "PUNCT"}},
]


def test_sets_expressions_overlaps_and_negative_indexes_match_as_the_matcher_does():
    nlp, ruler = ruler_of(SPECIAL)
    lookup = IndexedMatches(ruler, exact_rules(ruler))
    for text in ["The cat caught a cold cow!", "A 42 cows came, the 7 cats!!", "", "cc cC Cc"] + HOSTILE:
        doc = nlp.make_doc(text)
        assert lookup(doc) == ruler.match(doc)
    plain, _ = ruler_of(SPECIAL)
    text = "The cat caught a cold cow! 42 cows came."
    assert annotations(indexed(nlp)(text)) == annotations(plain(text))


@pytest.mark.parametrize("pattern", [
    [{"LOWER": "a", "OP": "+"}], [{"LOWER": {"FUZZY": "the"}}], [{"LENGTH": {">=": 3}}], [{}],
    [{"_": {"flag": True}}], [{"MORPH": {"IS_SUPERSET": ["Number=Sing"]}}], [{"SENT_START": True}],
])
def test_a_ruler_with_another_kind_of_rule_keeps_the_matcher(pattern):
    nlp, ruler = ruler_of([{"patterns": [[{"LOWER": "the"}]], "attrs": {"LEMMA": "x"}},
                           {"patterns": [pattern], "attrs": {"NORM": "y"}}])
    assert exact_rules(ruler) is None
    indexed(nlp)
    assert not isinstance(ruler.match, IndexedMatches)


def test_a_rule_added_after_indexing_is_matched_by_the_matcher():
    nlp, ruler = ruler_of(SPECIAL)
    indexed(nlp)
    assert isinstance(ruler.match, IndexedMatches)
    ruler.add([[{"LOWER": "cow"}]], {"LEMMA": "bovine"})
    assert [t.lemma_ for t in nlp("a cold cow")][-1] == "bovine"


def test_the_word_index_answers_in_as_the_list_does():
    words = IndexWords(["cat", "dog", "cat"])
    assert words == ["cat", "dog", "cat"] and "dog" in words and "cow" not in words and 3 not in words
    assert json.loads(json.dumps(words)) == ["cat", "dog", "cat"]


def test_an_indexed_pipeline_pickled_for_a_worker_process_still_matches_by_look_up():
    import pickle

    nlp, ruler = ruler_of(SPECIAL)
    copy = pickle.loads(pickle.dumps(indexed(nlp)))
    plain, _ = ruler_of(SPECIAL)
    assert isinstance(copy.get_pipe("attribute_ruler").match, IndexedMatches)
    text = "The cat caught a cold cow! 42 cows came."
    assert annotations(copy(text)) == annotations(plain(text))
