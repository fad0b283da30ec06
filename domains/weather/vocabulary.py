"""The words of weather forecasts in en/es/pt, normalized to the codes the claim types use.

One table per kind of word: compass points (16-point codes), sky cover (five levels),
weather conditions and their qualifiers. The oracle reads a period's ``shortForecast``
with the same English tables the extractor uses on text, so both sides normalize a
phrase such as "Chance Rain And Snow Showers" identically.
"""

from __future__ import annotations

from functools import cache

from factcov.language import alternation as language_alternation

COMPASS = ("N", "NNE", "NE", "ENE", "E", "ESE", "SE", "SSE", "S", "SSW", "SW", "WSW", "W", "WNW", "NW", "NNW")

SKY_LEVELS = ("clear", "mostly_clear", "partly_cloudy", "mostly_cloudy", "cloudy")

CONDITIONS = (
    "rain", "showers", "thunderstorms", "snow", "snow_showers", "drizzle", "fog", "smoke",
    "haze", "sleet", "freezing_rain", "freezing_drizzle", "blowing_dust", "blowing_snow",
    "dust", "frost",
)
QUALIFIERS = ("slight_chance", "chance", "likely", "none")

# Base names of the eight principal points; the sixteen-point names are built from them.
_POINTS = {
    "en": {"N": ["north"], "S": ["south"], "E": ["east"], "W": ["west"],
           "NE": ["northeast", "north-east", "north east"], "NW": ["northwest", "north-west", "north west"],
           "SE": ["southeast", "south-east", "south east"], "SW": ["southwest", "south-west", "south west"]},
    "es": {"N": ["norte"], "S": ["sur"], "E": ["este"], "W": ["oeste"],
           "NE": ["noreste", "nordeste"], "NW": ["noroeste"],
           "SE": ["sureste", "sudeste"], "SW": ["suroeste", "sudoeste"]},
    "pt": {"N": ["norte"], "S": ["sul"], "E": ["leste", "este"], "W": ["oeste"],
           "NE": ["nordeste"], "NW": ["noroeste"], "SE": ["sudeste", "sueste"], "SW": ["sudoeste"]},
}
# The short prefixes of compound names ("nornordeste", "lés-nordeste", "oés-sudoeste").
_PREFIXES = {
    "en": {},
    "es": {"N": ["nor"], "S": ["sur", "sud"], "E": ["es", "este"], "W": ["oes", "oeste"]},
    "pt": {"N": ["nor"], "S": ["su", "sul"], "E": ["les", "es"], "W": ["oes"]},
}
# What each language calls a sixteen-point direction when it writes one (realizer).
_SPOKEN = {
    "en": {"N": "north", "NNE": "north northeast", "NE": "northeast", "ENE": "east northeast",
           "E": "east", "ESE": "east southeast", "SE": "southeast", "SSE": "south southeast",
           "S": "south", "SSW": "south southwest", "SW": "southwest", "WSW": "west southwest",
           "W": "west", "WNW": "west northwest", "NW": "northwest", "NNW": "north northwest"},
    "es": {"N": "norte", "NNE": "nornoreste", "NE": "noreste", "ENE": "estenoreste",
           "E": "este", "ESE": "estesureste", "SE": "sureste", "SSE": "sursureste",
           "S": "sur", "SSW": "sursuroeste", "SW": "suroeste", "WSW": "oestesuroeste",
           "W": "oeste", "WNW": "oestenoroeste", "NW": "noroeste", "NNW": "nornoroeste"},
    "pt": {"N": "norte", "NNE": "nor-nordeste", "NE": "nordeste", "ENE": "lés-nordeste",
           "E": "leste", "ESE": "lés-sudeste", "SE": "sudeste", "SSE": "su-sudeste",
           "S": "sul", "SSW": "su-sudoeste", "SW": "sudoeste", "WSW": "oés-sudoeste",
           "W": "oeste", "WNW": "oés-noroeste", "NW": "noroeste", "NNW": "nor-noroeste"},
}


def spoken_direction(code: str, language: str) -> str:
    return _SPOKEN[language][code]


@cache
def direction_words(language: str) -> dict[str, str]:
    """Accent-folded, lower-case direction names -> 16-point code."""
    points = _POINTS[language]
    words: dict[str, str] = {}
    for code, names in points.items():
        for name in names:
            words[name] = code
    for code in COMPASS:
        if len(code) != 3:
            continue
        cardinal, principal = code[0], code[1:]
        firsts = points[cardinal] + _PREFIXES[language].get(cardinal, [])
        for first in firsts:
            for second in points[principal]:
                for joiner in ("", " ", "-"):
                    if language == "en" and joiner == "":
                        continue
                    words[f"{first}{joiner}{second}"] = code
    if language == "en":
        for name, code in list(words.items()):
            if " " not in name and "-" not in name:
                words[name + "erly"] = code  # northerly, northwesterly
    for code, name in _SPOKEN[language].items():
        words[_fold_ascii(name)] = code
    return words


