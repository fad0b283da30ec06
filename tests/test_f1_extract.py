"""`f1-regex` on phrasings written by hand in en, es and pt (not the realizer's templates).

Every text is about the real 2021 Bahrain Grand Prix; the instance gives the extractor
its drivers (codes, names, teams). Expected claims are what a careful reader takes from
the sentence; a claim may leave out a key slot the text does not say.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from factcov.domains.f1.domain import F1Domain
from factcov.domains.f1.extractor import F1RegexExtractor
from factcov.domains.f1.instances import race_instances
from factcov.domains.f1.source import race
from factcov.evaluate import Evaluator
from factcov.model import Instance

Expected = tuple[str, dict[str, Any], Any]


class Decisions(dict):
    """Instances by id. A decision the oracle no longer lists (issue #9 excluded confounded
    undercuts/overcuts and defenses without a robust pace margin) still gives the extractor
    the two-driver focus these texts are read with: a stand-in copies the race's summary
    instance with that focus, marked ``stand_in``, without relevant facts."""

    def __missing__(self, key: str) -> Instance:
        _, season, round_, task, driver, rival, language = key.split(":")
        base = self[f"f1:{season}:{round_}:race_summary:{language}"]
        other = "attacker" if task == "defense" else "rival"
        context = {**base.context, "task": task, "focus": {"driver": driver, other: rival}, "stand_in": True}
        self[key] = base.model_copy(update={"id": key, "task": task, "context": context, "facts": []})
        return self[key]


@pytest.fixture(scope="module")
def bahrain(shared_data: Path) -> dict[str, Instance]:
    return Decisions({i.id: i for i in race_instances(race(shared_data / "f1", 2021, 1))})


def read(bahrain: dict[str, Instance], instance_id: str, text: str) -> set[tuple[str, str, str]]:
    instance = bahrain[instance_id]
    claims = F1RegexExtractor(language=instance.language).extract(text, instance)
    for claim in claims:  # spans point at the words read
        assert claim.span is not None and text[claim.span[0]: claim.span[1]] == claim.text
    return {(c.type, repr(sorted(c.key.items())), repr(c.value)) for c in claims}


def as_set(expected: list[Expected]) -> set[tuple[str, str, str]]:
    return {(t, repr(sorted(k.items())), repr(v)) for t, k, v in expected}


HAM, VER, BOT = {"driver": "HAM"}, {"driver": "VER"}, {"driver": "BOT"}

CASES: list[tuple[str, str, list[Expected]]] = [
    # --- English -----------------------------------------------------------------
    ("f1:2021:1:tyre_strategy:HAM:en",
     "Hamilton went for a two-stop strategy, boxing on laps 13 and 28. He started on mediums and "
     "then ran two stints on the hard compound, and took victory ahead of Verstappen and Bottas.",
     [("stop_count", HAM, 2), ("pit_lap", HAM, 13), ("pit_lap", HAM, 28),
      ("stint_compound", {"driver": "HAM", "stint": 1}, "MEDIUM"), ("stint_compound", HAM, "HARD"),
      ("winner", {}, "HAM"), ("final_position", VER, 2), ("final_position", BOT, 3)]),
    ("f1:2021:1:tyre_strategy:VER:en",
     "Verstappen stopped twice. His first stop came on lap 17, when he swapped mediums for mediums, "
     "and his final stop was on lap 39, switching to the hard tyre. He crossed the line in P2.",
     [("stop_count", VER, 2), ("pit_lap", {"driver": "VER", "stop": 1}, 17),
      ("compound_change", {"driver": "VER", "stop": 1}, ["MEDIUM", "MEDIUM"]),
      ("pit_lap", {"driver": "VER", "stop": 2}, 39), ("stint_compound", VER, "HARD"),
      ("final_position", VER, 2)]),
    ("f1:2021:1:undercut:HAM:VER:en",
     "HAM undercut VER: he pitted on lap 13, four laps before Verstappen came in on lap 17, and "
     "gained roughly 8 seconds.",
     [("undercut", {"driver": "HAM", "rival": "VER"}, True), ("pit_lap", HAM, 13),
      ("pit_lap", VER, 17), ("time_gained", HAM, 8.0)]),
    ("f1:2021:1:undercut:HAM:VER:en",
     "Hamilton's early stop was a successful undercut on Max Verstappen, who only came in on lap 17.",
     [("undercut", {"driver": "HAM", "rival": "VER"}, True), ("pit_lap", VER, 17)]),
    ("f1:2021:1:tyre_strategy:HAM:en",
     "The Mercedes driver opened on the medium, pitted for hards at the end of lap 13 and again on "
     "lap 28, and finished P1. The medium-hard-hard sequence suited him.",
     [("stint_compound", {"driver": "HAM", "stint": 1}, "MEDIUM"), ("pit_lap", HAM, 13),
      ("pit_lap", HAM, 28), ("final_position", HAM, 1),
      ("stint_compound", {"driver": "HAM", "stint": 2}, "HARD"),
      ("stint_compound", {"driver": "HAM", "stint": 3}, "HARD")]),
    ("f1:2021:1:race_summary:en",
     "Lewis Hamilton won the Bahrain Grand Prix, with Verstappen second and Bottas third. The "
     "safety car was deployed on lap 1 and came in at the end of lap 3, followed by a virtual "
     "safety car on laps 4 and 5.",
     [("winner", {}, "HAM"), ("final_position", HAM, 1), ("final_position", VER, 2), ("final_position", BOT, 3),
      ("neutralization", {"kind": "SC"}, [1, 1]), ("neutralization", {"kind": "SC"}, [3, 3]),
      ("neutralization", {"kind": "VSC"}, [4, 4]), ("neutralization", {"kind": "VSC"}, [5, 5])]),
    ("f1:2021:1:race_summary:en",
     "Victory went to Hamilton after a race that began behind the safety car (laps 1-3). Bottas "
     "finished 3rd after three stops.",
     [("winner", {}, "HAM"), ("neutralization", {"kind": "SC"}, [1, 3]), ("final_position", BOT, 3),
      ("stop_count", BOT, 3)]),
    ("f1:2021:1:defense:GIO:RAI:en",
     "Kimi Raikkonen was stuck behind his team-mate Giovinazzi for 6 laps before the stops.",
     [("defense", {"driver": "GIO", "attacker": "RAI"}, 6)]),
    ("f1:2021:1:defense:GIO:RAI:en",
     "Giovinazzi kept Räikkönen behind for six laps despite the Finn's quicker pace.",
     [("defense", {"driver": "GIO", "attacker": "RAI"}, 6)]),
    ("f1:2021:1:overcut:RIC:LEC:en",
     "Ricciardo's overcut attempt on Leclerc failed: he lost 3.3 seconds to the Ferrari.",
     [("overcut", {"driver": "RIC", "rival": "LEC"}, False),
      ("time_gained", {"driver": "RIC", "rival": "LEC"}, -3.3)]),
    ("f1:2021:1:overcut:RAI:GIO:en",
     "Raikkonen stayed out a lap longer than Giovinazzi and the overcut paid off, gaining 9.2 seconds.",
     [("overcut", {"driver": "RAI"}, True), ("time_gained", {"driver": "RAI"}, 9.2)]),
    ("f1:2021:1:undercut:STR:RIC:en",
     "Stroll tried to undercut Ricciardo on lap 12 but came out behind him.",
     [("undercut", {"driver": "STR", "rival": "RIC"}, False)]),
    # --- Español -----------------------------------------------------------------
    ("f1:2021:1:tyre_strategy:HAM:es",
     "Hamilton apostó por una estrategia a dos paradas: entró a boxes en las vueltas 13 y 28. Salió "
     "con neumáticos medios y después montó duros en los dos relevos siguientes, para ganar por "
     "delante de Verstappen y Bottas.",
     [("stop_count", HAM, 2), ("pit_lap", HAM, 13), ("pit_lap", HAM, 28),
      ("stint_compound", {"driver": "HAM", "stint": 1}, "MEDIUM"), ("stint_compound", HAM, "HARD"),
      ("winner", {}, "HAM"), ("final_position", VER, 2), ("final_position", BOT, 3)]),
    ("f1:2021:1:tyre_strategy:VER:es",
     "Verstappen paró dos veces. Su primera parada fue en la vuelta 17, cuando cambió de medios a "
     "medios, y después pasó a los duros. Terminó segundo.",
     [("stop_count", VER, 2), ("pit_lap", {"driver": "VER", "stop": 1}, 17),
      ("compound_change", {"driver": "VER", "stop": 1}, ["MEDIUM", "MEDIUM"]),
      ("stint_compound", VER, "HARD"), ("final_position", VER, 2)]),
    ("f1:2021:1:undercut:HAM:VER:es",
     "Hamilton le hizo el undercut a Verstappen: paró en la vuelta 13, cuatro vueltas antes que el "
     "neerlandés, y ganó unos 8,4 segundos.",
     [("undercut", {"driver": "HAM", "rival": "VER"}, True), ("pit_lap", HAM, 13),
      ("time_gained", HAM, 8.4)]),
    ("f1:2021:1:undercut:HAM:VER:es",
     "El undercut de Mercedes sobre Verstappen funcionó: Hamilton salió por delante tras la parada "
     "de Verstappen en el giro 17.",
     [("undercut", {"driver": "HAM", "rival": "VER"}, True), ("pit_lap", VER, 17)]),
    ("f1:2021:1:race_summary:es",
     "Lewis Hamilton ganó el Gran Premio de Baréin, con Verstappen segundo y Bottas tercero. Hubo "
     "coche de seguridad entre las vueltas 1 y 3 y un coche de seguridad virtual en las vueltas 4 y 5.",
     [("winner", {}, "HAM"), ("final_position", VER, 2), ("final_position", BOT, 3),
      ("neutralization", {"kind": "SC"}, [1, 3]), ("neutralization", {"kind": "VSC"}, [4, 4]),
      ("neutralization", {"kind": "VSC"}, [5, 5])]),
    ("f1:2021:1:race_summary:es",
     "La victoria fue para Hamilton. Bottas acabó en tercera posición tras tres paradas. El auto de "
     "seguridad salió en la primera vuelta.",
     [("winner", {}, "HAM"), ("final_position", BOT, 3), ("stop_count", BOT, 3),
      ("neutralization", {"kind": "SC"}, [1, 1])]),
    ("f1:2021:1:tyre_strategy:HAM:es",
     "Con una estrategia de medio-duro-duro, Hamilton entró en boxes en la vuelta 13; acabó primero.",
     [("stint_compound", {"driver": "HAM", "stint": 1}, "MEDIUM"),
      ("stint_compound", {"driver": "HAM", "stint": 3}, "HARD"), ("pit_lap", HAM, 13),
      ("final_position", HAM, 1)]),
    ("f1:2021:1:defense:GIO:RAI:es",
     "Giovinazzi resistió los ataques de Räikkönen durante seis vueltas.",
     [("defense", {"driver": "GIO", "attacker": "RAI"}, 6)]),
    ("f1:2021:1:defense:GIO:RAI:es",
     "Räikkönen quedó atascado detrás de Giovinazzi durante 6 vueltas.",
     [("defense", {"driver": "GIO", "attacker": "RAI"}, 6)]),
    ("f1:2021:1:overcut:RIC:LEC:es",
     "El overcut de Ricciardo sobre Leclerc no funcionó y perdió 3,3 segundos.",
     [("overcut", {"driver": "RIC", "rival": "LEC"}, False), ("time_gained", {"driver": "RIC"}, -3.3)]),
    ("f1:2021:1:undercut:STR:RIC:es",
     "Stroll intentó el undercut sobre Ricciardo en la vuelta 12, pero salió por detrás.",
     [("undercut", {"driver": "STR", "rival": "RIC"}, False)]),
    # --- Português ---------------------------------------------------------------
    ("f1:2021:1:tyre_strategy:HAM:pt",
     "Hamilton fez uma estratégia de duas paradas, indo aos boxes nas voltas 13 e 28. Largou com "
     "pneus médios e depois usou duros nos dois stints seguintes, vencendo à frente de Verstappen e Bottas.",
     [("stop_count", HAM, 2), ("pit_lap", HAM, 13), ("pit_lap", HAM, 28),
      ("stint_compound", {"driver": "HAM", "stint": 1}, "MEDIUM"), ("stint_compound", HAM, "HARD"),
      ("winner", {}, "HAM"), ("final_position", VER, 2), ("final_position", BOT, 3)]),
    ("f1:2021:1:tyre_strategy:VER:pt",
     "Verstappen parou duas vezes. A primeira parada foi na volta 17, quando trocou médios por "
     "médios, e a última na volta 39, passando para os duros. Terminou em segundo.",
     [("stop_count", VER, 2), ("pit_lap", {"driver": "VER", "stop": 1}, 17),
      ("compound_change", {"driver": "VER", "stop": 1}, ["MEDIUM", "MEDIUM"]),
      ("stint_compound", VER, "HARD"),
      ("final_position", VER, 2)]),
    ("f1:2021:1:undercut:HAM:VER:pt",
     "Hamilton deu o undercut em Verstappen: parou na volta 13, quatro voltas antes do holandês, e "
     "ganhou cerca de 8,4 segundos sobre ele.",
     [("undercut", {"driver": "HAM", "rival": "VER"}, True), ("pit_lap", HAM, 13),
      ("time_gained", {"driver": "HAM", "rival": "VER"}, 8.4)]),  # "ele": the other driver
    ("f1:2021:1:undercut:HAM:VER:pt",
     "O undercut da Mercedes sobre Verstappen deu certo: Hamilton saiu à frente depois da parada de "
     "Verstappen na volta 17.",
     [("undercut", {"driver": "HAM", "rival": "VER"}, True), ("pit_lap", VER, 17)]),
    ("f1:2021:1:race_summary:pt",
     "Lewis Hamilton venceu o Grande Prêmio do Bahrein, com Verstappen em segundo e Bottas em "
     "terceiro. O carro de segurança esteve na pista entre as voltas 1 e 3, e houve safety car "
     "virtual nas voltas 4 e 5.",
     [("winner", {}, "HAM"), ("final_position", VER, 2), ("final_position", BOT, 3),
      ("neutralization", {"kind": "SC"}, [1, 3]), ("neutralization", {"kind": "VSC"}, [4, 4])]),
    ("f1:2021:1:race_summary:pt",
     "A vitória foi de Hamilton. Bottas chegou em terceiro lugar depois de três paradas.",
     [("winner", {}, "HAM"), ("final_position", BOT, 3), ("stop_count", BOT, 3)]),
    ("f1:2021:1:tyre_strategy:HAM:pt",
     "Com a estratégia macio-médio-duro, Hamilton parou nas voltas 13 e 28 e terminou em primeiro lugar.",
     [("stint_compound", {"driver": "HAM", "stint": 1}, "SOFT"),
      ("stint_compound", {"driver": "HAM", "stint": 2}, "MEDIUM"),
      ("stint_compound", {"driver": "HAM", "stint": 3}, "HARD"),
      ("pit_lap", HAM, 13), ("pit_lap", HAM, 28), ("final_position", HAM, 1)]),
    ("f1:2021:1:defense:GIO:RAI:pt", "Giovinazzi segurou Räikkönen por seis voltas.",
     [("defense", {"driver": "GIO", "attacker": "RAI"}, 6)]),
    ("f1:2021:1:defense:GIO:RAI:pt", "Räikkönen ficou preso atrás de Giovinazzi por 6 voltas.",
     [("defense", {"driver": "GIO", "attacker": "RAI"}, 6)]),
    ("f1:2021:1:overcut:RIC:LEC:pt",
     "O overcut de Ricciardo sobre Leclerc falhou: ele perdeu 3,3 segundos para Leclerc.",
     [("overcut", {"driver": "RIC", "rival": "LEC"}, False),
      ("time_gained", {"driver": "RIC", "rival": "LEC"}, -3.3)]),
    ("f1:2021:1:undercut:STR:RIC:pt",
     "Stroll tentou o undercut em Ricciardo na volta 12, mas saiu atrás dele.",
     [("undercut", {"driver": "STR", "rival": "RIC"}, False)]),
]


@pytest.mark.parametrize(("instance_id", "text", "expected"), CASES, ids=[f"{c[0].split(':')[-1]}-{i}" for i, c in enumerate(CASES)])
def test_hand_written_phrasing(bahrain: dict[str, Instance], instance_id: str, text: str,
                               expected: list[Expected]) -> None:
    found = read(bahrain, instance_id, text)
    missing = as_set(expected) - found
    assert not missing, f"not read: {missing}\nread: {sorted(found)}"


@pytest.mark.parametrize(
    ("instance_id", "text"),
    [
        ("f1:2021:1:tyre_strategy:HAM:en", "Hamilton pushed hard in the first stint and never looked back."),
        ("f1:2021:1:tyre_strategy:HAM:en", "Hamilton ran a soft-free race."),
        ("f1:2021:1:tyre_strategy:HAM:es", "En medio de la carrera Hamilton fue muy rápido; la carrera fue dura."),
        ("f1:2021:1:tyre_strategy:HAM:pt", "Hamilton fez um tempo médio muito bom sem os pneus macios."),
    ],
)
def test_ordinary_words_are_not_compounds(bahrain: dict[str, Instance], instance_id: str, text: str) -> None:
    assert not {c for c in read(bahrain, instance_id, text) if c[0] == "stint_compound"}


def test_gained_seconds_is_not_a_win_in_spanish(bahrain: dict[str, Instance]) -> None:
    found = read(bahrain, "f1:2021:1:undercut:HAM:VER:es", "Verstappen ganó 2 segundos en la primera vuelta.")
    assert not {c for c in found if c[0] == "winner"}


def test_safety_car_coming_in_is_not_a_pit_stop(bahrain: dict[str, Instance]) -> None:
    found = read(bahrain, "f1:2021:1:race_summary:en", "The safety car came in at the end of lap 3.")
    assert not {c for c in found if c[0] == "pit_lap"}
    assert ("neutralization", repr([("kind", "SC")]), repr([3, 3])) in found


def test_wrong_claims_are_contradicted(bahrain: dict[str, Instance]) -> None:
    evaluator = Evaluator(F1Domain())
    instance = bahrain["f1:2021:1:tyre_strategy:VER:es"]
    result = evaluator.evaluate_text(
        instance, "Verstappen terminó cuarto después de parar en la vuelta 18 con neumáticos blandos."
    )
    labels = {(v.claim.type, v.label) for v in result.verdicts}
    assert labels == {("final_position", "contradicted"), ("pit_lap", "contradicted"),
                      ("stint_compound", "contradicted")}


def test_claim_about_another_driver_of_the_race_is_checked(bahrain: dict[str, Instance]) -> None:
    evaluator = Evaluator(F1Domain())
    instance = bahrain["f1:2021:1:tyre_strategy:HAM:en"]  # Hamilton's strategy, but Norris is named
    result = evaluator.evaluate_text(instance, "Lando Norris finished fourth and Sainz finished tenth.")
    labels = {(v.claim.key["driver"], v.label) for v in result.verdicts}
    assert labels == {("NOR", "supported"), ("SAI", "contradicted")}
    assert result.score.total.covered == 0  # neither is a relevant fact of Hamilton's strategy


def test_driver_codes_and_surnames_of_drivers_outside_the_race(bahrain: dict[str, Instance]) -> None:
    found = read(bahrain, "f1:2021:1:race_summary:en", "Piastri won the race.")
    assert ("winner", "[]", repr("PIA")) in found  # Piastri did not race in 2021: contradicted later


@pytest.fixture(scope="module")
def wet_and_red(shared_data: Path) -> dict[str, Instance]:
    instances = race_instances(race(shared_data / "f1", 2021, 16)) + race_instances(race(shared_data / "f1", 2021, 6))
    return Decisions({i.id: i for i in instances})


OCO, BOT_, PER = {"driver": "OCO"}, {"driver": "BOT"}, {"driver": "PER"}
WET_AND_RED_CASES: list[tuple[str, str, list[Expected]]] = [
    ("f1:2021:16:tyre_strategy:OCO:en",
     "Ocon did the whole race on one set of intermediates without stopping and finished tenth.",
     [("stint_compound", OCO, "INTERMEDIATE"), ("stop_count", OCO, 0), ("final_position", OCO, 10)]),
    ("f1:2021:16:tyre_strategy:OCO:es",
     "Ocon no paró en toda la carrera: hizo las 58 vueltas con los mismos intermedios y terminó décimo.",
     [("stop_count", OCO, 0), ("stint_compound", OCO, "INTERMEDIATE"), ("final_position", OCO, 10)]),
    ("f1:2021:16:tyre_strategy:OCO:pt",
     "Ocon não parou: fez a corrida toda com o mesmo jogo de intermediários e terminou em 10º.",
     [("stop_count", OCO, 0), ("stint_compound", OCO, "INTERMEDIATE"), ("final_position", OCO, 10)]),
    ("f1:2021:16:tyre_strategy:BOT:en",
     "Bottas swapped his inters for a fresh set of inters on lap 37 and went on to win.",
     [("compound_change", BOT_, ["INTERMEDIATE", "INTERMEDIATE"]), ("pit_lap", BOT_, 37), ("winner", {}, "BOT")]),
    ("f1:2021:16:tyre_strategy:BOT:es",
     "Bottas cambió de intermedios a intermedios en la vuelta 37 y acabó ganando la carrera.",
     [("compound_change", BOT_, ["INTERMEDIATE", "INTERMEDIATE"]), ("pit_lap", BOT_, 37), ("winner", {}, "BOT")]),
    ("f1:2021:16:tyre_strategy:BOT:pt",
     "Bottas trocou os intermediários por intermediários novos na volta 37 e venceu a corrida.",
     [("compound_change", BOT_, ["INTERMEDIATE", "INTERMEDIATE"]), ("pit_lap", BOT_, 37), ("winner", {}, "BOT")]),
    ("f1:2021:6:race_summary:en",
     "Pérez won in Baku after a red flag on lap 48; the safety car had been out from lap 31 to 35 and "
     "again on laps 47-48.",
     [("winner", {}, "PER"), ("neutralization", {"kind": "RED"}, [48, 48]),
      ("neutralization", {"kind": "SC"}, [31, 35]), ("neutralization", {"kind": "SC"}, [47, 48])]),
    ("f1:2021:6:race_summary:es",
     "Pérez ganó en Bakú tras una bandera roja en la vuelta 48, con Vettel segundo y Gasly tercero.",
     [("winner", {}, "PER"), ("neutralization", {"kind": "RED"}, [48, 48]),
      ("final_position", {"driver": "VET"}, 2), ("final_position", {"driver": "GAS"}, 3)]),
    ("f1:2021:6:race_summary:pt",
     "Pérez venceu em Baku depois da bandeira vermelha na volta 48, à frente de Vettel e Gasly.",
     [("winner", {}, "PER"), ("neutralization", {"kind": "RED"}, [48, 48]),
      ("final_position", {"driver": "VET"}, 2), ("final_position", {"driver": "GAS"}, 3)]),
    ("f1:2021:6:tyre_strategy:PER:en",
     "Perez made one stop, on lap 13, from softs to hards, then changed to softs under the red flag.",
     [("stop_count", PER, 1), ("pit_lap", PER, 13), ("compound_change", PER, ["SOFT", "HARD"])]),
    ("f1:2021:6:tyre_strategy:PER:es",
     "Pérez hizo una única parada, en la vuelta 13, de blandos a duros, y con la bandera roja puso blandos.",
     [("stop_count", PER, 1), ("pit_lap", PER, 13), ("compound_change", PER, ["SOFT", "HARD"])]),
]


@pytest.mark.parametrize(("instance_id", "text", "expected"), WET_AND_RED_CASES,
                         ids=[f"{c[0].split(':')[-1]}-wet-red-{i}" for i, c in enumerate(WET_AND_RED_CASES)])
def test_wet_race_and_red_flag_phrasing(wet_and_red: dict[str, Instance], instance_id: str, text: str,
                                        expected: list[Expected]) -> None:
    found = read(wet_and_red, instance_id, text)
    assert not as_set(expected) - found, f"read: {sorted(found)}"
    # "under the red flag" after "lap 13" is not a red flag on lap 13
    assert not {c for c in found if c[0] == "neutralization" and "13" in c[2]}


def test_llm_style_paragraphs_make_no_false_claims(bahrain: dict[str, Instance]) -> None:
    """Long explanations in a model's style: every claim read is true, the key ones are read."""
    texts = {
        "en": "Lewis Hamilton's race was defined by an aggressive two-stop strategy. Starting from second "
              "on the grid on medium tyres, he was the first of the front-runners to pit, coming in on lap 13 "
              "to switch to the hard compound. This early stop allowed him to undercut Max Verstappen, who "
              "stayed out until lap 17. Hamilton then made his second stop on lap 28, taking another set of "
              "hards, which he nursed to the end. Despite Verstappen closing in on fresher tyres in the final "
              "laps, Hamilton held on to win by less than a second.",
        "es": "La carrera de Lewis Hamilton se basó en una agresiva estrategia de dos paradas. Salió segundo en "
              "parrilla con neumáticos medios y fue el primero de los de cabeza en entrar a boxes, en la vuelta "
              "13, para montar el compuesto duro. Esa parada temprana le permitió hacer el undercut a Max "
              "Verstappen, que siguió en pista hasta la vuelta 17. Hamilton hizo su segunda parada en la vuelta "
              "28, con otro juego de duros que cuidó hasta el final. Aunque Verstappen se acercó con neumáticos "
              "más frescos en las últimas vueltas, Hamilton aguantó y ganó por menos de un segundo.",
        "pt": "A corrida de Lewis Hamilton foi definida por uma estratégia agressiva de duas paradas. Largando em "
              "segundo com pneus médios, ele foi o primeiro dos ponteiros a ir aos boxes, na volta 13, para "
              "colocar o composto duro. Essa parada antecipada permitiu o undercut sobre Max Verstappen, que "
              "ficou na pista até a volta 17. Hamilton fez a segunda parada na volta 28, com outro jogo de duros "
              "que levou até o fim. Mesmo com Verstappen se aproximando com pneus mais novos nas voltas finais, "
              "Hamilton resistiu e venceu por menos de um segundo.",
    }
    evaluator = Evaluator(F1Domain())
    for language, text in texts.items():
        result = evaluator.evaluate_text(bahrain[f"f1:2021:1:tyre_strategy:HAM:{language}"], text)
        assert {v.label for v in result.verdicts} == {"supported"}, language
        read_types = {v.claim.type for v in result.verdicts}
        assert {"stop_count", "pit_lap", "undercut", "winner", "final_position"} <= read_types, language
        assert 0.6 <= result.score.metrics(evaluator.policy)["recall"] < 1.0, language


