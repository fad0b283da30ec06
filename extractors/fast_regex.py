"""``compile_fast(pattern)``: the one place factcov writes regular-expression programs itself.

Python's ``re`` compiles a pattern to a program for its engine (``_sre``); the program's
format is private and changes between Python versions. The f1 grammar's patterns open with
``\\b`` or a long alternation, which the engine tries at every position of a text;
``compile_fast`` writes the same pattern as a program the engine can skip through (below),
several times faster on those patterns, with the same matches and groups.

A program written for another engine could be *wrong*, not an error, so the programs are
written only where a feature test says the engine is the one they are written for
(``PLAIN_BECAUSE`` is None): CPython, the program format ``re._constants.MAGIC`` this code
was checked against (``KNOWN_FORMATS``), every private function it calls, and probe
patterns matching what they match plainly. Anywhere else, and with ``FACTCOV_PLAIN_REGEX=1``
in the environment, ``compile_fast`` returns the pattern as ``re.compile`` made it: slower,
the same claims (``tests/test_fast_regex.py`` reads the f1 claim digest both ways). To
enable a new Python, run that test on it and add its ``MAGIC`` to ``KNOWN_FORMATS``.

The programs are kept on disk between runs (``extractors/program_cache.py``: keyed by the
interpreter, the engine's format and the source of the code that writes them; a damaged
or foreign cache is ignored), so a grammar's patterns are parsed and rewritten once, not
in every process.
"""

from __future__ import annotations

import os
import re
import sys
from functools import lru_cache
from re import _compiler  # type: ignore[attr-defined]
from re import _constants as C  # type: ignore[attr-defined]
from re import _parser as P  # type: ignore[attr-defined]

from factcov.extractors.program_cache import MISSING, ProgramCache, cache_dir, code_key

try:  # CPython's engine; other interpreters may have none (then every pattern stays plain)
    import _sre  # type: ignore[import-not-found]
except ImportError:  # pragma: no cover - CPython always has it
    _sre = None

__all__ = ["KNOWN_FORMATS", "PLAIN_BECAUSE", "PLAIN_VARIABLE", "compile_cached", "compile_fast"]

# The engine program formats (``re._constants.MAGIC``) the programs below were checked
# against: CPython 3.11's. CPython changes MAGIC whenever its opcodes or their layout change.
KNOWN_FORMATS = frozenset({20220615})
PLAIN_VARIABLE = "FACTCOV_PLAIN_REGEX"
# the private names used below: an engine without one of them gets plain patterns
_PRIVATE = {_compiler: ("_code", "_compile", "_compile_charset", "_get_charset_prefix", "_optimize_charset", "MAXCODE"),
            C: ("INFO", "SRE_INFO_CHARSET", "SUCCESS", "LITERAL", "IN", "AT", "AT_BOUNDARY", "AT_BEGINNING", "BRANCH",
                "SUBPATTERN", "ASSERT", "ASSERT_NOT", "MAX_REPEAT", "MIN_REPEAT", "RANGE", "CATEGORY", "NEGATE"),
            P: ("parse", "SubPattern")}
# probe patterns, one per kind of rewrite (a \b moved past the first character, a first-character
# set), and texts on which they must match what they match plainly
_PROBES = (r"\b(?:pit|stop)s?\b", r"\bwhile\b|\bbut\b", r"\b(?:\d{1,2}|one|two|three)\s+laps?\b",
           r"\b(?P<who>[A-Z]\w+) (?:won|led)\b")
_PROBE_TEXTS = ("Pit stops: one stop; no pitstop, 2 laps and three  laps, Max won but Lando led.",
                "spit stop, while-but whilebut 12 laps 123 laps, won Max, Lewis led ", "")


# Python's regex engine skips ahead to a possible first character only when a pattern
# opens with a character, a class or alternatives that each open with a character; a
# pattern that opens with ``\b`` ("\b(?:pit|stop)", "\bwhile\b|\bbut\b") is instead tried
# at every position of the text, several times slower. ``compile_fast`` moves such an
# opening ``\b`` past the first character, as a look-behind: ``\bstop`` becomes
# ``s(?<=\bs)top``. The look-behind tests the same boundary against the same characters
# (before the start of a search too, as ``\b`` does), so the pattern matches exactly
# what it matched, with the same groups.
#
# A pattern whose possible first characters are many or a class ("\b(?:\d{1,2}|one|two|...)
# laps", an ordinal, a number) is instead compiled with those characters as its first-
# character set (the engine's own prefilter, the one it builds for a pattern opening with a
# class): the search tests one character where it ran the pattern's program at every
# position, and runs the program, unchanged, only where a match could open. The set is
# worked out from the whole opening of the pattern (zero-width items skipped, optional
# items joined with what follows), so it holds the first character of every match; it is
# used only when a space is not in it (else most positions are candidates anyway).


