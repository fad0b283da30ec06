"""The weather-regex extractor on NWS phrasing and on free phrasing written by hand, en/es/pt."""

from __future__ import annotations

import pytest

from factcov.domains.weather.extractor import WeatherRegexExtractor


def claims(text: str, language: str = "en") -> set[tuple]:
    found = set()
    for claim in WeatherRegexExtractor(language).extract(text):
        value = tuple(claim.value) if isinstance(claim.value, list) else claim.value
        found.add((claim.type, tuple(sorted(claim.key.items())), value))
    return found


def test_nws_sentence_set():
    text = ("A chance of snow before 11am. Cloudy, with a high near 30. North wind 10 to 15 mph, with gusts as "
            "high as 30 mph. Chance of precipitation is 40%. New snow accumulation of less than half an inch possible.")
    assert claims(text) == {
        ("condition", (("qualifier", "chance"),), "snow"),
        ("timing", (), "before 11am"),
        ("sky", (), "cloudy"),
        ("temperature", (("kind", "high"),), 30),
        ("wind_direction", (), "N"),
        ("wind_speed", (), (10, 15)),
        ("wind_gust", (), 30),
        ("precip_chance", (), 40),
        ("precip_amount", (("kind", "snow"),), "new snow accumulation of less than half an inch possible"),
    }


def test_a_trend_phrase_is_a_trend_not_the_period_temperature():
    found = claims("Low around 24, with temperatures rising to around 28 overnight.")
    assert ("temperature", (("kind", "low"),), 24) in found
    assert ("temperature_trend", (), "rising") in found
    assert ("trend_temperature", (), "28") in found
    assert not any(c[0] == "temperature" and c[2] == 28 for c in found)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Expect highs in the upper 40s.", ("temperature", (("kind", "high"),), (46, 49))),
        ("Lows in the mid 20s tonight.", ("temperature", (("kind", "low"),), (23, 27))),
        ("The high temperature will reach 75°F (24°C).", ("temperature", (("kind", "high"),), 75)),
        ("Tonight's low: 3 °C.", ("temperature", (("kind", "low"),), (36.5, 38.3))),
        ("Winds out of the south-southwest at 5-10 mph.", ("wind_direction", (), "SSW")),
        ("Breezy northwesterly winds around 20 mph.", ("wind_direction", (), "NW")),
        ("Winds gusting to 45 mph at times.", ("wind_gust", (), 45)),
        ("There is a 60 percent chance of rain.", ("precip_chance", (), 60)),
        ("Rain chance near 20%.", ("precip_chance", (), 20)),
        ("Isolated thunderstorms possible in the afternoon.", ("condition", (("qualifier", "slight_chance"),), "thunderstorms")),
        ("Rain and snow showers likely.", ("condition", (("qualifier", "likely"),), "showers")),
        ("Skies will be mostly clear.", ("sky", (), "mostly_clear")),
        ("Overcast and damp.", ("sky", (), "cloudy")),
        ("About two inches of snow could fall.", ("precip_amount", (("kind", "snow"),), "two inches of snow")),
    ],
)
def test_free_english_phrasing(text, expected):
    assert expected in claims(text)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Máxima de 30 grados y cielo despejado.", ("temperature", (("kind", "high"),), 30)),
        ("Temperaturas mínimas alrededor de 27 °F.", ("temperature", (("kind", "low"),), 27)),
        ("La mínima será de -1 °C.", ("temperature", (("kind", "low"),), (29.3, 31.1))),
        ("Vientos del norte de 10 a 15 mph.", ("wind_direction", (), "N")),
        ("Vientos del norte de 10 a 15 mph.", ("wind_speed", (), (10, 15))),
        ("Viento del estenoreste, con ráfagas de hasta 30 mph.", ("wind_direction", (), "ENE")),
        ("Viento del estenoreste, con ráfagas de hasta 30 mph.", ("wind_gust", (), 30)),
        ("Probabilidad de lluvia del 40 %.", ("precip_chance", (), 40)),
        ("Hay un 70 % de probabilidad de precipitaciones.", ("precip_chance", (), 70)),
        ("Cielo mayormente nublado por la tarde.", ("sky", (), "mostly_cloudy")),
        ("Ligera probabilidad de tormentas eléctricas.", ("condition", (("qualifier", "slight_chance"),), "thunderstorms")),
        ("Chubascos probables después del mediodía.", ("condition", (("qualifier", "likely"),), "showers")),
        ("Vientos de 16 a 24 km/h.", ("wind_speed", (), (9.9, 14.9))),
    ],
)
def test_free_spanish_phrasing(text, expected):
    assert expected in claims(text, "es")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Céu parcialmente nublado.", ("sky", (), "partly_cloudy")),
        ("Ventos de nordeste a 10 mph.", ("wind_direction", (), "NE")),
        ("Vento do su-sudoeste de 5 a 10 mph.", ("wind_direction", (), "SSW")),
        ("Máxima de 88 graus Fahrenheit.", ("temperature", (("kind", "high"),), 88)),
        ("Mínima por volta de 41 °F, com temperaturas em elevação.", ("temperature_trend", (), "rising")),
        ("Probabilidade de chuva de 30%.", ("precip_chance", (), 30)),
        ("Chance de pancadas de chuva e trovoadas.", ("condition", (("qualifier", "chance"),), "thunderstorms")),
        ("Rajadas de até 40 km/h.", ("wind_gust", (), 24.9)),
        ("Garoa e nevoeiro pela manhã.", ("condition", (("qualifier", "none"),), "fog")),
    ],
)
def test_free_portuguese_phrasing(text, expected):
    assert expected in claims(text, "pt")