# Sky cover: NWS uses "sunny" by day where it says "clear" by night, "partly sunny" for
# "partly cloudy" by day; the levels follow the NWS sky-condition table (0/8 .. 8/8).
_SKY = {
    "en": {
        "clear": ["sunny", "clear", "clear skies", "clear sky", "fair"],
        "mostly_clear": ["mostly sunny", "mostly clear", "mainly sunny", "mainly clear"],
        "partly_cloudy": ["partly sunny", "partly cloudy", "partly clear"],
        "mostly_cloudy": ["mostly cloudy", "considerable cloudiness", "mainly cloudy"],
        "cloudy": ["cloudy", "overcast"],
    },
    "es": {
        "clear": ["soleado", "soleada", "despejado", "despejada", "cielo despejado", "cielos despejados", "cielo claro"],
        "mostly_clear": ["mayormente soleado", "mayormente soleada", "mayormente despejado", "mayormente despejada",
                         "mayormente claro",
                         "principalmente soleado", "principalmente despejado", "mayoritariamente soleado",
                         "mayoritariamente despejado", "poco nuboso", "poco nublado"],
        "partly_cloudy": ["parcialmente nublado", "parcialmente nublada", "parcialmente soleado", "parcialmente soleada",
                          "parcialmente nuboso", "parcialmente despejado", "parcialmente despejada", "nubes y claros",
                          "intervalos nubosos"],
        "mostly_cloudy": ["mayormente nublado", "mayormente nublada", "mayormente nuboso", "principalmente nublado",
                          "mayoritariamente nublado", "muy nuboso", "muy nublado"],
        "cloudy": ["nublado", "nublada", "nuboso", "cubierto", "encapotado"],
    },
    "pt": {
        "clear": ["ensolarado", "ensolarada", "ceu limpo", "ceu claro", "ceu aberto", "limpo", "soalheiro", "noite limpa"],
        "mostly_clear": ["predominantemente ensolarado", "predominantemente ensolarada", "predominantemente limpo",
                         "majoritariamente ensolarado", "principalmente ensolarado", "poucas nuvens",
                         "quase sem nuvens"],
        "partly_cloudy": ["parcialmente nublado", "parcialmente nublada", "parcialmente ensolarado",
                          "parcialmente ensolarada", "parcialmente encoberto",
                          "sol entre nuvens", "sol com algumas nuvens"],
        "mostly_cloudy": ["predominantemente nublado", "predominantemente nublada", "majoritariamente nublado",
                          "principalmente nublado",
                          "muito nublado"],
        "cloudy": ["nublado", "nublada", "encoberto", "encoberta"],
    },
}


@cache
def sky_words(language: str) -> dict[str, str]:
    return {word: level for level, words in _SKY[language].items() for word in words}


SPOKEN_SKY = {
    "en": {"clear": ("sunny", "clear"), "mostly_clear": ("mostly sunny", "mostly clear"),
           "partly_cloudy": ("partly sunny", "partly cloudy"),
           "mostly_cloudy": ("mostly cloudy", "mostly cloudy"), "cloudy": ("cloudy", "cloudy")},
    "es": {"clear": ("soleado", "despejado"), "mostly_clear": ("mayormente soleado", "mayormente despejado"),
           "partly_cloudy": ("parcialmente nublado", "parcialmente nublado"),
           "mostly_cloudy": ("mayormente nublado", "mayormente nublado"), "cloudy": ("nublado", "nublado")},
    "pt": {"clear": ("ensolarado", "céu limpo"),
           "mostly_clear": ("predominantemente ensolarado", "predominantemente limpo"),
           "partly_cloudy": ("parcialmente nublado", "parcialmente nublado"),
           "mostly_cloudy": ("predominantemente nublado", "predominantemente nublado"),
           "cloudy": ("nublado", "nublado")},
}
"""level -> (by day, by night) wording."""

