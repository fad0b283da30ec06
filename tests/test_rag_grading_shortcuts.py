"""The shortcuts of rag's unit grading against their plain twins, on real texts.

- ``UnitSet.holds_run``/``holds_near`` find an entity's words in a row, or a link's two
  arguments near each other, from an index of where each word stands; the plain way
  (``_contiguous``/``_near``) scans every sentence and segment at every position.
- ``grade_unit`` keeps an entity's, a link's or a span's grade per set graded against;
  the grader alone computes it afresh.
- The Snowball stems: PyStemmer's C code (which snowballstemmer uses when it is
  installed) against snowballstemmer's own pure-Python English stemmer.

Texts: HaluEval QA (../shared/data/halueval-qa, MIT): answers, references and passages.
"""

from __future__ import annotations

import json
import re
from itertools import islice

import pytest

from factcov.domains.rag.units import _GRADERS, _contiguous, _near, grade_unit, read_units, text_units

QUESTIONS = 40


@pytest.fixture(scope="module")
def texts(shared_data):
    path = shared_data / "halueval-qa" / "qa_one-turn_data.json"
    with open(path, encoding="utf-8") as lines:
        rows = [json.loads(line) for line in islice(lines, QUESTIONS)]
    return rows


@pytest.fixture(scope="module")
def parsed(texts):
    from factcov.plugins import get_extractor

    extractor = get_extractor("rag-spacy", "en")
    flat = [t for row in texts for t in (row["right_answer"], row["hallucinated_answer"], row["knowledge"])]
    parses = extractor.parse(flat)
    return [parses[i:i + 3] for i in range(0, len(parses), 3)]


def test_runs_and_links_are_found_as_the_plain_scan_finds_them(parsed):
    checked = found = 0
    for right, wrong, passage in parsed:
        against = text_units([passage])
        runs = against.sentences + against.segments
        for answer in (right, wrong, passage):
            units = read_units(answer, span=True).units
            for unit in units:
                if unit.kind == "entity":
                    plain = any(_contiguous(unit.words, run) for run in runs)
                    assert against.holds_run(unit.words) == plain, unit
                elif unit.kind == "link":
                    plain = any(_near(unit.words, unit.other, run) for run in runs)
                    assert against.holds_near(unit.words, unit.other) == plain, unit
                    # the arguments swapped, and one argument against itself
                    assert against.holds_near(unit.other, unit.words) == any(
                        _near(unit.other, unit.words, run) for run in runs)
                    assert against.holds_near(unit.words, unit.words) == any(
                        _near(unit.words, unit.words, run) for run in runs)
                else:
                    continue
                checked += 1
                found += plain
    assert checked > 500 and 0 < found < checked  # both outcomes met, on many units


def test_a_kept_grade_is_the_grade_computed_afresh(parsed):
    for right, wrong, passage in parsed:
        against = text_units([passage])
        for answer in (right, wrong):
            for unit in read_units(answer, span=True).units:
                first, again = grade_unit(unit, against), grade_unit(unit, against)
                assert first == again == _GRADERS[unit.kind](unit, against)


def test_the_c_stemmer_gives_the_pure_python_stems(texts):
    stemmer = pytest.importorskip(
        "Stemmer", reason="needs the rag extra (PyStemmer): .ci/run installs it for the pandas-2 run (factcov[all]); "
        "the pandas-3 run leaves it out, so the suite runs there on the pure-Python stems")
    from snowballstemmer.english_stemmer import EnglishStemmer

    from factcov.domains.rag.lexicon import _english_stemmer

    words = sorted({w.lower() for row in texts for key in ("knowledge", "right_answer", "hallucinated_answer", "question")
                    for w in re.findall(r"[^\W\d_]+", row[key])})
    assert len(words) > 1000
    c, plain = stemmer.Stemmer("english"), EnglishStemmer()
    assert [c.stemWord(w) for w in words] == [plain.stemWord(w) for w in words]
    assert [_english_stemmer().stemWord(w) for w in words] == [plain.stemWord(w) for w in words]