def test_negated_weather_is_not_a_condition_claim():
    assert not [c for c in claims("No rain is expected; sunny.") if c[0] == "condition"]
    assert not [c for c in claims("Sin lluvia.", "es") if c[0] == "condition"]


def test_humidity_is_not_a_precipitation_chance():
    assert not [c for c in claims("Relative humidity 40%.") if c[0] == "precip_chance"]


def test_claims_carry_spans_into_the_original_text():
    text = "Céu parcialmente nublado, mínima de 27 °F."
    for claim in WeatherRegexExtractor("pt").extract(text):
        assert text[claim.span[0]:claim.span[1]] == claim.text


@pytest.mark.parametrize(
    ("language", "text", "expected"),
    [
        ("en", "Tonight will be mostly cloudy with a low of 27 degrees. Expect light east-northeast winds between "
               "5 and 10 mph. There's an 80% chance of snow after 8 PM, with around an inch of accumulation possible.",
         {("sky", (), "mostly_cloudy"), ("temperature", (("kind", "low"),), 27), ("wind_direction", (), "ENE"),
          ("wind_speed", (), (5, 10)), ("precip_chance", (), 80), ("condition", (("qualifier", "none"),), "snow"),
          ("timing", (), "after 8 pm"),
          ("precip_amount", (("kind", "unspecified"),), "an inch of accumulation")}),
        ("en", "Saturday: sunny skies and a high of 85°F. Winds from the WSW at 10 mph. No precipitation expected.",
         {("sky", (), "clear"), ("temperature", (("kind", "high"),), 85), ("wind_direction", (), "WSW"),
          ("wind_speed", (), (10, 10))}),
        ("es", "Esta noche estará nublado, con una temperatura mínima cercana a los 27 °F. Vientos del este-noreste "
               "entre 5 y 10 mph. Probabilidad de nieve del 80 % después de las 8 p. m.",
         {("sky", (), "cloudy"), ("temperature", (("kind", "low"),), 27), ("wind_direction", (), "ENE"),
          ("wind_speed", (), (5, 10)), ("precip_chance", (), 80), ("condition", (("qualifier", "none"),), "snow"),
          ("timing", (), "despues de las 8 p. m.")}),
        ("pt", "Sábado ensolarado, com máxima de 29 °C e ventos de oés-sudoeste a 16 km/h. Sem chuva prevista.",
         {("sky", (), "clear"), ("temperature", (("kind", "high"),), (83.3, 85.1)), ("wind_direction", (), "WSW"),
          ("wind_speed", (), (9.9, 9.9))}),
    ],
)
def test_a_whole_model_style_forecast_gives_exactly_its_claims(language, text, expected):
    assert claims(text, language) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Lows around 10 below zero.", ("temperature", (("kind", "low"),), -10)),
        ("Light and variable wind becoming south southwest 5 to 9 mph in the morning.", ("wind_direction", (), "SSW")),
        ("Some thunder is also possible.", ("condition", (("qualifier", "chance"),), "thunderstorms")),
        ("Calm wind.", ("wind_speed", (), (0, 0))),
        ("Widespread frost before 8am.", ("condition", (("qualifier", "none"),), "frost")),
    ],
)
def test_less_common_nws_phrasing(text, expected):
    assert expected in claims(text)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("A 20 percent chance of light snow.", {("precip_chance", (), 20), ("condition", (("qualifier", "slight_chance"),), "snow")}),
        ("About a 40% chance of some snow.", {("precip_chance", (), 40), ("condition", (("qualifier", "chance"),), "snow")}),
        ("A 60% chance of rain and snow showers.", {("precip_chance", (), 60), ("condition", (("qualifier", "likely"),), "showers"),
                                                     ("condition", (("qualifier", "likely"),), "snow_showers")}),
        ("A 90 percent chance of rain.", {("precip_chance", (), 90), ("condition", (("qualifier", "none"),), "rain")}),
        # on a boundary between two NWS bands the condition is claimed without a qualifier
        ("A 25% chance of rain.", {("precip_chance", (), 25), ("condition", (), "rain")}),
        # below 10% a percentage does not say that it rains
        ("A 5 percent chance of rain.", {("precip_chance", (), 5)}),
        ("Chance of precipitation is 40%.", {("precip_chance", (), 40)}),
        # a range is an interval; its condition keeps a qualifier only when both ends agree
        ("A 30 to 40 percent chance of rain.", {("precip_chance", (), (30, 40)), ("condition", (("qualifier", "chance"),), "rain")}),
        ("Rain chances 20-30%.", {("precip_chance", (), (20, 30)), ("condition", (), "rain")}),
        ("A 20 to 60 percent chance of rain.", set()),  # too wide to claim anything
    ],
)
def test_a_percentage_chance_names_its_condition_with_the_nws_qualifier(text, expected):
    assert claims(text) == expected