def test_llm_style_race_summaries_make_no_false_claims(bahrain: dict[str, Instance]) -> None:
    texts = {
        "en": "The 2021 Bahrain Grand Prix opened behind the safety car after Nikita Mazepin crashed on the "
              "first lap, and a virtual safety car followed on laps 4 and 5 for Pierre Gasly's debris. Max "
              "Verstappen led from pole, but Mercedes pitted Lewis Hamilton early on lap 13 and the undercut "
              "put him ahead. Verstappen passed Hamilton on lap 53, but he went off track and had to give the "
              "position back. Hamilton won by 0.7 seconds, with Verstappen second and Valtteri Bottas third "
              "after a slow stop.",
        "es": "El Gran Premio de Baréin 2021 empezó detrás del coche de seguridad tras el accidente de Nikita "
              "Mazepin en la primera vuelta, y hubo un coche de seguridad virtual en las vueltas 4 y 5. Max "
              "Verstappen lideró desde la pole, pero Mercedes llamó a Lewis Hamilton a boxes pronto, en la "
              "vuelta 13, y el undercut lo puso delante. Verstappen lo adelantó en la vuelta 53, pero se salió "
              "de pista y tuvo que devolver la posición. Hamilton ganó por 0,7 segundos, con Verstappen segundo "
              "y Valtteri Bottas tercero tras una parada lenta.",
        "pt": "O Grande Prêmio do Bahrein de 2021 começou atrás do safety car depois do acidente de Nikita "
              "Mazepin na primeira volta, e houve safety car virtual nas voltas 4 e 5. Max Verstappen liderou "
              "desde a pole, mas a Mercedes chamou Lewis Hamilton aos boxes cedo, na volta 13, e o undercut o "
              "colocou na frente. Verstappen ultrapassou Hamilton na volta 53, mas saiu da pista e teve de "
              "devolver a posição. Hamilton venceu por 0,7 segundo, com Verstappen em segundo e Valtteri Bottas "
              "em terceiro depois de uma parada lenta.",
    }
    evaluator = Evaluator(F1Domain())
    for language, text in texts.items():
        result = evaluator.evaluate_text(bahrain[f"f1:2021:1:race_summary:{language}"], text)
        assert {v.label for v in result.verdicts} == {"supported"}, (language, result.verdicts)
        # everything but the winner's stop count, which the text does not give
        assert result.score.missed_ids == ["stop_count(driver=HAM)"], language


