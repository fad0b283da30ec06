"""`f1-regex` on the 62 model-style texts of tests/f1_free_texts.py (issue 14).

Each text must read its expected claims except the misses recorded below, read nothing
the text does not say except the recorded errors, and raise no false contradiction (every
text is true). A miss now read fails the test: move it out of KNOWN. The figures over all
texts are the ones docs/extractors.md reports.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from factcov.domains.f1.domain import F1Domain
from factcov.domains.f1.extractor import F1RegexExtractor
from factcov.domains.f1.instances import race_instances
from factcov.domains.f1.source import race
from factcov.evaluate import Evaluator
from factcov.model import Instance
from tests.f1_free_texts import FREE_TEXTS, HELD_OUT, Read, score
from tests.test_f1_extract import Decisions, is_withheld

# index -> (claims read that the text does not say, expected claims not read), measured
KNOWN: dict[int, tuple[list[Read], list[Read]]] = {
    0: ([], [("final_position", {"driver": "ALO"}, 3)]),  # "carried him to third place"
    3: ([], [("pit_lap", {"driver": "HAM", "stop": 1}, 12)]),  # "At the first, on lap 12, he went from ..."
    5: ([], [("final_position", {"driver": "GAS"}, 9)]),  # "finished on softs in ninth"
    6: ([], [("compound_change", {"driver": "MAG"}, ["HARD", "HARD"])]),  # "a second set of hards": after which set?
    # "a virtual safety car on laps 41 and 42" reads as two one-lap periods (the convention
    # of the hand-written tests); "led a Red Bull one-two ahead of Pérez" names no place
    12: ([("neutralization", {"kind": "VSC"}, [41, 41]), ("neutralization", {"kind": "VSC"}, [42, 42])],
         [("winner", {}, "VER"), ("final_position", {"driver": "VER"}, 1), ("final_position", {"driver": "PER"}, 2),
          ("final_position", {"driver": "ALO"}, 3), ("neutralization", {"kind": "VSC"}, [41, 42])]),
    15: ([], [("final_position", {"driver": "GAS"}, 9), ("final_position", {"driver": "ALB"}, 10)]),
    18: ([], [("final_position", {"driver": "SAR"}, 20)]),  # "was last, in 20th"
    22: ([], [("time_gained", {"driver": "DEV"}, -6.7)]),  # "6.7 seconds worse off"
    31: ([], [("final_position", {"driver": "SAI"}, 3)]),  # "terminó en el podio, tercero"
}
# the held-out texts (2022 Bahrain): measured first, then the classes they showed were fixed
KNOWN_HELD_OUT: dict[int, tuple[list[Read], list[Read]]] = {
    # "after the safety car stop on lap 46": the safety car on lap 46 is read (true, not expected); the stop is a noun
    0: ([("neutralization", {"kind": "SC"}, [46, 46])], [("pit_lap", {"driver": "LEC"}, 46)]),
    1: ([], [("final_position", {"driver": "HAM"}, 3)]),  # "took the last podium place, third"
    # a gain told with the move ("the undercut gained him 10 seconds") is no outcome: a gain can leave him behind
    5: ([], [("undercut", {"driver": "ALO"}, True)]),
    6: ([], [("overcut", {"driver": "RUS"}, False)]),
    7: ([("neutralization", {"kind": "SC"}, [46, 46])], []),
    12: ([], [("undercut", {"driver": "MSC"}, True)]),
}
ACCEPTED_MARK = re.compile(r"after the grammar work:\s+P (\d\.\d{3}),\s+R (\d\.\d{3})")
HELD_OUT_MARK = re.compile(r"held-out after:\s+P (\d\.\d{3}),\s+R (\d\.\d{3})")


def _false_contradictions(instance: Instance, text: str) -> list[Any]:
    """Contradicted claims of a true text. A decision the oracle withholds since issue #9
    (a confounded undercut, a defense without a pace margin) is no fact of the race, so its
    claims are not checked: a gain read without its rival can then meet the driver's gain on
    another rival (see docs/extractors.md)."""
    verdicts = Evaluator(F1Domain()).evaluate_text(instance, text).verdicts
    return [v for v in verdicts if v.label == "contradicted" and not is_withheld(instance, v.claim)]


def _key(claims: list[Read]) -> list[str]:
    return sorted(repr(c) for c in claims)


@pytest.fixture(scope="module")
def bahrain_2022_2024(shared_data: Path) -> dict[str, Instance]:
    # a decision the oracle no longer lists (issue #9) is read with a stand-in of its focus
    return Decisions({i.id: i for season in (2022, 2023, 2024) for i in race_instances(race(shared_data / "f1", season, 1))})


def _read(instance: Instance, text: str) -> list[Read]:
    claims = F1RegexExtractor(language=instance.language).extract(text, instance)
    for claim in claims:  # spans point at the words read
        assert claim.span is not None and text[claim.span[0]: claim.span[1]] == claim.text
    return [(c.type, dict(c.key), c.value) for c in claims]


@pytest.mark.parametrize(("index", "instance_id", "text", "expected"),
                         [(n, *case) for n, case in enumerate(FREE_TEXTS)],
                         ids=[f"{n}-{c[0].split(':')[3]}-{c[0].split(':')[-1]}" for n, c in enumerate(FREE_TEXTS)])
def test_free_text_reads_what_it_says(bahrain_2022_2024: dict[str, Instance], index: int, instance_id: str,
                                      text: str, expected: list[Read]) -> None:
    instance = bahrain_2022_2024[instance_id]
    wrong, missed = score(_read(instance, text), expected)
    known_wrong, known_missed = KNOWN.get(index, ([], []))
    assert _key(wrong) == _key(known_wrong), f"read but not said: {wrong}"
    assert _key(missed) == _key(known_missed), f"not read: {missed}"
    assert not _false_contradictions(instance, text)  # every text is true


@pytest.mark.parametrize(("index", "instance_id", "text", "expected"),
                         [(n, *case) for n, case in enumerate(HELD_OUT)],
                         ids=[f"held-{n}-{c[0].split(':')[3]}-{c[0].split(':')[-1]}" for n, c in enumerate(HELD_OUT)])
def test_held_out_text_reads_what_it_says(bahrain_2022_2024: dict[str, Instance], index: int, instance_id: str,
                                          text: str, expected: list[Read]) -> None:
    instance = bahrain_2022_2024[instance_id]
    wrong, missed = score(_read(instance, text), expected)
    known_wrong, known_missed = KNOWN_HELD_OUT.get(index, ([], []))
    assert _key(wrong) == _key(known_wrong), f"read but not said: {wrong}"
    assert _key(missed) == _key(known_missed), f"not read: {missed}"
    assert not _false_contradictions(instance, text)


@pytest.mark.parametrize(("texts", "mark"), [(FREE_TEXTS, ACCEPTED_MARK), (HELD_OUT, HELD_OUT_MARK)],
                         ids=["62-texts", "held-out"])
def test_the_figures_in_the_docs_are_measured(bahrain_2022_2024: dict[str, Instance], repo_root: Path,
                                              texts: list, mark: re.Pattern[str]) -> None:
    read = wrong = expected = missed = 0
    for instance_id, text, claims in texts:
        found = _read(bahrain_2022_2024[instance_id], text)
        bad, lost = score(found, claims)
        read, wrong, expected, missed = read + len(found), wrong + len(bad), expected + len(claims), missed + len(lost)
    figures = mark.search((repo_root / "docs" / "extractors.md").read_text(encoding="utf-8"))
    assert figures is not None, "docs/extractors.md reports the free-text figures"
    assert (f"{1 - wrong / read:.3f}", f"{1 - missed / expected:.3f}") == figures.groups()


@pytest.fixture(scope="module")
def imola_2021(shared_data: Path) -> dict[str, Instance]:
    return Decisions({i.id: i for i in race_instances(race(shared_data / "f1", 2021, 2))})


@pytest.mark.parametrize(
    ("language", "text", "expected"),
    [
        ("en", "Verstappen won. Hamilton was second and Lando Norris third.",
         [("winner", {}, "VER"), ("final_position", {"driver": "VER"}, 1),
          ("final_position", {"driver": "HAM"}, 2), ("final_position", {"driver": "NOR"}, 3)]),
        ("es", "Hamilton fue segundo y Lando Norris, tercero.",
         [("final_position", {"driver": "HAM"}, 2), ("final_position", {"driver": "NOR"}, 3)]),
        ("pt", "Hamilton foi o segundo e Lando Norris o terceiro.",
         [("final_position", {"driver": "HAM"}, 2), ("final_position", {"driver": "NOR"}, 3)]),
    ],
)
def test_plain_places_after_a_copula(imola_2021: dict[str, Instance], language: str, text: str,
                                     expected: list[Any]) -> None:
    instance = imola_2021[f"f1:2021:2:race_summary:{language}"]
    assert _key(_read(instance, text)) == _key(expected)


@pytest.mark.parametrize(
    "text",
    [
        "Hamilton was second to pit, a lap after Norris.",
        "Hamilton was first in line at the restart.",
        "Hamilton was second fastest in the final sector.",
    ],
)
def test_a_copula_place_that_is_no_finishing_place(imola_2021: dict[str, Instance], text: str) -> None:
    found = _read(imola_2021["f1:2021:2:race_summary:en"], text)
    assert not [c for c in found if c[0] == "final_position"]


def test_another_set_at_the_second_stop_is_that_stops_change(bahrain_2022_2024: dict[str, Instance]) -> None:
    # the text: not compound_change(stop=1) = [HARD, HARD]
    found = _read(bahrain_2022_2024["f1:2023:1:tyre_strategy:ALO:en"],
                  "He started on softs, switched to hards at his first stop and took another set of hards at the second.")
    assert _key([c for c in found if c[0] == "compound_change"]) == _key([
        ("compound_change", {"driver": "ALO", "stop": 1}, ["SOFT", "HARD"]),
        ("compound_change", {"driver": "ALO", "stop": 2}, ["HARD", "HARD"])])


def test_stints_after_a_red_flag_tyre_change_are_no_stop_change(shared_data: Path) -> None:
    # Baku 2021: tyres changed under the red flag count as a stint without a stop, so
    # "at his first stop" names no stint number and no change is inferred from it
    baku = {i.id: i for i in race_instances(race(shared_data / "f1", 2021, 6))}
    found = _read(baku["f1:2021:6:tyre_strategy:GIO:en"],
                  "Giovinazzi started on softs and switched to hards at his first stop.")
    assert _key(found) == _key([("stint_compound", {"driver": "GIO", "stint": 1}, "SOFT"),
                                ("stint_compound", {"driver": "GIO"}, "HARD")])


@pytest.mark.parametrize(
    ("language", "text"),
    [
        ("en", "Lewis Hamilton won the Bahrain Grand Prix ahead of Verstappen and Bottas, with two stops."),
        ("es", "Hamilton ganó por delante de Verstappen y Bottas, con dos paradas."),
        ("pt", "Hamilton venceu à frente de Verstappen e Bottas, com duas paradas."),
    ],
)
def test_a_driver_listed_after_an_object_is_no_subject(shared_data: Path, language: str, text: str) -> None:
    # found by the example project: "with two stops" was Bottas's (the last name), not the winner's
    bahrain = Decisions({i.id: i for i in race_instances(race(shared_data / "f1", 2021, 1))})
    found = _read(bahrain[f"f1:2021:1:race_summary:{language}"], text)
    assert [c for c in found if c[0] == "stop_count"] == [("stop_count", {"driver": "HAM"}, 2)]


@pytest.mark.parametrize(
    ("language", "text"),
    [
        ("en", "Hamilton kept his team-mate behind for five laps."),
        ("es", "Hamilton contuvo a su compañero de equipo durante cinco vueltas."),
        ("pt", "Hamilton segurou o seu companheiro de equipe por cinco voltas."),
    ],
)
def test_a_team_mate_in_a_pair_of_team_mates_is_the_other_one(bahrain_2022_2024: dict[str, Instance],
                                                              language: str, text: str) -> None:
    found = _read(bahrain_2022_2024[f"f1:2023:1:defense:HAM:RUS:{language}"], text)
    assert found == [("defense", {"driver": "HAM", "attacker": "RUS"}, 5)]


def test_a_team_mate_outside_a_pair_of_team_mates_names_nobody(bahrain_2022_2024: dict[str, Instance]) -> None:
    # Gasly (Alpine) and De Vries (AlphaTauri) are no team-mates: "his team-mate" is neither
    found = _read(bahrain_2022_2024["f1:2023:1:defense:GAS:DEV:en"], "Gasly finished ahead of his team-mate.")
    assert not [c for c in found if c[0] == "final_position" and c[1]["driver"] == "DEV"]


@pytest.mark.parametrize(
    ("text", "read_as_stop"),
    [
        ("Magnussen took a second set of hards on lap 15.", True),
        ("Magnussen went back onto softs on lap 29.", True),
        ("Magnussen took the lead on lap 15.", False),
        ("Magnussen went back onto the track on lap 15.", False),
    ],
)
def test_a_set_taken_on_a_lap_is_a_stop(bahrain_2022_2024: dict[str, Instance], text: str, read_as_stop: bool) -> None:
    found = _read(bahrain_2022_2024["f1:2023:1:tyre_strategy:MAG:en"], text)
    assert bool([c for c in found if c[0] == "pit_lap"]) is read_as_stop