@pytest.mark.parametrize(
    ("language", "text", "expected"),
    [
        ("es", "Un 70 % de probabilidad de chubascos.", {("precip_chance", (), 70), ("condition", (("qualifier", "likely"),), "showers")}),
        ("es", "Probabilidad de lluvia: 90 %.", {("precip_chance", (), 90), ("condition", (("qualifier", "none"),), "rain")}),
        ("pt", "Probabilidade de chuva de 60%.", {("precip_chance", (), 60), ("condition", (("qualifier", "likely"),), "rain")}),
        ("pt", "Probabilidade de precipitação de 30%.", {("precip_chance", (), 30)}),
    ],
)
def test_a_percentage_chance_names_its_condition_in_spanish_and_portuguese(language, text, expected):
    assert claims(text, language) == expected


@pytest.mark.parametrize(
    ("language", "text"),
    [
        ("en", "Gray and chilly."),  # gray: cloudy or mostly cloudy, a model does not say which
        ("en", "Temperatures in the low 40s."),  # no high or low stated
        ("en", "Winds light and variable."),
        ("es", "Vientos este fin de semana."),  # "este" is "this", not east
        ("pt", "Ventos este fim de semana."),
        ("es", "Sin chubascos de lluvia y nieve."),
        # one of two sky levels; a humidity or a cloud cover is no chance of precipitation
        ("en", "Mostly clear to partly cloudy skies."),
        ("en", "Partly to mostly cloudy."),
        ("es", "Cielo parcialmente nublado a nublado."),
        ("en", "Relative humidity values near 80%."),
        ("en", "Cloud cover around 70%."),
        ("es", "Humedad relativa del 80 %."),
        ("pt", "Umidade relativa do ar em torno de 60%."),
        # sky words in other senses
        ("en", "It is not clear when it will end."),
        ("es", "El suelo quedará cubierto de hielo."),
        # a lower bound is not the wind speed
        ("en", "Winds over 20 mph at times."),
        ("en", "Winds will be north of 20 mph."),
        ("es", "Vientos de más de 40 km/h."),
        # a difference is not a temperature
        ("en", "Highs 10 degrees above normal."),
        ("en", "Highs about 10 degrees below normal."),
        ("en", "Lows 5 to 10 degrees colder than last night."),
        ("es", "Máximas de 3 a 5 grados más bajas que ayer."),
        ("pt", "Máxima 3 graus acima da média."),
    ],
)
def test_ambiguous_phrases_read_nothing(language, text):
    assert claims(text, language) == set()


