"""Relations read from spaCy's dependency parse, one construction per test."""

import pytest

from factcov.extractors.relations import triples


@pytest.fixture(scope="module")
def read():
    from factcov.extractors.spacy_backend import SpacyParser

    parser = SpacyParser()

    def read(text: str) -> set[tuple[str, str, str]]:
        parsed = parser.parse([text])[0]
        return {(parsed.tokens[t.subject].text, t.predicate, parsed.tokens[t.object].text) for t in triples(parsed)}

    return read


def test_active_voice(read):
    assert ("Eiffel", "design", "tower") in read("Gustave Eiffel designed the tower.")


def test_passive_voice_gives_the_active_triple(read):
    assert ("Eiffel", "design", "tower") in read("The tower was designed by Gustave Eiffel.")


def test_prepositional_objects_join_the_preposition_to_the_verb(read):
    found = read("The museum opens on Tuesday at 10 am.")
    assert ("museum", "open on", "Tuesday") in found
    assert ("museum", "open at", "am") in found


def test_copula_with_a_noun_and_preposition(read):
    found = read("Paris is the capital of France.")
    assert ("Paris", "be capital of", "France") in found
    assert ("Paris", "be", "capital") in found


def test_possessive_subject_of_a_copula_names_the_owner(read):
    assert ("France", "have capital", "Paris") in read("The capital of France is Paris.")
    assert ("Turner", "have genre", "metal") in read("Aaron Turner plays. His genre is metal.")


def test_conjoined_objects_and_verbs(read):
    found = read("The tower was designed by Gustave Eiffel and Maurice Koechlin.")
    assert {("Eiffel", "design", "tower"), ("Koechlin", "design", "tower")} <= found
    found = read("Nie Haisheng was born in Beijing and died in 2010.")
    assert {("Haisheng", "bear in", "Beijing"), ("Haisheng", "die in", "2010")} <= found


def test_relative_clause_takes_its_head_as_subject(read):
    assert ("Inc.", "locate in", "Cupertino") in read("Apple Inc., which is located in Cupertino, makes phones.")


def test_pronoun_subject_resolves_to_the_previous_sentence_subject(read):
    assert ("Haisheng", "die in", "2010") in read("Nie Haisheng was a pilot. He died in 2010.")


def test_negated_clause_states_nothing(read):
    assert not any(p.startswith("open") for _, p, _ in read("The museum does not open on Monday."))


def ud(words: list[tuple[str, str, str, str, int]]):
    """A hand-made Universal Dependencies parse (as stanza gives): (text, lemma, upos, deprel, head)."""
    from factcov.extractors.parsed import ParsedText, Token

    tokens, offset = [], 0
    for i, (text, lemma, pos, dep, head) in enumerate(words):
        tokens.append(Token(i, text, lemma, pos, "", dep, head if head >= 0 else i, offset, offset + len(text)))
        offset += len(text) + 1
    return ParsedText(" ".join(w[0] for w in words), tokens, [(0, len(tokens))], [], scheme="ud")


def names(parsed):
    return {(parsed.tokens[t.subject].text, t.predicate, parsed.tokens[t.object].text) for t in triples(parsed)}


def test_ud_copula_with_a_nominal_and_a_case_marked_modifier():
    parsed = ud([("Paris", "Paris", "PROPN", "nsubj", 3), ("is", "be", "AUX", "cop", 3), ("the", "the", "DET", "det", 3),
                 ("capital", "capital", "NOUN", "root", -1), ("of", "of", "ADP", "case", 5),
                 ("France", "France", "PROPN", "nmod", 3)])
    assert names(parsed) == {("Paris", "be", "capital"), ("Paris", "be capital of", "France")}


def test_ud_prepositional_copula():
    parsed = ud([("Louvre", "Louvre", "PROPN", "nsubj", 3), ("is", "be", "AUX", "cop", 3), ("in", "in", "ADP", "case", 3),
                 ("Paris", "Paris", "PROPN", "root", -1)])
    assert names(parsed) == {("Louvre", "be in", "Paris")}


def test_ud_passive_with_an_agent():
    parsed = ud([("tower", "tower", "NOUN", "nsubj:pass", 2), ("was", "be", "AUX", "aux:pass", 2),
                 ("designed", "design", "VERB", "root", -1), ("by", "by", "ADP", "case", 4),
                 ("Eiffel", "Eiffel", "PROPN", "obl", 2)])
    assert names(parsed) == {("Eiffel", "design", "tower")}
