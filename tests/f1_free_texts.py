"""60 model-style texts about the real 2023 and 2024 Bahrain Grands Prix (issue 14).

Written, with the claims a careful reader takes from each, before the grammar was run on
them: the phrasings models use for sequences of sets ("took another set of hards at the
second"), places ("Hamilton was second and Lando Norris third") and gaps ("gained 10.1
seconds on Hülkenberg"). Every text is true of the race. The extractor's precision and
recall on them were measured before the grammar was changed for them (docs/extractors.md).

A claim read with fewer key slots than expected still counts (a claim may leave out a slot
the text does not say), and a compound change entails the stints either side of its stop.
"""

from __future__ import annotations

from typing import Any

Expected = tuple[str, dict[str, Any], Any]


def _d(code: str, **slots: Any) -> dict[str, Any]:
    return {"driver": code, **slots}


B23, B24 = "f1:2023:1", "f1:2024:1"

FREE_TEXTS: list[tuple[str, str, list[Expected]]] = [
    # --- English: sequences of sets -------------------------------------------------------
    (f"{B23}:tyre_strategy:ALO:en",
     "Alonso started on softs, switched to hards at his first stop and took another set of hards at the "
     "second, which carried him to third place.",
     [("stint_compound", _d("ALO", stint=1), "SOFT"), ("compound_change", _d("ALO", stop=1), ["SOFT", "HARD"]),
      ("compound_change", _d("ALO", stop=2), ["HARD", "HARD"]), ("final_position", _d("ALO"), 3)]),
    (f"{B23}:tyre_strategy:VER:en",
     "Verstappen ran two sets of softs before finishing on the hard tyre: he pitted on lap 14 for fresh "
     "softs and again on lap 36 for hards, and went on to win.",
     [("pit_lap", _d("VER"), 14), ("pit_lap", _d("VER"), 36), ("stint_compound", _d("VER", stint=1), "SOFT"),
      ("stint_compound", _d("VER", stint=2), "SOFT"), ("stint_compound", _d("VER", stint=3), "HARD"),
      ("winner", {}, "VER"), ("final_position", _d("VER"), 1)]),
    (f"{B23}:tyre_strategy:PER:en",
     "Pérez followed a soft-soft-hard strategy, stopping on laps 17 and 34, and brought the car home in "
     "second.",
     [("stint_compound", _d("PER", stint=1), "SOFT"), ("stint_compound", _d("PER", stint=2), "SOFT"),
      ("stint_compound", _d("PER", stint=3), "HARD"), ("compound_change", _d("PER", stop=1), ["SOFT", "SOFT"]),
      ("compound_change", _d("PER", stop=2), ["SOFT", "HARD"]), ("pit_lap", _d("PER"), 17),
      ("pit_lap", _d("PER"), 34), ("final_position", _d("PER"), 2)]),
    (f"{B23}:tyre_strategy:HAM:en",
     "Hamilton made two stops. At the first, on lap 12, he went from the soft to the hard compound; at the "
     "second, on lap 30, he simply took another set of hards. He finished fifth.",
     [("stop_count", _d("HAM"), 2), ("pit_lap", _d("HAM", stop=1), 12),
      ("compound_change", _d("HAM", stop=1), ["SOFT", "HARD"]), ("pit_lap", _d("HAM", stop=2), 30),
      ("compound_change", _d("HAM", stop=2), ["HARD", "HARD"]), ("final_position", _d("HAM"), 5)]),
    (f"{B23}:tyre_strategy:SAI:en",
     "Sainz opened on the soft tyre and then used hards for the rest of the race, pitting on laps 13 and "
     "31. He ended up fourth.",
     [("stint_compound", _d("SAI", stint=1), "SOFT"), ("stint_compound", _d("SAI"), "HARD"),
      ("pit_lap", _d("SAI"), 13), ("pit_lap", _d("SAI"), 31), ("final_position", _d("SAI"), 4)]),
    (f"{B23}:tyre_strategy:GAS:en",
     "Gasly stopped three times (laps 9, 25 and 40). After his opening stint on softs he fitted hards, "
     "then a second set of hards, and finished on softs in ninth.",
     [("stop_count", _d("GAS"), 3), ("pit_lap", _d("GAS"), 9), ("pit_lap", _d("GAS"), 25),
      ("pit_lap", _d("GAS"), 40), ("stint_compound", _d("GAS", stint=1), "SOFT"),
      ("stint_compound", _d("GAS", stint=2), "HARD"), ("stint_compound", _d("GAS", stint=3), "HARD"),
      ("stint_compound", _d("GAS", stint=4), "SOFT"), ("final_position", _d("GAS"), 9)]),
    (f"{B23}:tyre_strategy:MAG:en",
     "Magnussen was one of the few to start on hards. He took a second set of hards on lap 15, switched "
     "to softs on lap 29 and put on another set of softs on lap 40, finishing 13th.",
     [("stint_compound", _d("MAG", stint=1), "HARD"), ("pit_lap", _d("MAG"), 15),
      ("compound_change", _d("MAG"), ["HARD", "HARD"]), ("pit_lap", _d("MAG"), 29),
      ("stint_compound", _d("MAG"), "SOFT"), ("pit_lap", _d("MAG"), 40),
      ("compound_change", _d("MAG"), ["SOFT", "SOFT"]), ("final_position", _d("MAG"), 13)]),
    (f"{B23}:tyre_strategy:ZHO:en",
     "Zhou's race was soft, hard, soft, soft: three stops, the last of them as late as lap 54, and he "
     "came home 16th.",
     [("stint_compound", _d("ZHO", stint=1), "SOFT"), ("stint_compound", _d("ZHO", stint=2), "HARD"),
      ("stint_compound", _d("ZHO", stint=3), "SOFT"), ("stint_compound", _d("ZHO", stint=4), "SOFT"),
      ("compound_change", _d("ZHO", stop=1), ["SOFT", "HARD"]), ("compound_change", _d("ZHO", stop=2), ["HARD", "SOFT"]),
      ("compound_change", _d("ZHO", stop=3), ["SOFT", "SOFT"]), ("stop_count", _d("ZHO"), 3),
      ("pit_lap", _d("ZHO"), 54), ("final_position", _d("ZHO"), 16)]),
    (f"{B24}:tyre_strategy:VER:en",
     "Verstappen went soft to hard on lap 17, then back onto softs on lap 37 for the final stint, and "
     "won comfortably.",
     [("compound_change", _d("VER"), ["SOFT", "HARD"]), ("pit_lap", _d("VER"), 17), ("pit_lap", _d("VER"), 37),
      ("stint_compound", _d("VER", stint=3), "SOFT"), ("winner", {}, "VER"), ("final_position", _d("VER"), 1)]),
    (f"{B24}:tyre_strategy:ALO:en",
     "Alonso's first set of softs lasted until lap 15; he then ran two sets of hards, with his second "
     "stop coming on lap 41, and finished ninth.",
     [("stint_compound", _d("ALO", stint=1), "SOFT"), ("pit_lap", _d("ALO"), 15),
      ("stint_compound", _d("ALO", stint=2), "HARD"), ("stint_compound", _d("ALO", stint=3), "HARD"),
      ("pit_lap", _d("ALO", stop=2), 41), ("final_position", _d("ALO"), 9)]),
    # --- English: places --------------------------------------------------------------------
    (f"{B24}:race_summary:en",
     "Max Verstappen won from Sergio Pérez and Carlos Sainz. Charles Leclerc was fourth, George Russell "
     "fifth and Lando Norris sixth.",
     [("winner", {}, "VER"), ("final_position", _d("VER"), 1), ("final_position", _d("PER"), 2),
      ("final_position", _d("SAI"), 3), ("final_position", _d("LEC"), 4), ("final_position", _d("RUS"), 5),
      ("final_position", _d("NOR"), 6)]),
    (f"{B24}:race_summary:en",
     "Behind the Red Bulls, Sainz took third. Hamilton was seventh and Oscar Piastri eighth, with Alonso "
     "and Stroll completing the top ten.",
     [("final_position", _d("SAI"), 3), ("final_position", _d("HAM"), 7), ("final_position", _d("PIA"), 8)]),
    (f"{B23}:race_summary:en",
     "Verstappen led a Red Bull one-two ahead of Pérez, while Fernando Alonso was third on his Aston "
     "Martin debut. The only neutralisation was a virtual safety car on laps 41 and 42.",
     [("winner", {}, "VER"), ("final_position", _d("VER"), 1), ("final_position", _d("PER"), 2),
      ("final_position", _d("ALO"), 3), ("neutralization", {"kind": "VSC"}, [41, 42])]),
    (f"{B23}:race_summary:en",
     "The podium was Verstappen, Pérez and Alonso. Sainz came fourth, Hamilton fifth, Stroll sixth and "
     "Russell seventh.",
     [("final_position", _d("VER"), 1), ("final_position", _d("PER"), 2), ("final_position", _d("ALO"), 3),
      ("final_position", _d("SAI"), 4), ("final_position", _d("HAM"), 5), ("final_position", _d("STR"), 6),
      ("final_position", _d("RUS"), 7)]),
    (f"{B23}:defense:HAM:RUS:en",
     "Hamilton kept his team-mate behind for five laps. In the end Hamilton was fifth and George Russell "
     "seventh.",
     [("defense", _d("HAM", attacker="RUS"), 5), ("final_position", _d("HAM"), 5),
      ("final_position", _d("RUS"), 7)]),
    (f"{B23}:defense:ALB:GAS:en",
     "Albon held Gasly off for ten laps, but the Alpine still finished ahead, in ninth, with Albon tenth.",
     [("defense", _d("ALB", attacker="GAS"), 10), ("final_position", _d("GAS"), 9),
      ("final_position", _d("ALB"), 10)]),
    (f"{B23}:defense:SAR:TSU:en",
     "Sargeant defended from Tsunoda for six laps. Tsunoda finished 11th and Sargeant 12th.",
     [("defense", _d("SAR", attacker="TSU"), 6), ("final_position", _d("TSU"), 11),
      ("final_position", _d("SAR"), 12)]),
    (f"{B24}:defense:ALO:HAM:en",
     "Alonso resisted Hamilton for five laps. Lewis eventually got by and took P7, while Fernando settled "
     "for P9.",
     [("defense", _d("ALO", attacker="HAM"), 5), ("final_position", _d("HAM"), 7),
      ("final_position", _d("ALO"), 9)]),
    (f"{B24}:defense:ZHO:SAR:en",
     "Zhou kept Sargeant behind for seven laps on his way to 11th place; Sargeant was last, in 20th.",
     [("defense", _d("ZHO", attacker="SAR"), 7), ("final_position", _d("ZHO"), 11),
      ("final_position", _d("SAR"), 20)]),
    # --- English: gaps ----------------------------------------------------------------------
    (f"{B23}:undercut:GAS:HUL:en",
     "Gasly pitted on lap 9, two laps before Hülkenberg, and the undercut worked: he gained 10.1 seconds "
     "on the Haas.",
     [("pit_lap", _d("GAS"), 9), ("undercut", _d("GAS"), True), ("time_gained", _d("GAS", rival="HUL"), 10.1)]),
    (f"{B23}:undercut:NOR:ALB:en",
     "Norris boxed on lap 10, a lap before Albon, but the undercut failed and he lost 8.2 seconds to the "
     "Williams.",
     [("pit_lap", _d("NOR"), 10), ("undercut", _d("NOR"), False), ("time_gained", _d("NOR", rival="ALB"), -8.2)]),
    (f"{B23}:undercut:TSU:SAR:en",
     "Tsunoda undercut Sargeant successfully: stopping on lap 10 against Sargeant's lap 12 was worth "
     "4.6 seconds.",
     [("undercut", _d("TSU", rival="SAR"), True), ("pit_lap", _d("TSU"), 10), ("pit_lap", _d("SAR"), 12),
      ("time_gained", _d("TSU"), 4.6)]),
    (f"{B23}:overcut:DEV:GAS:en",
     "De Vries stayed out until lap 11, two laps longer than Gasly, but the overcut did not work: he came "
     "out 6.7 seconds worse off.",
     [("pit_lap", _d("DEV"), 11), ("overcut", _d("DEV"), False), ("time_gained", _d("DEV"), -6.7)]),
    (f"{B23}:overcut:SAR:NOR:en",
     "Sargeant's overcut on Norris paid off. Norris stopped on lap 10, Sargeant two laps later, and the "
     "Williams driver gained 5.4 seconds.",
     [("overcut", _d("SAR", rival="NOR"), True), ("pit_lap", _d("NOR"), 10), ("time_gained", _d("SAR"), 5.4)]),
    (f"{B24}:undercut:STR:RIC:en",
     "Stroll's early stop on lap 9 was a successful undercut on Ricciardo, who waited until lap 13; "
     "Stroll gained 9.1 seconds.",
     [("pit_lap", _d("STR"), 9), ("undercut", _d("STR", rival="RIC"), True), ("pit_lap", _d("RIC"), 13),
      ("time_gained", _d("STR"), 9.1)]),
    (f"{B24}:overcut:BOT:OCO:en",
     "Bottas tried the overcut on Ocon by staying out until lap 12, but it failed; he lost 6.9 seconds.",
     [("overcut", _d("BOT", rival="OCO"), False), ("pit_lap", _d("BOT"), 12), ("time_gained", _d("BOT"), -6.9)]),
    # --- Español ----------------------------------------------------------------------------
    (f"{B23}:tyre_strategy:ALO:es",
     "Alonso salió con blandos, cambió a duros en su primera parada y montó otro juego de duros en la "
     "segunda. Terminó tercero.",
     [("stint_compound", _d("ALO", stint=1), "SOFT"), ("compound_change", _d("ALO", stop=1), ["SOFT", "HARD"]),
      ("compound_change", _d("ALO", stop=2), ["HARD", "HARD"]), ("final_position", _d("ALO"), 3)]),
    (f"{B23}:tyre_strategy:VER:es",
     "Verstappen usó dos juegos de blandos y terminó con duros: paró en las vueltas 14 y 36 y ganó la "
     "carrera.",
     [("stint_compound", _d("VER", stint=1), "SOFT"), ("stint_compound", _d("VER", stint=2), "SOFT"),
      ("stint_compound", _d("VER", stint=3), "HARD"), ("pit_lap", _d("VER"), 14), ("pit_lap", _d("VER"), 36),
      ("winner", {}, "VER"), ("final_position", _d("VER"), 1)]),
    (f"{B23}:tyre_strategy:PER:es",
     "Pérez hizo una estrategia blando-blando-duro, con paradas en las vueltas 17 y 34, y fue segundo.",
     [("stint_compound", _d("PER", stint=1), "SOFT"), ("stint_compound", _d("PER", stint=2), "SOFT"),
      ("stint_compound", _d("PER", stint=3), "HARD"), ("compound_change", _d("PER", stop=1), ["SOFT", "SOFT"]),
      ("compound_change", _d("PER", stop=2), ["SOFT", "HARD"]), ("pit_lap", _d("PER"), 17),
      ("pit_lap", _d("PER"), 34), ("final_position", _d("PER"), 2)]),
    (f"{B23}:tyre_strategy:HAM:es",
     "Hamilton hizo dos paradas: en la primera, en la vuelta 12, pasó de blandos a duros, y en la "
     "segunda, en la vuelta 30, puso otro juego de duros. Acabó quinto.",
     [("stop_count", _d("HAM"), 2), ("pit_lap", _d("HAM", stop=1), 12),
      ("compound_change", _d("HAM", stop=1), ["SOFT", "HARD"]), ("pit_lap", _d("HAM", stop=2), 30),
      ("compound_change", _d("HAM", stop=2), ["HARD", "HARD"]), ("final_position", _d("HAM"), 5)]),
    (f"{B23}:tyre_strategy:GAS:es",
     "Gasly paró tres veces, en las vueltas 9, 25 y 40: blando, duro, duro y, al final, blando otra vez. "
     "Terminó noveno.",
     [("stop_count", _d("GAS"), 3), ("pit_lap", _d("GAS"), 9), ("pit_lap", _d("GAS"), 25),
      ("pit_lap", _d("GAS"), 40), ("stint_compound", _d("GAS", stint=1), "SOFT"),
      ("stint_compound", _d("GAS", stint=2), "HARD"), ("stint_compound", _d("GAS", stint=3), "HARD"),
      ("stint_compound", _d("GAS", stint=4), "SOFT"), ("compound_change", _d("GAS", stop=1), ["SOFT", "HARD"]),
      ("compound_change", _d("GAS", stop=2), ["HARD", "HARD"]), ("compound_change", _d("GAS", stop=3), ["HARD", "SOFT"]),
      ("final_position", _d("GAS"), 9)]),
    (f"{B24}:tyre_strategy:SAI:es",
     "Sainz empezó con blandos y luego montó dos juegos de duros, parando en las vueltas 14 y 35; terminó "
     "en el podio, tercero.",
     [("stint_compound", _d("SAI", stint=1), "SOFT"), ("stint_compound", _d("SAI", stint=2), "HARD"),
      ("stint_compound", _d("SAI", stint=3), "HARD"), ("pit_lap", _d("SAI"), 14), ("pit_lap", _d("SAI"), 35),
      ("final_position", _d("SAI"), 3)]),
    (f"{B24}:tyre_strategy:VER:es",
     "Verstappen pasó de blandos a duros en la vuelta 17 y volvió a los blandos en la 37 para el último "
     "relevo. Ganó.",
     [("compound_change", _d("VER"), ["SOFT", "HARD"]), ("pit_lap", _d("VER"), 17), ("pit_lap", _d("VER"), 37),
      ("stint_compound", _d("VER", stint=3), "SOFT"), ("winner", {}, "VER"), ("final_position", _d("VER"), 1)]),
    (f"{B24}:race_summary:es",
     "Max Verstappen ganó por delante de Sergio Pérez y Carlos Sainz. Leclerc fue cuarto, Russell quinto "
     "y Lando Norris sexto.",
     [("winner", {}, "VER"), ("final_position", _d("VER"), 1), ("final_position", _d("PER"), 2),
      ("final_position", _d("SAI"), 3), ("final_position", _d("LEC"), 4), ("final_position", _d("RUS"), 5),
      ("final_position", _d("NOR"), 6)]),
    (f"{B23}:race_summary:es",
     "Doblete de Red Bull: Verstappen ganó y Pérez fue segundo. Alonso completó el podio, y Hamilton "
     "terminó quinto. Hubo un coche de seguridad virtual en las vueltas 41 y 42.",
     [("winner", {}, "VER"), ("final_position", _d("VER"), 1), ("final_position", _d("PER"), 2),
      ("final_position", _d("ALO"), 3), ("final_position", _d("HAM"), 5),
      ("neutralization", {"kind": "VSC"}, [41, 41]), ("neutralization", {"kind": "VSC"}, [42, 42])]),
    (f"{B23}:defense:HAM:RUS:es",
     "Hamilton contuvo a Russell durante cinco vueltas. Al final Hamilton fue quinto y Russell séptimo.",
     [("defense", _d("HAM", attacker="RUS"), 5), ("final_position", _d("HAM"), 5),
      ("final_position", _d("RUS"), 7)]),
    (f"{B23}:defense:NOR:SAR:es",
     "Norris aguantó a Sargeant durante seis vueltas, aunque acabó 17º, por detrás del estadounidense, "
     "que fue duodécimo.",
     [("defense", _d("NOR", attacker="SAR"), 6), ("final_position", _d("NOR"), 17),
      ("final_position", _d("SAR"), 12)]),
    (f"{B24}:defense:ALB:MAG:es",
     "Albon resistió a Magnussen durante cinco vueltas; Magnussen terminó duodécimo y Albon decimoquinto.",
     [("defense", _d("ALB", attacker="MAG"), 5), ("final_position", _d("MAG"), 12),
      ("final_position", _d("ALB"), 15)]),
    (f"{B23}:undercut:GAS:ZHO:es",
     "Gasly paró en la vuelta 9, tres antes que Zhou, y el undercut funcionó: le sacó 8,8 segundos.",
     [("pit_lap", _d("GAS"), 9), ("undercut", _d("GAS"), True), ("time_gained", _d("GAS", rival="ZHO"), 8.8)]),
    # rewritten after issue #9 corrected this decision (now the second stops: laps 34 and 30, +1.1 s)
    (f"{B23}:overcut:ALO:HAM:es",
     "Alonso alargó su segundo relevo hasta la vuelta 34, cuatro más que Hamilton, pero el overcut no "
     "funcionó, aunque ganó 1,1 segundos.",
     [("pit_lap", _d("ALO"), 34), ("overcut", _d("ALO"), False), ("time_gained", _d("ALO"), 1.1)]),
    (f"{B24}:undercut:ZHO:MAG:es",
     "Zhou le hizo el undercut a Magnussen: entró en boxes en la vuelta 9, dos antes que el danés, y ganó "
     "3,8 segundos.",
     [("undercut", _d("ZHO", rival="MAG"), True), ("pit_lap", _d("ZHO"), 9), ("time_gained", _d("ZHO"), 3.8)]),
    (f"{B24}:overcut:OCO:ZHO:es",
     "Ocon intentó el overcut sobre Zhou quedándose en pista hasta la vuelta 10, pero perdió 2,4 segundos "
     "y no funcionó.",
     [("overcut", _d("OCO", rival="ZHO"), False), ("pit_lap", _d("OCO"), 10), ("time_gained", _d("OCO"), -2.4)]),
    (f"{B23}:tyre_strategy:ZHO:es",
     "Zhou usó la secuencia blando, duro, blando, blando, con tres paradas, la última en la vuelta 54. "
     "Terminó 16º.",
     [("stint_compound", _d("ZHO", stint=1), "SOFT"), ("stint_compound", _d("ZHO", stint=2), "HARD"),
      ("stint_compound", _d("ZHO", stint=3), "SOFT"), ("stint_compound", _d("ZHO", stint=4), "SOFT"),
      ("compound_change", _d("ZHO", stop=1), ["SOFT", "HARD"]), ("compound_change", _d("ZHO", stop=2), ["HARD", "SOFT"]),
      ("compound_change", _d("ZHO", stop=3), ["SOFT", "SOFT"]), ("stop_count", _d("ZHO"), 3),
      ("pit_lap", _d("ZHO"), 54), ("final_position", _d("ZHO"), 16)]),
    # --- Português --------------------------------------------------------------------------
    (f"{B23}:tyre_strategy:ALO:pt",
     "Alonso largou com macios, trocou para duros na primeira parada e colocou outro jogo de duros na "
     "segunda. Terminou em terceiro.",
     [("stint_compound", _d("ALO", stint=1), "SOFT"), ("compound_change", _d("ALO", stop=1), ["SOFT", "HARD"]),
      ("compound_change", _d("ALO", stop=2), ["HARD", "HARD"]), ("final_position", _d("ALO"), 3)]),
    (f"{B23}:tyre_strategy:VER:pt",
     "Verstappen usou dois jogos de macios antes de terminar com os duros: parou nas voltas 14 e 36 e "
     "venceu a corrida.",
     [("stint_compound", _d("VER", stint=1), "SOFT"), ("stint_compound", _d("VER", stint=2), "SOFT"),
      ("stint_compound", _d("VER", stint=3), "HARD"), ("pit_lap", _d("VER"), 14), ("pit_lap", _d("VER"), 36),
      ("winner", {}, "VER"), ("final_position", _d("VER"), 1)]),
    (f"{B23}:tyre_strategy:PER:pt",
     "Pérez fez a estratégia macio-macio-duro, com paradas nas voltas 17 e 34, e chegou em segundo.",
     [("stint_compound", _d("PER", stint=1), "SOFT"), ("stint_compound", _d("PER", stint=2), "SOFT"),
      ("stint_compound", _d("PER", stint=3), "HARD"), ("compound_change", _d("PER", stop=1), ["SOFT", "SOFT"]),
      ("compound_change", _d("PER", stop=2), ["SOFT", "HARD"]), ("pit_lap", _d("PER"), 17),
      ("pit_lap", _d("PER"), 34), ("final_position", _d("PER"), 2)]),
    (f"{B23}:tyre_strategy:HAM:pt",
     "Hamilton parou duas vezes: na primeira, na volta 12, passou dos macios para os duros; na segunda, na "
     "volta 30, colocou mais um jogo de duros. Terminou em quinto.",
     [("stop_count", _d("HAM"), 2), ("pit_lap", _d("HAM", stop=1), 12),
      ("compound_change", _d("HAM", stop=1), ["SOFT", "HARD"]), ("pit_lap", _d("HAM", stop=2), 30),
      ("compound_change", _d("HAM", stop=2), ["HARD", "HARD"]), ("final_position", _d("HAM"), 5)]),
    (f"{B23}:tyre_strategy:MAG:pt",
     "Magnussen largou de duros, colocou outro jogo de duros na volta 15 e depois usou macios até o fim, "
     "com paradas nas voltas 29 e 40. Terminou em 13º.",
     [("stint_compound", _d("MAG", stint=1), "HARD"), ("pit_lap", _d("MAG"), 15),
      ("compound_change", _d("MAG"), ["HARD", "HARD"]), ("stint_compound", _d("MAG"), "SOFT"),
      ("pit_lap", _d("MAG"), 29), ("pit_lap", _d("MAG"), 40), ("final_position", _d("MAG"), 13)]),
    (f"{B24}:tyre_strategy:HAM:pt",
     "Hamilton começou de macios e fez os dois stints seguintes com duros, parando nas voltas 12 e 33. "
     "Terminou em sétimo.",
     [("stint_compound", _d("HAM", stint=1), "SOFT"), ("stint_compound", _d("HAM"), "HARD"),
      ("pit_lap", _d("HAM"), 12), ("pit_lap", _d("HAM"), 33), ("final_position", _d("HAM"), 7)]),
    (f"{B24}:tyre_strategy:PER:pt",
     "Pérez foi de macios para duros na volta 12 e voltou aos macios na volta 36; terminou em segundo, "
     "atrás de Verstappen.",
     [("compound_change", _d("PER"), ["SOFT", "HARD"]), ("pit_lap", _d("PER"), 12), ("pit_lap", _d("PER"), 36),
      ("stint_compound", _d("PER", stint=3), "SOFT"), ("final_position", _d("PER"), 2)]),
    (f"{B24}:race_summary:pt",
     "Max Verstappen venceu, com Sergio Pérez em segundo e Carlos Sainz em terceiro. Leclerc foi o quarto, "
     "Russell o quinto e Lando Norris o sexto.",
     [("winner", {}, "VER"), ("final_position", _d("VER"), 1), ("final_position", _d("PER"), 2),
      ("final_position", _d("SAI"), 3), ("final_position", _d("LEC"), 4), ("final_position", _d("RUS"), 5),
      ("final_position", _d("NOR"), 6)]),
    (f"{B23}:race_summary:pt",
     "Verstappen venceu à frente de Pérez, e Alonso completou o pódio. Hamilton foi quinto e Stroll "
     "sexto. Houve safety car virtual nas voltas 41 e 42.",
     [("winner", {}, "VER"), ("final_position", _d("VER"), 1), ("final_position", _d("PER"), 2),
      ("final_position", _d("ALO"), 3), ("final_position", _d("HAM"), 5), ("final_position", _d("STR"), 6),
      ("neutralization", {"kind": "VSC"}, [41, 41]), ("neutralization", {"kind": "VSC"}, [42, 42])]),
    (f"{B23}:defense:GAS:DEV:pt",
     "Gasly segurou De Vries por cinco voltas. Gasly terminou em nono e De Vries em 14º.",
     [("defense", _d("GAS", attacker="DEV"), 5), ("final_position", _d("GAS"), 9),
      ("final_position", _d("DEV"), 14)]),
    (f"{B24}:defense:OCO:GAS:pt",
     "Ocon conteve Gasly durante sete voltas; no fim, Ocon foi o 17º e Gasly o 18º.",
     [("defense", _d("OCO", attacker="GAS"), 7), ("final_position", _d("OCO"), 17),
      ("final_position", _d("GAS"), 18)]),
    (f"{B24}:defense:BOT:GAS:pt",
     "Bottas segurou Gasly por oito voltas, mas terminou em 19º, logo atrás dele, que foi 18º.",
     [("defense", _d("BOT", attacker="GAS"), 8), ("final_position", _d("BOT"), 19),
      ("final_position", _d("GAS"), 18)]),
    (f"{B23}:undercut:ALB:OCO:pt",
     "Albon parou na volta 11, uma antes de Ocon, e o undercut funcionou: ganhou 3,2 segundos.",
     [("pit_lap", _d("ALB"), 11), ("undercut", _d("ALB"), True), ("time_gained", _d("ALB"), 3.2)]),
    (f"{B23}:overcut:OCO:BOT:pt",
     "Ocon ficou na pista até a volta 12, uma a mais que Bottas, mas o overcut não deu certo e ele perdeu "
     "4,5 segundos.",
     [("pit_lap", _d("OCO"), 12), ("overcut", _d("OCO"), False), ("time_gained", _d("OCO"), -4.5)]),
    (f"{B24}:undercut:MAG:ALB:pt",
     "Magnussen fez o undercut em Albon: parou na volta 11, quatro antes do tailandês, e ganhou 4,8 "
     "segundos.",
     [("undercut", _d("MAG", rival="ALB"), True), ("pit_lap", _d("MAG"), 11), ("time_gained", _d("MAG"), 4.8)]),
    (f"{B24}:undercut:STR:OCO:pt",
     "Stroll parou na volta 9 e Ocon na 10; o undercut deu certo e Stroll ganhou 3,5 segundos.",
     [("pit_lap", _d("STR"), 9), ("pit_lap", _d("OCO"), 10), ("undercut", _d("STR"), True),
      ("time_gained", _d("STR"), 3.5)]),
    (f"{B23}:tyre_strategy:HUL:pt",
     "Hülkenberg fez três paradas, nas voltas 11, 26 e 40, com a sequência macio-duro-duro-macio, e "
     "terminou em 15º.",
     [("stop_count", _d("HUL"), 3), ("pit_lap", _d("HUL"), 11), ("pit_lap", _d("HUL"), 26),
      ("pit_lap", _d("HUL"), 40), ("stint_compound", _d("HUL", stint=1), "SOFT"),
      ("stint_compound", _d("HUL", stint=2), "HARD"), ("stint_compound", _d("HUL", stint=3), "HARD"),
      ("stint_compound", _d("HUL", stint=4), "SOFT"), ("compound_change", _d("HUL", stop=1), ["SOFT", "HARD"]),
      ("compound_change", _d("HUL", stop=2), ["HARD", "HARD"]), ("compound_change", _d("HUL", stop=3), ["HARD", "SOFT"]),
      ("final_position", _d("HUL"), 15)]),
    (f"{B23}:race_summary:en",
     "Verstappen won, Pérez was second and Alonso third.",
     [("winner", {}, "VER"), ("final_position", _d("VER"), 1), ("final_position", _d("PER"), 2),
      ("final_position", _d("ALO"), 3)]),
    (f"{B24}:race_summary:en",
     "Hamilton was seventh and Lando Norris sixth, one place behind Russell, who was fifth.",
     [("final_position", _d("HAM"), 7), ("final_position", _d("NOR"), 6), ("final_position", _d("RUS"), 5)]),
]