@pytest.mark.parametrize(
    ("language", "text", "expected"),
    [
        ("en", "Lows in the high 30s.", {("temperature", (("kind", "low"),), (36, 39))}),
        ("en", "Temperatures will bottom out near 20.", {("temperature", (("kind", "low"),), 20)}),
        ("en", "Easterly trade winds.", {("wind_direction", (), "E")}),
        ("en", "A stray thunderstorm.", {("condition", (("qualifier", "slight_chance"),), "thunderstorms")}),
        ("es", "Mínima de 12 °C.", {("temperature", (("kind", "low"),), (52.7, 54.5))}),
        ("en", "Gusty winds up to 30 mph.", {("wind_gust", (), 30)}),
        ("en", "A fair chance of showers.", {("condition", (("qualifier", "chance"),), "showers")}),
        ("es", "Cielo cubierto por la mañana.", {("sky", (), "cloudy")}),
        ("en", "Lows of 10 degrees below zero.", {("temperature", (("kind", "low"),), -10)}),
        ("en", "Winds will be northerly at 10-15 mph.", {("wind_direction", (), "N"), ("wind_speed", (), (10, 15))}),
        ("en", "Winds 10 to 15 mph from the north.", {("wind_direction", (), "N"), ("wind_speed", (), (10, 15))}),
        ("es", "Mínimas de 5 grados bajo cero.", {("temperature", (("kind", "low"),), -5)}),
        ("es", "Con una máxima que rondará los 30 grados.", {("temperature", (("kind", "high"),), 30)}),
        ("es", "Vientos de 10 a 15 mph del norte.", {("wind_direction", (), "N"), ("wind_speed", (), (10, 15))}),
        ("es", "Viento de componente norte.", {("wind_direction", (), "N")}),
        ("pt", "Mínima de 5 graus negativos.", {("temperature", (("kind", "low"),), -5)}),
        ("pt", "A máxima deve atingir 25 °C.", {("temperature", (("kind", "high"),), (76.1, 77.9))}),
        ("pt", "Mínima prevista de 12 °C.", {("temperature", (("kind", "low"),), (52.7, 54.5))}),
        ("pt", "Ventos de 10 a 15 km/h vindos do norte.", {("wind_direction", (), "N"), ("wind_speed", (), (6.2, 9.3))}),
        ("en", "Low around 10 below zero, about 20 below normal.", {("temperature", (("kind", "low"),), -10)}),
        ("es", "Vientos racheados de hasta 50 km/h.", {("wind_gust", (), 31.1)}),
        ("es", "Máximas en los 40 grados.", {("temperature", (("kind", "high"),), (40, 49))}),
        ("es", "Máxima alrededor de los 40 grados.", {("temperature", (("kind", "high"),), 40)}),
        ("en", "A 40-percent chance of snow.", {("precip_chance", (), 40), ("condition", (("qualifier", "chance"),), "snow")}),
        ("es", "Viento norte con rachas de hasta 30 mph.", {("wind_direction", (), "N"), ("wind_gust", (), 30)}),
        ("es", "Noche parcialmente nublada.", {("sky", (), "partly_cloudy")}),
        ("pt", "Máxima na casa dos 20 °C.", {("temperature", (("kind", "high"),), (67.1, 85.1))}),
        ("pt", "Pancadas de chuva e neve esparsas.", {("condition", (("qualifier", "chance"),), "showers"),
                                                       ("condition", (("qualifier", "chance"),), "snow_showers")}),
        ("pt", "Vento fraco de su-sudoeste após as 23h.", {("wind_direction", (), "SSW"), ("timing", (), "apos as 23h")}),
    ],
)
def test_more_free_phrasing(language, text, expected):
    assert claims(text, language) == expected
