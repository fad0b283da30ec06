"""The weather claim types. The first eight are read from a forecast period's record;
the others are facts NWS takes from its grid data, which the period record does not
hold, so a claim of those types is unverifiable (open world)."""

from __future__ import annotations

from factcov.comparators import Exact, NumericTolerance, SetMembership
from factcov.domains.weather.comparators import WindRangeMatch
from factcov.domains.weather.vocabulary import COMPASS, CONDITIONS, SKY_LEVELS
from factcov.model import ClaimType

TEMPERATURE = ClaimType(
    name="temperature",
    description="The period's high (daytime) or low (night) temperature in °F. 'High near 30' "
    "is the point 30 (NWS writes the field exactly); 'upper 40s' is [46, 49]; a °C value is "
    "the °F interval its rounding allows.",
    key_slots=("kind",),
    value_kind="int",
    comparator=NumericTolerance(abs_tol=0),
    templates={"en": "{kind} near {value}.", "es": "{kind} de {value} °F.", "pt": "{kind} de {value} °F."},
)
TEMPERATURE_TREND = ClaimType(
    name="temperature_trend",
    description="'rising' or 'falling' when the period's temperature moves against the "
    "usual daily course (NWS temperatureTrend).",
    value_kind="str",
    comparator=Exact(),
    templates={"en": "Temperatures {value}.", "es": "Temperaturas {value}.", "pt": "Temperaturas {value}."},
    choices=("rising", "falling"),
)
WIND_DIRECTION = ClaimType(
    name="wind_direction",
    description="Wind direction as a 16-point code (N, NNE, ... NNW).",
    comparator=Exact(),
    templates={"en": "{value} wind.", "es": "Viento del {value}.", "pt": "Vento de {value}."},
    choices=COMPASS,
)
WIND_SPEED = ClaimType(
    name="wind_speed",
    description="Sustained wind speed [min, max] in mph ('10 mph' is [10, 10]); a claimed "
    "range must agree at both ends within 1 mph, a single speed must fall in the range.",
    value_kind="range",
    comparator=WindRangeMatch(tol=1.0),
    templates={"en": "Wind {value} mph.", "es": "Viento de {value} mph.", "pt": "Vento de {value} mph."},
)
WIND_GUST = ClaimType(
    name="wind_gust",
    description="Highest wind gust in mph (1 mph tolerance for converted units). The period "
    "record of the NWS forecast endpoint does not hold gusts: such claims are unverifiable "
    "unless the record has a windGust field.",
    value_kind="int",
    comparator=NumericTolerance(abs_tol=1),
    templates={"en": "Gusts as high as {value} mph.", "es": "Ráfagas de hasta {value} mph.",
               "pt": "Rajadas de até {value} mph."},
)
PRECIP_CHANCE = ClaimType(
    name="precip_chance",
    description="Probability of precipitation in percent; NWS writes it rounded to tens, "
    "so a claim within 5 points of the record matches.",
    value_kind="int",
    comparator=NumericTolerance(abs_tol=5),
    templates={"en": "Chance of precipitation is {value}%.", "es": "Probabilidad de precipitación del {value} %.",
               "pt": "Probabilidade de precipitação de {value}%."},
)
SKY = ClaimType(
    name="sky",
    description="Sky cover: clear, mostly_clear, partly_cloudy, mostly_cloudy, cloudy "
    "(sunny = clear by day, partly sunny = partly cloudy by day). From shortForecast one "
    "level; from the icon (when shortForecast names no sky) the icon's level and its two "
    "neighbours, any of which a claim may state.",
    comparator=SetMembership(),
    templates={"en": "{value}.", "es": "{value}.", "pt": "{value}."},
    choices=SKY_LEVELS,
)
CONDITION = ClaimType(
    name="condition",
    description="A weather condition (rain, showers, thunderstorms, snow, ...) with its "
    "qualifier (slight_chance, chance, likely, none). The key also names the condition so "
    "that two conditions of one period are two facts; claims state only the qualifier, so "
    "'a chance of snow' against a record of 'Chance Rain' is not supported. Open world: "
    "shortForecast names only the period's predominant weather (NWS's text adds 'then a "
    "chance of showers and thunderstorms' from the grid), so an unlisted condition is "
    "unverifiable, not false.",
    key_slots=("qualifier", "weather"),
    comparator=Exact(),
    closed_world=False,
    templates={"en": "{qualifier} {value}.", "es": "{qualifier} {value}.", "pt": "{qualifier} {value}."},
    choices=CONDITIONS,
)

# Facts of NWS's grid data, absent from the period record: open world, so unverifiable.
_GRID_ONLY = {
    "timing": "When a condition starts or stops ('before 11am', 'after midnight').",
    "precip_amount": "Rain, snow or ice amounts ('new snow accumulation of 1 to 3 inches'); key kind.",
    "trend_temperature": "The temperature a trend reaches ('rising to around 28 overnight').",
    "heat_index": "Heat index values ('as high as 105').",
    "wind_chill": "Wind chill values ('as low as -5').",
    "hazard": "Severity statements ('some of the storms could be severe').",
}
GRID_ONLY_TYPES = tuple(
    ClaimType(name=name, description=text, value_kind="str", comparator=Exact(), closed_world=False,
              key_slots=("kind",) if name == "precip_amount" else ())
    for name, text in _GRID_ONLY.items()
)

RECORD_TYPES = (TEMPERATURE, TEMPERATURE_TREND, WIND_DIRECTION, WIND_SPEED, WIND_GUST, PRECIP_CHANCE, SKY, CONDITION)
CLAIM_TYPES = RECORD_TYPES + GRID_ONLY_TYPES