def test_decomposed_accents_read_like_composed_ones(bahrain: dict[str, Instance]) -> None:
    import unicodedata

    text = "Hamilton entró a boxes en la vuelta 13 y terminó primero con neumáticos medios."
    instance = bahrain["f1:2021:1:tyre_strategy:HAM:es"]
    extractor = F1RegexExtractor(language="es")
    composed = extractor.extract(text, instance)
    decomposed = extractor.extract(unicodedata.normalize("NFD", text), instance)
    assert [(c.type, c.key, c.value, c.span) for c in decomposed] == [
        (c.type, c.key, c.value, c.span) for c in composed
    ]
    assert len(composed) == 3


def test_empty_and_driverless_texts(bahrain: dict[str, Instance]) -> None:
    summary = bahrain["f1:2021:1:race_summary:en"]  # no focus driver: nobody to attribute a stop to
    assert F1RegexExtractor(language="en").extract("", summary) == []
    assert F1RegexExtractor(language="en").extract("He pitted on lap 13.", summary) == []


@pytest.mark.parametrize(
    ("language", "text"),
    [
        ("en", "Starting from the pit lane, Pérez stopped three times (laps 2, 19 and 38) and recovered to fifth."),
        ("es", "Desde el pit lane, Pérez paró tres veces (vueltas 2, 19 y 38) y remontó hasta la quinta posición."),
        ("pt", "Largando do pit lane, Pérez parou três vezes (voltas 2, 19 e 38) e se recuperou até o quinto lugar."),
    ],
)
def test_lap_lists_in_brackets_and_recoveries(bahrain: dict[str, Instance], language: str, text: str) -> None:
    found = read(bahrain, f"f1:2021:1:tyre_strategy:PER:{language}", text)
    expected = [("stop_count", PER, 3), ("pit_lap", PER, 2), ("pit_lap", PER, 19), ("pit_lap", PER, 38),
                ("final_position", PER, 5)]
    assert not as_set(expected) - found, sorted(found)


@pytest.mark.parametrize(
    ("language", "text"),
    [
        ("en", "Norris fitted hards on lap 12."),
        ("en", "Norris switched to the medium tyre on lap 12."),
        ("es", "Norris montó duros en la vuelta 12."),
        ("es", "Norris pasó a los neumáticos medios en la vuelta 12."),
        ("pt", "Norris colocou pneus duros na volta 12."),
        ("pt", "Norris trocou para pneus médios na volta 12."),
    ],
)
def test_fitting_tyres_on_a_lap_is_a_stop(bahrain: dict[str, Instance], language: str, text: str) -> None:
    found = read(bahrain, f"f1:2021:1:tyre_strategy:NOR:{language}", text)
    assert ("pit_lap", repr([("driver", "NOR")]), "12") in found


@pytest.mark.parametrize(
    ("language", "text"),
    [
        ("en", "Hamilton won from Verstappen, and Bottas completed the podium."),
        ("es", "Hamilton ganó por delante de Verstappen y Bottas completó el podio."),
        ("pt", "Hamilton venceu, Verstappen foi segundo e Bottas completou o pódio."),
    ],
)
def test_completing_the_podium_is_third(bahrain: dict[str, Instance], language: str, text: str) -> None:
    found = read(bahrain, f"f1:2021:1:race_summary:{language}", text)
    assert ("final_position", repr([("driver", "BOT")]), "3") in found
    assert ("winner", "[]", repr("HAM")) in found


def test_a_nickname_names_its_driver(bahrain: dict[str, Instance]) -> None:
    found = read(bahrain, "f1:2021:1:tyre_strategy:PER:es", "Checo paró tres veces y terminó quinto.")
    assert {("stop_count", repr([("driver", "PER")]), "3"), ("final_position", repr([("driver", "PER")]), "5")} <= found


@pytest.mark.parametrize(
    ("instance_id", "text", "expected"),
    [
        ("f1:2021:1:tyre_strategy:VER:en", "Verstappen pitted twice, on 17 and 39.",
         [("stop_count", VER, 2), ("pit_lap", VER, 17), ("pit_lap", VER, 39)]),
        ("f1:2021:1:tyre_strategy:VER:es", "Verstappen paró dos veces, en la 17 y en la 39.",
         [("stop_count", VER, 2), ("pit_lap", VER, 17), ("pit_lap", VER, 39)]),
        ("f1:2021:1:tyre_strategy:VER:pt", "Verstappen parou duas vezes, na 17 e na 39.",
         [("stop_count", VER, 2), ("pit_lap", VER, 17), ("pit_lap", VER, 39)]),
        ("f1:2021:1:race_summary:en", "Lewis won ahead of Max and Bottas.",
         [("winner", {}, "HAM"), ("final_position", HAM, 1), ("final_position", VER, 2), ("final_position", BOT, 3)]),
        ("f1:2021:1:race_summary:pt", "Lewis venceu à frente de Max e Valtteri.",
         [("winner", {}, "HAM"), ("final_position", HAM, 1), ("final_position", VER, 2), ("final_position", BOT, 3)]),
        ("f1:2021:1:undercut:HAM:VER:es", "Max siguió en pista hasta la vuelta 17.", [("pit_lap", VER, 17)]),
    ],
)
def test_bare_laps_first_names_and_staying_out(bahrain: dict[str, Instance], instance_id: str, text: str,
                                               expected: list[Expected]) -> None:
    assert read(bahrain, instance_id, text) == as_set(expected)


@pytest.mark.parametrize(
    ("instance_id", "text"),
    [
        ("f1:2021:1:tyre_strategy:VER:en", "Verstappen was on 17 laps old tyres when he pitted."),
        ("f1:2021:1:tyre_strategy:VER:en", "Verstappen pitted and lost 2 seconds at 17 percent grip."),
        ("f1:2021:1:tyre_strategy:VER:en", "Verstappen stayed out until lap 56 on the hards."),  # to the flag
        ("f1:2021:1:race_summary:en", "max speed was high and Lewis stopped in the pit lane."),
    ],
)
def test_no_pit_lap_from_numbers_that_are_no_laps(bahrain: dict[str, Instance], instance_id: str, text: str) -> None:
    assert not {c for c in read(bahrain, instance_id, text) if c[0] == "pit_lap"}


def test_first_names_are_capitalized_and_unique_in_the_race(bahrain: dict[str, Instance]) -> None:
    # "max" in lower case is a word; "Max" names Verstappen (the only Max of 2021 Bahrain)
    assert read(bahrain, "f1:2021:1:race_summary:en", "The max was reached and Max finished second.") == as_set(
        [("final_position", VER, 2)])


def test_a_nationality_names_the_only_driver_who_has_it(bahrain: dict[str, Instance]) -> None:
    found = read(bahrain, "f1:2021:1:undercut:HAM:VER:es", "El neerlandés paró en la vuelta 17.")
    assert found == as_set([("pit_lap", VER, 17)])
    # two Finns raced (Bottas, Räikkönen) and neither is the focus: nobody is named, nothing read
    assert read(bahrain, "f1:2021:1:tyre_strategy:HAM:en", "Hamilton won. The Finn finished third.") == as_set(
        [("winner", {}, "HAM"), ("final_position", HAM, 1)])


@pytest.fixture(scope="module")
def three_races(shared_data: Path) -> dict[str, Instance]:
    """2021 Bahrain, 2021 Abu Dhabi and the wet 2025 Australian Grand Prix."""
    instances = [i for season, rnd in ((2021, 1), (2021, 22), (2025, 1))
                 for i in race_instances(race(shared_data / "f1", season, rnd))]
    return Decisions({i.id: i for i in instances})


