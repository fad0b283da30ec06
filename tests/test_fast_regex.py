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


# --- the disk cache of programs (extractors/program_cache.py) ---------------------------

from factcov.extractors import program_cache  # noqa: E402
from factcov.extractors.program_cache import CACHE_VARIABLE, ProgramCache, code_key  # noqa: E402

PATTERN = r"\b(?:\d{1,2}|one|two|three)\s+laps?\b"
TEXT = "one lap, 12 laps, three  laps and 123 laps"


def _matches(pattern: re.Pattern[str]) -> list[tuple[tuple[int, int], tuple]]:
    return [(m.span(), m.groups()) for m in pattern.finditer(TEXT)]


@pytest.fixture
def fresh_cache(tmp_path, monkeypatch):
    """compile_fast with an empty cache in ``tmp_path`` (and its in-process memo cleared)."""
    if fast_regex.PLAIN_BECAUSE is not None:
        pytest.skip(f"plain patterns here ({fast_regex.PLAIN_BECAUSE})")

    def install(key: str = "k") -> ProgramCache:
        cache = ProgramCache(key, tmp_path)
        monkeypatch.setattr(fast_regex, "_CACHE", cache)
        fast_regex._compile_fast.cache_clear()
        return cache

    yield install
    fast_regex._compile_fast.cache_clear()


def test_a_program_written_by_one_run_is_read_by_the_next(fresh_cache, monkeypatch):
    first = fresh_cache()
    fast = compile_fast(re.compile(PATTERN))
    first.save()
    fresh_cache()

    def not_again(source, flags):
        raise AssertionError("the program was written again")

    monkeypatch.setattr(fast_regex, "_program", not_again)
    cached = compile_fast(re.compile(PATTERN))
    assert cached is not None and _matches(cached) == _matches(fast) == _matches(re.compile(PATTERN))
    assert cached.pattern == PATTERN and cached.groupindex == fast.groupindex


def test_another_key_reads_nothing(fresh_cache):
    """The key (interpreter, engine format, the source of the code writing programs) names the file
    and is checked inside it: a file of another key, even renamed to this key's name, is ignored."""
    first = fresh_cache("old")
    compile_fast(re.compile(PATTERN))
    first.save()
    assert ProgramCache("new", first.path.parent).entries == {}
    first.path.rename(first.path.with_name(ProgramCache("new", first.path.parent).path.name))
    assert ProgramCache("new", first.path.parent).entries == {}
    assert ProgramCache("old", first.path.parent).entries == {}  # gone: renamed


def test_the_key_changes_with_the_code_that_writes_programs(tmp_path):
    import types

    module = types.ModuleType("writer")
    module.__file__ = str(tmp_path / "writer.py")
    (tmp_path / "writer.py").write_text("A = 1\n")
    before = code_key(module)
    (tmp_path / "writer.py").write_text("A = 2\n")
    assert code_key(module) != before
    assert code_key(module, extra="another engine") != code_key(module)
    module.__file__ = str(tmp_path / "missing.py")
    assert code_key(module) is None  # no source to key on: nothing cached
    assert ProgramCache(None, tmp_path).path is None


