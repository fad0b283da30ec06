"""Wind speeds in every unit spelling, in model-style forecasts written by hand (es, pt, en).

Written before the grammar was changed (issue 28): the speed rules were gated by
hand-listed needles ("mph", "km", "kph", "knot", "kt", "nudo", "nos", "mil") that did not
cover their own patterns: "kilómetros por hora" and "quilômetros por hora" hold none of
them, so a text whose only speed unit is spelled out read no wind speed (with the gate
open the same pattern reads [6.2, 9.3] for "10 a 15 kilómetros por hora"). The gates are
now derived from the patterns themselves (``factcov.extractors.anchors``), so a spelling a
pattern accepts opens its gate. English "kilometers per hour" and "miles an hour" were
no spelling of the speed pattern at all; they are now.

Measured on these texts (claims read correctly / read, / expected; every claim of a text):
before: P 50/50 = 1.000, R 50/57 = 0.877
after:  P 57/57 = 1.000, R 57/57 = 1.000
"""

from __future__ import annotations

import pytest

from tests.weather_texts import claims_read, counts

# (language, text, {(claim type[:key values], value)})
CASES = [
    ("es", "Cielo despejado. Vientos del norte de 10 a 15 kilómetros por hora.",
     {("sky", "clear"), ("wind_direction", "N"), ("wind_speed", (6.2, 9.3))}),
    ("es", "Nublado, con vientos del sur de 20 kilometros por hora y rachas de hasta 40 kilómetros por hora.",
     {("sky", "cloudy"), ("wind_direction", "S"), ("wind_speed", (12.4, 12.4)), ("wind_gust", 24.9)}),
    ("es", "Máxima de 75 °F. Viento del oeste de 5 a 10 millas por hora.",
     {("temperature:high", 75), ("wind_direction", "W"), ("wind_speed", (5, 10))}),
    ("es", "Vientos del este de 10 a 15 mph durante la tarde.",
     {("wind_direction", "E"), ("wind_speed", (10, 15))}),
    ("es", "Vientos del noroeste de 15 a 25 km/h.",
     {("wind_direction", "NW"), ("wind_speed", (9.3, 15.5))}),
    ("es", "Vientos del sureste de 10 km por hora.",
     {("wind_direction", "SE"), ("wind_speed", (6.2, 6.2))}),
    ("es", "Vientos del norte de 8 a 12 nudos.",
     {("wind_direction", "N"), ("wind_speed", (9.2, 13.8))}),
    ("es", "Vientos del suroeste de 10 a 20 kph.",
     {("wind_direction", "SW"), ("wind_speed", (6.2, 12.4))}),
    ("pt", "Céu limpo. Ventos do norte de 10 a 15 quilômetros por hora.",
     {("sky", "clear"), ("wind_direction", "N"), ("wind_speed", (6.2, 9.3))}),
    ("pt", "Nublado, com vento do sul de 20 quilometros por hora e rajadas de até 40 quilômetros por hora.",
     {("sky", "cloudy"), ("wind_direction", "S"), ("wind_speed", (12.4, 12.4)), ("wind_gust", 24.9)}),
    ("pt", "Máxima de 75 °F. Vento do oeste de 5 a 10 milhas por hora.",
     {("temperature:high", 75), ("wind_direction", "W"), ("wind_speed", (5, 10))}),
    ("pt", "Ventos do leste de 10 a 15 mph à tarde.",
     {("wind_direction", "E"), ("wind_speed", (10, 15))}),
    ("pt", "Ventos do noroeste de 15 a 25 km/h.",
     {("wind_direction", "NW"), ("wind_speed", (9.3, 15.5))}),
    ("pt", "Ventos do norte de 8 a 12 nós.",
     {("wind_direction", "N"), ("wind_speed", (9.2, 13.8))}),
    ("en", "Sunny, with north winds 10 to 15 mph.",
     {("sky", "clear"), ("wind_direction", "N"), ("wind_speed", (10, 15))}),
    ("en", "Cloudy. South winds of 5 to 10 miles per hour.",
     {("sky", "cloudy"), ("wind_direction", "S"), ("wind_speed", (5, 10))}),
    ("en", "West winds 15 to 25 km/h, with gusts up to 40 km/h.",
     {("wind_direction", "W"), ("wind_speed", (9.3, 15.5)), ("wind_gust", 24.9)}),
    ("en", "East winds 10 to 20 kph.",
     {("wind_direction", "E"), ("wind_speed", (6.2, 12.4))}),
    ("en", "North winds 8 to 12 knots.",
     {("wind_direction", "N"), ("wind_speed", (9.2, 13.8))}),
    ("en", "North winds 8 to 12 kts.",
     {("wind_direction", "N"), ("wind_speed", (9.2, 13.8))}),
    ("en", "Southwest winds 10 to 15 kilometers per hour.",
     {("wind_direction", "SW"), ("wind_speed", (6.2, 9.3))}),
    ("en", "Northwest winds around 20 kilometres per hour.",
     {("wind_direction", "NW"), ("wind_speed", (12.4, 12.4))}),
    ("en", "Breezy, with south winds of 15 to 20 miles an hour.",
     {("wind_direction", "S"), ("wind_speed", (15, 20))}),
]



@pytest.mark.parametrize("index", range(len(CASES)), ids=[f"{c[0]}:{i}" for i, c in enumerate(CASES)])
def test_a_speed_in_any_unit_spelling_gives_exactly_the_text_s_claims(index):
    language, text, expected = CASES[index]
    assert claims_read(language, text) == expected


def test_precision_and_recall_on_the_speed_unit_texts():
    assert counts(CASES) == (57, 57, 57)  # P 1.000, R 1.000 (before the fix: 50, 50, 57)


def test_every_unit_spelling_is_written():
    texts = " ".join(c[1] for c in CASES)
    for spelling in ("kilómetros por hora", "kilometros por hora", "quilômetros por hora", "quilometros por hora",
                     "km/h", "kph", "km por hora", "mph", "millas por hora", "milhas por hora", "miles per hour",
                     "nudos", "nós", "knots", "kts", "kilometers per hour", "kilometres per hour", "miles an hour"):
        assert spelling in texts