# Explanations in the style a model writes when asked to explain a decision from the data:
# first names, pronouns, nationalities ("the Finn", "el neerlandés"), team names, "boxed",
# "stayed out until", "extended his stint", "rejoined behind", numbers in words, lap lists
# and ranges, verdicts told in the next sentence. Every text is true to the race data.
# Each case: the exact claims read, then what a careful reader takes but the grammar misses
# (kept so a later rule that reads them shows up here).
MODEL_STYLE_CASES: list[tuple[str, str, list[Expected], list[Expected]]] = [
    ('f1:2021:22:tyre_strategy:VER:en',
     'Max Verstappen ran a three-stop race in Abu Dhabi. He started on the softs and boxed on lap 13 for '
     'hards, then took another set of hards under the virtual safety car on lap 36. The decisive call came'
     ' on lap 53: with the safety car out, Red Bull brought him in for fresh softs, and he passed Hamilton'
     ' on the final lap to win.',
     [('stop_count', {'driver': 'VER'}, 3),
      ('stint_compound', {'driver': 'VER', 'stint': 1}, 'SOFT'),
      ('pit_lap', {'driver': 'VER'}, 13),
      ('stint_compound', {'driver': 'VER'}, 'HARD'),
      ('compound_change', {'driver': 'VER'}, ['HARD', 'HARD']),
      ('neutralization', {'kind': 'VSC'}, [36, 36]),
      ('neutralization', {'kind': 'SC'}, [53, 53]),
      ('pit_lap', {'driver': 'VER'}, 53),
      ('stint_compound', {'driver': 'VER'}, 'SOFT'),
      ('final_position', {'driver': 'VER'}, 1),
      ('winner', {}, 'VER')],
     [('pit_lap', {'driver': 'VER'}, 36)]),
    ('f1:2021:22:tyre_strategy:HAM:en',
     'Hamilton made just one stop. Starting on the medium tyres, Lewis came in on lap 14 and switched to '
     'the hard compound, which he planned to run to the flag. It nearly worked, but the late safety car '
     'let Verstappen pit for softs and Hamilton had to settle for second.',
     [('stop_count', {'driver': 'HAM'}, 1),
      ('stint_compound', {'driver': 'HAM', 'stint': 1}, 'MEDIUM'),
      ('pit_lap', {'driver': 'HAM'}, 14),
      ('stint_compound', {'driver': 'HAM'}, 'HARD'),
      ('stint_compound', {'driver': 'VER'}, 'SOFT'),
      ('final_position', {'driver': 'HAM'}, 2)],
     []),
    ('f1:2021:22:undercut:LEC:NOR:en',
     'Charles tried to undercut Lando by pitting on lap 15, two laps before the McLaren. It did not pay '
     'off: Norris rejoined ahead after his stop on lap 17, and Leclerc actually lost 0.6 seconds to him.',
     [('pit_lap', {'driver': 'LEC'}, 15),
      ('undercut', {'driver': 'LEC', 'rival': 'NOR'}, False),
      ('pit_lap', {'driver': 'NOR'}, 17),
      ('time_gained', {'driver': 'LEC', 'rival': 'NOR'}, -0.6)],
     []),
    ('f1:2021:22:overcut:RIC:OCO:en',
     'Daniel Ricciardo stayed out longer than Esteban Ocon, who boxed on lap 15, hoping the overcut would '
     'work. The McLaren driver only pitted on lap 18 and came out behind the Alpine, having lost 2.1 '
     'seconds to Ocon.',
     [('pit_lap', {'driver': 'OCO'}, 15),
      ('overcut', {'driver': 'RIC'}, False),
      ('pit_lap', {'driver': 'RIC'}, 18),
      ('time_gained', {'driver': 'RIC', 'rival': 'OCO'}, -2.1)],
     [('overcut', {'driver': 'RIC', 'rival': 'OCO'}, False)]),
    ('f1:2021:22:defense:NOR:BOT:en',
     'Lando Norris kept Valtteri Bottas behind for five laps, from lap 39 to 43, even though the Mercedes '
     'was two tenths quicker. The Finn eventually got through and finished sixth, with Norris seventh.',
     [('defense', {'attacker': 'BOT', 'driver': 'NOR'}, 5),
      ('final_position', {'driver': 'BOT'}, 6),
      ('final_position', {'driver': 'NOR'}, 7)],
     []),
    ('f1:2021:22:race_summary:en',
     'Max Verstappen won the 2021 Abu Dhabi Grand Prix and the title after a final-lap pass on Lewis '
     'Hamilton, who finished second, with Carlos Sainz completing the podium. A virtual safety car between'
     ' laps 36 and 38 and a safety car from lap 53 decided the race: Verstappen stopped three times in '
     'total.',
     [('final_position', {'driver': 'VER'}, 1),
      ('winner', {}, 'VER'),
      ('final_position', {'driver': 'HAM'}, 2),
      ('final_position', {'driver': 'SAI'}, 3),
      ('neutralization', {'kind': 'VSC'}, [36, 38]),
      ('neutralization', {'kind': 'SC'}, [53, 53]),
      ('stop_count', {'driver': 'VER'}, 3)],
     []),
    ('f1:2025:1:tyre_strategy:NOR:en',
     'Lando started the wet Australian Grand Prix on intermediates and led from lap 2. When the track '
     'dried he switched to hards on lap 34 under the safety car, but the rain returned and he had to box '
     'again on lap 44 for a fresh set of inters. He held on to win from Verstappen.',
     [('stint_compound', {'driver': 'NOR', 'stint': 1}, 'INTERMEDIATE'),
      ('pit_lap', {'driver': 'NOR'}, 34),
      ('stint_compound', {'driver': 'NOR'}, 'HARD'),
      ('neutralization', {'kind': 'SC'}, [34, 34]),
      ('pit_lap', {'driver': 'NOR'}, 44),
      ('stint_compound', {'driver': 'NOR'}, 'INTERMEDIATE'),
      ('final_position', {'driver': 'NOR'}, 1),
      ('winner', {}, 'NOR'),
      ('final_position', {'driver': 'VER'}, 2)],
     []),
    ('f1:2025:1:undercut:ANT:GAS:en',
     'Kimi Antonelli pitted for intermediates on lap 44, two laps before Gasly, and the undercut worked: '
     'the Mercedes rookie gained 3.7 seconds and jumped the Alpine.',
     [('pit_lap', {'driver': 'ANT'}, 44),
      ('stint_compound', {'driver': 'ANT'}, 'INTERMEDIATE'),
      ('undercut', {'driver': 'ANT'}, True),
      ('time_gained', {'driver': 'ANT'}, 3.7)],
     []),
    ('f1:2025:1:overcut:VER:PIA:en',
     'Verstappen extended his stint on the mediums until lap 46, two laps longer than Piastri, who stopped'
     ' on lap 44. The overcut paid off for the Red Bull driver, who gained a big chunk of time when Oscar '
     'went off.',
     [('pit_lap', {'driver': 'VER'}, 46),
      ('stint_compound', {'driver': 'VER'}, 'MEDIUM'),
      ('pit_lap', {'driver': 'PIA'}, 44),
      ('overcut', {'driver': 'VER'}, True)],
     []),
    ('f1:2025:1:defense:ALB:HAM:en',
     'Albon did a superb defensive job on Hamilton: the Ferrari was faster, but Alex held him off for nine'
     ' laps, between laps 18 and 26. Albon went on to finish fifth, while Lewis dropped to tenth.',
     [('defense', {'attacker': 'HAM', 'driver': 'ALB'}, 9),
      ('final_position', {'driver': 'ALB'}, 5)],
     [('final_position', {'driver': 'HAM'}, 10)]),
    ('f1:2021:1:tyre_strategy:BOT:en',
     'Valtteri had a messy afternoon. He pitted on lap 16 for hards and again on lap 30, but a slow stop '
     'cost him time, and Mercedes brought him in a third time on lap 54 for mediums to chase the fastest '
     'lap. He finished third.',
     [('pit_lap', {'driver': 'BOT'}, 16),
      ('pit_lap', {'driver': 'BOT'}, 30),
      ('stint_compound', {'driver': 'BOT'}, 'HARD'),
      ('pit_lap', {'driver': 'BOT'}, 54),
      ('stint_compound', {'driver': 'BOT'}, 'MEDIUM'),
      ('final_position', {'driver': 'BOT'}, 3)],
     []),
    ('f1:2021:1:overcut:RAI:GIO:en',
     'Räikkönen stayed out one lap longer than his team-mate Giovinazzi, who pitted on lap 12. Kimi boxed '
     'on lap 13, rejoined ahead of Antonio and gained 9.2 seconds on him, so the overcut worked.',
     [('pit_lap', {'driver': 'GIO'}, 12),
      ('pit_lap', {'driver': 'RAI'}, 13),
      ('time_gained', {'driver': 'RAI', 'rival': 'GIO'}, 9.2),
      ('overcut', {'driver': 'RAI'}, True)],
     []),
    ('f1:2025:1:race_summary:en',
     'Lando Norris won a chaotic, rain-hit season opener in Melbourne ahead of Max Verstappen and George '
     'Russell. The safety car came out three times, on laps 1 to 7, 34 to 41 and 47 to 51, and Norris made'
     ' two stops.',
     [('final_position', {'driver': 'NOR'}, 1),
      ('winner', {}, 'NOR'),
      ('final_position', {'driver': 'VER'}, 2),
      ('final_position', {'driver': 'RUS'}, 3),
      ('neutralization', {'kind': 'SC'}, [1, 7]),
      ('neutralization', {'kind': 'SC'}, [34, 41]),
      ('neutralization', {'kind': 'SC'}, [47, 51]),
      ('stop_count', {'driver': 'NOR'}, 2)],
     []),
    ('f1:2021:1:undercut:HAM:VER:es',
     'Mercedes adelantó la parada de Hamilton a la vuelta 13, mientras Max siguió en pista hasta la vuelta'
     ' 17. Cuando el neerlandés salió de boxes, Lewis ya estaba por delante: el undercut funcionó y le '
     'sacó 8,4 segundos.',
     [('pit_lap', {'driver': 'HAM'}, 13),
      ('pit_lap', {'driver': 'VER'}, 17),
      ('undercut', {'driver': 'HAM'}, True),
      ('time_gained', {'driver': 'HAM', 'rival': 'VER'}, 8.4)],
     []),
    ('f1:2021:1:tyre_strategy:VER:es',
     'Verstappen paró dos veces, en la 17 y en la 39. En su primer stint llevó neumáticos medios, volvió a'
     ' montar medios en la primera parada y terminó la carrera con duros, acabando segundo.',
     [('stop_count', {'driver': 'VER'}, 2),
      ('pit_lap', {'driver': 'VER'}, 17),
      ('pit_lap', {'driver': 'VER'}, 39),
      ('stint_compound', {'driver': 'VER', 'stint': 1}, 'MEDIUM'),
      ('stint_compound', {'driver': 'VER', 'stint': 2}, 'MEDIUM'),  # "en la primera parada": stint 2
      ('compound_change', {'driver': 'VER', 'stop': 1}, ['MEDIUM', 'MEDIUM']),
      ('retired', {'driver': 'VER'}, False),
      ('stint_compound', {'driver': 'VER', 'stint': 3}, 'HARD'),
      ('final_position', {'driver': 'VER'}, 2)],
     []),
    ('f1:2021:22:tyre_strategy:HAM:es',
     'Lewis hizo una sola parada: salió con medios, entró a boxes en la vuelta 14 y puso duros con la idea'
     ' de llegar hasta el final. El coche de seguridad de la vuelta 53 permitió a Red Bull cambiar a '
     'blandos a Verstappen, y Hamilton tuvo que conformarse con la segunda posición.',
     [('stop_count', {'driver': 'HAM'}, 1),
      ('stint_compound', {'driver': 'HAM', 'stint': 1}, 'MEDIUM'),
      ('pit_lap', {'driver': 'HAM'}, 14),
      ('stint_compound', {'driver': 'HAM'}, 'HARD'),
      ('neutralization', {'kind': 'SC'}, [53, 53]),
      ('stint_compound', {'driver': 'VER'}, 'SOFT'),
      ('final_position', {'driver': 'HAM'}, 2)],
     []),
    ('f1:2021:22:undercut:LEC:NOR:es',
     'Leclerc intentó el undercut sobre Norris entrando en boxes en la vuelta 15, dos vueltas antes que el'
     ' británico. No le salió bien: Lando paró en la 17 y siguió por delante, y Charles perdió 0,6 '
     'segundos con la maniobra.',
     [('pit_lap', {'driver': 'LEC'}, 15),
      ('undercut', {'driver': 'LEC', 'rival': 'NOR'}, False),
      ('pit_lap', {'driver': 'NOR'}, 17),
      ('time_gained', {'driver': 'LEC'}, -0.6)],
     []),
    ('f1:2021:22:overcut:RIC:OCO:es',
     'Ricciardo apostó por el overcut frente a Ocon: el francés paró en la vuelta 15 y el australiano '
     'alargó su stint hasta la vuelta 18. La jugada no funcionó, porque Daniel volvió a pista detrás del '
     'Alpine y perdió 2,1 segundos.',
     [('pit_lap', {'driver': 'OCO'}, 15),
      ('pit_lap', {'driver': 'RIC'}, 18),
      ('overcut', {'driver': 'RIC', 'rival': 'OCO'}, False),
      ('time_gained', {'driver': 'RIC'}, -2.1)],
     []),
    ('f1:2021:22:defense:NOR:BOT:es',
     'Norris contuvo a Bottas durante cinco vueltas, de la 39 a la 43, pese a que el Mercedes era más '
     'rápido. Al final el finlandés lo superó y acabó sexto; Lando terminó séptimo.',
     [('defense', {'attacker': 'BOT', 'driver': 'NOR'}, 5),
      ('final_position', {'driver': 'BOT'}, 6),
      ('final_position', {'driver': 'NOR'}, 7)],
     []),
    ('f1:2021:22:race_summary:es',
     'Max Verstappen ganó el Gran Premio de Abu Dabi por delante de Lewis Hamilton y Carlos Sainz. Hubo un'
     ' coche de seguridad virtual de la vuelta 36 a la 38 y un coche de seguridad a partir de la vuelta '
     '53; Verstappen aprovechó para hacer su tercera parada y poner blandos.',
     [('final_position', {'driver': 'VER'}, 1),
      ('winner', {}, 'VER'),
      ('final_position', {'driver': 'HAM'}, 2),
      ('final_position', {'driver': 'SAI'}, 3),
      ('neutralization', {'kind': 'VSC'}, [36, 38]),
      ('neutralization', {'kind': 'SC'}, [53, 53]),
      ('stint_compound', {'driver': 'VER'}, 'SOFT')],
     []),
    ('f1:2025:1:tyre_strategy:NOR:es',
     'Lando Norris empezó con intermedios y lideró casi toda la carrera. En la vuelta 34, con el coche de '
     'seguridad en pista, McLaren lo llamó a boxes para poner duros, pero volvió la lluvia y tuvo que '
     'parar de nuevo en la vuelta 44 para montar intermedios otra vez. Ganó con Verstappen segundo.',
     [('stint_compound', {'driver': 'NOR', 'stint': 1}, 'INTERMEDIATE'),
      ('neutralization', {'kind': 'SC'}, [34, 34]),
      ('pit_lap', {'driver': 'NOR'}, 34),
      ('stint_compound', {'driver': 'NOR'}, 'HARD'),
      ('pit_lap', {'driver': 'NOR'}, 44),
      ('stint_compound', {'driver': 'NOR'}, 'INTERMEDIATE'),
      ('final_position', {'driver': 'NOR'}, 1),
      ('winner', {}, 'NOR'),
      ('final_position', {'driver': 'VER'}, 2)],
     []),
    ('f1:2025:1:undercut:ANT:GAS:es',
     'Antonelli paró en la vuelta 44 y Gasly lo hizo dos vueltas más tarde, en la 46. El undercut de Kimi '
     'funcionó: ganó 3,7 segundos y salió por delante del Alpine.',
     [('pit_lap', {'driver': 'ANT'}, 44),
      ('pit_lap', {'driver': 'GAS'}, 46),
      ('undercut', {'driver': 'ANT'}, True),
      ('time_gained', {'driver': 'ANT'}, 3.7)],
     []),
    ('f1:2025:1:overcut:VER:PIA:es',
     'Verstappen se quedó fuera con los medios hasta la vuelta 46, mientras Piastri entró a boxes en la '
     '44. El overcut le salió bien al piloto de Red Bull, que terminó segundo.',
     [('pit_lap', {'driver': 'VER'}, 46),
      ('stint_compound', {'driver': 'VER'}, 'MEDIUM'),
      ('pit_lap', {'driver': 'PIA'}, 44),
      ('overcut', {'driver': 'VER'}, True),
      ('final_position', {'driver': 'VER'}, 2)],
     []),
    ('f1:2025:1:defense:ALB:HAM:es',
     'Albon mantuvo a Hamilton detrás durante nueve vueltas, entre la 18 y la 26, aunque el Ferrari era '
     'más rápido. El tailandés lo contuvo sin errores y terminó quinto; Lewis acabó décimo.',
     [('defense', {'attacker': 'HAM', 'driver': 'ALB'}, 9),
      ('final_position', {'driver': 'ALB'}, 5),
      ('final_position', {'driver': 'HAM'}, 10)],
     []),
    ('f1:2021:1:race_summary:es',
     'Hamilton ganó en Baréin por delante de Max y Valtteri. La carrera empezó con el coche de seguridad '
     'durante las tres primeras vueltas y hubo un coche de seguridad virtual en las vueltas 4 y 5.',
     [('final_position', {'driver': 'HAM'}, 1),
      ('winner', {}, 'HAM'),
      ('final_position', {'driver': 'VER'}, 2),
      ('final_position', {'driver': 'BOT'}, 3),
      ('neutralization', {'kind': 'SC'}, [1, 3]),
      ('neutralization', {'kind': 'VSC'}, [4, 4]),
      ('neutralization', {'kind': 'VSC'}, [5, 5])],
     []),
    ('f1:2021:1:undercut:HAM:VER:pt',
     'A Mercedes chamou Hamilton aos boxes na volta 13, enquanto Max ficou na pista até a volta 17. O '
     'undercut funcionou: quando o holandês voltou, Lewis já estava à frente, com 8,4 segundos de vantagem'
     ' ganhos nas paradas.',
     [('pit_lap', {'driver': 'HAM'}, 13),
      ('pit_lap', {'driver': 'VER'}, 17),
      ('undercut', {'driver': 'HAM'}, True)],
     [('time_gained', {'driver': 'HAM'}, 8.4)]),
    ('f1:2021:1:tyre_strategy:VER:pt',
     'Verstappen parou duas vezes, nas voltas 17 e 39. Largou com médios, colocou outro jogo de médios na '
     'primeira parada e terminou com pneus duros, em segundo lugar.',
     [('stop_count', {'driver': 'VER'}, 2),
      ('pit_lap', {'driver': 'VER'}, 17),
      ('pit_lap', {'driver': 'VER'}, 39),
      ('stint_compound', {'driver': 'VER', 'stint': 1}, 'MEDIUM'),
      ('compound_change', {'driver': 'VER', 'stop': 1}, ['MEDIUM', 'MEDIUM']),
      ('stint_compound', {'driver': 'VER', 'stint': 3}, 'HARD')],
     [('final_position', {'driver': 'VER'}, 2)]),
    ('f1:2021:22:tyre_strategy:HAM:pt',
     'Hamilton fez apenas uma parada: largou de médios, parou na volta 14 e colocou pneus duros para ir '
     'até o fim. O safety car da volta 53 permitiu que Verstappen trocasse para macios, e Lewis terminou '
     'em segundo.',
     [('stop_count', {'driver': 'HAM'}, 1),
      ('stint_compound', {'driver': 'HAM', 'stint': 1}, 'MEDIUM'),
      ('pit_lap', {'driver': 'HAM'}, 14),
      ('stint_compound', {'driver': 'HAM'}, 'HARD'),
      ('neutralization', {'kind': 'SC'}, [53, 53]),
      ('stint_compound', {'driver': 'VER'}, 'SOFT'),
      ('final_position', {'driver': 'HAM'}, 2)],
     []),
    ('f1:2021:22:undercut:LEC:NOR:pt',
     'Leclerc tentou o undercut em Norris ao parar na volta 15, duas voltas antes do piloto da McLaren, '
     'que parou na 17. Não deu certo: Charles perdeu 0,6 segundo e continuou atrás.',
     [('pit_lap', {'driver': 'LEC'}, 15),
      ('pit_lap', {'driver': 'NOR'}, 17),
      ('undercut', {'driver': 'LEC', 'rival': 'NOR'}, False),
      ('time_gained', {'driver': 'LEC'}, -0.6)],
     []),
    ('f1:2021:22:overcut:RIC:OCO:pt',
     'Ricciardo tentou o overcut sobre Ocon, esticando o stint até a volta 18, três voltas depois de o '
     'francês parar. A estratégia falhou: o australiano voltou atrás da Alpine e perdeu 2,1 segundos em '
     'relação a Ocon.',
     [('pit_lap', {'driver': 'RIC'}, 18),
      ('overcut', {'driver': 'RIC', 'rival': 'OCO'}, False),
      ('time_gained', {'driver': 'RIC', 'rival': 'OCO'}, -2.1)],
     []),
    ('f1:2021:22:defense:NOR:BOT:pt',
     'Norris segurou Bottas por cinco voltas, entre as voltas 39 e 43, mesmo com a Mercedes mais rápida. O'
     ' finlandês acabou passando e terminou em sexto, com Lando em sétimo.',
     [('defense', {'attacker': 'BOT', 'driver': 'NOR'}, 5),
      ('final_position', {'driver': 'BOT'}, 6),
      ('final_position', {'driver': 'NOR'}, 7)],
     []),
    ('f1:2021:22:race_summary:pt',
     'Max Verstappen venceu em Abu Dhabi e ficou com o título, à frente de Lewis Hamilton e Carlos Sainz. '
     'Houve safety car virtual entre as voltas 36 e 38 e um safety car a partir da volta 53, quando '
     'Verstappen fez a terceira parada.',
     [('final_position', {'driver': 'VER'}, 1),
      ('winner', {}, 'VER'),
      ('final_position', {'driver': 'HAM'}, 2),
      ('final_position', {'driver': 'SAI'}, 3),
      ('neutralization', {'kind': 'VSC'}, [36, 38]),
      ('neutralization', {'kind': 'SC'}, [53, 53])],
     [('pit_lap', {'driver': 'VER', 'stop': 3}, 53)]),
    ('f1:2025:1:tyre_strategy:NOR:pt',
     'Norris largou com intermediários e assumiu a liderança logo no início. Na volta 34, sob safety car, '
     'a McLaren o chamou para colocar pneus duros, mas a chuva voltou e ele teve de parar outra vez na '
     'volta 44 para voltar aos intermediários. Lando venceu com Verstappen em segundo.',
     [('stint_compound', {'driver': 'NOR', 'stint': 1}, 'INTERMEDIATE'),
      ('neutralization', {'kind': 'SC'}, [34, 34]),
      ('pit_lap', {'driver': 'NOR'}, 34),
      ('stint_compound', {'driver': 'NOR'}, 'HARD'),
      ('pit_lap', {'driver': 'NOR'}, 44),
      ('stint_compound', {'driver': 'NOR'}, 'INTERMEDIATE'),
      ('final_position', {'driver': 'NOR'}, 1),
      ('winner', {}, 'NOR'),
      ('final_position', {'driver': 'VER'}, 2)],
     []),
    ('f1:2025:1:undercut:ANT:GAS:pt',
     'Antonelli foi aos boxes na volta 44, duas voltas antes de Gasly, que parou na 46. O undercut do '
     'piloto da Mercedes deu certo: ele ganhou 3,7 segundos sobre o francês e saiu na frente.',
     [('pit_lap', {'driver': 'ANT'}, 44),
      ('pit_lap', {'driver': 'GAS'}, 46),
      ('undercut', {'driver': 'ANT'}, True),
      ('time_gained', {'driver': 'ANT', 'rival': 'GAS'}, 3.7)],
     []),
    ('f1:2025:1:overcut:VER:PIA:pt',
     'Verstappen ficou na pista com os médios até a volta 46, enquanto Piastri parou na 44. O overcut deu '
     'certo para Max, que terminou em segundo lugar.',
     [('pit_lap', {'driver': 'VER'}, 46),
      ('stint_compound', {'driver': 'VER'}, 'MEDIUM'),
      ('pit_lap', {'driver': 'PIA'}, 44),
      ('overcut', {'driver': 'VER'}, True),
      ('final_position', {'driver': 'VER'}, 2)],
     []),
    ('f1:2025:1:defense:ALB:HAM:pt',
     'Albon conseguiu segurar Hamilton por nove voltas, da 18 à 26, mesmo com a Ferrari mais rápida. O '
     'piloto da Williams terminou em quinto e Lewis foi só o décimo.',
     [('defense', {'attacker': 'HAM', 'driver': 'ALB'}, 9),
      ('final_position', {'driver': 'ALB'}, 5)],
     [('final_position', {'driver': 'HAM'}, 10)]),
    ('f1:2021:1:race_summary:pt',
     'Lewis venceu no Bahrein à frente de Max e Bottas. O safety car entrou na pista na primeira volta e '
     'ficou até a volta 3, e depois houve um safety car virtual nas voltas 4 e 5.',
     [('final_position', {'driver': 'HAM'}, 1),
      ('winner', {}, 'HAM'),
      ('final_position', {'driver': 'VER'}, 2),
      ('final_position', {'driver': 'BOT'}, 3),
      ('neutralization', {'kind': 'SC'}, [1, 1]),
      ('neutralization', {'kind': 'SC'}, [3, 3]),
      ('neutralization', {'kind': 'VSC'}, [4, 4]),
      ('neutralization', {'kind': 'VSC'}, [5, 5])],
     []),
    # written after the rules above were fixed, to see whether they carry over
    ('f1:2021:1:undercut:ALO:STR:en',
     'Alpine brought Fernando in on lap 11, one lap before Stroll. The undercut worked: the Spaniard '
     "gained 1.9 seconds over the Canadian and kept the position after Lance's stop on lap 12.",
     [('pit_lap', {'driver': 'ALO'}, 11),
      ('undercut', {'driver': 'ALO'}, True),
      ('time_gained', {'driver': 'ALO', 'rival': 'STR'}, 1.9),
      ('pit_lap', {'driver': 'STR'}, 12)],
     []),
    ('f1:2021:1:undercut:VET:ALO:en',
     'Vettel made his only stop on lap 24 and switched to hards, while Alonso stayed out for another five '
     "laps before pitting on lap 29. The German's undercut was a clear success: he gained 8.1 seconds on "
     'Fernando.',
     [('stop_count', {'driver': 'VET'}, 1),
      ('pit_lap', {'driver': 'VET'}, 24),
      ('stint_compound', {'driver': 'VET'}, 'HARD'),
      ('pit_lap', {'driver': 'ALO'}, 29),
      ('undercut', {'driver': 'VET'}, True),
      ('time_gained', {'driver': 'VET', 'rival': 'ALO'}, 8.1)],
     []),
    ('f1:2021:1:overcut:SAI:ALO:en',
     'Sainz tried to overcut Alonso by staying out until lap 15, four laps after the Alpine driver had '
     'pitted. It backfired: Carlos lost 2.9 seconds and emerged behind the Spaniard.',
     [('pit_lap', {'driver': 'SAI'}, 15),
      ('overcut', {'driver': 'SAI', 'rival': 'ALO'}, False),
      ('time_gained', {'driver': 'SAI'}, -2.9)],
     []),
    ('f1:2021:22:defense:OCO:RIC:en',
     'Esteban Ocon resisted Daniel Ricciardo for seven laps, from lap 39 to lap 45, despite the McLaren '
     'being marginally quicker. The Frenchman went on to finish ninth, while Ricciardo ended up twelfth.',
     [('defense', {'attacker': 'RIC', 'driver': 'OCO'}, 7),
      ('final_position', {'driver': 'OCO'}, 9),
      ('final_position', {'driver': 'RIC'}, 12)],
     []),
    ('f1:2025:1:undercut:HUL:GAS:en',
     'Nico pitted for inters on lap 44, two laps earlier than Pierre, and the undercut paid off: '
     'Hülkenberg jumped the Alpine and gained 3.9 seconds on it, going on to finish seventh.',
     [('pit_lap', {'driver': 'HUL'}, 44),
      ('stint_compound', {'driver': 'HUL'}, 'INTERMEDIATE'),
      ('undercut', {'driver': 'HUL'}, True),
      ('time_gained', {'driver': 'HUL', 'rival': 'GAS'}, 3.9),
      ('final_position', {'driver': 'HUL'}, 7)],
     []),
    ('f1:2025:1:tyre_strategy:ALB:en',
     "Albon's race was busy: he stopped three times. He swapped inters for fresh inters on lap 2, went "
     'onto mediums on lap 33 when the track dried, and returned to the intermediates on lap 44 when the '
     'rain came back, finishing fifth.',
     [('stop_count', {'driver': 'ALB'}, 3),
      ('compound_change', {'driver': 'ALB'}, ['INTERMEDIATE', 'INTERMEDIATE']),
      ('pit_lap', {'driver': 'ALB'}, 2),
      ('pit_lap', {'driver': 'ALB'}, 33),
      ('stint_compound', {'driver': 'ALB'}, 'MEDIUM'),
      ('pit_lap', {'driver': 'ALB'}, 44),
      ('stint_compound', {'driver': 'ALB'}, 'INTERMEDIATE'),
      ('final_position', {'driver': 'ALB'}, 5)],
     []),
    ('f1:2021:1:race_summary:en',
     'Lewis Hamilton took the win in Bahrain, holding off Max Verstappen by less than a second, while '
     'Valtteri Bottas finished third despite a slow stop. The race started behind the safety car for the '
     'first three laps, and a VSC followed on laps 4-5.',
     [('final_position', {'driver': 'HAM'}, 1),
      ('winner', {}, 'HAM'),
      ('final_position', {'driver': 'BOT'}, 3),
      ('neutralization', {'kind': 'SC'}, [1, 3]),
      ('neutralization', {'kind': 'VSC'}, [4, 5])],
     []),
    ('f1:2021:1:undercut:ALO:STR:es',
     'Alonso entró a boxes en la vuelta 11, una antes que Stroll, y el undercut le salió bien: el '
     'asturiano le sacó 1,9 segundos al canadiense, que paró en la 12.',
     [('pit_lap', {'driver': 'ALO'}, 11),
      ('undercut', {'driver': 'ALO'}, True),
      ('time_gained', {'driver': 'ALO', 'rival': 'STR'}, 1.9),
      ('pit_lap', {'driver': 'STR'}, 12)],
     []),
    ('f1:2021:1:undercut:VET:ALO:es',
     'Vettel hizo una sola parada, en la vuelta 24, y montó duros. Alonso aguantó en pista hasta la 29, '
     'pero el alemán ya le había ganado 8,1 segundos con el undercut.',
     [('stop_count', {'driver': 'VET'}, 1),
      ('pit_lap', {'driver': 'VET'}, 24),
      ('stint_compound', {'driver': 'VET'}, 'HARD'),
      ('pit_lap', {'driver': 'ALO'}, 29),
      ('time_gained', {'driver': 'VET', 'rival': 'ALO'}, 8.1)],
     [('undercut', {'driver': 'VET'}, True)]),
    ('f1:2021:1:overcut:TSU:OCO:es',
     'Tsunoda alargó su primer stint hasta la vuelta 15 para intentar el overcut sobre Ocon, que había '
     'parado en la 13. No funcionó: el japonés perdió 2,1 segundos y siguió detrás del Alpine.',
     [('pit_lap', {'driver': 'TSU'}, 15),
      ('pit_lap', {'driver': 'OCO'}, 13),
      ('overcut', {'driver': 'TSU', 'rival': 'OCO'}, False),
      ('time_gained', {'driver': 'TSU'}, -2.1)],
     []),
    ('f1:2021:22:overcut:STR:GIO:es',
     'Stroll estiró el stint con medios hasta la vuelta 21, cuatro vueltas más que Giovinazzi, que paró en'
     ' la 17. El overcut fracasó y el canadiense perdió 1,7 segundos frente al Alfa Romeo.',
     [('pit_lap', {'driver': 'STR'}, 21),
      ('stint_compound', {'driver': 'STR'}, 'MEDIUM'),
      ('pit_lap', {'driver': 'GIO'}, 17),
      ('overcut', {'driver': 'STR'}, False),
      ('time_gained', {'driver': 'STR', 'rival': 'GIO'}, -1.7)],
     []),
    ('f1:2021:22:defense:OCO:RIC:es',
     'Ocon defendió su posición frente a Ricciardo durante siete vueltas, entre la 39 y la 45. El francés '
     'terminó noveno y el australiano, duodécimo.',
     [('defense', {'attacker': 'RIC', 'driver': 'OCO'}, 7),
      ('final_position', {'driver': 'OCO'}, 9),
      ('final_position', {'driver': 'RIC'}, 12)],
     []),
    ('f1:2025:1:tyre_strategy:ALB:es',
     'Albon paró tres veces: en la vuelta 2 cambió intermedios por intermedios nuevos, en la 33 pasó a '
     'medios y en la 44 volvió a los intermedios. Terminó quinto.',
     [('stop_count', {'driver': 'ALB'}, 3),
      ('pit_lap', {'driver': 'ALB'}, 2),
      ('pit_lap', {'driver': 'ALB'}, 33),
      ('compound_change', {'driver': 'ALB'}, ['INTERMEDIATE', 'INTERMEDIATE']),
      ('pit_lap', {'driver': 'ALB'}, 44),
      ('stint_compound', {'driver': 'ALB'}, 'MEDIUM'),
      ('stint_compound', {'driver': 'ALB'}, 'INTERMEDIATE'),
      ('final_position', {'driver': 'ALB'}, 5)],
     []),
    ('f1:2025:1:race_summary:es',
     'Norris ganó en Melbourne bajo la lluvia, por delante de Verstappen y Russell. El coche de seguridad '
     'salió tres veces: en las vueltas 1 a 7, 34 a 41 y 47 a 51.',
     [('final_position', {'driver': 'NOR'}, 1),
      ('winner', {}, 'NOR'),
      ('final_position', {'driver': 'VER'}, 2),
      ('final_position', {'driver': 'RUS'}, 3),
      ('neutralization', {'kind': 'SC'}, [1, 7]),
      ('neutralization', {'kind': 'SC'}, [34, 41]),
      ('neutralization', {'kind': 'SC'}, [47, 51])],
     []),
    ('f1:2021:1:overcut:SAI:ALO:pt',
     'Sainz tentou o overcut sobre Alonso ficando na pista até a volta 15, quatro voltas depois da parada '
     'do espanhol. Não funcionou: Carlos voltou atrás e perdeu 2,9 segundos.',
     [('pit_lap', {'driver': 'SAI'}, 15),
      ('overcut', {'driver': 'SAI', 'rival': 'ALO'}, False),
      ('time_gained', {'driver': 'SAI'}, -2.9)],
     []),
    ('f1:2025:1:defense:HUL:ANT:pt',
     'Hülkenberg segurou Antonelli por seis voltas, da 8 à 13, mesmo com a Mercedes sendo mais rápida. No '
     'fim, o italiano terminou em quarto e Nico em sétimo.',
     [('defense', {'attacker': 'ANT', 'driver': 'HUL'}, 6),
      ('final_position', {'driver': 'ANT'}, 4),
      ('final_position', {'driver': 'HUL'}, 7)],
     []),
    ('f1:2021:22:tyre_strategy:SAI:pt',
     'Carlos Sainz fez uma única parada na volta 19, trocando os macios pelos duros, e levou a Ferrari ao '
     'pódio em terceiro lugar.',
     [('stop_count', {'driver': 'SAI'}, 1),
      ('pit_lap', {'driver': 'SAI'}, 19),
      ('compound_change', {'driver': 'SAI'}, ['SOFT', 'HARD'])],
     [('final_position', {'driver': 'SAI'}, 3)]),
    ('f1:2021:1:tyre_strategy:PER:pt',
     'Largando do pit lane, Pérez fez três paradas, nas voltas 2, 19 e 38, com a sequência médio-duro-'
     'duro-médio, e terminou em quinto.',
     [('stop_count', {'driver': 'PER'}, 3),
      ('pit_lap', {'driver': 'PER'}, 2),
      ('pit_lap', {'driver': 'PER'}, 19),
      ('pit_lap', {'driver': 'PER'}, 38),
      ('stint_compound', {'driver': 'PER', 'stint': 1}, 'MEDIUM'),
      ('compound_change', {'driver': 'PER', 'stop': 1}, ['MEDIUM', 'HARD']),
      ('stint_compound', {'driver': 'PER', 'stint': 2}, 'HARD'),
      ('compound_change', {'driver': 'PER', 'stop': 2}, ['HARD', 'HARD']),
      ('stint_compound', {'driver': 'PER', 'stint': 3}, 'HARD'),
      ('compound_change', {'driver': 'PER', 'stop': 3}, ['HARD', 'MEDIUM']),
      ('stint_compound', {'driver': 'PER', 'stint': 4}, 'MEDIUM'),
      ('final_position', {'driver': 'PER'}, 5)],
     []),
    ('f1:2021:22:defense:RIC:LEC:pt',
     'Ricciardo conteve Leclerc por cinco voltas, entre as voltas 46 e 50, apesar de a Ferrari ser mais '
     'rápida. Mesmo assim, o monegasco terminou em décimo, à frente do australiano, que foi o 12º.',
     [('defense', {'attacker': 'LEC', 'driver': 'RIC'}, 5),
      ('final_position', {'driver': 'LEC'}, 10), ('final_position', {'driver': 'RIC'}, 12)],
     []),
    ('f1:2025:1:undercut:HUL:GAS:pt',
     'A Sauber chamou Hülkenberg para os intermediários na volta 44, duas voltas antes de Gasly, e o '
     'undercut funcionou: o alemão ganhou 3,9 segundos sobre o francês.',
     [('pit_lap', {'driver': 'HUL'}, 44),
      ('stint_compound', {'driver': 'HUL'}, 'INTERMEDIATE'),
      ('undercut', {'driver': 'HUL'}, True),
      ('time_gained', {'driver': 'HUL', 'rival': 'GAS'}, 3.9)],
     []),
    # a third set: lists and markdown as models write them, numbers in words, reversed orders
    ('f1:2021:1:tyre_strategy:NOR:en',
     '**Lando Norris – McLaren** - Start: softs (stint 1, laps 1–12) - Stop 1, lap 12: Soft → Medium - '
     'Stop 2, lap 33: Medium → Hard - Finish: 4th, the best non-podium result.',
     [('stint_compound', {'driver': 'NOR', 'stint': 1}, 'SOFT'),
      ('pit_lap', {'driver': 'NOR', 'stop': 1}, 12),
      ('compound_change', {'driver': 'NOR', 'stop': 1}, ['SOFT', 'MEDIUM']),
      ('pit_lap', {'driver': 'NOR', 'stop': 2}, 33),
      ('compound_change', {'driver': 'NOR', 'stop': 2}, ['MEDIUM', 'HARD']),
      ('final_position', {'driver': 'NOR'}, 4)],
     []),
    ('f1:2021:22:tyre_strategy:SAI:en',
     'Carlos Sainz kept it simple with a one-stop strategy. He began on the soft tyre, made his only pit '
     'stop on lap nineteen for hards and brought the Ferrari home in third place.',
     [('stop_count', {'driver': 'SAI'}, 1),
      ('stint_compound', {'driver': 'SAI', 'stint': 1}, 'SOFT'),
      ('pit_lap', {'driver': 'SAI'}, 19),
      ('stint_compound', {'driver': 'SAI'}, 'HARD'),
      ('final_position', {'driver': 'SAI'}, 3)],
     []),
    ('f1:2025:1:race_summary:en',
     'Norris converted pole into victory in a wet Melbourne race neutralised three times by the safety car'
     ' (laps 1–7, 34–41 and 47–51). Max Verstappen was second after extending his middle stint until lap '
     '46, and George Russell took third.',
     [('final_position', {'driver': 'NOR'}, 1),
      ('winner', {}, 'NOR'),
      ('neutralization', {'kind': 'SC'}, [1, 7]),
      ('neutralization', {'kind': 'SC'}, [34, 41]),
      ('neutralization', {'kind': 'SC'}, [47, 51]),
      ('pit_lap', {'driver': 'VER'}, 46),
      ('final_position', {'driver': 'RUS'}, 3)],
     [('final_position', {'driver': 'VER'}, 2)]),
    ('f1:2021:1:undercut:HAM:VER:en',
     'Mercedes pulled the trigger first: Hamilton came in at the end of lap thirteen, while Red Bull left '
     'Verstappen out until lap seventeen. By the time the Dutchman rejoined, he was behind the Mercedes, '
     'which had gained 8.4 seconds with the undercut.',
     [('pit_lap', {'driver': 'HAM'}, 13),
      ('pit_lap', {'driver': 'VER'}, 17),
      ('time_gained', {'driver': 'HAM'}, 8.4)],
     [('undercut', {'driver': 'HAM'}, True)]),
    ('f1:2021:22:defense:RIC:LEC:en',
     "For five laps Ricciardo kept Leclerc's quicker Ferrari behind him. Daniel finished twelfth and "
     'Charles tenth.',
     [('final_position', {'driver': 'RIC'}, 12),
      ('final_position', {'driver': 'LEC'}, 10)],
     [('defense', {'attacker': 'LEC', 'driver': 'RIC'}, 5)]),
    ('f1:2021:1:tyre_strategy:LEC:es',
     '**Charles Leclerc (Ferrari)** - Salida con blandos. - Parada 1 (vuelta 12): blando → medio. - Parada'
     ' 2 (vuelta 32): medio → duro. - Resultado: sexto.',
     [('stint_compound', {'driver': 'LEC', 'stint': 1}, 'SOFT'),
      ('pit_lap', {'driver': 'LEC', 'stop': 1}, 12),
      ('compound_change', {'driver': 'LEC', 'stop': 1}, ['SOFT', 'MEDIUM']),
      ('pit_lap', {'driver': 'LEC', 'stop': 2}, 32),
      ('compound_change', {'driver': 'LEC', 'stop': 2}, ['MEDIUM', 'HARD']),
      ('final_position', {'driver': 'LEC'}, 6)],
     []),
    ('f1:2021:22:tyre_strategy:VER:es',
     'Verstappen hizo tres paradas: en la vuelta 13 pasó de blandos a duros, en la 36 aprovechó el coche '
     'de seguridad virtual para montar otro juego de duros y en la 53, con el coche de seguridad en pista,'
     ' puso blandos nuevos. Con ellos adelantó a Hamilton en la última vuelta y ganó.',
     [('stop_count', {'driver': 'VER'}, 3),
      ('pit_lap', {'driver': 'VER'}, 13),
      ('compound_change', {'driver': 'VER'}, ['SOFT', 'HARD']),
      ('pit_lap', {'driver': 'VER'}, 36),
      ('compound_change', {'driver': 'VER'}, ['HARD', 'HARD']),
      ('pit_lap', {'driver': 'VER'}, 53),
      ('stint_compound', {'driver': 'VER'}, 'SOFT'),
      ('final_position', {'driver': 'VER'}, 1),
      ('winner', {}, 'VER')],
     [('neutralization', {'kind': 'VSC'}, [36, 36]), ('neutralization', {'kind': 'SC'}, [53, 53])]),
    ('f1:2025:1:overcut:VER:PIA:es',
     'Max apostó por alargar: Piastri paró en la vuelta 44 y el neerlandés no lo hizo hasta la 46. El '
     'overcut funcionó, porque el australiano se salió de pista y perdió mucho tiempo.',
     [('pit_lap', {'driver': 'PIA'}, 44),
      ('overcut', {'driver': 'VER'}, True)],
     [('pit_lap', {'driver': 'VER'}, 46)]),
    ('f1:2021:1:race_summary:es',
     'Lewis Hamilton se llevó la victoria en Baréin con un margen de 0,7 segundos sobre Max Verstappen; '
     'Valtteri Bottas completó el podio. El coche de seguridad estuvo en pista las tres primeras vueltas, '
     'seguido de un coche de seguridad virtual en las vueltas 4 y 5.',
     [('final_position', {'driver': 'HAM'}, 1),
      ('winner', {}, 'HAM'),
      ('final_position', {'driver': 'VER'}, 2),
      ('final_position', {'driver': 'BOT'}, 3),
      ('neutralization', {'kind': 'SC'}, [1, 3]),
      ('neutralization', {'kind': 'VSC'}, [4, 4]),
      ('neutralization', {'kind': 'VSC'}, [5, 5])],
     []),
    ('f1:2021:22:undercut:LEC:NOR:es',
     'Ferrari intentó el undercut con Leclerc en la vuelta 15, pero McLaren respondió parando a Norris en '
     'la 17 y el británico mantuvo la posición: el monegasco perdió seis décimas.',
     [('pit_lap', {'driver': 'NOR'}, 17)],
     [('pit_lap', {'driver': 'LEC'}, 15), ('undercut', {'driver': 'LEC', 'rival': 'NOR'}, False)]),
    ('f1:2021:1:tyre_strategy:PER:pt',
     '**Sergio Pérez** largou do pit lane e fez três paradas: 1. Volta 2: médio → duro 2. Volta 19: duro →'
     ' duro 3. Volta 38: duro → médio Resultado: quinto lugar.',
     [('stop_count', {'driver': 'PER'}, 3),
      ('pit_lap', {'driver': 'PER'}, 2),
      ('compound_change', {'driver': 'PER'}, ['MEDIUM', 'HARD']),
      ('pit_lap', {'driver': 'PER'}, 19),
      ('compound_change', {'driver': 'PER'}, ['HARD', 'HARD']),
      ('pit_lap', {'driver': 'PER'}, 38),
      ('compound_change', {'driver': 'PER'}, ['HARD', 'MEDIUM']),
      ('final_position', {'driver': 'PER'}, 5)],
     []),
    ('f1:2021:22:race_summary:pt',
     'Verstappen venceu o GP de Abu Dhabi de 2021 e conquistou o título ao ultrapassar Hamilton na última '
     'volta. Sainz completou o pódio. O safety car virtual apareceu entre as voltas 36 e 38, e o safety '
     'car da volta 53 permitiu a Verstappen colocar pneus macios novos.',
     [('final_position', {'driver': 'VER'}, 1),
      ('winner', {}, 'VER'),
      ('final_position', {'driver': 'SAI'}, 3),
      ('neutralization', {'kind': 'VSC'}, [36, 38]),
      ('neutralization', {'kind': 'SC'}, [53, 53]),
      ('stint_compound', {'driver': 'VER'}, 'SOFT')],
     [('pit_lap', {'driver': 'VER'}, 53)]),
    ('f1:2025:1:defense:ALB:HAM:pt',
     'Durante nove voltas, entre a 18 e a 26, Albon conseguiu manter Hamilton atrás, mesmo com a Ferrari '
     'mais rápida. O tailandês terminou em quinto; o heptacampeão, em décimo.',
     [('final_position', {'driver': 'ALB'}, 5)],
     [('defense', {'attacker': 'HAM', 'driver': 'ALB'}, 9), ('final_position', {'driver': 'HAM'}, 10)]),
    ('f1:2021:1:undercut:HAM:VER:pt',
     'Hamilton antecipou a parada para a volta 13 e ganhou 8,4 segundos em relação a Verstappen, que só '
     'parou na 17. Quando o holandês voltou à pista, estava atrás do inglês: o undercut deu certo.',
     [('pit_lap', {'driver': 'HAM'}, 13),
      ('time_gained', {'driver': 'HAM', 'rival': 'VER'}, 8.4),
      ('pit_lap', {'driver': 'VER'}, 17)],
     [('undercut', {'driver': 'HAM'}, True)]),
    ('f1:2025:1:tyre_strategy:NOR:pt',
     'Lando Norris usou a sequência intermediário-duro-intermediário, com paradas nas voltas 34 e 44, e '
     'venceu à frente de Max Verstappen e George Russell.',
     [('stint_compound', {'driver': 'NOR', 'stint': 1}, 'INTERMEDIATE'),
      ('compound_change', {'driver': 'NOR', 'stop': 1}, ['INTERMEDIATE', 'HARD']),
      ('stint_compound', {'driver': 'NOR', 'stint': 2}, 'HARD'),
      ('compound_change', {'driver': 'NOR', 'stop': 2}, ['HARD', 'INTERMEDIATE']),
      ('stint_compound', {'driver': 'NOR', 'stint': 3}, 'INTERMEDIATE'),
      ('pit_lap', {'driver': 'NOR'}, 34),
      ('pit_lap', {'driver': 'NOR'}, 44),
      ('final_position', {'driver': 'NOR'}, 1),
      ('winner', {}, 'NOR'),
      ('final_position', {'driver': 'VER'}, 2),
      ('final_position', {'driver': 'RUS'}, 3)],
     []),
    # a fourth set, measured before any rule was changed for it
    ('f1:2021:22:overcut:STR:GIO:en',
     'Aston Martin gambled on an overcut with Lance Stroll, leaving him out on worn mediums until lap 21, '
     'four laps after Giovinazzi had pitted. The gamble did not pay off: when Stroll finally boxed for '
     'hards, he was still behind the Alfa Romeo and had lost 1.7 seconds to it.',
     [('pit_lap', {'driver': 'STR'}, 21),
      ('stint_compound', {'driver': 'STR'}, 'MEDIUM'),
      ('stint_compound', {'driver': 'STR'}, 'HARD'),
      ('time_gained', {'driver': 'STR', 'rival': 'GIO'}, -1.7)],
     [('overcut', {'driver': 'STR', 'rival': 'GIO'}, False)]),
    ('f1:2025:1:tyre_strategy:VER:en',
     "Verstappen's race in Melbourne: he started on intermediates, switched to slicks — the medium "
     'compound — under the safety car on lap 34, then had to come back in on lap 46 for intermediates when'
     ' the rain returned. He finished second, less than a second behind Norris.',
     [('stint_compound', {'driver': 'VER', 'stint': 1}, 'INTERMEDIATE'),
      ('stint_compound', {'driver': 'VER'}, 'MEDIUM'),
      ('neutralization', {'kind': 'SC'}, [34, 34]),
      ('stint_compound', {'driver': 'VER'}, 'INTERMEDIATE'),
      ('final_position', {'driver': 'VER'}, 2)],
     [('pit_lap', {'driver': 'VER'}, 34), ('pit_lap', {'driver': 'VER'}, 46)]),
    ('f1:2021:1:defense:GIO:RAI:en',
     'Antonio Giovinazzi spent six laps holding off his Alfa Romeo team-mate, from lap 6 to lap 11, even '
     'though Kimi had the quicker car on the day. In the end the Finn came home eleventh, one place ahead '
     'of the Italian.',
     [('final_position', {'driver': 'RAI'}, 11)],
     [('defense', {'attacker': 'RAI', 'driver': 'GIO'}, 6), ('final_position', {'driver': 'GIO'}, 12)]),
    ('f1:2021:1:overcut:RIC:LEC:es',
     'Ricciardo se quedó en pista una vuelta más que Leclerc, que entró en boxes en la vuelta 12, pero el '
     'overcut no funcionó: el australiano paró en la 13 y volvió detrás del Ferrari, 3,3 segundos peor.',
     [('pit_lap', {'driver': 'LEC'}, 12),
      ('overcut', {'driver': 'RIC'}, False),
      ('pit_lap', {'driver': 'RIC'}, 13)],
     [('time_gained', {'driver': 'RIC'}, -3.3)]),
    ('f1:2025:1:race_summary:es',
     'Lando Norris ganó el Gran Premio de Australia 2025, una carrera marcada por la lluvia y por tres '
     'periodos de coche de seguridad: vueltas 1-7, 34-41 y 47-51. Max Verstappen terminó a menos de un '
     'segundo, en segunda posición, y George Russell fue tercero.',
     [('final_position', {'driver': 'NOR'}, 1),
      ('winner', {}, 'NOR'),
      ('neutralization', {'kind': 'SC'}, [1, 7]),
      ('neutralization', {'kind': 'SC'}, [34, 41]),
      ('neutralization', {'kind': 'SC'}, [47, 51]), ('final_position', {'driver': 'RUS'}, 3)],
     [('final_position', {'driver': 'VER'}, 2)]),
    ('f1:2021:22:tyre_strategy:HAM:es',
     'La estrategia de Mercedes con Hamilton fue a una parada: medio-duro, con el cambio en la vuelta 14. '
     'Lewis lideró hasta la última vuelta, cuando Verstappen, con blandos nuevos, le adelantó; acabó '
     'segundo.',
     [('pit_lap', {'driver': 'HAM'}, 14),
      ('stint_compound', {'driver': 'HAM', 'stint': 1}, 'MEDIUM'),
      ('compound_change', {'driver': 'HAM', 'stop': 1}, ['MEDIUM', 'HARD']),
      ('stint_compound', {'driver': 'HAM', 'stint': 2}, 'HARD'),
      ('stint_compound', {'driver': 'VER'}, 'SOFT'),
      ('final_position', {'driver': 'HAM'}, 2)],
     [('stop_count', {'driver': 'HAM'}, 1)]),
    ('f1:2021:1:undercut:STR:RIC:pt',
     'Stroll parou uma volta antes de Ricciardo, na 12, e recuperou 1 segundo com o undercut, mas não o '
     'suficiente: o canadense continuou atrás do australiano, que parou na volta 13.',
     [('pit_lap', {'driver': 'STR'}, 12),
      ('time_gained', {'driver': 'STR'}, 1.0),
      ('undercut', {'driver': 'STR'}, False),
      ('pit_lap', {'driver': 'RIC'}, 13)],
     []),
    ('f1:2025:1:tyre_strategy:RUS:pt',
     'George Russell fez duas paradas: na volta 34 trocou os intermediários por pneus duros e, na 44, '
     'voltou aos intermediários. Terminou no pódio, em terceiro.',
     [('stop_count', {'driver': 'RUS'}, 2),
      ('pit_lap', {'driver': 'RUS'}, 34),
      ('compound_change', {'driver': 'RUS'}, ['INTERMEDIATE', 'HARD']),
      ('pit_lap', {'driver': 'RUS'}, 44),
      ('stint_compound', {'driver': 'RUS'}, 'INTERMEDIATE')],
     [('final_position', {'driver': 'RUS'}, 3)]),
    ('f1:2021:22:defense:NOR:BOT:pt',
     'Durante cinco voltas, da 39 à 43, Lando Norris conseguiu segurar Valtteri Bottas. O piloto da '
     'Mercedes só passou depois e terminou em sexto, uma posição à frente de Lando.',
     [('final_position', {'driver': 'BOT'}, 6)],
     [('defense', {'attacker': 'BOT', 'driver': 'NOR'}, 5), ('final_position', {'driver': 'NOR'}, 7)]),
]