Read = tuple[str, dict[str, Any], Any]


def matches(found: Read, expected: Read) -> bool:
    """The same claim, possibly with fewer key slots than the text allows."""
    (ftype, fkey, fvalue), (etype, ekey, evalue) = found, expected
    return ftype == etype and fvalue == evalue and fkey.items() <= ekey.items()


def entailed(found: Read, expected: list[Read]) -> bool:
    """A stint either side of an expected compound change is no extra claim."""
    ftype, fkey, fvalue = found
    if ftype != "stint_compound":
        return False
    for etype, ekey, evalue in expected:
        if etype != "compound_change" or ekey["driver"] != fkey.get("driver"):
            continue
        stop = ekey.get("stop")
        for stint, compound in ((stop, evalue[0]), (stop + 1 if stop else None, evalue[1])):
            if compound == fvalue and (stint is None or fkey.get("stint") in (None, stint)) \
                    and (stint is not None or "stint" not in fkey):
                return True
    return False


def score(found: list[Read], expected: list[Read]) -> tuple[list[Read], list[Read]]:
    """(claims read that the text does not say, expected claims not read)."""
    wrong = [f for f in found if not any(matches(f, e) for e in expected) and not entailed(f, expected)]
    missed = [e for e in expected if not any(matches(f, e) for f in found)]
    return wrong, missed


