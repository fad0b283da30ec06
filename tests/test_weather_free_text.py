"""Free, model-style forecasts written by hand for real NWS periods, scored end to end.

Each text was written for the period it is scored against (the shared forecast files),
the way a language model phrases a forecast: percentages of chance, "top out around",
°C and km/h conversions, "rachas", "na casa dos 40", "céu encoberto". Every test asserts the
exact claims read, with their verdicts: a claim the grammar should not make, a missed
phrase, or a wrong verdict fails it. None is contradicted: each text agrees with its record.
"""

from __future__ import annotations

import pytest

from factcov.domains.weather.instances import instances_of
from factcov.domains.weather.periods import iter_file_periods
from factcov.evaluate import Evaluator
from factcov.plugins import get_domain

# (forecast file, period number, language, text, {(claim type[:key values], value, verdict)})
CASES = [
    ('e2e__BMX_59-84', 3, 'en',
     'Expect a cold, overcast Tuesday with a 40 percent chance of snow. Temperatures will top out around 30 degrees, and a north breeze of 10-15 mph will make it feel colder.',
     {
         ('condition:chance', 'snow', 'supported'),
         ('precip_chance', 40, 'supported'),
         ('sky', 'cloudy', 'supported'),
         ('temperature:high', 30, 'supported'),
         ('wind_direction', 'N', 'supported'),
         ('wind_speed', (10, 15), 'supported'),
     }),
    ('e2e__BMX_59-84', 3, 'en',
     'Tuesday looks gray and chilly: highs near 30°F, winds out of the north at 10 to 15 miles per hour, and about a 40% chance of some snow.',
     {
         ('condition:chance', 'snow', 'supported'),
         ('precip_chance', 40, 'supported'),
         ('temperature:high', 30, 'supported'),
         ('wind_direction', 'N', 'supported'),
         ('wind_speed', (10, 15), 'supported'),
     }),
    ('e2e__BMX_32-69', 2, 'en',
     'Clear skies tonight with lows in the mid 40s. Light west winds of 5 to 10 mph.',
     {
         ('sky', 'clear', 'supported'),
         ('temperature:low', (43, 47), 'supported'),
         ('wind_direction', 'W', 'supported'),
         ('wind_speed', (5, 10), 'supported'),
     }),
    ('e2e__LZK_83-73', 4, 'en',
     'Snow and areas of blowing snow Friday night, with an 80 percent chance of precipitation. The low will be around 8 degrees, but temperatures will rise slowly overnight. North-northwest winds 15 to 20 mph with gusts up to 30 mph.',
     {
         ('condition:none', 'blowing_snow', 'supported'),
         ('condition:none', 'snow', 'supported'),
         ('precip_chance', 80, 'supported'),
         ('temperature:low', 8, 'supported'),
         ('temperature_trend', 'rising', 'supported'),
         ('wind_direction', 'NNW', 'supported'),
         ('wind_gust', 30, 'unverifiable'),
         ('wind_speed', (15, 20), 'supported'),
     }),
    ('air-quality-alerts__BOX_70-82', 7, 'en',
     'Saturday starts mostly cloudy, with scattered showers and thunderstorms developing in the afternoon. Highs in the low 80s. Southwest winds up to 12 mph, gusting to 23 mph at times. Rain chances around 40%.',
     {
         ('condition:chance', 'rain', 'unverifiable'),
         ('condition:chance', 'showers', 'supported'),
         ('condition:chance', 'thunderstorms', 'supported'),
         ('precip_chance', 40, 'supported'),
         ('sky', 'mostly_cloudy', 'supported'),
         ('temperature:high', (80, 83), 'supported'),
         ('wind_direction', 'SW', 'supported'),
         ('wind_gust', 23, 'unverifiable'),
         ('wind_speed', (12, 12), 'supported'),
     }),
    ('e2e__MTR_90-105', 1, 'en',
     'Sunny today. Temperatures peak near 64°F late in the morning, then slip to around 62 in the afternoon. Light west breeze, 3 to 9 mph.',
     {
         ('sky', 'clear', 'supported'),
         ('temperature:high', 64, 'supported'),
         ('wind_direction', 'W', 'supported'),
         ('wind_speed', (3, 9), 'supported'),
     }),
    ('air-quality-alerts__ALY_71-67', 7, 'en',
     'Stormy Saturday: showers and thunderstorms are expected, some possibly strong. High of 83. Winds from the south, light, up to 10 mph. Precipitation chance 80%.',
     {
         ('condition:none', 'showers', 'supported'),
         ('condition:none', 'thunderstorms', 'supported'),
         ('precip_chance', 80, 'supported'),
         ('temperature:high', 83, 'supported'),
         ('wind_direction', 'S', 'supported'),
         ('wind_speed', (10, 10), 'supported'),
     }),
    ('guam-7day__GUM_47-48', 2, 'en',
     'Mostly sunny and hot Friday with a stray shower or two. High near 88, feeling like 97 with the humidity. Easterly trade winds 10-15 mph.',
     {
         ('condition:slight_chance', 'showers', 'supported'),
         ('sky', 'mostly_clear', 'unverifiable'),
         ('temperature:high', 88, 'supported'),
         ('wind_direction', 'E', 'supported'),
         ('wind_speed', (10, 15), 'supported'),
     }),
    ('e2e__HFO_154-145', 1, 'en',
     'Breezy overnight with scattered showers. Lows in the mid 70s. East winds around 23 mph. 40% chance of rain.',
     {
         ('condition:chance', 'rain', 'unverifiable'),
         ('condition:chance', 'showers', 'supported'),
         ('precip_chance', 40, 'supported'),
         ('temperature:low', (73, 77), 'supported'),
         ('wind_direction', 'E', 'supported'),
         ('wind_speed', (23, 23), 'supported'),
     }),
    ('testing__OAX_59-58', 1, 'en',
     'Partly cloudy tonight. Low 16 °F (about -9 °C). Winds becoming light from the south-southeast.',
     {
         ('sky', 'partly_cloudy', 'supported'),
         ('temperature:low', 16, 'supported'),
         ('wind_direction', 'SSE', 'supported'),
     }),
    ('testing__LWX_95-71', 3, 'en',
     'Wednesday will be mostly sunny with highs in the low 60s. West winds 7 to 18 mph.',
     {
         ('sky', 'mostly_clear', 'supported'),
         ('temperature:high', (60, 63), 'supported'),
         ('wind_direction', 'W', 'supported'),
         ('wind_speed', (7, 18), 'supported'),
     }),
    ('testing__AFG_492-119', 1, 'en',
     'A few thunderstorms are possible this afternoon (30% chance). Otherwise partly sunny with a high of 23 °C. Winds light and variable.',
     {
         ('condition:chance', 'thunderstorms', 'supported'),
         ('precip_chance', 30, 'supported'),
         ('sky', 'partly_cloudy', 'unverifiable'),
         ('temperature:high', (72.5, 74.3), 'supported'),
     }),
    ('e2e__BMX_32-69', 4, 'en',
     'Clear and cold Saturday night, with lows dropping into the mid 30s. Northeast winds 5 to 10 mph.',
     {
         ('sky', 'clear', 'supported'),
         ('temperature:low', (33, 37), 'supported'),
         ('wind_direction', 'NE', 'supported'),
         ('wind_speed', (5, 10), 'supported'),
     }),
    ('e2e__FGZ_74-89', 12, 'en',
     'Saturday night: a 20 percent chance of light snow, then mostly cloudy. Bitterly cold with a low of 4 below zero. Northwest wind 15 to 20 mph.',
     {
         ('condition:slight_chance', 'snow', 'supported'),
         ('precip_chance', 20, 'supported'),
         ('sky', 'mostly_cloudy', 'supported'),
         ('temperature:low', -4, 'supported'),
         ('wind_direction', 'NW', 'supported'),
         ('wind_speed', (15, 20), 'supported'),
     }),
    ('e2e__BMX_59-84', 3, 'es',
     'Martes frío y cubierto, con un 40 % de probabilidad de nieve. Máxima cercana a 30 °F. Viento del norte de 10 a 15 mph.',
     {
         ('condition:chance', 'snow', 'supported'),
         ('precip_chance', 40, 'supported'),
         ('sky', 'cloudy', 'supported'),
         ('temperature:high', 30, 'supported'),
         ('wind_direction', 'N', 'supported'),
         ('wind_speed', (10, 15), 'supported'),
     }),
    ('testing__LWX_95-71', 4, 'es',
     'Esta noche, cielo mayormente despejado y mínima de 1 °C. Viento del noroeste de 19 a 29 km/h.',
     {
         ('sky', 'mostly_clear', 'supported'),
         ('temperature:low', (32.9, 34.7), 'supported'),
         ('wind_direction', 'NW', 'supported'),
         ('wind_speed', (11.8, 18.0), 'supported'),
     }),
    ('e2e__LZK_83-73', 3, 'es',
     'Viernes con nevadas, máxima de 21 grados Fahrenheit. Vientos del norte de 10 a 15 mph con rachas de hasta 30 mph. Probabilidad de precipitación del 90 %. Acumulación de nieve de 1 a 3 pulgadas.',
     {
         ('condition:none', 'snow', 'supported'),
         ('precip_amount:snow', 'acumulacion de nieve de 1 a 3 pulgadas', 'unverifiable'),
         ('precip_chance', 90, 'supported'),
         ('temperature:high', 21, 'supported'),
         ('wind_direction', 'N', 'supported'),
         ('wind_gust', 30, 'unverifiable'),
         ('wind_speed', (10, 15), 'supported'),
     }),
    ('air-quality-alerts__ALY_71-67', 8, 'es',
     'Noche del sábado con chubascos y tormentas eléctricas. Temperatura mínima de 18 °C. Viento del sur de 10 a 14 km/h. Probabilidad de lluvia: 90 %.',
     {
         ('condition:none', 'rain', 'unverifiable'),
         ('condition:none', 'showers', 'supported'),
         ('condition:none', 'thunderstorms', 'supported'),
         ('precip_chance', 90, 'supported'),
         ('temperature:low', (63.5, 65.3), 'supported'),
         ('wind_direction', 'S', 'supported'),
         ('wind_speed', (6.2, 8.7), 'supported'),
     }),
    ('e2e__MTR_90-105', 3, 'es',
     'Miércoles lluvioso: lluvia a partir de las 11 a. m. Máxima de 63 °F, con temperaturas en descenso por la tarde. Viento del sur de 3 a 12 mph. Probabilidad de lluvia del 80 %.',
     {
         ('condition:none', 'rain', 'supported'),
         ('precip_chance', 80, 'supported'),
         ('temperature:high', 63, 'supported'),
         ('temperature_trend', 'falling', 'supported'),
         ('timing', 'a partir de las 11 a. m.', 'unverifiable'),
         ('wind_direction', 'S', 'supported'),
         ('wind_speed', (3, 12), 'supported'),
     }),
    ('e2e__HFO_154-145', 2, 'es',
     'Chubascos dispersos por la mañana y luego mayormente soleado. Máxima de 82 °F. Vientos del estenoreste de 23 a 26 mph, con rachas de hasta 35 mph.',
     {
         ('condition:chance', 'showers', 'supported'),
         ('sky', 'mostly_clear', 'supported'),
         ('temperature:high', 82, 'supported'),
         ('wind_direction', 'ENE', 'supported'),
         ('wind_gust', 35, 'unverifiable'),
         ('wind_speed', (23, 26), 'supported'),
     }),
    ('guam-7day__GUM_47-48', 10, 'es',
     'Posibles chubascos y tormentas el martes, con un 30 % de probabilidad. Parcialmente nublado, máxima de 31 °C. Viento del este a 24 km/h.',
     {
         ('condition:chance', 'showers', 'supported'),
         ('condition:chance', 'thunderstorms', 'supported'),
         ('precip_chance', 30, 'supported'),
         ('sky', 'partly_cloudy', 'unverifiable'),
         ('temperature:high', (86.9, 88.7), 'supported'),
         ('wind_direction', 'E', 'supported'),
         ('wind_speed', (14.9, 14.9), 'supported'),
     }),
    ('e2e__FGZ_74-89', 6, 'es',
     'Nevadas probables esta noche (60 %), luego mayormente nublado. Mínima de 17 °F, con temperaturas en ascenso después de la medianoche. Viento suave del suroeste a 5 mph.',
     {
         ('condition:likely', 'snow', 'supported'),
         ('precip_chance', 60, 'supported'),
         ('sky', 'mostly_cloudy', 'supported'),
         ('temperature:low', 17, 'supported'),
         ('temperature_trend', 'rising', 'supported'),
         ('timing', 'despues de la medianoche', 'unverifiable'),
         ('wind_direction', 'SW', 'supported'),
         ('wind_speed', (5, 5), 'supported'),
     }),
    ('testing__LWX_95-71', 1, 'es',
     'Esta tarde, calima con máxima en torno a los 53 grados. Viento del oeste de unos 13 mph.',
     {
         ('condition:none', 'haze', 'supported'),
         ('temperature:high', 53, 'supported'),
         ('wind_direction', 'W', 'supported'),
         ('wind_speed', (13, 13), 'supported'),
     }),
    ('testing__AFG_368-294', 8, 'es',
     'Chubascos dispersos de lluvia y nieve esta noche. Cielo cubierto y mínima de -3 °C. Viento del noroeste de 8 km/h.',
     {
         ('condition:chance', 'showers', 'supported'),
         ('condition:chance', 'snow_showers', 'supported'),
         ('sky', 'cloudy', 'unverifiable'),
         ('temperature:low', (25.7, 27.5), 'supported'),
         ('wind_direction', 'NW', 'supported'),
         ('wind_speed', (5.0, 5.0), 'supported'),
     }),
    ('e2e__BMX_32-69', 5, 'es',
     'Domingo soleado, máxima de 69 °F; temperaturas bajando por la tarde. Vientos del sur de 5 a 10 mph.',
     {
         ('sky', 'clear', 'supported'),
         ('temperature:high', 69, 'supported'),
         ('temperature_trend', 'falling', 'supported'),
         ('wind_direction', 'S', 'supported'),
         ('wind_speed', (5, 10), 'supported'),
     }),
    ('e2e__LZK_83-73', 6, 'es',
     'Ventisca en zonas durante la noche del sábado. Mínima de -22 °C, con temperaturas subiendo ligeramente hacia el amanecer. Viento del noroeste de unos 20 mph, con rachas de hasta 35 mph.',
     {
         ('condition:none', 'blowing_snow', 'supported'),
         ('temperature:low', (-8.5, -6.7), 'supported'),
         ('temperature_trend', 'rising', 'supported'),
         ('wind_direction', 'NW', 'supported'),
         ('wind_gust', 35, 'unverifiable'),
         ('wind_speed', (20, 20), 'supported'),
     }),
    ('e2e__BMX_59-84', 3, 'pt',
     'Terça-feira fria, com céu encoberto e 40% de chance de neve. Máxima de 30 °F. Ventos do norte de 10 a 15 mph.',
     {
         ('condition:chance', 'snow', 'supported'),
         ('precip_chance', 40, 'supported'),
         ('sky', 'cloudy', 'supported'),
         ('temperature:high', 30, 'supported'),
         ('wind_direction', 'N', 'supported'),
         ('wind_speed', (10, 15), 'supported'),
     }),
    ('testing__SEW_96-55', 1, 'pt',
     'Chuva o dia todo, com probabilidade de chuva de 100%. Máxima de 7 °C. Ventos de su-sudeste de 10 a 21 km/h.',
     {
         ('condition:none', 'rain', 'supported'),
         ('precip_chance', 100, 'supported'),
         ('temperature:high', (43.7, 45.5), 'supported'),
         ('wind_direction', 'SSE', 'supported'),
         ('wind_speed', (6.2, 13.0), 'supported'),
     }),
    ('e2e__BMX_32-69', 11, 'pt',
     'Quarta-feira com chance de pancadas de chuva e trovoadas. Máxima de 23 °C. Ventos de sudoeste de 15 a 25 km/h. Probabilidade de chuva de 50%.',
     {
         ('condition:chance', 'rain', 'unverifiable'),
         ('condition:chance', 'showers', 'supported'),
         ('condition:chance', 'thunderstorms', 'supported'),
         ('precip_chance', 50, 'supported'),
         ('temperature:high', (72.5, 74.3), 'supported'),
         ('wind_direction', 'SW', 'supported'),
         ('wind_speed', (9.3, 15.5), 'supported'),
     }),
    ('e2e__BMX_32-69', 2, 'pt',
     'Noite de céu limpo, mínima na casa dos 40 °F. Vento oeste de 5 a 10 mph.',
     {
         ('sky', 'clear', 'supported'),
         ('temperature:low', (40, 49), 'supported'),
         ('wind_direction', 'W', 'supported'),
         ('wind_speed', (5, 10), 'supported'),
     }),
    ('e2e__LZK_83-73', 5, 'pt',
     'Sábado com possibilidade de neve (40%) e céu predominantemente nublado. Máxima de 11 °F, com temperaturas caindo à tarde. Vento noroeste de 24 a 32 km/h, com rajadas de até 48 km/h.',
     {
         ('condition:chance', 'snow', 'supported'),
         ('precip_chance', 40, 'supported'),
         ('sky', 'mostly_cloudy', 'unverifiable'),
         ('temperature:high', 11, 'supported'),
         ('temperature_trend', 'falling', 'supported'),
         ('wind_direction', 'NW', 'supported'),
         ('wind_gust', 29.8, 'unverifiable'),
         ('wind_speed', (14.9, 19.9), 'supported'),
     }),
    ('e2e__HFO_154-145', 5, 'pt',
     'Noite de quinta-feira com poucas nuvens. Mínima de 20 °C. Ventos de nor-nordeste de 15 a 24 km/h.',
     {
         ('sky', 'mostly_clear', 'supported'),
         ('temperature:low', (67.1, 68.9), 'supported'),
         ('wind_direction', 'NNE', 'supported'),
         ('wind_speed', (9.3, 14.9), 'supported'),
     }),
    ('e2e__MTR_90-105', 6, 'pt',
     'Chuva provável após as 23h. Mínima em torno de 49 °F. Vento fraco de su-sudoeste. Probabilidade de chuva de 60%.',
     {
         ('condition:likely', 'rain', 'supported'),
         ('precip_chance', 60, 'supported'),
         ('temperature:low', 49, 'supported'),
         ('timing', 'apos as 23h', 'unverifiable'),
         ('wind_direction', 'SSW', 'supported'),
     }),
    ('guam-7day__GUM_47-48', 4, 'pt',
     'Pancadas de chuva isoladas no sábado. Predominantemente ensolarado, máxima de 31 °C e sensação térmica de 38 °C. Vento leste de 16 a 24 km/h.',
     {
         ('condition:slight_chance', 'showers', 'supported'),
         ('sky', 'mostly_clear', 'unverifiable'),
         ('temperature:high', (86.9, 88.7), 'supported'),
         ('wind_chill', 38, 'unverifiable'),
         ('wind_direction', 'E', 'supported'),
         ('wind_speed', (9.9, 14.9), 'supported'),
     }),
    ('testing__AFG_492-119', 3, 'pt',
     'Sábado ensolarado, com pequena chance de pancadas de chuva e trovoadas à tarde (20%). Máxima de 27 °C. Vento fraco de leste, até 5 mph.',
     {
         ('condition:slight_chance', 'showers', 'supported'),
         ('condition:slight_chance', 'thunderstorms', 'supported'),
         ('precip_chance', 20, 'supported'),
         ('sky', 'clear', 'supported'),
         ('temperature:high', (79.7, 81.5), 'supported'),
         ('wind_direction', 'E', 'supported'),
         ('wind_speed', (5, 5), 'supported'),
     }),
    ('e2e__LZK_83-73', 1, 'pt',
     'Tarde parcialmente ensolarada. Máxima de -6 °C, com temperaturas em queda até cerca de -10 °C. Vento de oés-noroeste a 16 km/h.',
     {
         ('sky', 'partly_cloudy', 'supported'),
         ('temperature:high', (20.3, 22.1), 'supported'),
         ('temperature_trend', 'falling', 'supported'),
         ('trend_temperature', '[13.1, 14.9]', 'unverifiable'),
         ('wind_direction', 'WNW', 'supported'),
         ('wind_speed', (9.9, 9.9), 'supported'),
     }),
    ('air-quality-alerts__ALY_71-67', 1, 'pt',
     'Fumaça em algumas áreas nesta tarde, máxima de 85 graus. Ventos de noroeste em torno de 14 mph.',
     {
         ('condition:none', 'smoke', 'supported'),
         ('temperature:high', 85, 'supported'),
         ('wind_direction', 'NW', 'supported'),
         ('wind_speed', (14, 14), 'supported'),
     }),
    ('e2e__FGZ_74-89', 1, 'pt',
     'Céu encoberto nesta tarde, com máxima próxima de 31 °F. Vento leste de 10 mph.',
     {
         ('sky', 'cloudy', 'supported'),
         ('temperature:high', 31, 'supported'),
         ('wind_direction', 'E', 'supported'),
         ('wind_speed', (10, 10), 'supported'),
     }),
    ('testing__SEW_96-55', 12, 'en',
     'Mostly clear Saturday night, lows in the low 40s, with north-northeast winds 3 to 7 mph becoming light after midnight.',
     {
         ('sky', 'mostly_clear', 'supported'),
         ('temperature:low', (40, 43), 'supported'),
         ('timing', 'after midnight', 'unverifiable'),
         ('wind_direction', 'NNE', 'supported'),
         ('wind_speed', (3, 7), 'supported'),
     }),
    ('testing__SEW_96-55', 7, 'en',
     'Plenty of sunshine Thursday: mostly sunny, with highs in the mid 50s. Light northeast winds up to 9 mph.',
     {
         ('sky', 'mostly_clear', 'supported'),
         ('temperature:high', (53, 57), 'supported'),
         ('wind_direction', 'NE', 'supported'),
         ('wind_speed', (9, 9), 'supported'),
     }),
    ('air-quality-alerts__ALY_71-67', 9, 'en',
     'Thunderstorms likely Sunday morning, with a 60% chance of showers and storms, then just a slight chance in the afternoon. Partly sunny with highs in the low 80s. West wind around 12 mph.',
     {
         ('condition:likely', 'showers', 'supported'),
         ('condition:likely', 'thunderstorms', 'supported'),
         ('precip_chance', 60, 'supported'),
         ('sky', 'partly_cloudy', 'unverifiable'),
         ('temperature:high', (80, 83), 'supported'),
         ('wind_direction', 'W', 'supported'),
         ('wind_speed', (12, 12), 'supported'),
     }),
    ('testing__SEW_96-55', 14, 'es',
     'Noche parcialmente nublada, con una mínima de 6 °C y vientos del noroeste de unos 11 km/h.',
     {
         ('sky', 'partly_cloudy', 'supported'),
         ('temperature:low', (41.9, 43.7), 'supported'),
         ('wind_direction', 'NW', 'supported'),
         ('wind_speed', (6.8, 6.8), 'supported'),
     }),
    ('testing__SEW_96-55', 12, 'pt',
     'Noite de sábado com céu predominantemente limpo. Mínima de 6 °C. Vento nor-nordeste de 5 a 11 km/h.',
     {
         ('sky', 'mostly_clear', 'supported'),
         ('temperature:low', (41.9, 43.7), 'supported'),
         ('wind_direction', 'NNE', 'supported'),
         ('wind_speed', (3.1, 6.8), 'supported'),
     }),
]