@pytest.mark.parametrize(("instance_id", "text", "expected", "missed"), MODEL_STYLE_CASES,
                         ids=[f"{c[0].split(':')[3]}-{c[0].split(':')[-1]}-{i}" for i, c in enumerate(MODEL_STYLE_CASES)])
def test_model_style_explanations(three_races: dict[str, Instance], instance_id: str, text: str,
                                  expected: list[Expected], missed: list[Expected]) -> None:
    found = read(three_races, instance_id, text)
    assert found == as_set(expected), f"extra: {sorted(found - as_set(expected))}\nnot read: {sorted(as_set(expected) - found)}"
    assert not found & as_set(missed)  # a miss now read: move it to the expected claims
    instance = three_races[instance_id]
    result = Evaluator(F1Domain()).evaluate_text(instance, text)
    # every text is true: no false contradiction. A fact the oracle withholds (issue #9: a
    # move or defense it excluded, a compound next to a stop whose tyre data ran on) is not
    # in the race's knowledge, so a claim about it is unverifiable
    withheld = [v for v in result.verdicts if is_withheld(instance, v.claim)]
    # texts written against a fact the oracle has since corrected: those claims, and only
    # those, are now contradicted
    corrected = CORRECTED_SINCE_WRITTEN.get(instance_id.rsplit(":", 1)[0], ())
    fixed = [v for v in result.verdicts if (v.claim.type, v.claim.value) in corrected]
    assert {v.label for v in fixed} <= {"contradicted"}
    assert {v.label for v in result.verdicts if v not in withheld and v not in fixed} == {"supported"}
    assert {v.label for v in withheld} <= {"supported", "unverifiable"}


