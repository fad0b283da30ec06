"""rag's regular expressions are declared once, in ``factcov.domains.rag.patterns`` (issue 28).

- No other module of the rag domain writes a pattern (``re.compile``, ``re.fullmatch``,
  ``re.sub``... with a pattern of its own), builds an alternation with ``"|".join`` or
  spells one of words by hand (``(?:st|nd|rd|th)``): word lists go through
  ``factcov.language.alternation``.
- The formatting marks are rows of the engine's pattern table, their gates derived:
  the spans they find are those of the one alternation they replace, scanned at every
  position, on real answers and passages (HaluEval QA, ../shared/data/halueval-qa, MIT)
  and on hand-made markdown whose marks overlap.
"""

from __future__ import annotations

import ast
import json
import re
from itertools import islice
from pathlib import Path

import pytest

from factcov.domains.rag.patterns import FORMATTING, ORDINAL, ORDINAL_SUFFIXES

RAG = Path(__file__).resolve().parents[1] / "domains" / "rag"
DECLARED_IN = "patterns.py"
# An alternation of plain words written out in a pattern: "(?:st|nd|rd|th)", "(?:am|pm)".
HAND_ALTERNATION = re.compile(r"\((?:\?:)?[A-Za-z]+(?:\|[A-Za-z]+)+\)")
# What the rows replace, verbatim: the one pattern units.py scanned before (the plain twin).
ONE_ALTERNATION = re.compile(
    r"\[\d+(?:[,–-]\s*\d+)*\]"
    r"|^[ \t]*(?:[-*+•]|\d{1,2}[.)])[ \t]+"
    r"|^[ \t]*#{1,6}[ \t]+"
    r"|\*{1,3}|_{2,3}|`+",
    re.MULTILINE,
)


def _problems(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    where = f"domains/rag/{path.name}"
    problems = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            owner = node.func.value
            if isinstance(owner, ast.Name) and owner.id == "re" and path.name != DECLARED_IN:
                problems.append(f"{where}:{node.lineno} re.{node.func.attr}: declare the pattern in {DECLARED_IN}")
            if node.func.attr == "join" and isinstance(owner, ast.Constant) and owner.value == "|":
                problems.append(f"{where}:{node.lineno} '|'.join: build alternations with factcov.language.alternation")
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and HAND_ALTERNATION.search(node.value):
            problems.append(f"{where}:{node.lineno} {node.value!r}: an alternation of words by hand")
    return problems


def test_rag_patterns_are_declared_in_one_module_only():
    problems = [problem for path in sorted(RAG.glob("*.py")) for problem in _problems(path)]
    assert not problems, "\n".join(problems)


def test_the_source_check_finds_a_pattern_written_elsewhere(tmp_path):
    stray = tmp_path / "stray.py"
    stray.write_text('import re\nYEAR = re.compile(r"\\d{4}")\nSUFFIX = r"\\d+(?:st|nd|rd|th)"\n'
                     'ANY = "|".join(["a", "b"])\n', encoding="utf-8")
    assert len(_problems(stray)) == 3


def test_ordinals_are_read_with_the_built_alternation():
    assert [ORDINAL.fullmatch(f"21{suffix}").group(1) for suffix in ORDINAL_SUFFIXES] == ["21"] * 4
    assert ORDINAL.fullmatch("21s") is None and ORDINAL.fullmatch("first") is None


MARKDOWN = [
    "1. **Delhi** is the head office [1].\n2. The group runs *hotels* [2, 3].",
    "* * x\n** bold** and ***very***\n- [1] item\n  + `code` [2-3]\n## 1. heading\n###### six",
    "__init__ and ___ and ____ and ``` fenced ``` [12,  3][4–5] [x] [ 1]",
    "\t- tabbed\n12) twelve\n123. not a marker\n#no heading\n # heading after a space",
    "•  bullet\n* \n*\n**\n[1]*[2]*", "",
]


@pytest.fixture(scope="module")
def halueval_texts(shared_data):
    path = shared_data / "halueval-qa" / "qa_one-turn_data.json"
    with open(path, encoding="utf-8") as lines:
        rows = [json.loads(line) for line in islice(lines, 2000)]
    return [row[key] for row in rows for key in ("knowledge", "right_answer", "hallucinated_answer")]


# Pieces of markdown glued at random (seeded): marks next to, inside and after each other.
PIECES = ("*", "**", "***", "_", "__", "___", "`", "``", "[1]", "[2, 3]", "[1-4]", "[", "]", "- ", "+ ", "• ",
          "1. ", "12) ", "123. ", "# ", "## ", "####### ", "\n", " ", "\t", "word", "7", "(x)")


def _glued(count: int) -> list[str]:
    import random

    rng = random.Random(28)
    return ["".join(rng.choice(PIECES) for _ in range(rng.randint(1, 14))) for _ in range(count)]


def test_formatting_rows_find_what_the_one_alternation_finds(halueval_texts):
    marked = 0
    for text in [*MARKDOWN, *_glued(5000), *halueval_texts]:
        plain = [m.span() for m in ONE_ALTERNATION.finditer(text) if m.end() > m.start()]
        assert FORMATTING.spans(text) == plain, text
        marked += bool(plain)
    assert marked > 4000


def test_each_formatting_row_is_gated_by_what_its_matches_hold():
    citation, _, heading, emphasis = (gate for _pattern, _kind, gate in FORMATTING)
    assert citation and heading and emphasis  # derived from the patterns: none listed by hand
    opened = FORMATTING.opened("Plain prose, with no mark at all.")
    assert opened & citation != citation and opened & heading != heading and opened & emphasis != emphasis
    assert FORMATTING.opened("see [1]") & citation == citation
