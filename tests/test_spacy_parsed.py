"""`to_parsed` reads spaCy's token columns in bulk: the same view spaCy's own objects give."""

import pytest

from factcov.extractors import spacy_backend
from factcov.extractors.parsed import Mention, ParsedText, Token

HOSTILE = ["", " ", "  two  spaces  ", "\n\nnewlines\n", "Tab\there", "Émile Zola's café costs €12.\u00a0Ok",
           "😀 emoji 👍🏽 mid-text", "zero\u200bwidth", "(((", "line\r\nbreak", "x" * 400]


def by_token_objects(doc) -> ParsedText:
    """The straightforward reading, through spaCy's Token and Span objects."""
    tokens = [Token(t.i, t.text, t.lemma_ or t.text, t.pos_, t.tag_, t.dep_, t.head.i, t.idx, t.idx + len(t.text))
              for t in doc]
    has_parse = doc.has_annotation("DEP")
    sentences = ([(s.start, s.end) for s in doc.sents] if has_parse or doc.has_annotation("SENT_START")
                 else [(0, len(doc))])
    mentions = [Mention(e.start, e.end, e.start_char, e.end_char, e.text, e.label_) for e in doc.ents]
    return ParsedText(doc.text, tokens, sentences, mentions, scheme="clear", has_parse=has_parse)


@pytest.fixture(scope="module")
def texts(shared_data):
    from factcov.domains.rag import webnlg

    generations = webnlg.load_generations(shared_data / "webnlg2020" / "submissions", range(1, 41))
    return [g.text for g in generations] + HOSTILE


@pytest.mark.slow
def test_the_same_parse_as_spacys_own_objects(texts):
    parser = spacy_backend.SpacyParser()
    for text, doc in zip(texts, parser.pipe(texts)):
        parsed = spacy_backend.to_parsed(doc)
        assert parsed == by_token_objects(doc), text
        assert parsed.text == text  # spaCy's tokenization loses no character
    assert any(t.head < t.i for p in parser.parse(texts[:20]) for t in p.tokens)  # heads before their child


def test_a_pipeline_without_parser_or_with_a_sentencizer_only(texts):
    import spacy

    blank = spacy.blank("en")
    for text in texts[:60]:
        assert spacy_backend.to_parsed(blank(text)) == by_token_objects(blank(text))
    blank.add_pipe("sentencizer")
    for text in texts[:60]:
        parsed = spacy_backend.to_parsed(blank(text))
        assert parsed == by_token_objects(blank(text)) and not parsed.has_parse


@pytest.mark.slow
def test_streamed_parses_are_the_batch_parses(texts):
    from factcov.plugins import get_extractor

    extractor = get_extractor("rag-spacy", "en", batch_size=7)
    assert list(extractor.iter_parse(iter(texts))) == extractor.parse(texts)


def test_children_are_the_tokens_pointing_at_their_head(texts):
    parsed = spacy_backend.SpacyParser().parse(texts[:20])
    for p in parsed:
        for token in p.tokens:
            expected = [t for t in p.tokens if t.head == token.i and t.i != token.i]
            assert p.kids(token.i) == expected
            assert p.kids(token.i, "nsubj") == [t for t in expected if t.dep == "nsubj"]
