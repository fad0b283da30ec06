"""The anchors' analysis of a pattern kept on disk between runs (extractors/anchors.py, its
store a ``ProgramCache`` named "regex-anchors"): read back the same, keyed by the code."""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest

from factcov.extractors import anchors as A
from factcov.extractors.program_cache import CACHE_VARIABLE, ProgramCache, code_key

PATTERNS = [
    r"\b(\d+)[- ]stops?\b",
    r"\b(?:won|win|victory)\b",
    r"\b(?:was|is)\s+(?P<who>[A-Z]\w+)",
    r"(?:chance|probability) of (?:rain|snow)\s*(?P<n>\d{1,3})\s*(?:%|per[\s-]?cent)",
    r"\b(?:one|two|three)\s+laps?\b|\bpit\b",
    r"[A-Z]\w+",  # no anchors at all
]


@pytest.fixture
def store(tmp_path, monkeypatch):
    """The anchors' store in ``tmp_path`` (in-process memos cleared): ``install(key)``."""

    def install(key: str | None = "k") -> ProgramCache:
        fresh = ProgramCache(key, tmp_path, name="regex-anchors")
        monkeypatch.setattr(A, "_store", lambda: fresh)
        A._anchors.cache_clear()
        A._piece_anchor_sets.cache_clear()
        return fresh

    yield install
    A._anchors.cache_clear()
    A._piece_anchor_sets.cache_clear()


def _analyses() -> list[object]:
    out: list[object] = []
    for source in PATTERNS:
        pattern = re.compile(source)
        out += [A.anchors(pattern), A.word_start_anchors(pattern), A.piece_anchor_sets(source, pattern.flags)]
    return out


def test_an_analysis_kept_by_one_run_is_read_by_the_next_and_is_the_same(store, monkeypatch):
    first = store()
    worked_out = _analyses()
    first.save()
    store()

    def not_again(*args):
        raise AssertionError("analysed again")

    monkeypatch.setattr(A, "_analyse", not_again)
    monkeypatch.setattr(A, "_analyse_pieces", not_again)
    assert _analyses() == worked_out


def test_pieces_are_a_list_of_the_callers_own(store):
    """``extractors/rules.py`` extends the list it is given: the kept one must not grow."""
    store()
    mine = A.piece_anchor_sets(PATTERNS[3], 0)
    mine.append(frozenset({"extra"}))
    assert frozenset({"extra"}) not in A.piece_anchor_sets(PATTERNS[3], 0)


def test_a_damaged_store_is_ignored(store):
    first = store()
    worked_out = _analyses()
    first.save()
    first.path.write_bytes(first.path.read_bytes()[:-7])
    assert store().entries == {}
    assert _analyses() == worked_out


def test_the_key_covers_this_module_and_the_regex_parser(tmp_path, monkeypatch):
    """Another ``anchors.py`` (or ``re._parser``) is another file: nothing of the old read."""
    A._store.cache_clear()
    try:
        key = A._store().key
        assert key == code_key(A.P, A.C, A)
        copy = tmp_path / "anchors.py"
        copy.write_text(open(A.__file__, encoding="utf-8").read() + "\n# changed\n", encoding="utf-8")
        monkeypatch.setattr(A, "__file__", str(copy))
        A._store.cache_clear()
        assert A._store().key != key
    finally:
        A._store.cache_clear()


def test_a_process_keeps_its_analyses_at_exit(tmp_path):
    code = ("import re; from factcov.extractors import anchors as A;"
            "print(len(A._store().entries)); A.anchors(re.compile(r'\\b(?:won|win)\\b'))")
    env = {**os.environ, CACHE_VARIABLE: str(tmp_path)}
    first = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert first.stdout.strip() == "0"
    assert len(list(tmp_path.glob("regex-anchors-*.marshal"))) == 1
    again = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert again.stdout.strip() == "1"


def test_the_store_turned_off_keeps_nothing(tmp_path):
    code = "from factcov.extractors import anchors as A; print(A._store().path)"
    env = {**os.environ, CACHE_VARIABLE: "off"}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "None"


WORKER_RUN = """
import re, sys
from types import SimpleNamespace as Piece
from factcov.extractors import anchors as A
from factcov.parallel import forked_scorer

class Evaluator:  # what forked_scorer asks of an evaluator
    def prebuild(self, instances):
        pass

def score_chunk(evaluator, pairs):  # in a worker: analyses nobody asked for before
    return [sorted(A.anchors(re.compile(piece.id)) or ()) for piece, _ in pairs]

with forked_scorer(Evaluator(), 2, {}, score_chunk) as scored:
    print(list(scored([[(Piece(id="\\\\bworker(?:one|two)\\\\b"), None)],
                       [(Piece(id="\\\\bsecond(?:a|b)\\\\b"), None)]])))
"""


def test_what_a_forked_worker_works_out_is_kept(tmp_path):
    """A --jobs worker ends by os._exit (no atexit): its new analyses are written when it
    ends, so the next run reads them instead of working them out again."""
    env = {**os.environ, CACHE_VARIABLE: str(tmp_path)}
    done = subprocess.run([sys.executable, "-c", WORKER_RUN], env=env, capture_output=True, text=True, check=True)
    assert "workerone" in done.stdout
    stored = ProgramCache(A._store().key, tmp_path, name="regex-anchors").entries
    assert ("anchors", r"\bworker(?:one|two)\b", re.UNICODE, False) in stored
    assert ("anchors", r"\bsecond(?:a|b)\b", re.UNICODE, False) in stored