# issue 26: 2025 Australia lap 2 was the field led through the pit lane; Albon's tyre age
# 2 -> 1 there at the neighbours' 14.9 s is a phantom, so he stopped twice (33, 44), not 3 times
CORRECTED_SINCE_WRITTEN: dict[str, tuple[tuple[str, Any], ...]] = {
    "f1:2025:1:tyre_strategy:ALB": (("stop_count", 3), ("pit_lap", 2), ("compound_change", ["INTERMEDIATE", "INTERMEDIATE"])),
}


def is_withheld(instance: Instance, claim: Any) -> bool:
    if claim.type in ("undercut", "overcut", "defense", "time_gained"):
        return bool(instance.context.get("stand_in"))
    if claim.type in ("stint_compound", "compound_change"):
        driver = next(d for d in instance.context["race"]["drivers"] if d["code"] == claim.key["driver"])
        return any(stint["compound"] == "UNKNOWN" for stint in driver["stints"])
    return False


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # "Max" is Verstappen; "stayed out until lap 17" is his in-lap; he came out behind: it worked
        ("Mercedes undercut Verstappen: Hamilton boxed on lap 13, Max stayed out until lap 17 and came out behind.",
         {("undercut", (("driver", "HAM"), ("rival", "VER")), True, "supported"),
          ("pit_lap", (("driver", "HAM"),), 13, "supported"), ("pit_lap", (("driver", "VER"),), 17, "supported")}),
        ("Verstappen pitted twice, on 17 and 39.",
         {("stop_count", (("driver", "VER"),), 2, "supported"), ("pit_lap", (("driver", "VER"),), 17, "supported"),
          ("pit_lap", (("driver", "VER"),), 39, "supported")}),
        # "him" is the other driver of the decision; 2.6 s is wrong (8.4 s): contradicted, with its rival
        ("Hamilton gained 2.6s on him.", {("time_gained", (("driver", "HAM"), ("rival", "VER")), 2.6, "contradicted")}),
        ("Lewis won ahead of Max and Bottas.",
         {("winner", (), "HAM", "supported"), ("final_position", (("driver", "HAM"),), 1, "supported"),
          ("final_position", (("driver", "VER"),), 2, "supported"),
          ("final_position", (("driver", "BOT"),), 3, "supported")}),
        # the outcome said by where the driver came out, in the clause after the move
        ("Stroll tried to undercut Ricciardo on lap 12 but came out behind him.",
         {("undercut", (("driver", "STR"), ("rival", "RIC")), False, "supported")}),  # the race's knowledge has it
        ("Hamilton undercut Verstappen and came out ahead.",
         {("undercut", (("driver", "HAM"), ("rival", "VER")), True, "supported")}),
        # a wish is no outcome; the verdict opening the next sentence is
        ("Hamilton went for the undercut, hoping it would work. It did.", set()),
        ("Hamilton tried the undercut on Verstappen. It worked.",
         {("undercut", (("driver", "HAM"), ("rival", "VER")), True, "supported")}),
    ],
)
def test_undercut_phrasings_found_by_the_lead(bahrain: dict[str, Instance], text: str, expected: set[Any]) -> None:
    result = Evaluator(F1Domain()).evaluate_text(bahrain["f1:2021:1:undercut:HAM:VER:en"], text)
    found = {(v.claim.type, tuple(sorted(v.claim.key.items())), v.claim.value, v.label) for v in result.verdicts}
    assert found == expected