# More possible first characters than this (or a class of them) and most of a text's
# letters are among them.
_MAX_FIRST = 8


def compile_fast(pattern: re.Pattern[str]) -> re.Pattern[str]:
    """``pattern`` compiled so the engine can skip to its possible first characters (same
    source, flags, groups and matches); ``pattern`` itself when nothing changes, and always
    when this interpreter's engine is not one the programs are written for (``PLAIN_BECAUSE``)."""
    if PLAIN_BECAUSE is not None or not isinstance(pattern.pattern, str):
        return pattern
    return _compile_fast(pattern.pattern, pattern.flags) or pattern


@lru_cache(maxsize=2048)
def _compile_fast(source: str, flags: int) -> re.Pattern[str] | None:
    """The pattern of ``_program(source, flags)``, the program read from the disk cache
    when an earlier run wrote it (``extractors/program_cache.py``)."""
    entry = _CACHE.get(source, flags)
    if entry is not MISSING:
        try:
            return _built(source, entry)
        except (RuntimeError, TypeError, ValueError, IndexError):  # the engine refused it: written anew
            pass
    entry = _program(source, flags)
    _CACHE.put(source, flags, entry)
    return _built(source, entry)


def compile_cached(source: str, flags: int = 0) -> re.Pattern[str]:
    """``re.compile(source, flags)``: the same program (``re._compiler``'s own, not
    rewritten), read from the disk cache when an earlier run wrote it, so a grammar of
    many patterns is not parsed and compiled again in every process. Plain ``re.compile``
    wherever ``compile_fast`` keeps patterns plain (``PLAIN_BECAUSE``)."""
    if PLAIN_BECAUSE is not None or not isinstance(source, str):
        return re.compile(source, flags)
    return _compile_cached(source, int(flags))


@lru_cache(maxsize=2048)
def _compile_cached(source: str, flags: int) -> re.Pattern[str]:
    entry = _CACHE.get("plain", source, flags)  # keyed apart from the rewritten programs
    if entry is not MISSING:
        try:
            return _built(source, entry)  # type: ignore[return-value]
        except (RuntimeError, TypeError, ValueError, IndexError):  # the engine refused it: written anew
            pass
    tree = P.parse(source, flags)
    entry = _compiled(flags, tree, _compiler._code(tree, flags))
    _CACHE.put("plain", source, flags, entry)
    return _built(source, entry)  # type: ignore[return-value]


# what ``_sre.compile`` takes besides the source (flags, code, groups, groupindex,
# indexgroup); None: the pattern is best left as ``re.compile`` made it
Program = tuple[int, list[int], int, dict[str, int], tuple[str | None, ...]] | None


def _built(source: str, entry: Program) -> re.Pattern[str] | None:
    if entry is None:
        return None
    final_flags, code, groups, groupindex, indexgroup = entry
    return _sre.compile(source, final_flags, code, groups, groupindex, indexgroup)


def _program(source: str, flags: int) -> Program:
    tree = P.parse(source, flags)
    items = _opened(tree.data, tree.state)
    if items is not None:
        plain = tree.data
        tree.data = items
        first = _compiler._get_charset_prefix(tree, flags) if tree.getwidth()[0] else None
        if first and len(set(first)) <= _MAX_FIRST and all(op is C.LITERAL for op, _ in first):
            return _compiled(flags, tree, _compiler._code(tree, flags))
        tree.data = plain  # the engine would still stop at most positions: the look-behinds only cost
    code = _with_first_characters(tree, flags)
    return None if code is None else _compiled(flags, tree, code)


