"""Gains written with the other language's decimal mark, as models often do (English-trained
models write "1.534 segundos" in Spanish). Written before the reader was changed: before,
each was read as a thousands group (1,534 seconds) and scored as a contradiction."""

from __future__ import annotations

from pathlib import Path

import pytest

from factcov.domains.f1.extractor import F1RegexExtractor
from factcov.domains.f1.instances import race_instances
from factcov.domains.f1.source import race
from factcov.model import Instance

TEXTS = [  # (language, text, the gain a reader takes from it)
    ("es", "Gasly le sacó 1.534 segundos a Zhou con la parada temprana.", 1.534),
    ("es", "Con el undercut, Gasly le ganó 4.250 segundos a Zhou.", 4.25),
    ("pt", "Gasly ganhou 1.534 segundos sobre Zhou com o undercut.", 1.534),
    ("pt", "Com a parada antecipada, Gasly ganhou 12.345 segundos.", 12.345),
    ("en", "Gasly gained 1,534 seconds on Zhou with the early stop.", 1.534),
    ("es", "Gasly le sacó 1,5 segundos a Zhou.", 1.5),    # the language's own mark, as before
    ("en", "Gasly gained 3.2 seconds on Zhou.", 3.2),
]


@pytest.fixture(scope="module")
def undercuts(shared_data: Path) -> dict[str, Instance]:
    found = {i.id: i for i in race_instances(race(shared_data / "f1", 2023, 1))}
    return {lang: found[f"f1:2023:1:undercut:GAS:ZHO:{lang}"] for lang in ("en", "es", "pt")}


@pytest.mark.parametrize(("language", "text", "gain"), TEXTS)
def test_a_gain_written_with_the_other_decimal_mark_is_read_as_seconds(undercuts, language, text, gain):
    claims = F1RegexExtractor(language=language).extract(text, undercuts[language])
    gains = [c.value for c in claims if c.type == "time_gained"]
    assert gains == [pytest.approx(gain)]