@pytest.mark.parametrize(
    ("language", "text"),
    [
        ("en", "Giovinazzi held him off for six laps."),
        ("es", "Giovinazzi lo contuvo durante seis vueltas."),
        ("pt", "Giovinazzi o segurou por seis voltas."),
    ],
)
def test_a_pronoun_attacker_is_the_other_driver(bahrain: dict[str, Instance], language: str, text: str) -> None:
    found = read(bahrain, f"f1:2021:1:defense:GIO:RAI:{language}", text)
    assert found == as_set([("defense", {"driver": "GIO", "attacker": "RAI"}, 6)])


def test_a_pronoun_is_no_rival_without_a_pair(bahrain: dict[str, Instance]) -> None:
    # a strategy instance has one focus driver: "him" names nobody
    found = read(bahrain, "f1:2021:1:tyre_strategy:HAM:en", "Hamilton gained 8 seconds on him.")
    assert found == as_set([("time_gained", HAM, 8.0)])


def test_lap_ranges_listed_and_the_first_laps(bahrain: dict[str, Instance]) -> None:
    found = read(bahrain, "f1:2021:1:race_summary:en",
                 "The safety car was out on laps 1 to 3, 10 to 12 and 20 to 21, after the first three laps.")
    assert {c for c in found if c[0] == "neutralization"} == as_set(
        [("neutralization", {"kind": "SC"}, [1, 3]), ("neutralization", {"kind": "SC"}, [10, 12]),
         ("neutralization", {"kind": "SC"}, [20, 21])])
    found = read(bahrain, "f1:2021:1:race_summary:es", "Hubo coche de seguridad durante las tres primeras vueltas.")
    assert found == as_set([("neutralization", {"kind": "SC"}, [1, 3])])


