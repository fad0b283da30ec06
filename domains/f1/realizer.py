"""The silver-template system: facts -> fluent en/es/pt prose, one sentence per fact.

Drivers are named in full the first time and by surname afterwards; compounds agree
in number and gender with their language ("neumáticos duros", "pneus macios").
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from factcov.domains.f1.mentions import known_drivers
from factcov.model import Fact

COMPOUND_NAMES = {
    "en": {"SOFT": "soft", "MEDIUM": "medium", "HARD": "hard", "INTERMEDIATE": "intermediate", "WET": "full wet"},
    "es": {"SOFT": "blandos", "MEDIUM": "medios", "HARD": "duros", "INTERMEDIATE": "intermedios",
           "WET": "de lluvia extrema"},
    "pt": {"SOFT": "macios", "MEDIUM": "médios", "HARD": "duros", "INTERMEDIATE": "intermediários",
           "WET": "de chuva"},
}
ORDINALS = {
    "en": "first second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth thirteenth "
    "fourteenth fifteenth sixteenth seventeenth eighteenth nineteenth twentieth".split(),
    "es": "primera segunda tercera cuarta quinta sexta séptima octava novena décima".split(),
    "pt": "primeira segunda terceira quarta quinta sexta sétima oitava nona décima".split(),
}
MASCULINE = {
    "es": "primer segundo tercer cuarto quinto sexto séptimo octavo noveno décimo".split(),
    "pt": "primeiro segundo terceiro quarto quinto sexto sétimo oitavo nono décimo".split(),
}
CARDINALS = {
    "en": "zero one two three four five six".split(),
    "es": "cero una dos tres cuatro cinco seis".split(),
    "pt": "zero uma duas três quatro cinco seis".split(),
}


def ordinal(n: int, language: str, masculine: bool = False) -> str:
    words = MASCULINE[language] if masculine and language != "en" else ORDINALS[language]
    if 1 <= n <= len(words):
        return words[n - 1]
    return {"en": f"{n}th", "es": f"{n}.º" if masculine else f"{n}.ª", "pt": f"{n}º" if masculine else f"{n}ª"}[
        language
    ]


def seconds(value: float, language: str) -> str:
    text = f"{abs(value):.1f}"
    return text.replace(".", ",") if language in ("es", "pt") else text


class Names:
    """Full name at a driver's first mention, surname afterwards."""

    def __init__(self, context: dict[str, Any]) -> None:
        race = context.get("race", {})
        self.full = {**known_drivers(), **{d["code"]: d.get("name", d["code"]) for d in race.get("drivers", [])}}
        self.said: set[str] = set()

    def __call__(self, code: str) -> str:
        name = self.full.get(code, code)
        if code in self.said:
            return name.split()[-1]
        self.said.add(code)
        return name


def _stop_lap(fact: Fact, language: str, d: str) -> str:
    stop = fact.key.get("stop")
    if stop is None:
        return {"en": f"{d} pitted on lap {fact.value}.",
                "es": f"{d} entró a boxes en la vuelta {fact.value}.",
                "pt": f"{d} parou nos boxes na volta {fact.value}."}[language]
    return {
        "en": f"{d} made his {ordinal(stop, 'en')} stop on lap {fact.value}.",
        "es": f"{d} hizo su {ordinal(stop, 'es')} parada en la vuelta {fact.value}.",
        "pt": f"{d} fez a {ordinal(stop, 'pt')} parada na volta {fact.value}.",
    }[language]


def _stint(fact: Fact, language: str, d: str) -> str:
    c = COMPOUND_NAMES[language][fact.value]
    stint = fact.key.get("stint")
    if stint == 1:
        return {"en": f"{d} started the race on the {c} tyres.",
                "es": f"{d} empezó la carrera con neumáticos {c}.",
                "pt": f"{d} começou a corrida com pneus {c}."}[language]
    if stint is None:
        return {"en": f"{d} used the {c} tyres.", "es": f"{d} usó neumáticos {c}.",
                "pt": f"{d} usou pneus {c}."}[language]
    return {
        "en": f"{d} ran the {c} tyres in his {ordinal(stint, 'en')} stint.",
        "es": f"{d} llevó neumáticos {c} en su {ordinal(stint, 'es', masculine=True)} stint.",
        "pt": f"{d} usou pneus {c} no {ordinal(stint, 'pt', masculine=True)} stint.",
    }[language]


def _change(fact: Fact, language: str, d: str) -> str:
    source, target = (COMPOUND_NAMES[language][c] for c in fact.value)
    stop = fact.key.get("stop")
    at = {
        "en": f"At his {ordinal(stop, 'en')} stop " if stop else "At one stop ",
        "es": f"En su {ordinal(stop, 'es')} parada " if stop else "En una parada ",
        "pt": f"Na {ordinal(stop, 'pt')} parada, " if stop else "Numa parada, ",
    }[language]
    if fact.value[0] == fact.value[1]:
        rest = {"en": f"{d} took another set of {source} tyres.",
                "es": f"{d} montó otro juego de neumáticos {source}.",
                "pt": f"{d} colocou outro jogo de pneus {source}."}[language]
    else:
        rest = {"en": f"{d} switched from the {source} to the {target} tyres.",
                "es": f"{d} cambió de neumáticos {source} a {target}.",
                "pt": f"{d} trocou de pneus {source} para {target}."}[language]
    return at + rest


