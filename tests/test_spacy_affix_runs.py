"""A long run of punctuation or symbols (emoji, "!!!…") is parsed in linear time.

spaCy's tokenizer strips affixes one character at a time over the rest of the token, so
such a run was quadratic (2,000 emoji 0.36 s, 8,000 5.7 s: a rag answer of emoji hung
`factcov rag score`). ``spacy_backend.parseable`` cuts it with a space every AFFIX_RUN
characters, keeping every offset. CPU times of n and 4n characters are compared in this
process (linear gives ~4, quadratic ~16), as in tests/test_extractor_scaling.py."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from factcov.extractors.spacy_backend import AFFIX_RUN, SpacyParser, parseable

MUSEUM = Path(__file__).resolve().parents[1] / "domains" / "rag" / "museum.jsonl"


def _answers() -> list[str]:
    rows = [json.loads(line) for line in MUSEUM.read_text(encoding="utf-8").splitlines() if line.strip()]
    return [value for row in rows for value in row.values() if isinstance(value, str) and " " in value]


def test_prose_is_parsed_as_written():
    texts = _answers()
    assert len(texts) > 5
    for text in texts + ["Wait... what?!", "-- see https://example.org/a_b?c=d&e=f#g --", "«Guernica» (1937)!!!"]:
        assert parseable(text) is text


@pytest.mark.parametrize("run", ["😀", "!", "%", "'", "(", "→·"])
@pytest.mark.parametrize("length", [AFFIX_RUN + 1, 2 * AFFIX_RUN, 1000])
def test_a_long_run_is_cut_by_spaces_without_moving_an_offset(run, length):
    symbols = (run * length)[:length]
    text = f"The Louvre {symbols} is in Paris."
    cut = parseable(text)
    assert len(cut) == len(text)
    assert cut.index("is in Paris") == text.index("is in Paris")
    start = text.index(symbols)
    changed = [i for i, (a, b) in enumerate(zip(text, cut)) if a != b]
    assert changed == [start + i for i in range(AFFIX_RUN - 1, length, AFFIX_RUN)]  # one space in every AFFIX_RUN
    assert all(cut[i] == " " for i in changed)
    assert max(len(piece) for piece in cut.split(" ")) <= AFFIX_RUN


def _cpu(parser: SpacyParser, symbol: str, size: int) -> float:
    """Best of two parses of a text with a run of ``size`` symbols; the second run is one
    symbol longer (spaCy caches the tokens of a chunk it has met)."""
    best = float("inf")
    for attempt in range(2):
        text = f"The Louvre is in Paris. {symbol * (size + attempt)} Monet painted it."
        started = time.process_time()
        parser.parse([text])
        best = min(best, time.process_time() - started)
    return max(best, 0.005)


@pytest.fixture(scope="module")
def tokenizer_only(tmp_path_factory) -> SpacyParser:
    """English's tokenizer (the step that was quadratic) without the model's slower,
    linear components, loaded the way a user names a model folder."""
    import spacy

    folder = tmp_path_factory.mktemp("blank_en")
    spacy.blank("en").to_disk(folder)
    return SpacyParser(model=str(folder))


@pytest.mark.parametrize("symbol", ["😀", "!", "%"])
def test_a_run_of_symbols_is_tokenized_in_linear_time(tokenizer_only, symbol):
    n = 2_000  # unfixed: 0.3-0.6 s, and 5-9 s for 4n
    ratio = _cpu(tokenizer_only, symbol, 4 * n) / _cpu(tokenizer_only, symbol, n)
    assert ratio < 8, f"{symbol * 3}: 4x the run took {ratio:.1f}x the CPU time"


def test_the_words_after_a_cut_run_keep_their_offsets_and_parse():
    text = "The Louvre is in Paris. " + "😀" * 300 + " Claude Monet painted Water Lilies in Giverny."
    parsed = SpacyParser().parse([text])[0]
    monet = next(token for token in parsed.tokens if token.text == "Monet")
    assert monet.start == text.index("Monet") and parsed.text[monet.start: monet.end] == "Monet"
    assert len(parsed.text.rstrip()) == len(text.rstrip())
    assert any(mention.text == "Claude Monet" and mention.char_start == text.index("Claude") for mention in parsed.mentions)
