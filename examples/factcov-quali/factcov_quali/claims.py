"""The domain's three claim types: what a qualifying summary can assert."""

from factcov.comparators import Exact
from factcov.model import ClaimType

# Every driver code of the 2018-2025 Ergast tables. `pole` is categorical over them, so
# the contract test can name a wrong pole-sitter (the generic perturbation draws from
# `choices`); the extractor reads these codes even for a driver who was not in the race.
DRIVER_CODES = (
    "AIT", "ALB", "ALO", "ANT", "BEA", "BOR", "BOT", "COL", "DEV", "DOO", "ERI", "FIT",
    "GAS", "GIO", "GRO", "HAD", "HAM", "HAR", "HUL", "KUB", "KVY", "LAT", "LAW", "LEC",
    "MAG", "MAZ", "MSC", "NOR", "OCO", "PER", "PIA", "RAI", "RIC", "RUS", "SAI", "SAR",
    "SIR", "STR", "TSU", "VAN", "VER", "VET", "ZHO",
)
SESSIONS = ("Q1", "Q2", "Q3")

POLE = ClaimType(
    name="pole",
    description="The driver who qualified fastest (driver code).",
    value_kind="str",
    comparator=Exact(),
    choices=DRIVER_CODES,
)
QUALIFYING_POSITION = ClaimType(
    name="qualifying_position",
    description="A driver's place in the qualifying classification (1 = pole).",
    key_slots=("driver",),
    value_kind="int",
    comparator=Exact(),
)
SESSION_REACHED = ClaimType(
    name="session_reached",
    description="The last session a driver took part in: Q1 or Q2 = knocked out there, "
    "Q3 = reached the top-ten shoot-out.",
    key_slots=("driver",),
    value_kind="str",
    comparator=Exact(),
    choices=SESSIONS,
)
CLAIM_TYPES = (POLE, QUALIFYING_POSITION, SESSION_REACHED)
