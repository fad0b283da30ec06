"""The fast building blocks a regex extractor's hot path uses: trusted claims, the span
mask on long texts, a negation cue right before a match."""

from __future__ import annotations

import random

import pytest
from pydantic import ValidationError

from factcov.extractors.claims import trusted_claim
from factcov.extractors.patterns import SpanMask, negated_right_before
from factcov.language import fold
from factcov.model import Claim


@pytest.mark.parametrize(("key", "value"), [({}, 30), ({"kind": "high"}, [46, 49]), ({"qualifier": "chance"}, "snow")])
def test_trusted_claim_is_the_claim_model_construct_and_validation_make(key, value):
    fields = dict(type="temperature", key=key, value=value, span=(3, 9), text="near 30", extractor="x")
    fast = trusted_claim(*fields.values())
    assert fast == Claim.model_construct(**fields) == Claim(**fields)
    assert fast.model_fields_set == Claim.model_construct(**fields).model_fields_set
    assert fast.model_dump() == Claim(**fields).model_dump()
    assert fast.model_dump_json() == Claim(**fields).model_dump_json()
    assert fast.statement_span is None and fast.out_of_scope is None
    with pytest.raises(ValidationError):  # frozen like any Claim
        fast.value = 31


def test_trusted_claims_share_only_a_fields_set_that_nothing_changes_in_place():
    a = trusted_claim("sky", {}, "clear", (0, 5), "sunny", "x")
    b = trusted_claim("sky", {}, "cloudy", (0, 6), "cloudy", "x")
    assert a.value == "clear" and b.value == "cloudy"
    assert a.__dict__ is not b.__dict__
    for change in (lambda: setattr(a, "value", "rain"), lambda: delattr(a, "out_of_scope")):
        with pytest.raises(ValidationError):
            change()
    copied = a.model_copy(update={"out_of_scope": "next week"})
    assert "out_of_scope" in copied.model_fields_set
    assert a.model_fields_set == b.model_fields_set == {"type", "key", "value", "span", "text", "extractor"}


def test_span_mask_on_a_long_text_refuses_exactly_the_overlaps():
    mask = SpanMask()
    taken = [mask.take((i, i + 3)) for i in range(0, 300_000, 2)]
    assert taken == [i % 2 == 0 for i in range(150_000)]  # every other one overlaps its predecessor
    assert len(mask.spans) == 75_000 and mask.spans[:2] == [(0, 3), (4, 7)]
    assert mask.overlaps((2, 4)) and not mask.overlaps((3, 4)) and not mask.overlaps((400_000, 400_010))


def test_span_mask_built_from_spans_and_empty_spans():
    mask = SpanMask([(5, 10), (10, 12)])
    assert mask.overlaps((9, 11)) and not mask.overlaps((0, 5)) and not mask.overlaps((12, 20))
    assert mask.overlaps((7, 7)) and not mask.overlaps((10, 10))  # strictly inside a span, or between two
    assert not mask.take((11, 13)) and mask.spans == [(5, 10), (10, 12)]


@pytest.mark.parametrize(("text", "language", "expected"), [
    ("No rain is expected", "en", True),
    ("Without  rain", "en", True),
    ("Not much rain", "en", False),  # the cue is not the word right before
    ("Snow, no rain", "en", True),
    ("Sin lluvia", "es", True),
    ("Sem chuva", "pt", True),
    ("Não chuva", "pt", True),
    ("Chuva no norte", "pt", False),  # pt "no" is "in the"
    ("Casino rain", "en", False),  # a cue inside a word is none
])
def test_negated_right_before(text, language, expected):
    folded = fold(text)
    word = {"en": "rain", "es": "lluvia", "pt": "chuva"}[language]
    start = folded.rindex(word) if language != "pt" or "norte" not in folded else folded.index("norte")
    assert negated_right_before(folded, start, language) is expected


def test_fold_by_runs_is_the_character_table_on_any_text():
    import random

    from factcov.language import _FOLD_TABLE

    rng = random.Random(12)
    texts = ["Máxima de 30 °F, VIENTO del NORDESTE", "Ação É ÇA ñÑ ß İ ǅ ﬁ", "a\u0301b", "日本語 ABC é"]
    for _ in range(3000):
        texts.append("".join(chr(rng.choice((rng.randrange(128), rng.randrange(128, 0x3000), rng.randrange(0x110000))))
                             for _ in range(rng.randrange(40))))
    # Latin-1 throughout (folded as bytes through one table), every one of its characters
    texts.append("".join(map(chr, range(256))))
    for _ in range(3000):
        texts.append("".join(chr(rng.choice((rng.randrange(128), rng.randrange(128, 256)))) for _ in range(rng.randrange(40))))
    for text in texts:
        assert fold(text) == text.translate(_FOLD_TABLE) and len(fold(text)) == len(text)


def test_negated_right_before_with_a_domain_s_own_cues():
    folded = fold("Never rain; no snow")
    assert negated_right_before(folded, folded.index("rain"), "en")
    assert not negated_right_before(folded, folded.index("rain"), cues=("no", "not"))
    assert negated_right_before(folded, folded.index("snow"), cues=("no", "not"))


def test_a_span_set_keeps_the_first_of_overlapping_spans_and_all_of_disjoint_ones():
    """SpanSet takes spans already disjoint as given (the fast path) and otherwise adds them
    one by one in order, an overlapping one dropped: both agree with adding one by one."""
    from factcov.extractors.spans import SpanSet

    rng = random.Random(5)
    for _ in range(500):
        spans = []
        for _ in range(rng.randint(0, 8)):
            start = rng.randint(0, 30)
            spans.append((start, start + rng.randint(0, 5)))
        one_by_one = SpanSet()
        for start, end in sorted(spans):
            one_by_one.add(start, end)
        built = SpanSet(spans)
        assert len(built) == len(one_by_one)
        for start in range(0, 37):
            for end in range(start, start + 4):
                assert built.overlaps(start, end) == one_by_one.overlaps(start, end), (spans, start, end)


def test_sentence_ends_are_those_of_the_cut_at_a_space_rule_on_short_and_long_texts():
    """bounded_sentence_ends (a text within the limit takes the ends as found) against the
    rule written out: each end in order, a run longer than the limit cut at its last space."""
    import re

    from factcov.extractors.spans import bounded_sentence_ends

    def written_out(text, sentence_end, limit):
        start = 0
        for end in [m.end() for m in sentence_end.finditer(text)] + [len(text)]:
            while end - start > limit:
                cut = text.rfind(" ", start + limit // 2, start + limit)
                cut = cut + 1 if cut != -1 else start + limit
                yield cut
                start = cut
            if end > start:
                yield end
                start = end

    sentence_end = re.compile(r"\.(?=\s|$)|!(?<!\d!)(?=\s|$)|\?(?<!\d\?)(?=\s|$)|\n")
    rng = random.Random(8)
    for _ in range(5000):
        text = "".join(rng.choice("ab .!?\n1") for _ in range(rng.randint(0, 60)))
        for limit in (5, 11, len(text), max(1, len(text) - 1), 2000):
            assert list(bounded_sentence_ends(text, sentence_end, limit)) == list(written_out(text, sentence_end, limit))