def _stop_count(fact: Fact, language: str, d: str) -> str:
    n = fact.value
    if n == 0:
        return {"en": f"{d} did not stop.", "es": f"{d} no paró en boxes.", "pt": f"{d} não parou nos boxes."}[language]
    word = CARDINALS[language][n] if n < len(CARDINALS[language]) else str(n)
    plural = n != 1
    return {
        "en": f"{d} made {word} pit stop{'s' if plural else ''}.",
        "es": f"{d} hizo {word} parada{'s' if plural else ''} en boxes.",
        "pt": f"{d} fez {word} parada{'s' if plural else ''} nos boxes.",
    }[language]


def _position(fact: Fact, language: str, d: str) -> str:
    n = fact.value
    return {"en": f"{d} finished {ordinal(n, 'en')}.", "es": f"{d} terminó en la posición {n}.",
            "pt": f"{d} terminou na posição {n}."}[language]


def _move(fact: Fact, language: str, d: str, r: str | None) -> str:
    kind = fact.type
    on = {"en": f" on {r}", "es": f" sobre {r}", "pt": f" sobre {r}"}[language] if r else ""
    if fact.value:
        return {"en": f"{d}'s {kind}{on} worked.", "es": f"El {kind} de {d}{on} funcionó.",
                "pt": f"O {kind} de {d}{on} funcionou."}[language]
    return {"en": f"{d}'s {kind}{on} did not work.", "es": f"El {kind} de {d}{on} no funcionó.",
            "pt": f"O {kind} de {d}{on} não funcionou."}[language]


def _gain(fact: Fact, language: str, d: str, r: str | None) -> str:
    s = seconds(float(fact.value), language)
    on = {"en": f" on {r}", "es": f" sobre {r}", "pt": f" sobre {r}"}[language] if r else ""
    to = {"en": f" to {r}", "es": f" frente a {r}", "pt": f" para {r}"}[language] if r else ""
    if fact.value >= 0:
        return {"en": f"{d} gained {s} seconds{on} through the stops.",
                "es": f"{d} ganó {s} segundos{on} con las paradas.",
                "pt": f"{d} ganhou {s} segundos{on} com as paradas."}[language]
    return {"en": f"{d} lost {s} seconds{to} through the stops.",
            "es": f"{d} perdió {s} segundos{to} con las paradas.",
            "pt": f"{d} perdeu {s} segundos{to} com as paradas."}[language]


def _defense(fact: Fact, language: str, d: str, a: str) -> str:
    n = fact.value
    return {"en": f"{d} held off {a} for {n} laps.", "es": f"{d} contuvo a {a} durante {n} vueltas.",
            "pt": f"{d} segurou {a} por {n} voltas."}[language]


def _neutralization(fact: Fact, language: str) -> str:
    first, last = fact.value
    kind = fact.key.get("kind")
    if kind == "RED":
        laps = {"en": f"on lap {first}" if first == last else f"from lap {first} to lap {last}",
                "es": f"en la vuelta {first}" if first == last else f"de la vuelta {first} a la vuelta {last}",
                "pt": f"na volta {first}" if first == last else f"da volta {first} à volta {last}"}[language]
        return {"en": f"The race was red-flagged {laps}.", "es": f"Hubo bandera roja {laps}.",
                "pt": f"Houve bandeira vermelha {laps}."}[language]
    laps = {"en": f"on lap {first}" if first == last else f"from lap {first} to lap {last}",
            "es": f"en la vuelta {first}" if first == last else f"de la vuelta {first} a la vuelta {last}",
            "pt": f"na volta {first}" if first == last else f"da volta {first} à volta {last}"}[language]
    name = {
        "SC": {"en": "The safety car", "es": "El coche de seguridad", "pt": "O safety car"},
        "VSC": {"en": "The virtual safety car", "es": "El coche de seguridad virtual", "pt": "O safety car virtual"},
    }[kind][language]
    verb = {"en": "was out", "es": "estuvo en pista", "pt": "esteve na pista"}[language]
    return f"{name} {verb} {laps}."


def realize_fact(fact: Fact, language: str, names: Names) -> str:
    key = fact.key
    if fact.type == "winner":
        d = names(fact.value)
        return {"en": f"{d} won the race.", "es": f"{d} ganó la carrera.", "pt": f"{d} venceu a corrida."}[language]
    if fact.type == "neutralization":
        return _neutralization(fact, language)
    d = names(key["driver"])
    if fact.type == "stop_count":
        return _stop_count(fact, language, d)
    if fact.type == "pit_lap":
        return _stop_lap(fact, language, d)
    if fact.type == "stint_compound":
        return _stint(fact, language, d)
    if fact.type == "compound_change":
        return _change(fact, language, d)
    if fact.type == "final_position":
        return _position(fact, language, d)
    if fact.type in ("undercut", "overcut"):
        return _move(fact, language, d, names(key["rival"]) if "rival" in key else None)
    if fact.type == "time_gained":
        return _gain(fact, language, d, names(key["rival"]) if "rival" in key else None)
    if fact.type == "defense":
        return _defense(fact, language, d, names(key["attacker"]))
    if fact.type == "retired":
        if fact.value:
            return {"en": f"{d} retired from the race.", "es": f"{d} abandonó la carrera.",
                    "pt": f"{d} abandonou a corrida."}[language]
        return {"en": f"{d} reached the finish.", "es": f"{d} llegó a la meta.",
                "pt": f"{d} completou a corrida."}[language]
    raise ValueError(f"no f1 realization for claim type {fact.type!r}")


def realize(facts: Sequence[Fact], language: str, context: dict[str, Any]) -> str:
    names = Names(context)
    return " ".join(realize_fact(fact, language, names) for fact in facts)