def _compiled(flags: int, tree: P.SubPattern, code: list[int]) -> Program:
    """What ``_sre.compile`` takes for ``code`` (compiled from ``tree``)."""
    groupindex = dict(tree.state.groupdict)
    indexgroup = [None] * tree.state.groups
    for name, index in groupindex.items():
        indexgroup[index] = name
    # plain ints: the opcodes are ``int`` subclasses, which ``marshal`` (the disk cache) refuses
    return int(flags | tree.state.flags), [int(c) for c in code], tree.state.groups - 1, groupindex, tuple(indexgroup)


# the categories a first-character set may hold, as classes (to ask whether a space is in it)
_CATEGORY_CLASS = {C.CATEGORY_DIGIT: r"\d", C.CATEGORY_NOT_DIGIT: r"\D", C.CATEGORY_SPACE: r"\s",
                   C.CATEGORY_NOT_SPACE: r"\S", C.CATEGORY_WORD: r"\w", C.CATEGORY_NOT_WORD: r"\W"}


def _with_first_characters(tree: P.SubPattern, flags: int) -> list[int] | None:
    """The program of ``tree`` led by the set of its possible first characters (None: no
    set that would skip much: the pattern may match empty, open with any character, or
    with a space, or already has its own prefilter)."""
    flags |= tree.state.flags
    if flags & (re.IGNORECASE | re.LOCALE) or not tree.getwidth()[0] or _compiler._get_charset_prefix(tree, flags):
        return None
    if tree.data and tree.data[0] == (C.AT, C.AT_BEGINNING):
        return None  # tried at the start only (or at each line's): nothing to skip
    first = _first_characters(tree.data)
    if first is None or first[1] or any(_admits_space(op, av) for op, av in first[0]):
        return None
    charset, _cased = _compiler._optimize_charset(first[0])
    low, high = (min(width, _compiler.MAXCODE) for width in tree.getwidth())
    code = [C.INFO, 0, C.SRE_INFO_CHARSET, low, high]  # what ``_compile_info`` writes for a class
    _compiler._compile_charset(charset, flags, code)
    code[1] = len(code) - 1  # the info block's length, from its length field
    _compiler._compile(code, tree.data, flags)
    code.append(C.SUCCESS)
    return code


def _first_characters(items: list[tuple[object, object]]) -> tuple[list[tuple[object, object]], bool] | None:
    """The class items one of which every match of the sequence ``items`` opens with, and
    whether the sequence may match empty (then what follows it may open the match too);
    None when it may open with any character."""
    out: list[tuple[object, object]] = []
    for op, av in items:
        if op is C.LITERAL:
            return [*out, (op, av)], False
        if op is C.IN:
            if any(o is C.NEGATE for o, _ in av):  # type: ignore[attr-defined]
                return None
            return [*out, *av], False  # type: ignore[misc]
        if op in (C.AT, C.ASSERT, C.ASSERT_NOT):
            continue  # zero width: the next item opens the match
        if op is C.SUBPATTERN:
            _group, add_flags, _del_flags, sub = av  # type: ignore[misc]
            if add_flags & (re.IGNORECASE | re.LOCALE):
                return None
            found = _first_characters(sub.data)
        elif op is getattr(C, "ATOMIC_GROUP", None):
            found = _first_characters(av.data)  # type: ignore[attr-defined]
        elif op is C.BRANCH:
            found, empty = [], False
            for alternative in av[1]:  # type: ignore[index]
                each = _first_characters(alternative.data)
                if each is None:
                    return None
                found += each[0]
                empty |= each[1]
            found = (found, empty)
        elif op in (C.MAX_REPEAT, C.MIN_REPEAT, getattr(C, "POSSESSIVE_REPEAT", None)):
            low, _high, sub = av  # type: ignore[misc]
            found = _first_characters(sub.data)
            if found is not None and low == 0:
                found = (found[0], True)
        else:  # any character, a back reference, ...
            return None
        if found is None:
            return None
        out += found[0]
        if not found[1]:
            return out, False
    return out, True


def _admits_space(op: object, av: object) -> bool:
    if op is C.LITERAL:
        return av == ord(" ")
    if op is C.RANGE:
        return av[0] <= ord(" ") <= av[1]  # type: ignore[index,operator]
    if op is C.CATEGORY:
        return av not in _CATEGORY_CLASS or re.fullmatch(_CATEGORY_CLASS[av], " ") is not None
    return True  # something this does not know: as if it held a space


