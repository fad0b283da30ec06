"""The `quali-regex` extractor: claims read from English qualifying summaries.

It is instance-aware: the drivers of the session are known, so "Verstappen", "Max
Verstappen" and "VER" all resolve to the code VER. Matching runs on the accent- and
case-folded text (``factcov.language.fold`` keeps offsets), so "Perez" is "Pérez".
"""

import re
from functools import lru_cache

from factcov.extractor import Extractor
from factcov.language import fold, ordinal_pattern, parse_ordinal
from factcov.model import Claim, Instance

from factcov_quali.claim_types import DRIVER_CODES

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


@lru_cache(maxsize=256)
def compile_grammar(names: tuple[str, ...]) -> tuple[re.Pattern[str], dict[str, list[re.Pattern[str]]]]:
    """The driver pattern and every claim type's patterns, for one session's driver names."""
    # Longest name first, so "max verstappen" wins over "verstappen"; any three letters
    # may be a code (checked against the capitals of the original text).
    alternatives = [re.escape(name).replace(r"\ ", " ") for name in sorted(names, key=len, reverse=True)]
    driver = r"\b(?:" + "|".join([*alternatives, "[a-z]{3}"]) + r")\b"
    grammar = {
        claim_type: [re.compile(p.replace("{driver}", driver).replace(" ", r"\s+")) for p in patterns]
        for claim_type, patterns in PATTERNS.items()
    }
    return re.compile(driver.replace(" ", r"\s+")), grammar


class QualiRegexExtractor(Extractor):
    name = "quali-regex"
    description = "Regular expressions for English qualifying summaries (pole, places, eliminations)."
    domains = ("quali",)
    languages = ("en",)

    def extract(self, text: str, instance: Instance) -> list[Claim]:
        folded = fold(text)
        names = driver_names(instance)
        codes = {row["code"] for row in instance.context["drivers"]} | set(DRIVER_CODES)
        driver_pattern, grammar = compile_grammar(tuple(sorted(names)))

        def drivers_in(start: int, end: int) -> list[str]:
            """Codes of the drivers named in text[start:end]: known names, or codes in capitals."""
            found = []
            for m in driver_pattern.finditer(folded, start, end):
                code = names.get(" ".join(m.group().split())) or text[m.start() : m.end()]
                if code in codes:
                    found.append(code)
            return found

        claims: list[Claim] = []
        for claim_type, patterns in grammar.items():
            for pattern in patterns:
                for match in pattern.finditer(folded):
                    group = "drivers" if match.groupdict().get("drivers") else "driver"
                    for code in drivers_in(*match.span(group)):
                        # a pole claim has no key: the driver is its value
                        if claim_type == "pole":
                            key, value = {}, code
                        else:
                            key, value = {"driver": code}, read_value(match)
                        claims.append(Claim(type=claim_type, key=key, value=value, span=match.span(),
                                            text=text[match.start() : match.end()], extractor=self.name))
        return without_repeats(claims)


def driver_names(instance: Instance) -> dict[str, str]:
    """Folded full names and surnames -> driver code; a surname two drivers share names nobody."""
    rows = instance.context["drivers"]
    surnames = [fold(row["surname"]) for row in rows]
    names = {s: row["code"] for s, row in zip(surnames, rows, strict=True) if surnames.count(s) == 1}
    names.update({fold(row["name"]): row["code"] for row in rows})
    return names


def read_value(match: re.Match[str]) -> int | str | None:
    """The place of a qualifying_position phrase, the session of a session_reached one."""
    if match.groupdict().get("ordinal"):
        return parse_ordinal(match["ordinal"], "en")
    return session_of(match["session"])


def without_repeats(claims: list[Claim]) -> list[Claim]:
    """Claims in text order; the same claim read from overlapping phrases is kept once."""
    kept: list[Claim] = []
    for claim in sorted(claims, key=lambda c: (c.span, c.type, str(c.key), str(c.value))):
        if not any(
            (c.type, c.key, c.value) == (claim.type, claim.key, claim.value)
            and c.span[0] < claim.span[1] and claim.span[0] < c.span[1]
            for c in kept
        ):
            kept.append(claim)
    return kept
