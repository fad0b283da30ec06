"""Percentages of chance in every spelling, in model-style forecasts written by hand.

Written before the grammar was changed (issue 12's follow-up): English "per cent" and
"per-cent" were never read, because the anchor words that open the percent rules held
"percent" and "%" only ("per cent" does not contain "percent"); a range of percentages
after "low" ("chances stay low, 10 to 20 per cent") was read as a low temperature; and
"a 40% chance of a passing shower" named no condition. Each text was written for the
real NWS period it is scored against and agrees with it (nothing is contradicted); the
expected set is every claim the text makes, with its verdict.

Measured on these 16 texts (claims read correctly / read, / expected):
before: en P 54/56 = 0.964, R 54/64 = 0.844; es and pt 1.000 / 1.000; all P 0.978, R 0.898
after:  en P 63/63 = 1.000, R 63/64 = 0.984; es and pt 1.000 / 1.000; all P 1.000, R 0.990
The one claim still missed is a wind direction after its noun ("winds north-northwest
5 to 10 mph"), another class of phrasing, left as ``KNOWN_MISSES``.
"""

from __future__ import annotations

import pytest

from factcov.evaluate import Evaluator
from factcov.plugins import get_domain
from tests.test_weather_free_text import _instance, _readings

S, U = "supported", "unverifiable"
# (forecast file, period number, language, text, {(claim type[:key values], value, verdict)})
CASES = [
    ('e2e__FGZ_74-90', 3, 'en',
     'Cloudy on Tuesday with a 40 per cent chance of snow, mainly in the morning. Highs near 30 and north winds of 10 to 15 mph.',
     {('sky', 'cloudy', S), ('precip_chance', 40, S), ('condition:chance', 'snow', S), ('temperature:high', 30, S),
      ('wind_direction', 'N', S), ('wind_speed', (10, 15), S)}),
    ('testing__HFO_154-145', 1, 'en',
     'Scattered showers tonight; the chance of rain is about 40 per cent. Lows around 75 with an east wind near 23 mph.',
     {('condition:chance', 'showers', S), ('precip_chance', 40, S), ('condition:chance', 'rain', U),
      ('temperature:low', 75, S), ('wind_direction', 'E', S), ('wind_speed', (23, 23), S)}),
    ('testing__BMX_59-84', 2, 'en',
     'Snow moving in this evening, an 80 per cent chance, with lows around 27 under cloudy skies. East-northeast winds 5 to 10 mph.',
     {('condition:none', 'snow', S), ('precip_chance', 80, S), ('temperature:low', 27, S), ('sky', 'cloudy', U),
      ('wind_direction', 'ENE', S), ('wind_speed', (5, 10), S)}),
    ('e2e__HFO_154-145', 2, 'en',
     'Mostly sunny with a high near 82. There is a 40-per-cent chance of a passing shower before noon, and east-northeast winds run 23 to 26 mph.',
     {('sky', 'mostly_clear', S), ('temperature:high', 82, S), ('precip_chance', 40, S), ('condition:chance', 'showers', S),
      ('timing', 'before noon', U), ('wind_direction', 'ENE', S), ('wind_speed', (23, 26), S)}),
    ('testing__SEW_96-55', 1, 'en',
     'Rain is all but certain today (100 per cent). Cloudy, high near 45, with south-southeast winds of 6 to 13 mph.',
     {('condition:none', 'rain', S), ('precip_chance', 100, S), ('sky', 'cloudy', U), ('temperature:high', 45, S),
      ('wind_direction', 'SSE', S), ('wind_speed', (6, 13), S)}),
    ('testing__LZK_83-73', 2, 'en',
     'Mostly cloudy tonight with a low around 11. Chance of snow 40 per cent after 11pm; winds north-northwest 5 to 10 mph.',
     {('sky', 'mostly_cloudy', U), ('temperature:low', 11, S), ('condition:chance', 'snow', S), ('precip_chance', 40, S),
      ('timing', 'after 11pm', U), ('wind_direction', 'NNW', S), ('wind_speed', (5, 10), S)}),
    ('testing__AFG_492-119', 2, 'en',
     'Partly cloudy this evening with a 30 percent chance of showers and thunderstorms. Low around 49, light west winds of 0 to 5 mph.',
     {('sky', 'partly_cloudy', S), ('precip_chance', 30, S), ('condition:chance', 'showers', S),
      ('condition:chance', 'thunderstorms', S), ('temperature:low', 49, S), ('wind_direction', 'W', S), ('wind_speed', (0, 5), S)}),
    ('air-quality-alerts__ALY_71-67', 6, 'en',
     'Mostly cloudy with a low of 62. Precipitation chances stay low, 10 to 20 per cent, mainly after 2am.',
     {('sky', 'mostly_cloudy', S), ('temperature:low', 62, S), ('precip_chance', (10, 20), S), ('timing', 'after 2am', U)}),
    ('e2e__BMX_59-84', 5, 'en',
     'A cloudy, cold afternoon: high of 27, a southwest wind around 5 mph, and a 50% chance of snow after noon.',
     {('sky', 'cloudy', S), ('temperature:high', 27, S), ('wind_direction', 'SW', S), ('wind_speed', (5, 5), S),
      ('precip_chance', 50, S), ('condition:chance', 'snow', S), ('timing', 'after noon', U)}),
    ('testing__AFG_368-294', 3, 'en',
     'Mostly cloudy, high near 35. Isolated rain and snow showers are possible after 1pm, about a 20 per cent chance. West winds 5 to 10 mph.',
     {('sky', 'mostly_cloudy', S), ('temperature:high', 35, S), ('condition:slight_chance', 'showers', S),
      ('condition:slight_chance', 'snow_showers', S), ('timing', 'after 1pm', U), ('precip_chance', 20, S),
      ('wind_direction', 'W', S), ('wind_speed', (5, 10), S)}),
    ('e2e__FGZ_74-90', 3, 'es',
     'Martes nublado con un 40 por ciento de probabilidad de nieve. Máxima cerca de 30 °F y viento del norte de 10 a 15 mph.',
     {('sky', 'cloudy', S), ('precip_chance', 40, S), ('condition:chance', 'snow', S), ('temperature:high', 30, S),
      ('wind_direction', 'N', S), ('wind_speed', (10, 15), S)}),
    ('testing__LZK_83-73', 2, 'es',
     'Mayormente nublado esta noche, mínima de 11 °F. La probabilidad de nieve es del 40 por ciento después de las 11 de la noche.',
     {('sky', 'mostly_cloudy', U), ('temperature:low', 11, S), ('precip_chance', 40, S), ('condition:chance', 'snow', S),
      ('timing', 'despues de las 11', U)}),
    ('testing__BMX_59-84', 2, 'es',
     'Nieve por la noche, con una probabilidad de precipitación del 80 %. Mínima alrededor de 27 °F y viento del estenordeste de 5 a 10 mph.',
     {('condition:none', 'snow', S), ('precip_chance', 80, S), ('temperature:low', 27, S), ('wind_direction', 'ENE', S),
      ('wind_speed', (5, 10), S)}),
    ('e2e__FGZ_74-90', 3, 'pt',
     'Terça-feira nublada, com 40 por cento de chance de neve. Máxima perto de 30 °F e vento norte de 10 a 15 mph.',
     {('sky', 'cloudy', S), ('precip_chance', 40, S), ('condition:chance', 'snow', S), ('temperature:high', 30, S),
      ('wind_direction', 'N', S), ('wind_speed', (10, 15), S)}),
    ('testing__LZK_83-73', 2, 'pt',
     'Noite com céu predominantemente nublado e mínima de 11 °F. A probabilidade de neve é de 40 por cento depois das 23h.',
     {('sky', 'mostly_cloudy', U), ('temperature:low', 11, S), ('precip_chance', 40, S), ('condition:chance', 'snow', S),
      ('timing', 'depois das 23h', U)}),
    ('e2e__BMX_59-84', 5, 'pt',
     'Tarde nublada e fria, máxima de 27 °F, vento sudoeste de cerca de 5 mph e 50 % de probabilidade de neve depois do meio-dia.',
     {('sky', 'cloudy', S), ('temperature:high', 27, S), ('wind_direction', 'SW', S), ('wind_speed', (5, 5), S),
      ('precip_chance', 50, S), ('condition:chance', 'snow', S), ('timing', 'depois do meio-dia', U)}),
]