def _opened(items: list[tuple[object, object]], state: object) -> list[tuple[object, object]] | None:
    """The sequence ``items`` with each opening ``\b`` moved past the first character
    (None when nothing moved)."""
    if not items:
        return None
    op, av = items[0]
    if op is C.AT and av is C.AT_BOUNDARY and len(items) > 1:
        return _after_boundary(items[1:], state)
    if op is C.BRANCH:
        alternatives = _flat(av[1])  # type: ignore[index]
        opened = [_opened(alternative.data, state) for alternative in alternatives]
        if all(o is None for o in opened) and len(alternatives) == len(av[1]):  # type: ignore[index]
            return None
        new = [P.SubPattern(state, o if o is not None else a.data) for o, a in zip(opened, alternatives)]
        return [(C.BRANCH, (None, new)), *items[1:]]
    return None


def _flat(alternatives: list[P.SubPattern]) -> list[P.SubPattern]:
    """Alternatives with an alternative that is only a group of alternatives spliced in
    ("(?:(?:a|b)|c)" is "(?:a|b|c)": tried in the same order)."""
    out = []
    for alternative in alternatives:
        data = alternative.data
        if len(data) == 1 and data[0][0] is C.BRANCH:
            out += _flat(data[0][1][1])
        else:
            out.append(alternative)
    return out


def _after_boundary(items: list[tuple[object, object]], state: object) -> list[tuple[object, object]] | None:
    """``\b`` followed by ``items``, written to open with a character (None: not possible)."""
    if not items:
        return None
    op, av = items[0]
    if op is C.LITERAL or op is C.IN:
        behind = P.SubPattern(state, [(C.AT, C.AT_BOUNDARY), (op, av)])
        return [(op, av), (C.ASSERT, (-1, behind)), *items[1:]]
    if op is C.BRANCH:
        alternatives = []
        for alternative in _flat(av[1]):  # type: ignore[index]
            opened = _after_boundary(alternative.data, state)
            if opened is None:
                return None
            alternatives.append(P.SubPattern(state, opened))
        return [(C.BRANCH, (None, alternatives)), *items[1:]]
    if op is C.SUBPATTERN:
        group, add_flags, del_flags, sub = av  # type: ignore[misc]
        if add_flags or del_flags:
            return None
        opened = _after_boundary(sub.data, state)
        if opened is None:
            return None
        return [(C.SUBPATTERN, (group, add_flags, del_flags, P.SubPattern(state, opened))), *items[1:]]
    return None


def _plain_because() -> str | None:
    """Why this interpreter gets plain patterns, or None: the feature test of the module."""
    if os.environ.get(PLAIN_VARIABLE, "") not in ("", "0"):
        return f"{PLAIN_VARIABLE} is set"
    if sys.implementation.name != "cpython" or _sre is None:
        return f"not CPython's regex engine ({sys.implementation.name})"
    magic = getattr(C, "MAGIC", None)
    if magic not in KNOWN_FORMATS or getattr(_sre, "MAGIC", None) != magic:
        return f"regex program format {magic} is not one compile_fast was checked against ({sorted(KNOWN_FORMATS)})"
    missing = [f"{module.__name__}.{name}" for module, names in _PRIVATE.items() for name in names
               if not hasattr(module, name)]
    if missing:
        return f"the regex compiler lacks {', '.join(missing)}"
    for source in _PROBES:
        fast, plain = _compile_fast(source, 0), re.compile(source)
        if fast is None:
            return f"a probe pattern ({source}) is not rewritten"
        if any([(m.span(), m.groups()) for m in fast.finditer(text)]
                               != [(m.span(), m.groups()) for m in plain.finditer(text)] for text in _PROBE_TEXTS):
            return f"a probe pattern ({source}) does not match as it does plainly"
    return None


def _program_cache() -> ProgramCache:
    """The programs of earlier runs, keyed by this interpreter, its engine's format and the
    code that writes them (``re._parser``, ``re._compiler``, this module); none when
    patterns are plain anyway."""
    if os.environ.get(PLAIN_VARIABLE, "") not in ("", "0") or _sre is None:
        return ProgramCache(None, None)
    magic = f"{getattr(C, 'MAGIC', None)}/{getattr(_sre, 'MAGIC', None)}/{sys.implementation.name}"
    return ProgramCache(code_key(P, _compiler, sys.modules[__name__], extra=magic), cache_dir())


_CACHE = _program_cache()
PLAIN_BECAUSE = _plain_because()
