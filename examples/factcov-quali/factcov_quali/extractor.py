"""The `quali-regex` extractor: claims read from English qualifying summaries.

A table of patterns on factcov's building blocks (``factcov.extractors.patterns``): the
session's drivers are a lexicon, so "Verstappen", "Max Verstappen" and "VER" all resolve
to the code VER, matched on the accent- and case-folded text ("Perez" is "Pérez").
"""

from factcov.extractors.patterns import Lexicon, TableExtractor, parse_ordinal
from factcov.language import fold, ordinal_pattern
from factcov.model import Instance

from factcov_quali.claims import DRIVER_CODES

D = r"(?P<driver>{driver})"  # one driver
DL = r"(?P<drivers>{driver}(?:, {driver})*(?:,? and {driver})?)"  # "A, B and C"
ORD = rf"(?P<ordinal>{ordinal_pattern('en')})(?!-| (?:fastest|quickest|session|part|segment|round))"
SESSION = r"(?P<session>q[123]|the (?:first|opening|second|third|final|last) (?:session|part|segment|round))"
SHOOTOUT = r"(?P<session>q3|the (?:final|last|third) (?:session|part|segment)|the top-?ten shoot-?out)"

PATTERNS = {
    "pole": (
        rf"{D} (?:took|claimed|secured|grabbed|snatched|won|earned|sealed) (?:the |his |her )?pole",
        rf"{D} (?:is |was |will start |starts |started )?(?:on|from) pole",
        rf"{D}['’]s (?:\w+ )?pole",
        rf"pole (?:position )?(?:went|fell|goes) to {D}",
        rf"{D} (?:was |went )?(?:fastest|quickest) in q3",
    ),
    "qualifying_position": (
        rf"{D} (?:qualified|was|finished|ended up|came|took|claimed|secured|starts|will start|lines up)"
        rf" (?:in |on )?{ORD}",
        rf"{D},? (?:in |on )?{ORD}",  # "Pérez second, Leclerc third"
        rf"{D} \({ORD}\)",
        rf"{ORD} (?:place )?(?:went to|was|for) {D}",
    ),
    "session_reached": (
        rf"{DL} (?:was |were )?(?:all )?(?:knocked out|eliminated|dropped out|went out|out|bowed out)"
        rf" (?:in|at) {SESSION}",
        rf"{DL} (?:failed to|could not|did not|didn't) (?:make it |get |progress |advance )?"
        rf"(?:out of|beyond|past) {SESSION}",
        rf"(?:knocked out|eliminated|out) in {SESSION}(?::| were| was) {DL}",
        rf"{SESSION} (?:accounted for|claimed|eliminated|knocked out|saw off) {DL}",
        rf"{DL} (?:all )?(?:made it into|made it to|reached|advanced to|progressed to|got into|"
        rf"(?:was |were )?through to) {SHOOTOUT}",
    ),
}


def session_of(phrase: str) -> str:
    """'q2' -> Q2, 'the opening part' -> Q1, 'the top-ten shoot-out' -> Q3."""
    for session, words in (("Q1", ("q1", "first", "opening")), ("Q2", ("q2", "second"))):
        if any(word in phrase for word in words):
            return session
    return "Q3"


class QualiRegexExtractor(TableExtractor):
    name = "quali-regex"
    description = "Regular expressions for English qualifying summaries (pole, places, eliminations)."
    domains = ("quali",)
    languages = ("en",)
    patterns = PATTERNS
    entity_slot = "driver"

    def lexicon(self, instance: Instance) -> Lexicon:
        # Any three letters may be a code, accepted when written in capitals.
        codes = {row["code"] for row in instance.context["drivers"]} | set(DRIVER_CODES)
        return Lexicon(driver_names(instance), written=codes, written_pattern="[a-z]{3}")

    def read(self, claim_type, match, driver):
        if claim_type == "pole":  # a pole claim has no key: the driver is its value
            return {}, driver
        if match.groupdict().get("ordinal"):
            return {"driver": driver}, parse_ordinal(match["ordinal"], "en")
        return {"driver": driver}, session_of(match["session"])


def driver_names(instance: Instance) -> dict[str, str]:
    """Folded full names and surnames -> driver code; a surname two drivers share names nobody."""
    rows = instance.context["drivers"]
    surnames = [fold(row["surname"]) for row in rows]
    names = {s: row["code"] for s, row in zip(surnames, rows, strict=True) if surnames.count(s) == 1}
    names.update({fold(row["name"]): row["code"] for row in rows})
    return names