# (case index, claim): expected, not read yet
KNOWN_MISSES = {(5, ('wind_direction', 'NNW', S))}


@pytest.fixture(scope="module")
def evaluator() -> Evaluator:
    return Evaluator(get_domain("weather"))


def _read(shared_data, evaluator, case) -> set[tuple]:
    stem, number, language, text, _ = case
    return _readings(evaluator.evaluate_text(_instance(shared_data, stem, number, language), text))


@pytest.mark.parametrize("index", range(len(CASES)), ids=[f"{c[0]}:{c[1]}:{c[2]}:{i}" for i, c in enumerate(CASES)])
def test_a_percentage_in_any_spelling_gives_exactly_the_text_s_claims(shared_data, evaluator, index):
    expected = CASES[index][4] - {claim for i, claim in KNOWN_MISSES if i == index}
    assert _read(shared_data, evaluator, CASES[index]) == expected


def test_precision_and_recall_on_the_percent_texts(shared_data, evaluator):
    correct = read = expected = 0
    for case in CASES:
        found = _read(shared_data, evaluator, case)
        correct, read, expected = correct + len(found & case[4]), read + len(found), expected + len(case[4])
    assert (correct, read, expected) == (97, 97, 98)  # P 1.000, R 0.990 (before the fix: 88, 90, 98)


def test_every_spelling_is_covered_and_nothing_is_contradicted():
    texts = " ".join(c[3] for c in CASES)
    for spelling in ("per cent", "per-cent", "percent", "%", "por ciento", "por cento"):
        assert spelling in texts
    assert len(CASES) >= 15 and not [c for c in CASES if any(label == "contradicted" for _, _, label in c[4])]