_CONDITION_WORDS = {
    "en": {
        "rain": ["rain", "light rain", "heavy rain", "rainfall"],
        "showers": ["showers", "rain showers", "shower", "rain shower", "light rain showers"],
        "thunderstorms": ["thunderstorms", "thunderstorm", "t-storms", "tstorms", "thunder"],
        "snow": ["snow", "light snow", "heavy snow", "snowfall", "very light snow"],
        "snow_showers": ["snow showers", "snow shower", "light snow showers"],
        "drizzle": ["drizzle", "light drizzle"],
        "fog": ["fog", "dense fog", "freezing fog"],
        "smoke": ["smoke"],
        "haze": ["haze"],
        "sleet": ["sleet"],
        "freezing_rain": ["freezing rain"],
        "freezing_drizzle": ["freezing drizzle"],
        "blowing_dust": ["blowing dust"],
        "blowing_snow": ["blowing snow"],
        "dust": ["dust"],
        "frost": ["frost"],
    },
    "es": {
        "rain": ["lluvia", "lluvias", "lluvia ligera", "lluvias ligeras", "lluvia debil", "lluvia intensa"],
        "showers": ["chubascos", "chubasco", "aguaceros", "aguacero", "chaparrones", "chubascos de lluvia"],
        "thunderstorms": ["tormentas", "tormenta", "tormentas electricas", "tormenta electrica"],
        "snow": ["nieve", "nevadas", "nevada", "nieve ligera", "nevadas debiles"],
        "snow_showers": ["chubascos de nieve", "chubasco de nieve"],
        "drizzle": ["llovizna", "lloviznas"],
        "fog": ["niebla", "nieblas", "neblina", "bancos de niebla"],
        "smoke": ["humo"],
        "haze": ["calima", "bruma"],
        "sleet": ["aguanieve"],
        "freezing_rain": ["lluvia helada", "lluvia engelante", "lluvia congelante"],
        "freezing_drizzle": ["llovizna helada", "llovizna engelante"],
        "blowing_dust": ["polvo en suspension", "polvareda", "tolvanera"],
        "blowing_snow": ["ventisca"],
        "dust": ["polvo"],
        "frost": ["escarcha", "heladas", "helada"],
    },
    "pt": {
        "rain": ["chuva", "chuvas", "chuva fraca", "chuva leve", "chuva forte"],
        "showers": ["pancadas de chuva", "pancada de chuva", "aguaceiros", "aguaceiro", "pancadas"],
        "thunderstorms": ["trovoadas", "trovoada", "tempestades", "tempestade", "tempestades eletricas"],
        "snow": ["neve", "nevadas", "nevada", "neve fraca"],
        "snow_showers": ["pancadas de neve", "aguaceiros de neve"],
        "drizzle": ["garoa", "chuvisco", "chuviscos", "garoas"],
        "fog": ["nevoeiro", "neblina", "nevoeiros"],
        "smoke": ["fumaca", "fumo"],
        "haze": ["nevoa seca", "bruma"],
        "sleet": ["chuva com neve", "granizo miudo"],
        "freezing_rain": ["chuva congelante", "chuva gelada"],
        "freezing_drizzle": ["garoa congelante", "chuvisco congelante"],
        "blowing_dust": ["poeira levantada", "poeira soprada"],
        "blowing_snow": ["neve soprada"],
        "dust": ["poeira"],
        "frost": ["geada", "geadas"],
    },
}


@cache
def condition_words(language: str) -> dict[str, str]:
    return {word: cond for cond, words in _CONDITION_WORDS[language].items() for word in words}


SPOKEN_CONDITION = {
    "en": {c: c.replace("_", " ") for c in CONDITIONS},
    "es": {"rain": "lluvia", "showers": "chubascos", "thunderstorms": "tormentas", "snow": "nieve",
           "snow_showers": "chubascos de nieve", "drizzle": "llovizna", "fog": "niebla", "smoke": "humo",
           "haze": "calima", "sleet": "aguanieve", "freezing_rain": "lluvia helada",
           "freezing_drizzle": "llovizna helada", "blowing_dust": "polvo en suspensión",
           "blowing_snow": "ventisca", "dust": "polvo", "frost": "escarcha"},
    "pt": {"rain": "chuva", "showers": "pancadas de chuva", "thunderstorms": "trovoadas", "snow": "neve",
           "snow_showers": "pancadas de neve", "drizzle": "garoa", "fog": "nevoeiro", "smoke": "fumaça",
           "haze": "névoa seca", "sleet": "chuva com neve", "freezing_rain": "chuva congelante",
           "freezing_drizzle": "garoa congelante", "blowing_dust": "poeira levantada",
           "blowing_snow": "neve soprada", "dust": "poeira", "frost": "geada"},
}