@pytest.mark.parametrize(
    ("language", "text"),
    [
        ("en", "Hamilton stayed out of trouble until lap 30."),
        ("en", "Max stayed out front until lap 20."),
        ("en", "Verstappen brought the gap down in five laps."),
        ("en", "Hamilton returned to the lead on lap 20."),
        ("en", "Verstappen went onto the grass on lap 53."),
        ("en", "Hamilton was on 17 laps old tyres, 2 seconds behind."),
        ("en", "Hamilton hoped the undercut would work."),
        ("en", "Max tried the overcut. It was a long race."),
        ("en", "The safety car stayed out until lap 3."),
        ("en", "Mercedes kept Hamilton out of trouble until lap 20."),
        ("es", "El coche de seguridad siguió en pista hasta la vuelta 3."),
        ("pt", "O safety car ficou na pista até a volta 3."),
        ("es", "Hamilton se quedó fuera de los puntos hasta la vuelta 30."),
        ("es", "Verstappen volvió a la pista en la vuelta 18."),
        ("es", "Max paró a la vez que Bottas."),
        ("pt", "Hamilton ficou fora dos pontos até a volta 30."),
        ("pt", "Max voltou à pista na volta 18."),
        ("pt", "O undercut de Hamilton sobre Verstappen não deu certo, mas ele saiu na frente."),  # contradictory
    ],
)
def test_look_alike_phrases_read_nothing(bahrain: dict[str, Instance], language: str, text: str) -> None:
    assert not {c for c in read(bahrain, f"f1:2021:1:undercut:HAM:VER:{language}", text) if c[0] != "neutralization"}


def test_nationality_before_an_event_or_fans_is_no_driver(three_races: dict[str, Instance]) -> None:
    # "the Italian fans" is not Antonelli (the only Italian of 2025 Australia)
    found = read(three_races, "f1:2025:1:defense:HUL:ANT:en", "The Italian fans cheered and Hülkenberg finished seventh.")
    assert found == as_set([("final_position", {"driver": "HUL"}, 7)])


def test_the_driver_passed_is_not_the_winner(bahrain: dict[str, Instance]) -> None:
    found = read(bahrain, "f1:2021:1:tyre_strategy:VER:es", "Verstappen paró dos veces. Con ellos adelantó a Hamilton y ganó.")
    assert ("winner", "[]", repr("HAM")) not in found and ("winner", "[]", repr("VER")) in found


def test_a_one_stop_line_is_one_change_not_two_stints(bahrain: dict[str, Instance]) -> None:
    text = "Pérez:\n- Stop 2 (lap 19): Hard → Hard\n- Lap 38: Hard → Medium"
    found = read(bahrain, "f1:2021:1:tyre_strategy:PER:en", text)
    assert found == as_set([
        ("pit_lap", {"driver": "PER", "stop": 2}, 19), ("compound_change", {"driver": "PER", "stop": 2}, ["HARD", "HARD"]),
        ("pit_lap", PER, 38), ("compound_change", PER, ["HARD", "MEDIUM"])])
