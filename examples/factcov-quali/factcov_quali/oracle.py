"""The oracle: every fact a qualifying classification holds, and the ones that matter.

An instance's context is the classification the model was given: one row per driver
with ``code``, ``name``, ``surname``, ``position`` and the ``q1``/``q2``/``q3`` lap
times (None when the driver set none).
"""

from typing import Any

from factcov.model import Fact

# Fields of 20 cars (2018-2025): the top 15 of Q1 go through to Q2, the top 10 of Q2 to Q3.
Q2_PLACES = 15
Q3_PLACES = 10


def session_reached(row: dict[str, Any]) -> str:
    """The last session a driver took part in.

    By classification, not by lap times alone: a driver who went through to Q2 but saved
    tyres for a grid penalty sets no Q2 time yet was eliminated in Q2 (2018 Russia), and
    a driver disqualified after qualifying is classified last with a Q2 time (2024 Baku).
    """
    if row["position"] <= Q3_PLACES or row["q3"]:
        return "Q3"
    if row["position"] <= Q2_PLACES or row["q2"]:
        return "Q2"
    return "Q1"


def all_facts(context: dict[str, Any]) -> list[Fact]:
    """Everything checkable: each driver's position and last session, and the pole."""
    rows = sorted(context["drivers"], key=lambda row: row["position"])
    facts = [Fact(type="pole", value=rows[0]["code"])]
    for row in rows:
        driver = {"driver": row["code"]}
        facts.append(Fact(type="qualifying_position", key=driver, value=row["position"]))
        facts.append(Fact(type="session_reached", key=driver, value=session_reached(row)))
    return facts


def relevant_facts(context: dict[str, Any]) -> list[Fact]:
    """What a summary must cover: the pole, P2 and P3, and who went out in Q1 and Q2."""
    return [
        fact
        for fact in all_facts(context)
        if fact.type == "pole"
        or (fact.type == "qualifying_position" and fact.value in (2, 3))
        or (fact.type == "session_reached" and fact.value != "Q3")
    ]
