"""One ``Lexicon`` in factcov (issue 28): the names table lives in ``factcov.language`` and
the old public import path gives the same class (third-party plugins import it there)."""

from __future__ import annotations

import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def test_one_class_named_lexicon():
    defined = [path.relative_to(REPO).as_posix() for folder in ("core", "domains", "extractors")
               for path in sorted((REPO / folder).rglob("*.py"))
               if re.search(r"^class Lexicon\b", path.read_text(encoding="utf-8"), re.MULTILINE)]
    assert defined == ["core/language.py"]


def test_the_public_import_paths_give_the_same_class():
    from factcov.extractors.patterns import Lexicon as from_patterns
    from factcov.language import Lexicon

    assert from_patterns is Lexicon
    names = Lexicon({"max verstappen": "VER", "verstappen": "VER"}, written=("VER",))
    assert list(names.find("max verstappen beat ver", "Max Verstappen beat VER")) == [("VER", (0, 14)), ("VER", (20, 23))]