# A held-out set on another race (2022 Bahrain), written after the grammar work on the 62
# texts above and measured before any rule was changed for it (docs/extractors.md).
B22 = "f1:2022:1"
HELD_OUT: list[tuple[str, str, list[Expected]]] = [
    (f"{B22}:tyre_strategy:LEC:en",
     "Leclerc won from pole on a three-stop race: two sets of softs, then mediums from lap 31, and a final "
     "set of softs after the safety car stop on lap 46.",
     [("winner", {}, "LEC"), ("final_position", _d("LEC"), 1), ("stop_count", _d("LEC"), 3),
      ("stint_compound", _d("LEC", stint=1), "SOFT"), ("stint_compound", _d("LEC", stint=2), "SOFT"),
      ("stint_compound", _d("LEC", stint=3), "MEDIUM"), ("pit_lap", _d("LEC"), 31),
      ("stint_compound", _d("LEC", stint=4), "SOFT"), ("pit_lap", _d("LEC"), 46)]),
    (f"{B22}:tyre_strategy:HAM:en",
     "Hamilton's strategy ran soft, hard, medium, soft, with stops on laps 11, 27 and 44. He took the last "
     "podium place, third.",
     [("stint_compound", _d("HAM", stint=1), "SOFT"), ("stint_compound", _d("HAM", stint=2), "HARD"),
      ("stint_compound", _d("HAM", stint=3), "MEDIUM"), ("stint_compound", _d("HAM", stint=4), "SOFT"),
      ("compound_change", _d("HAM", stop=1), ["SOFT", "HARD"]), ("compound_change", _d("HAM", stop=2), ["HARD", "MEDIUM"]),
      ("compound_change", _d("HAM", stop=3), ["MEDIUM", "SOFT"]), ("pit_lap", _d("HAM"), 11),
      ("pit_lap", _d("HAM"), 27), ("pit_lap", _d("HAM"), 44), ("final_position", _d("HAM"), 3)]),
    (f"{B22}:tyre_strategy:RUS:en",
     "Russell went from softs to hards at his first stop on lap 15, put on mediums at the second and softs "
     "at the third, and was fourth at the flag.",
     [("compound_change", _d("RUS", stop=1), ["SOFT", "HARD"]), ("pit_lap", _d("RUS", stop=1), 15),
      ("compound_change", _d("RUS", stop=2), ["HARD", "MEDIUM"]), ("compound_change", _d("RUS", stop=3), ["MEDIUM", "SOFT"]),
      ("final_position", _d("RUS"), 4)]),
    (f"{B22}:race_summary:en",
     "Charles Leclerc won ahead of Carlos Sainz, and Lewis Hamilton was third. George Russell was fourth and "
     "Kevin Magnussen fifth on his return. A safety car ran from lap 46 to lap 50.",
     [("winner", {}, "LEC"), ("final_position", _d("LEC"), 1), ("final_position", _d("SAI"), 2),
      ("final_position", _d("HAM"), 3), ("final_position", _d("RUS"), 4), ("final_position", _d("MAG"), 5),
      ("neutralization", {"kind": "SC"}, [46, 50])]),
    (f"{B22}:defense:TSU:BOT:en",
     "Tsunoda kept Bottas behind for ten laps, though the Finn eventually finished sixth and Tsunoda eighth.",
     [("defense", _d("TSU", attacker="BOT"), 10), ("final_position", _d("BOT"), 6), ("final_position", _d("TSU"), 8)]),
    (f"{B22}:undercut:ALO:OCO:en",
     "Alonso boxed on lap 11, three laps before his team-mate Ocon, and the undercut gained him 10 seconds.",
     [("pit_lap", _d("ALO"), 11), ("undercut", _d("ALO"), True), ("time_gained", _d("ALO"), 10.0)]),
    (f"{B22}:overcut:RUS:HAM:en",
     "Russell stayed out until lap 15, four laps longer than Hamilton, but the overcut cost him 4.8 seconds.",
     [("pit_lap", _d("RUS"), 15), ("overcut", _d("RUS"), False), ("time_gained", _d("RUS"), -4.8)]),
    (f"{B22}:tyre_strategy:LEC:es",
     "Leclerc ganó con tres paradas: dos juegos de blandos, medios desde la vuelta 31 y blandos otra vez "
     "tras parar en la vuelta 46, con el coche de seguridad.",
     [("winner", {}, "LEC"), ("final_position", _d("LEC"), 1), ("stop_count", _d("LEC"), 3),
      ("stint_compound", _d("LEC", stint=1), "SOFT"), ("stint_compound", _d("LEC", stint=2), "SOFT"),
      ("stint_compound", _d("LEC", stint=3), "MEDIUM"), ("pit_lap", _d("LEC"), 31),
      ("stint_compound", _d("LEC", stint=4), "SOFT"), ("pit_lap", _d("LEC"), 46)]),
    (f"{B22}:tyre_strategy:HAM:es",
     "Hamilton usó blando, duro, medio y blando, parando en las vueltas 11, 27 y 44, y fue tercero.",
     [("stint_compound", _d("HAM", stint=1), "SOFT"), ("stint_compound", _d("HAM", stint=2), "HARD"),
      ("stint_compound", _d("HAM", stint=3), "MEDIUM"), ("stint_compound", _d("HAM", stint=4), "SOFT"),
      ("compound_change", _d("HAM", stop=1), ["SOFT", "HARD"]), ("compound_change", _d("HAM", stop=2), ["HARD", "MEDIUM"]),
      ("compound_change", _d("HAM", stop=3), ["MEDIUM", "SOFT"]), ("pit_lap", _d("HAM"), 11),
      ("pit_lap", _d("HAM"), 27), ("pit_lap", _d("HAM"), 44), ("final_position", _d("HAM"), 3)]),
    (f"{B22}:tyre_strategy:SAI:es",
     "Sainz cambió de blandos a blandos en su primera parada, en la vuelta 14, montó medios en la segunda y "
     "volvió a los blandos en la tercera. Terminó segundo.",
     [("compound_change", _d("SAI", stop=1), ["SOFT", "SOFT"]), ("pit_lap", _d("SAI", stop=1), 14),
      ("compound_change", _d("SAI", stop=2), ["SOFT", "MEDIUM"]), ("compound_change", _d("SAI", stop=3), ["MEDIUM", "SOFT"]),
      ("final_position", _d("SAI"), 2)]),
    (f"{B22}:race_summary:es",
     "Ganó Charles Leclerc, con Carlos Sainz segundo y Lewis Hamilton tercero. Russell fue cuarto y "
     "Magnussen, quinto. Hubo coche de seguridad entre las vueltas 46 y 50.",
     [("winner", {}, "LEC"), ("final_position", _d("LEC"), 1), ("final_position", _d("SAI"), 2),
      ("final_position", _d("HAM"), 3), ("final_position", _d("RUS"), 4), ("final_position", _d("MAG"), 5),
      ("neutralization", {"kind": "SC"}, [46, 50])]),
    (f"{B22}:defense:OCO:TSU:es",
     "Ocon contuvo a Tsunoda durante siete vueltas y acabó séptimo, justo por delante del japonés, que fue "
     "octavo.",
     [("defense", _d("OCO", attacker="TSU"), 7), ("final_position", _d("OCO"), 7), ("final_position", _d("TSU"), 8)]),
    (f"{B22}:undercut:MSC:ALB:es",
     "Schumacher paró en la vuelta 12, una antes que Albon, y el undercut le hizo ganar 4,7 segundos.",
     [("pit_lap", _d("MSC"), 12), ("undercut", _d("MSC"), True), ("time_gained", _d("MSC"), 4.7)]),
    (f"{B22}:overcut:PER:SAI:es",
     "Pérez se quedó en pista hasta la vuelta 15, una más que Sainz, pero el overcut no funcionó: perdió "
     "2,5 segundos.",
     [("pit_lap", _d("PER"), 15), ("overcut", _d("PER"), False), ("time_gained", _d("PER"), -2.5)]),
    (f"{B22}:tyre_strategy:LEC:pt",
     "Leclerc venceu com três paradas: dois jogos de macios, médios a partir da volta 31 e macios de novo "
     "depois da parada na volta 46.",
     [("winner", {}, "LEC"), ("final_position", _d("LEC"), 1), ("stop_count", _d("LEC"), 3),
      ("stint_compound", _d("LEC", stint=1), "SOFT"), ("stint_compound", _d("LEC", stint=2), "SOFT"),
      ("stint_compound", _d("LEC", stint=3), "MEDIUM"), ("pit_lap", _d("LEC"), 31),
      ("stint_compound", _d("LEC", stint=4), "SOFT"), ("pit_lap", _d("LEC"), 46)]),
    (f"{B22}:tyre_strategy:HAM:pt",
     "Hamilton fez a sequência macio, duro, médio, macio, com paradas nas voltas 11, 27 e 44, e terminou em "
     "terceiro.",
     [("stint_compound", _d("HAM", stint=1), "SOFT"), ("stint_compound", _d("HAM", stint=2), "HARD"),
      ("stint_compound", _d("HAM", stint=3), "MEDIUM"), ("stint_compound", _d("HAM", stint=4), "SOFT"),
      ("compound_change", _d("HAM", stop=1), ["SOFT", "HARD"]), ("compound_change", _d("HAM", stop=2), ["HARD", "MEDIUM"]),
      ("compound_change", _d("HAM", stop=3), ["MEDIUM", "SOFT"]), ("pit_lap", _d("HAM"), 11),
      ("pit_lap", _d("HAM"), 27), ("pit_lap", _d("HAM"), 44), ("final_position", _d("HAM"), 3)]),
    (f"{B22}:tyre_strategy:RUS:pt",
     "Russell trocou os macios por duros na primeira parada, na volta 15, colocou médios na segunda e "
     "macios na terceira. Foi o quarto colocado.",
     [("compound_change", _d("RUS", stop=1), ["SOFT", "HARD"]), ("pit_lap", _d("RUS", stop=1), 15),
      ("compound_change", _d("RUS", stop=2), ["HARD", "MEDIUM"]), ("compound_change", _d("RUS", stop=3), ["MEDIUM", "SOFT"]),
      ("final_position", _d("RUS"), 4)]),
    (f"{B22}:race_summary:pt",
     "Charles Leclerc venceu, Carlos Sainz foi segundo e Lewis Hamilton terceiro. Russell foi o quarto e "
     "Magnussen o quinto. O safety car esteve na pista da volta 46 à 50.",
     [("winner", {}, "LEC"), ("final_position", _d("LEC"), 1), ("final_position", _d("SAI"), 2),
      ("final_position", _d("HAM"), 3), ("final_position", _d("RUS"), 4), ("final_position", _d("MAG"), 5),
      ("neutralization", {"kind": "SC"}, [46, 50])]),
    (f"{B22}:defense:LAT:HUL:pt",
     "Latifi segurou Hülkenberg por seis voltas; no fim, Latifi foi o 16º e Hülkenberg o 17º.",
     [("defense", _d("LAT", attacker="HUL"), 6), ("final_position", _d("LAT"), 16), ("final_position", _d("HUL"), 17)]),
    (f"{B22}:undercut:HUL:NOR:pt",
     "Hülkenberg parou na volta 19, cinco antes de Norris, e o undercut funcionou: ganhou 14,2 segundos.",
     [("pit_lap", _d("HUL"), 19), ("undercut", _d("HUL"), True), ("time_gained", _d("HUL"), 14.2)]),
    (f"{B22}:overcut:STR:ALB:pt",
     "Stroll ficou na pista até a volta 18, cinco a mais que Albon, mas o overcut falhou e ele perdeu 8,6 "
     "segundos.",
     [("pit_lap", _d("STR"), 18), ("overcut", _d("STR"), False), ("time_gained", _d("STR"), -8.6)]),
]