@pytest.fixture(scope="module")
def evaluator() -> Evaluator:
    return Evaluator(get_domain("weather"))


def _instance(shared_data, stem: str, number: int, language: str):
    path = shared_data / "weather" / "forecasts" / f"{stem}.forecast.json"
    period = next(p for p in iter_file_periods(path) if p.number == number)
    return next(instances_of(period, [language]))


def _readings(result) -> set[tuple]:
    found = set()
    for verdict in result.verdicts:
        claim = verdict.claim
        value = tuple(claim.value) if isinstance(claim.value, list) else claim.value
        key = ":".join(str(v) for v in claim.key.values())
        found.add((claim.type + (f":{key}" if key else ""), value, verdict.label))
    return found


@pytest.mark.parametrize(("stem", "number", "language", "text", "expected"), CASES,
                         ids=[f"{c[0]}:{c[1]}:{c[2]}:{i}" for i, c in enumerate(CASES)])
def test_a_free_forecast_gives_exactly_its_claims_and_verdicts(shared_data, evaluator, stem, number, language, text, expected):
    result = evaluator.evaluate_text(_instance(shared_data, stem, number, language), text)
    assert _readings(result) == expected


def test_the_hand_written_texts_cover_each_language_and_contradict_nothing():
    languages = [c[2] for c in CASES]
    assert min(languages.count(lang) for lang in ("en", "es", "pt")) >= 10
    assert not [c for c in CASES if any(label == "contradicted" for _, _, label in c[4])]