@pytest.mark.parametrize("damage", ["garbage", "flipped", "truncated", "empty"])
def test_a_damaged_cache_is_ignored_and_rewritten(fresh_cache, damage):
    first = fresh_cache()
    compile_fast(re.compile(PATTERN))
    first.save()
    data = first.path.read_bytes()
    damaged = {"garbage": b"not a cache at all", "flipped": data[:-20] + bytes([data[-20] ^ 1]) + data[-19:],
               "truncated": data[: len(data) // 2], "empty": b""}[damage]
    first.path.write_bytes(damaged)
    again = fresh_cache()
    assert again.entries == {}
    assert _matches(compile_fast(re.compile(PATTERN))) == _matches(re.compile(PATTERN))
    again.save()
    assert ProgramCache("k", first.path.parent).entries.keys() == again.entries.keys()


def test_a_program_the_engine_refuses_is_written_anew(fresh_cache):
    cache = fresh_cache()
    flags = re.compile(PATTERN).flags
    cache.entries[PATTERN, flags] = (flags, [1, 2, 3], 0, {}, (None,))  # not a valid program
    fast = compile_fast(re.compile(PATTERN))
    assert _matches(fast) == _matches(re.compile(PATTERN))
    assert cache.entries[PATTERN, flags][1] != [1, 2, 3]


def _run_with_cache(env: dict[str, str], code: str) -> str:
    return subprocess.run([sys.executable, "-c", code], env={**os.environ, **env}, capture_output=True, text=True,
                          check=True).stdout


def test_a_process_saves_its_programs_at_exit_and_the_next_one_reads_them(tmp_path):
    if fast_regex.PLAIN_BECAUSE is not None:
        pytest.skip(f"plain patterns here ({fast_regex.PLAIN_BECAUSE})")
    code = ("import re; from factcov.extractors import fast_regex as f;"
            f"print(len(f._CACHE.entries)); f.compile_fast(re.compile(r'{PATTERN}'))")
    env = {CACHE_VARIABLE: str(tmp_path), PLAIN_VARIABLE: ""}
    _run_with_cache(env, code)
    assert len(list(tmp_path.glob("regex-programs-*.marshal"))) == 1
    assert int(_run_with_cache(env, code)) >= len(fast_regex._PROBES) + 1  # the probes and the pattern


@pytest.mark.parametrize("env", [{PLAIN_VARIABLE: "1"}, {CACHE_VARIABLE: "off"}])
def test_plain_patterns_or_the_cache_turned_off_write_nothing(tmp_path, env):
    code = "import re; from factcov.extractors import fast_regex as f; print(f._CACHE.path)"
    folder = tmp_path / "cache"
    out = _run_with_cache({CACHE_VARIABLE: str(folder), **env}, code)
    assert out.strip() == "None" and not folder.exists()


def test_the_cache_folder_follows_the_environment(monkeypatch, tmp_path):
    monkeypatch.delenv(CACHE_VARIABLE, raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert program_cache.cache_dir() == tmp_path / "factcov"
    monkeypatch.setenv(CACHE_VARIABLE, str(tmp_path / "mine"))
    assert program_cache.cache_dir() == tmp_path / "mine"


# --- compile_cached: re.compile's own program, through the same disk cache ----------------


def test_compile_cached_is_re_compile_for_every_weather_rule():
    """The same program (``re.Pattern`` equality compares source, flags and code)."""
    from factcov.domains.weather.grammar import Grammar

    for language in ("en", "es", "pt"):
        for pattern, _action, _gate in Grammar(language).rules:
            plain = re.compile(pattern.pattern, pattern.flags)
            assert pattern == plain and pattern.groupindex == plain.groupindex, pattern.pattern
    for source, flags in ((PATTERN, 0), (r"(?i)Max (?P<n>\d+)", 0), (r"\w+", re.ASCII), (r"a.b", re.S | re.M)):
        assert fast_regex.compile_cached(source, flags) == re.compile(source, flags)


def test_compile_cached_reads_the_program_an_earlier_run_wrote(fresh_cache, monkeypatch):
    first = fresh_cache()
    fast_regex._compile_cached.cache_clear()
    written = fast_regex.compile_cached(PATTERN)
    assert first.entries["plain", PATTERN, 0] is not None
    first.save()
    fresh_cache()
    fast_regex._compile_cached.cache_clear()

    class NoParser:
        def parse(self, *args):
            raise AssertionError("parsed again")

    monkeypatch.setattr(fast_regex, "P", NoParser())
    read = fast_regex.compile_cached(PATTERN)
    assert read == written == re.compile(PATTERN) and _matches(read) == _matches(re.compile(PATTERN))
    fast_regex._compile_cached.cache_clear()


def test_the_f1_grammar_is_read_from_the_programs_an_earlier_run_wrote(fresh_cache, monkeypatch):
    """The f1 lexicon's patterns go through ``compile_cached``: a second process (here: the
    memos emptied) builds the grammar without parsing one of them, and gets the same patterns."""
    from factcov.domains.f1 import lexicon

    first = fresh_cache()
    fast_regex._compile_cached.cache_clear()
    written = lexicon._lexicon("es")
    first.save()
    fresh_cache()
    fast_regex._compile_cached.cache_clear()
    re.purge()  # re.compile's own memo too

    def parse(*args):
        raise AssertionError("parsed again")

    with monkeypatch.context() as patched:
        patched.setattr(fast_regex, "P", type("NoParser", (), {"parse": staticmethod(parse)})())
        patched.setattr(re._parser, "parse", parse)
        read = lexicon._lexicon("es")
    assert read == written  # every field: the patterns compare by source, flags and program
    fast_regex._compile_cached.cache_clear()


def test_a_run_decodes_only_the_entries_it_reads(fresh_cache):
    """The cache file holds every domain's programs; a run decodes those its grammar asks for
    (the others stay bytes, and go back to the file as they came), so reading a file of f1's
    few hundred programs costs a weather run little."""
    first = fresh_cache()
    sources = [PATTERN, r"\b(?:rain|snow)\s+showers?\b", r"\bgusts?\s+(?:as\s+high\s+as|up\s+to)\s+\d+\b"]
    for source in sources:
        compile_fast(re.compile(source))
    first.save()
    second = fresh_cache()
    assert set(second.entries) == {(source, re.UNICODE) for source in sources}
    cached = compile_fast(re.compile(sources[1]))
    assert _matches(cached) == _matches(re.compile(sources[1]))
    assert set(second.entries.decoded) == {(sources[1], re.UNICODE)}
    second.put(r"\bnew\b", 0, None)  # a new entry: the file is written again, the others as they were
    second.save()
    third = ProgramCache("k", second.path.parent)
    assert set(third.entries) == {*second.entries, (r"\bnew\b", 0)}
    assert all(third.entries[key] == first.entries[key] for key in first.entries)
