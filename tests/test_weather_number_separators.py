"""Numbers written with thousands and decimal separators, as each language writes them, in
model-style forecasts written by hand (issue 28's follow-up).

Written before the grammar was changed: a number's separators were read the English way in
every language and only partly ("Highs near 1,000" read a high of 1, es "Máxima de 1.000
grados" a high of 1, "gusts as high as 1,200 mph" a gust of 1), a speed match could start
inside a number ("Winds 1,000 mph" read the speed "000 mph", [0, 0]) and an amount's text
stopped at a decimal point ("new rainfall amounts of 0" for "... of 0.5 inches"). The
expected set is every claim each text makes, as the grammar reads it (°F, mph).

Measured on these texts with ``read_claims`` (claims read right / read, / expected):
before: P 21/38 = 0.553, R 21/37 = 0.568; after: P 37/37 = 1.000, R 37/37 = 1.000
"""

from __future__ import annotations

import pytest

from factcov.domains.weather.grammar import read_claims
from tests.weather_texts import claims_read, counts

# (language, text, {(claim type[:key values], value)})
CASES = [
    ("en", "Highs near 1,000. Winds 1,000 mph.",
     {("temperature:high", 1000), ("wind_speed", (1000, 1000))}),
    ("en", "Sunny, with a high near 72.5. West wind 10.5 to 15.5 mph, with gusts as high as 1,200 mph.",
     {("sky", "clear"), ("temperature:high", 72.5), ("wind_direction", "W"), ("wind_speed", (10.5, 15.5)),
      ("wind_gust", 1200)}),
    ("en", "New rainfall amounts of 0.5 inches possible. Around 1.5 inches of snow.",
     {("precip_amount:rain", "new rainfall amounts of 0.5 inches possible"), ("precip_amount:snow", "1.5 inches of snow")}),
    ("en", "Lows around -2.5, wind chill values as low as -10.5. Heat index values as high as 1,100.",
     {("temperature:low", -2.5), ("wind_chill", -10.5), ("heat_index", 1100)}),
    ("en", "Highs 1,050 to 1,100 with north winds 2,000 to 2,500 mph.",
     {("temperature:high", (1050, 1100)), ("wind_direction", "N"), ("wind_speed", (2000, 2500))}),
    ("es", "Máxima de 1.000 grados. Viento del norte de 10,5 km/h, con rachas de hasta 1.200 km/h.",
     {("temperature:high", 1000), ("wind_direction", "N"), ("wind_speed", (6.5, 6.5)), ("wind_gust", 745.6)}),
    ("es", "Mínima cercana a 12,5 °C. Vientos de 10,5 a 20,5 km/h. Acumulaciones de lluvia de 0,5 pulgadas.",
     {("temperature:low", (53.6, 55.4)), ("wind_speed", (6.5, 12.7)),
      ("precip_amount:rain", "acumulaciones de lluvia de 0,5 pulgadas")}),
    ("es", "Vientos de 1.000 mph y 2,5 cm de nieve. Máximas entre 1.000 y 1.100 grados.",
     {("wind_speed", (1000, 1000)), ("precip_amount:snow", "2,5 cm de nieve"), ("temperature:high", (1000, 1100))}),
    ("es", "Sensación térmica de -10,5 grados e índice de calor de 1.100.",
     {("wind_chill", -10.5), ("heat_index", 1100)}),
    ("pt", "Máxima de 1.000 graus. Vento norte de 10,5 km/h, com rajadas de até 1.200 km/h.",
     {("temperature:high", 1000), ("wind_direction", "N"), ("wind_speed", (6.5, 6.5)), ("wind_gust", 745.6)}),
    ("pt", "Mínima perto de 12,5 °C. Ventos de 10,5 a 20,5 km/h e 2,5 cm de neve.",
     {("temperature:low", (53.6, 55.4)), ("wind_speed", (6.5, 12.7)), ("precip_amount:snow", "2,5 cm de neve")}),
    ("pt", "Ventos de 1.000 mph. Sensação térmica de -10,5 graus e índice de calor de 1.100.",
     {("wind_speed", (1000, 1000)), ("wind_chill", -10.5), ("heat_index", 1100)}),
]



@pytest.mark.parametrize("index", range(len(CASES)), ids=[f"{c[0]}:{i}" for i, c in enumerate(CASES)])
def test_a_number_with_separators_is_read_as_its_language_writes_it(index):
    language, text, expected = CASES[index]
    assert claims_read(language, text) == expected


def test_precision_and_recall_on_the_separator_texts():
    assert counts(CASES) == (37, 37, 37)  # P 1.000, R 1.000 (before the fix: 21, 38, 37)


def test_every_language_and_separator_is_covered():
    for language in ("en", "es", "pt"):
        texts = " ".join(t for lang, t, _ in CASES if lang == language)
        decimal, group = (".", ",") if language == "en" else (",", ".")
        assert f"1{group}000" in texts and f"0{decimal}5" in texts


@pytest.mark.parametrize(("language", "text"), [
    ("en", "Winds 1,000,000 mph."), ("en", "Winds around .5 mph."), ("en", "Winds 2,500,000 to 3,000,000 mph."),
    ("es", "Vientos de 1.000.000 km/h."), ("pt", "Ventos de 1.000.000 km/h."),
])
def test_no_part_of_a_number_is_read_as_a_speed(language, text):
    # a number the grammar does not read whole ("1,000,000") is not read in part ("000 mph" = 0,
    # "1,000" = 1000), nor the digits after a bare decimal point (".5 mph" = 5)
    assert [r.value for r in read_claims(text, language) if r.type == "wind_speed"] == []