# Qualifier words before a condition list ("a slight chance of", "scattered") and after
# it ("likely"). NWS coverage words map onto the probability words they stand for:
# isolated ~ slight chance, scattered ~ chance, numerous ~ likely; areas/patchy ~ none.
QUALIFIER_BEFORE = {
    "en": {"slight chance": "slight_chance", "a slight chance": "slight_chance",
           "small chance": "slight_chance", "a small chance": "slight_chance",
           "a stray": "slight_chance", "stray": "slight_chance",
           "isolated": "slight_chance", "chance": "chance", "a chance": "chance", "scattered": "chance",
           "possible": "chance", "numerous": "likely", "areas": "none", "areas of": "none",
           "patchy": "none", "widespread": "none", "periods of": "none", "occasional": "none"},
    "es": {"ligera probabilidad": "slight_chance", "baja probabilidad": "slight_chance",
           "pequena probabilidad": "slight_chance", "leve probabilidad": "slight_chance",
           "ligera posibilidad": "slight_chance", "probabilidad": "chance", "posibilidad": "chance",
           "posibles": "chance", "posible": "chance", "aislados": "slight_chance",
           "aisladas": "slight_chance", "dispersos": "chance", "dispersas": "chance",
           "bancos": "none", "areas": "none", "zonas": "none"},
    "pt": {"pequena chance": "slight_chance", "ligeira chance": "slight_chance",
           "baixa chance": "slight_chance", "leve chance": "slight_chance",
           "pequena possibilidade": "slight_chance", "baixa probabilidade": "slight_chance",
           "chance": "chance", "possibilidade": "chance", "probabilidade": "chance",
           "possiveis": "chance", "possivel": "chance", "isoladas": "slight_chance",
           "isolados": "slight_chance", "esparsas": "chance", "esparsos": "chance",
           "areas": "none", "bancos": "none"},
}
QUALIFIER_AFTER = {
    "en": {"likely": "likely", "is likely": "likely", "are likely": "likely", "possible": "chance",
           "is possible": "chance", "are possible": "chance",
           "is also possible": "chance", "are also possible": "chance", "also possible": "chance", "expected": "none", "is expected": "none",
           "are expected": "none"},
    "es": {"probable": "likely", "probables": "likely", "probablemente": "likely",
           "es probable": "likely", "son probables": "likely", "posible": "chance", "posibles": "chance",
           "aislados": "slight_chance", "aisladas": "slight_chance", "dispersos": "chance", "dispersas": "chance"},
    "pt": {"provavel": "likely", "provaveis": "likely", "e provavel": "likely", "sao provaveis": "likely",
           "possivel": "chance", "possiveis": "chance", "isoladas": "slight_chance", "isolados": "slight_chance",
           "esparsas": "chance", "esparsos": "chance", "dispersas": "chance", "dispersos": "chance"},
}
SPOKEN_QUALIFIER = {
    "en": {"slight_chance": "A slight chance of {c}.", "chance": "A chance of {c}.",
           "likely": "{C} likely.", "none": "{C}."},
    "es": {"slight_chance": "Ligera probabilidad de {c}.", "chance": "Probabilidad de {c}.",
           "likely": "{C} probables.", "none": "{C}."},
    "pt": {"slight_chance": "Pequena chance de {c}.", "chance": "Chance de {c}.",
           "likely": "{C} prováveis.", "none": "{C}."},
}
CONDITION_JOINER = {"en": " and ", "es": " y ", "pt": " e "}


def _fold_ascii(text: str) -> str:
    from factcov.language import fold

    return fold(text)


def alternation(words: dict[str, str] | list[str]) -> str:
    """``factcov.language.alternation`` as the weather grammar writes it: flat, longest first (its
    alternatives are read back, ``word_alternation``), a space matching spaces or hyphens and a
    hyphen matching one, a space or nothing ("north-east", "north east", "northeast")."""
    return language_alternation(words, space=r"[\s-]+", hyphen=r"[\s-]?", trie=False)


def word_alternation(words: dict[str, str] | list[str]) -> str:
    """``\\b(?:alternation(words))`` as ``grouped_by_first_letter`` alternatives."""
    return grouped_by_first_letter(alternation(words).split("|"))


def grouped_by_first_letter(alternatives: list[str]) -> str:
    """``\\b(?:a|b|...)`` for regex alternatives that each start with a letter, grouped by
    that letter with the word boundary checked after it: the same matches, but a pattern
    that starts with it lets ``re`` jump between the candidate letters, where one starting
    with ``\\b`` is tried at every position of the text. (Two alternatives with different
    first letters never match at one position, and each group keeps its alternatives'
    order, so the same alternative wins.)"""
    if not all(a[:1].isalpha() for a in alternatives):
        return rf"\b(?:{'|'.join(alternatives)})"
    groups: dict[str, list[str]] = {}
    for alternative in alternatives:
        groups.setdefault(alternative[0], []).append(alternative[1:])
    return "(?:" + "|".join(rf"{first}(?<!\w.)(?:{'|'.join(rest)})" for first, rest in groups.items()) + ")"
