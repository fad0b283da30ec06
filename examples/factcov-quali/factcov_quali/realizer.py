"""The realizer: facts -> an English summary (what `check_domain` and the demo use)."""

from collections.abc import Sequence

from factcov.language import ordinal_words
from factcov.model import Fact, Instance

ORDINALS = {value: word for word, value in ordinal_words("en").items()}
SESSION_SENTENCES = {"Q1": "knocked out in Q1", "Q2": "eliminated in Q2", "Q3": "through to Q3"}


def realize_en(facts: Sequence[Fact], instance: Instance) -> str:
    """A sentence per pole and position fact; drivers out in the same session share one."""
    surnames = {row["code"]: row["surname"] for row in instance.context["drivers"]}

    def name(code: str) -> str:
        return surnames.get(code, code)  # a driver who was not in the race goes by code

    sentences: list[str] = []
    sessions: dict[str, list[str]] = {}
    for fact in facts:
        if fact.type == "pole":
            sentences.append(f"{name(fact.value)} took pole position.")
        elif fact.type == "qualifying_position":
            place = ORDINALS.get(fact.value, f"P{fact.value}")
            sentences.append(f"{name(fact.key['driver'])} qualified {place}.")
        elif fact.type == "session_reached":
            sessions.setdefault(fact.value, []).append(name(fact.key["driver"]))
    for session, drivers in sessions.items():
        listed = " and ".join([", ".join(drivers[:-1]), drivers[-1]] if len(drivers) > 1 else drivers)
        verb = "were" if len(drivers) > 1 else "was"
        sentences.append(f"{listed} {verb} {SESSION_SENTENCES[session]}.")
    return " ".join(sentences)
