"""The f1 claim types: names, keys and value kinds other tools read (DESIGN.md).

Templates are the plain per-fact realizations (``Domain.realize_fact``); the fluent
realizer in ``realizer.py`` writes the same facts as connected prose.
"""

from __future__ import annotations

from factcov.comparators import NumericTolerance, RangeContainment
from factcov.model import ClaimType

COMPOUNDS = ("SOFT", "MEDIUM", "HARD", "INTERMEDIATE", "WET")
NEUTRALIZATIONS = ("SC", "VSC", "RED")

STOP_COUNT = ClaimType(
    name="stop_count",
    description="How many pit stops a driver made (red-flag tyre changes excluded).",
    key_slots=("driver",),
    value_kind="int",
    templates={
        "en": "{driver} made {value} pit stops.",
        "es": "{driver} hizo {value} paradas en boxes.",
        "pt": "{driver} fez {value} paradas nos boxes.",
    },
)
PIT_LAP = ClaimType(
    name="pit_lap",
    description="The lap of a driver's stop-th pit stop (its in-lap).",
    key_slots=("driver", "stop"),
    value_kind="int",
    templates={
        "en": "{driver} pitted on lap {value}.",
        "es": "{driver} entró a boxes en la vuelta {value}.",
        "pt": "{driver} parou nos boxes na volta {value}.",
    },
)
STINT_COMPOUND = ClaimType(
    name="stint_compound",
    description="The tyre compound of a driver's stint-th stint.",
    key_slots=("driver", "stint"),
    value_kind="str",
    choices=COMPOUNDS,
    templates={
        "en": "{driver} ran stint {stint} on {value} tyres.",
        "es": "{driver} hizo el stint {stint} con neumáticos {value}.",
        "pt": "{driver} fez o stint {stint} com pneus {value}.",
    },
)
COMPOUND_CHANGE = ClaimType(
    name="compound_change",
    description="The compounds before and after a driver's stop-th pit stop: [from, to].",
    key_slots=("driver", "stop"),
    value_kind="list",
    templates={
        "en": "At stop {stop} {driver} switched compounds ({value}).",
        "es": "En la parada {stop} {driver} cambió de compuesto ({value}).",
        "pt": "Na parada {stop} {driver} trocou de composto ({value}).",
    },
)
FINAL_POSITION = ClaimType(
    name="final_position",
    description="A driver's official classified finishing position.",
    key_slots=("driver",),
    value_kind="int",
    templates={
        "en": "{driver} finished P{value}.",
        "es": "{driver} terminó P{value}.",
        "pt": "{driver} terminou em P{value}.",
    },
)
UNDERCUT = ClaimType(
    name="undercut",
    description="The driver pitted before a close rival ahead; true when it put him ahead.",
    key_slots=("driver", "rival"),
    value_kind="bool",
    templates={
        "en": "{driver}'s undercut on {rival} worked: {value}.",
        "es": "El undercut de {driver} sobre {rival} funcionó: {value}.",
        "pt": "O undercut de {driver} sobre {rival} funcionou: {value}.",
    },
)
OVERCUT = ClaimType(
    name="overcut",
    description="The driver stayed out longer than a close rival ahead; true when it put him ahead.",
    key_slots=("driver", "rival"),
    value_kind="bool",
    templates={
        "en": "{driver}'s overcut on {rival} worked: {value}.",
        "es": "El overcut de {driver} sobre {rival} funcionó: {value}.",
        "pt": "O overcut de {driver} sobre {rival} funcionou: {value}.",
    },
)
TIME_GAINED = ClaimType(
    name="time_gained",
    description="Seconds the driver gained on the rival through the stops (gap before - gap after).",
    key_slots=("driver", "rival"),
    value_kind="float",
    comparator=NumericTolerance(abs_tol=0.5, rel_tol=0.1),
    templates={
        "en": "{driver} gained {value} seconds on {rival}.",
        "es": "{driver} ganó {value} segundos sobre {rival}.",
        "pt": "{driver} ganhou {value} segundos sobre {rival}.",
    },
)
DEFENSE = ClaimType(
    name="defense",
    description="Laps a driver kept a faster attacker behind within the defense gap.",
    key_slots=("driver", "attacker"),
    value_kind="int",
    comparator=NumericTolerance(abs_tol=1),
    templates={
        "en": "{driver} held off {attacker} for {value} laps.",
        "es": "{driver} contuvo a {attacker} durante {value} vueltas.",
        "pt": "{driver} segurou {attacker} por {value} voltas.",
    },
)
RETIRED = ClaimType(
    name="retired",
    description="The driver retired (did not take the chequered flag); disqualified cars did.",
    key_slots=("driver",),
    value_kind="bool",
    templates={
        "en": "{driver} retired: {value}.",
        "es": "{driver} abandonó: {value}.",
        "pt": "{driver} abandonou: {value}.",
    },
)
WINNER = ClaimType(
    name="winner",
    description="The race winner (driver code).",
    key_slots=(),
    value_kind="str",
    templates={
        "en": "{value} won the race.",
        "es": "{value} ganó la carrera.",
        "pt": "{value} venceu a corrida.",
    },
)
NEUTRALIZATION = ClaimType(
    name="neutralization",
    description="A safety car (SC), virtual safety car (VSC) or red flag (RED) period: [first, last] lap.",
    key_slots=("kind", "period"),
    value_kind="range",
    comparator=RangeContainment(),
    templates={
        "en": "There was a {kind} period on laps {value}.",
        "es": "Hubo un periodo de {kind} en las vueltas {value}.",
        "pt": "Houve um período de {kind} nas voltas {value}.",
    },
)

CLAIM_TYPES: tuple[ClaimType, ...] = (
    STOP_COUNT,
    PIT_LAP,
    STINT_COMPOUND,
    COMPOUND_CHANGE,
    FINAL_POSITION,
    UNDERCUT,
    OVERCUT,
    TIME_GAINED,
    DEFENSE,
    RETIRED,
    WINNER,
    NEUTRALIZATION,
)
TASKS = ("tyre_strategy", "undercut", "overcut", "defense", "race_summary")
