"""compile_fast (extractors/fast_regex.py): regex programs written only where the feature test
passes, the plain ``re.compile`` pattern anywhere else, and the same claims either way."""

from __future__ import annotations

import importlib.util
import json
import os
import re
import subprocess
import sys

import pytest

from factcov.extractors import fast_regex
from factcov.extractors.fast_regex import PLAIN_VARIABLE, compile_fast


def test_ci_s_python_gets_the_fast_programs():
    """CI runs CPython 3.11, the format the programs are written for: there the feature test passes."""
    if sys.implementation.name == "cpython" and sys.version_info[:2] == (3, 11):
        assert fast_regex.PLAIN_BECAUSE is None
    pattern = re.compile(r"\b(?:pit|stop)s?\b")
    assert (compile_fast(pattern) is pattern) == (fast_regex.PLAIN_BECAUSE is not None)


def test_an_engine_format_it_was_not_checked_against_gets_plain_patterns(monkeypatch):
    monkeypatch.setattr(fast_regex, "KNOWN_FORMATS", frozenset({1}))
    assert "not one compile_fast was checked against" in fast_regex._plain_because()
    monkeypatch.setattr(fast_regex, "PLAIN_BECAUSE", fast_regex._plain_because())
    pattern = re.compile(r"\b(?:pit|stop)s?\b")
    assert compile_fast(pattern) is pattern


def test_a_missing_private_function_gets_plain_patterns(monkeypatch):
    monkeypatch.delattr(fast_regex._compiler, "_get_charset_prefix")
    assert "lacks re._compiler._get_charset_prefix" in fast_regex._plain_because()


def test_the_environment_variable_forces_plain_patterns():
    code = ("import re; from factcov.extractors import fast_regex as f; p = re.compile(r'\\bstop');"
            "print(f.PLAIN_BECAUSE); print(f.compile_fast(p) is p)")
    out = subprocess.run([sys.executable, "-c", code], env={**os.environ, PLAIN_VARIABLE: "1"},
                         capture_output=True, text=True, check=True).stdout.splitlines()
    assert out == [f"{PLAIN_VARIABLE} is set", "True"]


@pytest.mark.slow
def test_the_f1_claim_digest_is_the_same_with_plain_patterns(repo_root, shared_data, tmp_path):
    """The whole corpus of benchmarks/f1_claims_digest.py (~16,000 texts) read here, with the fast
    programs, and in a process where every pattern is plain: the same claims on every text."""
    if fast_regex.PLAIN_BECAUSE is not None:
        pytest.skip(f"this interpreter gets plain patterns anyway ({fast_regex.PLAIN_BECAUSE}): nothing to compare")
    script = repo_root / "benchmarks" / "f1_claims_digest.py"
    plain_out = tmp_path / "plain.jsonl"
    plain = subprocess.Popen([sys.executable, str(script), "--data", str(shared_data / "f1"),
                              "--tests", str(repo_root / "tests"), "--out", str(plain_out)],
                             env={**os.environ, PLAIN_VARIABLE: "1"}, stdout=subprocess.DEVNULL)
    spec = importlib.util.spec_from_file_location("f1_claims_digest", script)
    digest = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(digest)
    fast_lines = digest.claim_lines(shared_data / "f1", repo_root / "tests")
    assert plain.wait() == 0
    plain_lines = plain_out.read_text(encoding="utf-8").splitlines()
    assert len(plain_lines) == len(fast_lines) > 10_000
    differ = [i for i, (a, b) in enumerate(zip(fast_lines, plain_lines)) if a != b]
    assert not differ, f"{len(differ)} texts differ, the first: {json.loads(plain_lines[differ[0]])[:2]}"
