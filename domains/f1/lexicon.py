"""The words of race-strategy prose in en, es and pt, compiled once per language.

Every pattern runs on ``factcov.language.fold``-ed text (lower case, no accents, same
length as the original), so spans map back to the original text. ``{NUM}`` is a
cardinal (digits or words, articles excluded), ``{ORD}`` an ordinal ('2nd', 'second',
'segundo', '2º', 'P2').
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass
from functools import cache

from factcov.extractors.anchors import anchors, shortest_match
from factcov.extractors.fast_regex import compile_cached, compile_fast
from factcov.extractors.patterns import alternation
from factcov.language import number_words, ordinal_pattern, ordinal_words

_ARTICLES = {"a", "an", "un", "una", "uma", "once", "single"}

# --- per-language vocabulary (folded: no accents, lower case) -------------------------

COMPOUND_WORDS: dict[str, dict[str, tuple[str, ...]]] = {
    # forms that name a compound wherever they appear
    "en": {
        "SOFT": ("softs", "soft"),
        "MEDIUM": ("mediums", "medium"),
        "HARD": ("hards",),
        "INTERMEDIATE": ("intermediates", "intermediate", "inters", "inter"),
        "WET": ("full wets", "full wet", "wets"),
    },
    "es": {
        "SOFT": ("blandos", "blandas", "blando", "blanda", "softs", "soft"),
        "MEDIUM": ("medios", "mediums", "medium"),
        "HARD": ("duros", "duras", "hards"),
        "INTERMEDIATE": ("intermedios", "intermedias", "intermedio", "intermedia", "inters"),
        "WET": ("de lluvia extrema", "de lluvia", "lluvia extrema", "extremos", "wets"),
    },
    "pt": {
        "SOFT": ("macios", "macias", "macio", "macia", "softs", "soft"),
        "MEDIUM": ("medios", "mediums", "medium"),
        "HARD": ("duros", "duras", "hards"),
        "INTERMEDIATE": ("intermediarios", "intermediario", "intermediarias", "intermediaria", "inters"),
        "WET": ("de chuva extrema", "de chuva", "chuva extrema", "wets"),
    },
}
# forms that are ordinary words too ("pushed hard", "en medio de", "tempo medio"): a
# compound only next to a tyre word or after an article/preposition of tyre talk
AMBIGUOUS_COMPOUND_WORDS: dict[str, dict[str, tuple[str, ...]]] = {
    "en": {"HARD": ("hard",), "WET": ("wet",)},
    "es": {"MEDIUM": ("medio", "media", "medias"), "HARD": ("duro", "dura")},
    "pt": {"MEDIUM": ("medio", "media", "medias"), "HARD": ("duro", "dura")},
}
# ambiguous forms that name a compound only before a tyre word ("wet tyres", not "the wet race")
NOUN_ONLY_COMPOUND_WORDS = {"en": ("wet",), "es": (), "pt": ()}
TYRE_NOUNS = {
    "en": r"tyres?|tires?|compounds?|rubber|sets?|boots",
    "es": r"neumaticos?|gomas?|compuestos?|ruedas?|juegos?|cubiertas?",
    "pt": r"pneus?|compostos?|jogos?|borrachas?",
}
TYRE_LEADERS = {  # words after which an ambiguous compound word is a compound
    "en": r"the|a|on|onto|to|from|for|new|fresh|used|old|older|of|another",
    "es": r"el|los|la|las|al|del|con|un|unos|nuevos|usados|otro|otros|de",
    "pt": r"o|os|a|as|ao|aos|do|dos|com|um|uns|novos|usados|outro|outros|de|para|pelos|pelo",
}
NOT_AFTER_AMBIGUOUS = {  # "media de", "medio tiempo": not compounds
    "en": r"(?:and|to|of)\s+(?:fast|quick|slow|pace)|work|fought|luck|push",
    "es": r"de\b|del\b|tiempo|vuelta|carrera",
    "pt": r"de\b|da\b|do\b|tempo|volta|corrida",
}

PIT_VERBS = {
    "en": r"pit(?:ted|s|ting)?|box(?:ed|es|ing)?|stop(?:ped|s|ping)?|(?:came|comes|come|coming) (?:back )?in"
    r"|called in|into the pits|pitstops?|pit-stops?|in-?lap|fitted|bolted on|put on"
    r"|(?:brought|brings|bring|called|calls|pulled) (?:\S+ ){1,2}?in(?!\s+(?:the|to|front|a)\b)"
    r"|(?:went|moved|switched|returned|went back|came back|headed back) (?:on)?to (?:the |a set of |fresh |new )?(?={COMP})"
    r"|switch(?:ed|ing)? to|changed to|changing to|moved to|went to"
    # "took a second set of hards on lap 15", "then back onto softs on lap 37": a set fitted
    r"|took (?:a |another |one more )?(?:(?:fresh|new|second|third|fourth) )?set of (?={COMP})"
    r"|back (?:on)?to (?:the |a set of |fresh |new )?(?={COMP})",
    "es": r"entr(?:o|a|aron|ar|ando) (?:a|en) (?:los )?(?:boxes|pits|garajes)|par(?:o|aron|ar|ando|ada|adas|ado)"
    r"|volvi\w* a (?:los |las )?(?={COMP})|llam\w* (?:a )?(?:\S+ ){1,2}?para (?:poner|montar)"
    r"|se detuvo|detuvo|(?:a|en) boxes|paso por (?:los )?boxes|cambio de neumaticos|mont(?:o|ar)|puso|poner|calzo"
    r"|cambi(?:o|ar|ando) a|pas(?:o|ar|ando) a",
    "pt": r"par(?:ou|aram|ar|ando|ada|adas|ado)|entr(?:ou|aram|ar|ando) nos (?:boxes|pits)|foi aos boxes"
    r"|volt\w* (?:aos|as|para os|para as) (?={COMP})|cham\w* (?:\S+ ){1,2}?para (?:os |as )?(?={COMP})"
    r"|(?:nos|aos) boxes|passou pelos boxes|troca de pneus|coloc(?:ou|ar)|mont(?:ou|ar)|calcou"
    r"|troc(?:ou|ar|ando) para|pass(?:ou|ar|ando) para|mud(?:ou|ar|ando) para",
}
# a lap number without the word "lap" after a preposition: "pitted on 17 and 39", "paró en
# la 17", "parou na 17"; never before a unit ("on 17 laps", "en la 17ª", "at 2 seconds")
BARE_LAP_LEAD = {"en": r"on|at", "es": r"en\s+las?|a\s+las?", "pt": r"nas?"}
BARE_LAP_UNIT = (r"\s*(?:-\s*)?(?:laps?|vueltas?|voltas?|giros?|s\b|secs?|seg|segundos?|seconds?|points?|puntos|pontos"
                 r"|places|positions|puestos|posiciones|posicoes|lugares|times|veces|vezes|occasions|%|[ºª°]|st|nd|rd|th)")
STAY_OUT = {  # "stayed out until lap 17": his in-lap was lap 17
    # not "stayed out of trouble", "stayed out front", "se quedó fuera de los puntos"
    "en": r"(?:stayed|stays|stay|staying|remained) out(?!\s+(?:of|in front|front|ahead|behind|in the lead|at the front)\b)"
    r"|stayed on track|extend\w* (?:his|her|the|its) (?:\w+ )?stint|ran long|kept going|(?:went|going) long"
    r"|(?:left|kept|keeping|leaving) (?:\S+ ){1,2}?out(?!\s+of\b)|waited|lasted",
    "es": r"(?:sigui\w*|se quedo|quedandose|continu\w*|permaneci\w*|aguant\w*) en pista|(?:se quedo|sigui\w*) fuera(?! de)"
    r"|alarg\w* (?:su|el) (?:\w+ )?(?:stint|relevo|tramo)"
    r"|estir\w* (?:su|el) (?:\w+ )?stint|prolong\w* (?:su|el) (?:\w+ )?stint",
    "pt": r"(?:ficou|ficando|continuou|seguiu|permaneceu) na pista"
    r"|estic\w* (?:o|seu) (?:\w+ )?stint|prolong\w* (?:o|seu) (?:\w+ )?stint|along\w* (?:o|seu) (?:\w+ )?stint",
}
STAY_OUT_UNTIL = {"en": r"until|till|to|up to", "es": r"hasta", "pt": r"ate"}
LAP_WORD = {"en": r"laps?", "es": r"vueltas?|giros?", "pt": r"voltas?|giros?"}
LIST_JOIN = {"en": r",\s*(?:and\s+)?|\s+and\s+|\s+or\s+|\s*&\s*", "es": r",\s*|\s+y\s+|\s+e\s+|\s+o\s+",
             "pt": r",\s*|\s+e\s+|\s+ou\s+"}
RANGE_JOIN = {
    "en": r"\s*(?:-|–|to|until|till|through|and)\s*",
    "es": r"\s*(?:-|–|a|al|hasta|y)\s*(?:la\s+)?",
    "pt": r"\s*(?:-|–|a|ate|e)\s*(?:a\s+)?",
}
RANGE_ONLY_JOIN = {"en": r"\s*(?:-|–|to|until|till|through)\s*", "es": r"\s*(?:-|–|a|al|hasta)\s*(?:la\s+)?",
                   "pt": r"\s*(?:-|–|a|ate)\s*(?:a\s+)?"}
FIRST_LAPS = {  # "the first three laps": laps 1 to 3
    "en": r"(?:the\s+)?(?:first|opening)\s+({NUM})\s+laps",
    "es": r"(?:las\s+)?(?:({NUM})\s+primeras|primeras\s+({NUM}))\s+(?:vueltas|giros)",
    "pt": r"(?:as\s+)?(?:({NUM})\s+primeiras|primeiras\s+({NUM}))\s+(?:voltas|giros)",
}
RANGE_OPEN = {"en": r"from|between", "es": r"desde|de|entre", "pt": r"desde|de|da|entre"}
SCOPE_BREAK = {
    "en": r"finish(?:ed|es|ing)?|won|wins|took|rejoin(?:ed|ing)?|emerg(?:ed|ing)|came out|overtook|passed"
    r"|led|retired|while|whereas|but|held|kept|defend(?:ed|ing)?|undercut|overcut|gain(?:ed|ing)?|lost"
    r"|start(?:ed|ing)?|switch(?:ed|ing)?|safety car|vsc|virtual|red flag",
    "es": r"termin\w*|acab\w*|gano|vencio|volvio|salio|reincorpor\w*|adelant\w*|supero|lider\w*|abandon\w*"
    r"|mientras|pero|contuvo|mantuvo|defendi\w*|undercut|overcut|perdio|empez\w*|comenz\w*|arranc\w*"
    r"|cambio de (?:los )?\w+ a|paso de|coche de seguridad|auto de seguridad|safety car|vsc|bandera roja",
    "pt": r"termin\w*|acab\w*|venceu|ganhou|voltou|saiu|retorn\w*|ultrapass\w*|lider\w*|abandon\w*|enquanto"
    r"|mas|segurou|manteve|defend\w*|undercut|overcut|perdeu|comec\w*|largou|trocou|passou de"
    r"|carro de seguranca|safety car|vsc|bandeira vermelha",
}
STOP_ORDINAL = {  # "first stop", "primera parada", "segunda parada"
    "en": r"({ORD}|final|last)\s+(?:pit[- ]?)?stop",
    "es": r"({ORD}|ultima|final)\s+(?:parada|detencion|visita a boxes)",
    "pt": r"({ORD}|ultima|final)\s+(?:parada|visita aos boxes)",
}
STOP_AT = {  # "hards at his first stop", "duros en su primera parada"; "... at the second" once a stop was named
    "en": r"\s*(?:at|in|on|during|for)\s+(?:his|her|its|their|the)\s+({ORD}|last|final)"
    r"(?:(?P<noun>\s+(?:pit[- ]?)?stop)|(?=\s*(?:[,.;:)]|$|and\b|with\b|which\b|when\b)))",
    "es": r"\s*(?:en|durante)\s+(?:su|la)\s+({ORD}|ultima)"
    r"(?:(?P<noun>\s+(?:parada|detencion|visita a boxes))|(?=\s*(?:[,.;:)]|$|y\b|con\b|que\b|cuando\b)))",
    "pt": r"\s*(?:na|em sua|durante a|em seu)\s+({ORD}|ultima)"
    r"(?:(?P<noun>\s+(?:parada|visita aos boxes))|(?=\s*(?:[,.;:)]|$|e\b|com\b|que\b|quando\b)))",
}
STOP_COUNT = {
    "en": [
        r"\b({NUM})[- ](?:pit[- ]?)?stop(?:s|per|\s+(?:strategy|race|plan|run))?\b",
        r"\b(?:a\s+)?(single)[- ](?:pit[- ]?)?stop(?:per)?\b",
        r"\b(?:his|her|their|the)\s+(only)\s+(?:pit[- ]?)?stop\b",
        r"\b(?:stopp?ed|pitted|boxed|came in|pits?|stops?)\s+(?:({NUM})\s+times|(once|twice|thrice))\b",
        r"\b(no|zero)\s+(?:pit[- ]?)?stops?\b|\b(?:did not|didn't|never) (?:stop|pit)\b|\bwithout (?:stopping|pitting)\b",
    ],
    "es": [
        r"\b({NUM}|una)\s+(?:sola\s+|unica\s+)?paradas?\b",
        r"\b(?:su|la)\s+(unica)\s+parada\b",
        r"\b(?:paro|entro a boxes|entro en boxes|se detuvo)\s+(?:({NUM})\s+veces|(una)\s+vez)\b",
        r"\b(ninguna|cero)\s+paradas?\b|\bsin (?:parar|paradas|entrar a boxes)\b|\bno (?:paro|entro a boxes)\b",
    ],
    "pt": [
        r"\b({NUM}|duas|uma)\s+(?:so\s+|unica\s+)?paradas?\b",
        r"\b(?:sua|a)\s+(unica)\s+parada\b",
        r"\b(?:parou|foi aos boxes|entrou nos boxes)\s+(?:({NUM}|duas)\s+vezes|(uma)\s+vez)\b",
        r"\b(nenhuma|zero)\s+paradas?\b|\bsem (?:parar|paradas|ir aos boxes)\b|\bnao parou\b",
    ],
}
# The first pattern of each STOP_COUNT list ends in its stop word right after the count,
# a filler word between them at most ("two pit stops", "una sola parada", "duas paradas"):
# ``rules_strategy`` scans with it only where a count ends there (most sentences that say
# "stop" say "his first stop on lap 13": no count before the word).
STOP_COUNT_NOUN = {"en": "stop", "es": "parada", "pt": "parada"}
STOP_COUNT_FILLERS = {"en": ("pit",), "es": ("sola", "unica"), "pt": ("so", "unica")}
STOP_COUNT_WORDS = {"en": (), "es": ("una",), "pt": ("duas", "uma")}  # counts beside {NUM}'s words
START_WORDS = {
    "en": r"start(?:ed|ing|s)?|began|begin|opened|lined up|first stint",
    "es": r"empez\w*|comenz\w*|arranc\w*|sali\w* con|largo|primer stint|stint inicial",
    "pt": r"comec\w*|larg\w*|inici\w*|saiu com|primeiro stint|stint inicial",
}
END_WORDS = {
    "en": r"finish(?:ed|ing)? on|ended on|final stint|last stint|to the end|to the flag|run to the (?:end|finish|flag)",
    "es": r"termin\w* (?:la carrera )?con|acab\w* (?:la carrera )?con|ultimo stint|stint final|hasta el final"
    r"|hasta la bandera",
    "pt": r"termin\w* (?:a corrida )?com|acab\w* (?:a corrida )?com|ultimo stint|stint final|ate o fim|ate o final"
    r"|ate a bandeira",
}
STINT_ORDINAL = {
    "en": r"({ORD}|final|last|opening)\s+stint",
    "es": r"({ORD}|primer|ultimo|final)\s+(?:stint|tramo|relevo)",
    "pt": r"({ORD}|ultimo|final)\s+(?:stint|trecho)",
}
CHANGE = {  # "from mediums to hards", "de medios a duros", "de medios para duros", "swapped X for Y"
    "en": [
        r"from\s+(?:the\s+)?{C1}(?:\s+{TN})?\s+(?:to|onto|for)\s+(?:the\s+|an?\s+(?:(?:fresh|new)\s+)?set\s+of\s+|(?:fresh|new)\s+(?:set\s+of\s+)?)?{C2}",
        # "went soft to hard on lap 17"
        r"(?:went|go(?:es|ing)?|moved|switched|changed)\s+{C1}(?:\s+{TN})?\s+(?:to|onto)\s+(?:the\s+)?{C2}",
        r"(?:swap\w*|chang\w*|switch\w*|exchang\w*|trad\w*)\s+(?:the\s+|his\s+|her\s+|its\s+)?{C1}(?:\s+{TN})?"
        r"\s+for\s+(?:the\s+|an?\s+(?:(?:fresh|new)\s+)?set\s+of\s+|(?:fresh|new)\s+(?:set\s+of\s+)?)?{C2}",
    ],
    "es": [
        r"de\s+(?:los\s+|las\s+|el\s+|la\s+)?(?:{TN}\s+)?{C1}(?:\s+{TN})?\s+(?:a|al|por)\s+"
        r"(?:los\s+|las\s+|el\s+|la\s+|unos\s+)?(?:{TN}\s+)?{C2}",
        r"(?:cambi\w*|sustitu\w*|reemplaz\w*)\s+(?:los\s+|las\s+|sus\s+)?(?:{TN}\s+)?{C1}\s+por\s+"
        r"(?:unos\s+|los\s+|las\s+)?(?:{TN}\s+)?{C2}",
    ],
    "pt": [
        r"(?:de|dos|das)\s+(?:os\s+|as\s+)?(?:{TN}\s+)?{C1}(?:\s+{TN})?\s+(?:para|pelos|pelas|por)\s+"
        r"(?:os\s+|as\s+|uns\s+)?(?:{TN}\s+)?{C2}",
        r"(?:troc\w*|substitu\w*)\s+(?:os\s+|as\s+|seus\s+)?(?:{TN}\s+)?{C1}\s+(?:por|pelos|pelas)\s+"
        r"(?:os\s+|as\s+|uns\s+)?(?:{TN}\s+)?{C2}",
    ],
}
SAME_SET = {  # "another set of hards": a change to the same compound
    # not "a fresh set of inters" (any new set) nor "hards again" (back to a compound used before)
    "en": [r"(?:another|one more) set of (?:the\s+)?(?:{C1})"],
    "es": [r"otro juego de (?:{TN}\s+)?(?:{C1})", r"otros (?:{TN}\s+)?(?:{C1})"],
    "pt": [r"(?:outro|mais um) jogo de (?:{TN}\s+)?(?:{C1})", r"outros (?:{TN}\s+)?(?:{C1})"],
}
FINISH_VERBS = {
    "en": r"finish(?:ed|es|ing)?|came home|crossed the line|ended(?: up)?(?: the race)?|was classified|classified"
    r"|brought it home|settled for|settle for|took|claimed|secured|placed|came|home"
    r"|(?:recovered|climbed|fought back|came back|charged) to|on (?:his|her|their|the) way to",
    "es": r"termin\w*|acab\w*|finaliz\w*|cruz\w* la meta|lleg\w*|concluy\w*|se clasific\w*|fue clasificad\w*"
    r"|quedo|se quedo con|logro|consiguio|cerro|(?:remonto|escalo|subio|se recupero) hasta"
    r"|(?:se )?conform\w* con",
    "pt": r"termin\w*|acab\w*|cheg\w*|cruz\w* a linha|complet\w*|foi classificad\w*|ficou|garantiu|conquistou"
    r"|fechou|(?:se recuperou|escalou|subiu) ate",
}
FINISH_LABELS = {  # "- **Result:** P1", "Resultado: sexto" in a model's list
    "en": r"finish|result|final position|finishing position|classification",
    "es": r"resultado|posicion final|llegada|clasificacion",
    "pt": r"resultado|posicao final|chegada|classificacao",
}
FINISH_FILLER = {
    "en": r"(?:(?:in|at|the|a|an|race|up|home|a\s+strong|a\s+solid|with|on|position)\s+)*",
    "es": r"(?:(?:en|el|la|un|una|la carrera|como|de|con|posicion|puesto|lugar)\s+)*",
    "pt": r"(?:(?:em|na|no|o|a|um|uma|a corrida|como|de|com|posicao|lugar)\s+)*",
}
PLACE_WORDS = {"en": r"place|position|spot", "es": r"puesto|lugar|posicion|plaza", "pt": r"lugar|posicao|colocado"}
POSITION_NUMBER = {"en": r"position\s+(\d{1,2})", "es": r"(?:posicion|puesto)\s+(\d{1,2})",
                   "pt": r"posicao\s+(\d{1,2})"}
WIN = {
    "en": r"won|wins|win|winning|victory|victorious|triumph(?:ed)?|took the chequered flag first",
    "es": r"gano|gana|ganar|ganando|vencio|vence|victoria|triunfo|se impuso|vencedor|ganador",
    "pt": r"venceu|vence|vencer|vencendo|vitoria|triunfou|ganhou|vencedor",
}
WIN_NOT_FOLLOWED = {  # "won the position", "ganó 3 segundos"
    "en": r"(?:the\s+|a\s+|that\s+|this\s+)?(?:position|battle|fight|duel|place|back|time|places|{D})"
    r"|(?:\S+\s+){0,2}{D}|(?:\S+\s+){0,3}(?:seconds|secs|positions|places)",
    "es": r"(?:la\s+|el\s+|una\s+)?(?:posicion|batalla|lucha|duelo|puesto|tiempo|terreno)"
    r"|(?:\S+\s+){0,2}{D}|(?:\S+\s+){0,3}(?:segundos|posiciones|puestos)",
    "pt": r"(?:a\s+|o\s+|uma\s+)?(?:posicao|batalha|luta|duelo|lugar|tempo|terreno)"
    r"|(?:\S+\s+){0,2}{D}|(?:\S+\s+){0,3}(?:segundos|posicoes|lugares)",
}
WIN_BY = {"en": r"for|by|to|went to|was|is|:", "es": r"de|para|fue para|fue|es|:",
          "pt": r"de|para|ficou com|foi para|foi|e|:"}
AHEAD_OF = {"en": r"ahead of|in front of|from|over", "es": r"por delante de|delante de|sobre|ante",
            "pt": r"a frente de|na frente de|sobre|diante de"}
AND_WORD = {"en": r"and", "es": r"y|e", "pt": r"e"}
MOVE_RIVAL = {"en": r"on|against|over|of|to|with", "es": r"sobre|a|al|contra|ante|frente a|de|con",
              "pt": r"sobre|em|no|na|contra|a|ao|de|com"}
MOVE_PASSIVE = {
    "en": r"was\s+(undercut|overcut)\s+by",
    "es": r"(?:sufrio|padecio|fue victima de)\s+(?:el|un)\s+(undercut|overcut)\s+de",
    "pt": r"(?:sofreu|foi vitima d[oe])\s+(?:o|um)?\s*(undercut|overcut)\s+de",
}
MOVE_FAIL = {  # the move's verdict, whoever the sentence's subject is
    "en": r"fail(?:ed|s|ure)?|did ?n[o']t work|didn't work|does ?n[o']t work|not work|unsuccessful(?:ly)?"
    r"|(?:did ?n[o']t|didn't|did not) pay off|not enough"
    r"|fell short|backfired|in vain|no success|without success|to no avail|(?:was|were) not|wasn't",
    "es": r"no funciono|no (?:le |les )?salio bien|no (?:le )?dio resultado|fallo|fracaso|fallido|sin exito"
    r"|no le alcanzo|no basto|no fue suficiente|en vano|no logro|no sirvio|no le funciono",
    "pt": r"nao funcionou|nao deu certo|nao deu resultado|falhou|fracassou|sem sucesso|nao bastou"
    r"|nao foi suficiente|em vao|nao conseguiu|nao adiantou",
}
MOVE_SUCCESS = {
    "en": r"work(?:ed|s)?|succeed(?:ed|s)?|success(?:ful(?:ly)?)?|paid off|pays off|effective"
    r"|pulled off|completed|executed|nailed|put (?:him|her) ahead|did the trick|gained the (?:place|position)",
    "es": r"funciono|(?:le |les )?salio bien|dio resultado|tuvo exito|exitoso|con exito|le permitio|efectivo|surtio efecto",
    "pt": r"funcionou|deu certo|deu resultado|teve sucesso|bem-sucedido|bem sucedido|com sucesso|permitiu|eficaz",
}
# where a driver came out: a verdict only once we know who ("Max ... came out behind": the
# rival behind, so the move worked; "Stroll tried ... but came out behind": it failed)
MOVE_BEHIND = {
    "en": r"(?:came|come|coming|emerged|rejoined|re-emerged|stayed|remained|slotted|dropped|fell) (?:out )?behind",
    "es": r"(?:quedo|salio|volvio a pista|regreso a pista|se reincorporo|siguio|continuo) (?:por )?detras",
    "pt": r"(?:ficou|saiu|voltou|voltou a pista|retornou|continuou|seguiu) atras",
}
MOVE_AHEAD = {
    "en": r"(?:came|come|coming|emerged|rejoined|re-emerged|stayed|remained|slotted) (?:out )?(?:ahead|in front)"
    r"|got ahead|jumped (?:ahead|in front)",
    "es": r"(?:quedo|salio|volvio a pista|regreso a pista|se reincorporo|siguio|continuo) (?:por )?delante",
    "pt": r"(?:ficou|saiu|voltou|voltou a pista|retornou|continuou|seguiu) (?:a|na) frente",
}
# "hoping the overcut would work": a wish, not an outcome
MOVE_HYPOTHETICAL = {
    "en": r"would|could|might|hop(?:e|ed|ing)|if|unless|expect(?:ed|ing)|plann?(?:ed|ing)|aim(?:ed|ing)",
    "es": r"esper\w*|podria|habria|si|pretend\w*|con la idea",
    "pt": r"esper\w*|poderia|teria|caso|pretend\w*|na expectativa",
}
# a sentence opening with a verdict speaks of the move tried in the sentence before
MOVE_VERDICT_OPENING = {
    "en": r"\W*(?:(?:it|this|that|the (?:move|gamble|attempt|strategy|call|plan|undercut|overcut))\s+)?(?:just\s+|simply\s+)?",
    "es": r"\W*(?:(?:eso|esto|la (?:jugada|maniobra|estrategia|apuesta)|el (?:intento|undercut|overcut))\s+)?",
    "pt": r"\W*(?:(?:isso|isto|a (?:jogada|manobra|estrategia|aposta|tentativa)|o (?:undercut|overcut))\s+)?",
}
# the other driver of a two-driver decision, named by a pronoun after "gained 2.6 s on"
RIVAL_PRONOUN = {"en": r"him|her|it|his rival|her rival|the rival",
                 # "sobre él" (folded "el"), not "sobre el Alpine"
                 "es": r"el(?=\s*(?:[,.;:)]|$|\s+(?:y|e|en|con|tras|antes|despues|durante|al)\b))|ella|su rival|el rival",
                 "pt": r"ele|ela|seu rival|o rival"}
RIVAL_CLITIC = {"en": r"(?!x)x", "es": r"\ble\s+(?:(?:ha|habia|habria)\s+)?$", "pt": r"\blhe\s+$"}  # "le sacó 8 segundos"
DEFEND_PRONOUN = {  # "held him off for nine laps", "lo contuvo durante", "o segurou por"
    "en": r"(?:held|holding|kept|keeping|fended|fending|staved) (?:him|her)(?: off| behind| at bay)?",
    "es": r"\blo (?:contuvo|mantuvo (?:detras|a raya)|aguanto|freno|retuvo)|(?:contenerlo|aguantarlo|mantenerlo detras)",
    "pt": r"\bo (?:segurou|conteve|manteve atras)|segurou-o|(?:segura-lo|conte-lo)",
}
MOVE_ATTEMPT = {"en": r"tried|try|attempt(?:ed)?|went for|going for|opted for",
                "es": r"intent\w*|prob\w*|busc\w*|opto por|apost\w*",
                "pt": r"tent\w*|busc\w*|optou|apost\w*"}
GAIN = {
    # "the undercut gained him 10 seconds": "him" is who gained, not a rival
    "en": r"(?:gained|earned|won) (?:him|her|them)|gain(?:ed|ing|s)?|made up|clawed back|recovered|found|won"
    r"|took (?:out)?|a gain of|gaining|(?:was|were|proved) worth",
    "es": r"(?:le |les )?(?:hizo|hicieron) ganar|gan(?:o|ando|a|ado)|recort\w*|recuper\w*|saco|sacado|descont\w*"
    r"|una ganancia de",
    "pt": r"(?:o |a |os )?(?:fez|fizeram) ganhar|(?:lhe )?rendeu|ganh(?:ou|ando|a|ado|o)|recuper\w*|tirou|tirado"
    r"|descont\w*|um ganho de",
}
LOSS = {
    "en": r"cost (?:him|her|them)|lost|losing|loses|gave away|gave up|shed|dropped|conceded",
    "es": r"(?:le |les )?(?:costo|hizo perder)|perdi(?:o|endo)|cedio|dejo|entrego",
    "pt": r"(?:lhe )?custou|(?:o |a )?fez perder|perdeu|perdendo|cedeu|deixou",
}
SECONDS = {"en": r"s\b|secs?\b|seconds?", "es": r"s\b|segs?\b|segundos?", "pt": r"s\b|segs?\b|segundos?"}
GAIN_RIVAL = {
    "en": r"on|over|to|against|relative to|versus|vs\.?|compared to|to|from",
    "es": r"sobre|a|al|respecto al?|con respecto al?|frente al?|ante|contra",
    "pt": r"sobre|em relacao a[os]?|para|contra|a|ao|de|do|da|frente a[os]?",
}
APPROX = {"en": r"(?:about|around|roughly|some|nearly|almost|over|just over|just under|approximately|exactly)\s+",
          "es": r"(?:unos|alrededor de|casi|aproximadamente|cerca de|mas de|poco mas de|exactamente)\s+",
          "pt": r"(?:cerca de|uns|quase|aproximadamente|mais de|pouco mais de|exatamente)\s+"}
DEFEND = {
    "en": r"held off|holding off|holds off|hold off|kept|keeping|keeps|defended(?: (?:against|from))?"
    r"|defending(?: (?:against|from))?|fended off|fending off|resisted|staved off|repelled|repelling"
    r"|held|holding|contained|blocked",
    "es": r"contuvo(?: a)?|contener(?: a)?|mantuvo(?: a)?|aguanto(?: a)?|resistio(?: a| los ataques de)?"
    r"|se defendio de|defendio (?:su posicion )?(?:de|ante|frente a)|freno(?: a)?|retuvo(?: a)?",
    "pt": r"segurou|segurar|manteve|manter|conteve|conter|resistiu(?: a| aos ataques de)?|se defendeu de|defendeu-se de"
    r"|defendeu (?:a posicao )?de|aguentou|barrou",
}
DEFEND_BEFORE_ATTACKER = {"en": r"(?:the\s+(?:attacks?|challenge|pressure)\s+(?:of|from)\s+)?",
                          "es": r"(?:los\s+ataques\s+de\s+|a\s+)?", "pt": r"(?:os\s+ataques\s+de\s+|a\s+)?"}
DEFEND_FOR = {
    "en": r"for\s+({NUM})\s+(?:consecutive\s+|straight\s+|successive\s+|whole\s+|more\s+)?laps",
    "es": r"(?:durante|por|a lo largo de)\s+({NUM})\s+(?:vueltas|giros)",
    "pt": r"(?:por|durante|ao longo de)\s+({NUM})\s+(?:voltas|giros)",
}
STUCK_BEHIND = {  # "Verstappen was stuck behind Hamilton for 6 laps": defense(HAM, VER)
    "en": r"(?:stuck|trapped|held up|bottled up|queued|sat|sitting|stayed)\s+behind",
    "es": r"(?:atascado|atrapado|detenido|encerrado|quedo|estuvo)\s+detras de",
    "pt": r"(?:preso|travado|ficou|esteve)\s+atras de",
}
COPULA_PLACE = {  # "Hamilton was seventh", "Leclerc fue cuarto", "Ocon foi o 17º": a place, when the clause ends there
    "en": r"(?:was|were|is|ended|came)\s+(?:the\s+)?(?P<ord>{ORD})(?:\s+(?:place|position|overall))?",
    "es": r"(?:fue|era|es|quedo)\s+(?:el\s+|la\s+)?(?P<ord>{ORD})(?:\s+(?:puesto|lugar|posicion))?",
    "pt": r"(?:foi|era|e|ficou)\s+(?:o\s+|a\s+|em\s+)?(?P<ord>{ORD})(?:\s+(?:lugar|posicao|colocado))?",
}
# what may follow such a place: the end of its clause ("was second in qualifying", "fue el
# primero en parar", "foi o primeiro a parar" are no finishing places)
PLACE_END = {
    "en": r"\s*(?:[,.;:)]|$|\band\b|\bwith\b|\bahead\b|\bbehind\b|\bin the end\b|\bat the (?:flag|finish)\b"
    r"|\bon the road\b|\bone place\b|\bjust\b)",
    "es": r"\s*(?:[,.;:)]|$|\by\b|\bcon\b|\bpor delante\b|\bpor detras\b|\bdelante\b|\bdetras\b|\bal final\b"
    r"|\ben meta\b|\bjusto\b)",
    "pt": r"\s*(?:[,.;:)]|$|\be\b|\bcom\b|\ba frente\b|\batras\b|\bno fim\b|\bno final\b|\blogo\b)",
}
PODIUM_LIST = {  # "the podium was Verstappen, Pérez and Alonso": first, second, third
    "en": r"(?:the\s+)?podium\s+(?:was|were|read|consisted of|:)",
    "es": r"(?:el\s+)?podio\s+(?:fue|lo formaron|lo completaron|:)|(?:el\s+)?podio\s+(?:estuvo\s+)?formado\s+por",
    "pt": r"(?:o\s+)?podio\s+(?:foi|teve|:)|(?:o\s+)?podio\s+(?:foi\s+)?formado\s+por",
}
PODIUM_THIRD = {  # "completed the podium": third
    "en": r"completed the podium|rounded out the podium|completing the podium|rounding out the podium",
    "es": r"completo el podio|cerro el podio|completando el podio|cerrando el podio",
    "pt": r"completou o podio|fechou o podio|completando o podio|fechando o podio",
}
RETIRED_WORDS = {  # the driver did not take the flag
    "en": r"retired|retirement|dnf|did not finish|didn't finish|failed to finish|crashed out|was forced out"
    r"|out of the race|pulled out of the race|stopped on track",
    "es": r"abandono|abandonar|abandonado|se retiro|retirada|no termino|no acabo|no pudo terminar|dnf"
    r"|quedo fuera de carrera|fuera de carrera",
    "pt": r"abandonou|abandonar|abandono|se retirou|nao terminou|nao completou|nao conseguiu terminar|dnf"
    r"|ficou fora da corrida|fora da corrida",
}
FINISHED_WORDS = {  # the driver took the flag
    "en": r"took the chequered flag|took the checkered flag|saw the chequered flag|saw the checkered flag"
    r"|reached the finish|made it to the finish|finished the race|completed the race",
    "es": r"vio la bandera a cuadros|llego a la meta|llego a meta|termino la carrera|completo la carrera"
    r"|acabo la carrera",
    "pt": r"recebeu a bandeirada|viu a bandeirada|completou a corrida|terminou a corrida|chegou ao fim"
    r"|cruzou a linha de chegada",
}
NEUTRALIZATION = {
    "en": {"VSC": r"virtual safety car|virtual safety-car|vsc", "SC": r"safety car|safety-car|\bsc\b",
           "RED": r"red flag(?:ged)?|red-flag(?:ged)?|(?:race|session) (?:was )?(?:stopped|suspended)"},
    "es": {"VSC": r"coche de seguridad virtual|auto de seguridad virtual|safety car virtual|virtual safety car|vsc",
           "SC": r"coche de seguridad|auto de seguridad|safety car|\bsc\b",
           "RED": r"bandera roja|carrera (?:fue )?(?:detenida|suspendida|neutralizada con bandera roja)"},
    "pt": {"VSC": r"carro de seguranca virtual|safety car virtual|virtual safety car|vsc",
           "SC": r"carro de seguranca|safety car|\bsc\b",
           "RED": r"bandeira vermelha|corrida (?:foi )?(?:interrompida|suspensa)"},
}
CLAUSE_BREAK = {"en": r"\bwhile\b|\bwhereas\b|\bbut\b|;", "es": r"\bmientras\b|\bpero\b|;",
                "pt": r"\benquanto\b|\bmas\b|;"}
FILLER_BEFORE_NAME = {  # "his team-mate Giovinazzi", "the Ferrari of Leclerc", "su compañero"
    "en": r"(?:(?:his|her|the|team-?mate|teammate|rival|compatriot|ferrari|mercedes|red bull|mclaren)\s+){0,3}",
    "es": r"(?:(?:su|el|la|companero|compatriota|rival|de|equipo)\s+){0,3}",
    "pt": r"(?:(?:seu|sua|o|a|companheiro|compatriota|rival|de|equipe)\s+){0,3}",
}
TEAMMATE = {  # "Hamilton kept his team-mate behind": the other driver of a pair of team-mates
    "en": r"team-?\s?mate",
    "es": r"companero(?:\s+de\s+equipo)?",
    "pt": r"companheiro(?:\s+de\s+equipe)?",
}
MOVE_NOUN = {"en": r"attempt|bid|move|try|call|play", "es": r"intento|maniobra|jugada",
             "pt": r"tentativa|jogada|manobra"}
POSSESSIVE = {"en": r"of", "es": r"de|del", "pt": r"de|do|da"}  # "el undercut de Hamilton"
BY = {"en": r"by", "es": r"por", "pt": r"por|pelo"}  # "undercut by Hamilton"
OBJECT_MARKER = {  # a driver after these words is an object, not the one acting
    # the rival of a move and the attacker held off are objects too ("undercut Lando by pitting")
    "en": r"than|behind|ahead of|in front of|over|on|to|from|against|past|passed|overtook|with|by"
    r"|undercut|overcut|kept|held off|fended off|resisted|{PASSED}"
    r"|laps? (?:before|after|earlier than|later than|longer than)",
    "es": r"que|detras del?|delante del?|por delante del?|sobre|contra|ante|con|por|al|undercut a|overcut a"
    r"|{PASSED}|(?:vueltas?|giros?) (?:antes|despues|mas tarde|mas) (?:de|que)"
    r"|contuvo a|mantuvo a|resistio a",
    "pt": r"que|do que|atras d[eao]|a frente d[eao]|na frente d[eao]|sobre|contra|para|com|por|pelo|em"
    r"|segurou|manteve|conteve|{PASSED}|(?:voltas?|giros?) (?:antes|depois|mais tarde|a mais) d[eo]"
}
PASSED = {  # a driver after these was passed or beaten: never the subject of what follows
    "en": r"passed|overtook|beat|outpaced|jumped|undercut|overcut",
    "es": r"adelant\w* a|super\w* a|rebas\w* a|venci\w* a|gano a",
    "pt": r"ultrapass\w*|superou|passou|bateu|venceu",
}
SUBJECT_RESET = {  # between the last driver named and a verb: the sentence's subject is meant
    "en": r"[:;,(]|\b(?:he|she)\b", "es": r"[:;,(]", "pt": r"[:;,(]|\b(?:ele|ela)\b",
}
SUBORDINATE_OPENING = {  # a sentence opening with a subordinate clause: its driver is not the subject
    "en": r"when|after|once|as soon as|while|although|though|before|since|by the time",
    "es": r"cuando|tras|despues de que|una vez que|mientras|aunque|antes de que|en cuanto",
    "pt": r"quando|apos|depois que|assim que|enquanto|embora|antes que|logo que",
}
SUBJECT_PRONOUN = {"en": r"\b(?:he|she|his|her|him)\b", "es": r"\b(?:su|sus|le|lo)\b",
                   "pt": r"\b(?:ele|ela|seu|sua|seus|suas|lhe)\b"}
MOVE_DONE = {  # "le hizo el undercut", "deu o undercut", "pulled off the undercut": it worked
    "en": r"(?:pulled off|made|executed|completed|nailed|landed)\s+(?:the\s+|an\s+|a\s+|his\s+|her\s+)?$",
    "es": r"(?:hizo|le hizo|aplico|le aplico|consumo|completo|logro|ejecuto|clavo)\s+(?:el\s+|un\s+|su\s+)?$",
    "pt": r"(?:deu|fez|aplicou|completou|conseguiu|executou|acertou)\s+(?:o\s+|um\s+|seu\s+)?$",
}
NEGATED_COMPOUND_BEFORE = {
    "en": r"\b(?:no|without|never used|never ran|avoided|skipped|not on)\s+(?:(?:the|any|a|set of)\s+){0,2}$",
    "es": r"\b(?:sin|nunca uso|no uso|evito)\s+(?:(?:los|las|el|la|neumaticos|gomas)\s+){0,2}$",
    "pt": r"\b(?:sem|nunca usou|nao usou|evitou)\s+(?:(?:os|as|o|a|pneus|compostos?)\s+){0,2}$",
}


SENTENCE_END = r"\.(?=\s|$)|!(?<!\d!)(?=\s|$)|\?(?<!\d\?)(?=\s|$)|\n"


@dataclass(frozen=True)
class Grammar:
    """Compiled patterns of one language (build with ``lexicon(language)``): the fields the
    f1 reader's ``@rule`` declarations name. Not a ``Lexicon`` (``factcov.language``'s names
    table, which f1's mentions use): one class of that name in factcov (issue 28)."""

    language: str
    num: str
    ord: str
    compound: re.Pattern[str]
    compound_values: dict[str, str]
    ambiguous: frozenset[str]
    noun_only: frozenset[str]
    tyre_noun_after: re.Pattern[str]
    tyre_leader_before: re.Pattern[str]
    not_after_ambiguous: re.Pattern[str]
    pit_verb: re.Pattern[str]
    lap_ref: re.Pattern[str]
    stay_out: re.Pattern[str]
    lap_range: re.Pattern[str]
    lap_range_more: re.Pattern[str]
    first_laps: re.Pattern[str]
    number: re.Pattern[str]
    scope_break: re.Pattern[str]
    stop_ordinal: re.Pattern[str]
    stop_at: re.Pattern[str]
    stop_count: tuple[re.Pattern[str], ...]
    stop_count_noun: str  # STOP_COUNT_NOUN
    stop_count_fillers: tuple[str, ...]  # STOP_COUNT_FILLERS
    count_ends: tuple[str, ...]  # how a count word of stop_count[0] can end (digits aside)
    start_words: re.Pattern[str]
    end_words: re.Pattern[str]
    stint_ordinal: re.Pattern[str]
    change: tuple[re.Pattern[str], ...]
    same_set: tuple[re.Pattern[str], ...]
    changes: tuple[re.Pattern[str], ...]  # change and same_set, the patterns of a compound change
    one_set_changes: tuple[re.Pattern[str], ...]  # those of ``changes`` that name one compound (same_set)
    finish: re.Pattern[str]
    position_after_mention: re.Pattern[str]
    win: re.Pattern[str]
    win_not_followed: re.Pattern[str]
    win_by: re.Pattern[str]
    ahead_of: re.Pattern[str]
    and_word: re.Pattern[str]
    move: re.Pattern[str]
    move_rival: re.Pattern[str]
    move_passive: re.Pattern[str]
    object_marker: re.Pattern[str]
    passed_marker: re.Pattern[str]
    shortest_marker: int  # the fewest characters object_marker or passed_marker matches
    possessive: re.Pattern[str]
    by: re.Pattern[str]
    move_fail: re.Pattern[str]
    move_behind: re.Pattern[str]
    move_ahead: re.Pattern[str]
    move_hypothetical: re.Pattern[str]
    move_verdict_opening: re.Pattern[str]
    rival_pronoun: re.Pattern[str]
    rival_clitic: re.Pattern[str]
    defend_pronoun: re.Pattern[str]
    move_success: re.Pattern[str]
    move_attempt: re.Pattern[str]
    gain: re.Pattern[str]
    gain_rival: re.Pattern[str]
    defend: re.Pattern[str]
    defend_for: re.Pattern[str]
    stuck_behind: re.Pattern[str]
    neutralization: re.Pattern[str]
    retired_words: re.Pattern[str]
    podium_third: re.Pattern[str]
    teammate: re.Pattern[str]
    copula_place: re.Pattern[str]
    podium_list: re.Pattern[str]
    finished_words: re.Pattern[str]
    clause_break: re.Pattern[str]
    subject_reset: re.Pattern[str]
    # literals one of which stands in every match of negated_compound ("no", "without"):
    # see ``cued_search``
    negation_cues: tuple[str, ...]
    subject_pronoun: re.Pattern[str]
    subordinate_opening: re.Pattern[str]
    move_done: re.Pattern[str]
    negated_compound: re.Pattern[str]
    sentence_end: re.Pattern[str]
    # patterns scanned through ``scans`` with words one of which stands in each of their
    # matches besides their anchors (``cues_besides``): the scanner scans such a pattern
    # only in a sentence holding one (the stop count's "unica" besides "parada", a
    # change's "for" besides "switch")
    scan_cues: tuple[tuple[re.Pattern[str], tuple[str, ...]], ...] = ()


def _alt(words: tuple[str, ...] | list[str]) -> str:
    """Any of ``words`` (longest first; a space matches any whitespace), as a trie."""
    return alternation(words)


@cache
def lexicon(language: str) -> Grammar:
    """The grammar of ``language``, its patterns compiled to skip to their possible first
    characters where that is faster (``compile_fast``: the same matches)."""
    lex = _lexicon(language)
    quick: dict[str, object] = {}
    for field in dataclasses.fields(lex):
        value = getattr(lex, field.name)
        if isinstance(value, re.Pattern):
            quick[field.name] = compile_fast(value)
        elif isinstance(value, tuple) and value and all(isinstance(p, re.Pattern) for p in value):
            quick[field.name] = tuple(compile_fast(p) for p in value)
    lex = dataclasses.replace(lex, **quick)
    changes = (*lex.change, *lex.same_set)  # the same pattern objects
    return dataclasses.replace(lex, changes=changes,
                               one_set_changes=tuple(p for p in changes if "c2" not in p.groupindex),
                               negation_cues=cues(lex.negated_compound),
                               shortest_marker=min(shortest_match(lex.object_marker), shortest_match(lex.passed_marker)),
                               scan_cues=_scan_cues(lex, changes))


def _scan_cues(lex: Grammar, changes: tuple[re.Pattern[str], ...]) -> tuple[tuple[re.Pattern[str], tuple[str, ...]], ...]:
    """The cue words of the stop counts (their stop word taken as any word: the anchors
    wake "a única parada" and "nenhuma parada" in every sentence saying "parada", the cues
    are "unica"; "nenhuma", "zero", "sem ", "nao parou") and of the changes (their anchors
    taken as any word: "switched from the medium to the hard" wakes "swapped the mediums
    for hards" by "switch", whose matches hold "for")."""
    found = [(p, cues_besides(p, (lex.stop_count_noun,))) for p in lex.stop_count]
    found += [(p, cues_besides(p, tuple(anchors(p) or ()))) for p in changes]
    return tuple((pattern, words) for pattern, words in found if words is not None)


def cues_besides(pattern: re.Pattern[str], words: tuple[str, ...]) -> tuple[str, ...] | None:
    """Words one of which stands in every match of ``pattern`` besides ``words`` (its
    anchors, which wake it): the anchors of the pattern with each of ``words`` taken as
    any word. Every match of the pattern matches the widened one, so holds one of them.
    None where there are none worth a look (a single letter stands everywhere)."""
    if "(?!" in pattern.pattern or "(?<!" in pattern.pattern:
        return None  # a word widened inside a negative look-around would narrow the pattern
    source = pattern.pattern
    for word in sorted(words, key=len, reverse=True):
        if not word.isalpha():
            return None  # only a plain word is widened (not one inside a class, as "[:;,(]" holds ",")
        source = source.replace(word, "[a-z]+")
    try:
        widened = anchors(re.compile(source, pattern.flags))
    except re.error:  # a word inside a look-behind, which must keep its width
        return None
    if widened and min(map(len, widened)) > 1 and widened != anchors(pattern):
        return tuple(sorted(widened))
    return None


def cues(pattern: re.Pattern[str]) -> tuple[str, ...]:
    """Literals one of which stands in every match of ``pattern`` (its anchors), or ``("",)``
    for a pattern that may match without one (the empty string stands in every text)."""
    return tuple(sorted(anchors(pattern) or {""}))


def holds_any(text: str, words: tuple[str, ...]) -> bool:
    """Whether one of ``words`` stands in ``text`` (``in``, word by word: no call of a
    generator)."""
    for word in words:
        if word in text:
            return True
    return False


def cued_search(pattern: re.Pattern[str], cues: tuple[str, ...], text: str) -> bool:
    """Whether ``pattern`` matches somewhere in ``text``, searched only when one of its
    ``cues`` (``cues(pattern)``) stands there. Worth it where the pattern is tried at most
    words of the stretch and its cues are rare there: a search over the 30 characters
    before a compound word costs three times a few ``in`` tests. (Not for the few words
    between a driver and a verb: a search passes over them as fast, and "he" of the
    subject's resets stands in "the".)"""
    for cue in cues:
        if cue in text:
            return pattern.search(text) is not None
    return False


def _suffixes(words: set[str]) -> tuple[str, ...]:
    """The words none of the others ends with: a text ends with one of ``words`` exactly
    when it ends with one of these ("eighty-eight" ends as "eight")."""
    return tuple(sorted(w for w in words if not any(o != w and w.endswith(o) for o in words)))


def _ordinal(language: str) -> str:
    """``ordinal_pattern(language)`` with its words as a trie (the same matches: ``_alt``), so
    a position is rejected after a character or two instead of after trying each of the
    eighty words of es and pt; the pattern as it is if its words are not where expected."""
    pattern = ordinal_pattern(language)
    opening, closing = r"|\b(?:", r")\b)"
    if not pattern.endswith(closing) or opening not in pattern:
        return pattern
    cut = pattern.rindex(opening) + len(opening)
    words = list(ordinal_words(language))
    if set(pattern[cut:-len(closing)].split("|")) != {re.escape(w).replace(r"\ ", r"\s+") for w in words}:
        return pattern
    return pattern[:cut] + _alt(words) + closing


def _lexicon(language: str) -> Grammar:
    words = {w: v for w, v in number_words(language).items() if w not in _ARTICLES}
    num = rf"(?:\d+(?:[.,]\d+)?|\b(?:{_alt(list(words))})\b)"
    lap_num = rf"(?:\d{{1,2}}(?![.,]?\d)|\b(?:{_alt(list(words))})\b)"
    ordinal = _ordinal(language)
    compound_values: dict[str, str] = {}
    for value, forms in COMPOUND_WORDS[language].items():
        compound_values.update({f: value for f in forms})
    ambiguous = set()
    for value, forms in AMBIGUOUS_COMPOUND_WORDS[language].items():
        compound_values.update({f: value for f in forms})
        ambiguous.update(forms)
    comp = rf"\b(?:{_alt(list(compound_values))})\b"
    tyre_nouns = TYRE_NOUNS[language]

    def c(pattern: str) -> re.Pattern[str]:
        return compile_cached(
            pattern.replace("{NUM}", num).replace("{ORD}", ordinal).replace("{TN}", f"(?:{tyre_nouns})")
            .replace("{C1}", f"(?P<c1>{comp})").replace("{C2}", f"(?P<c2>{comp})")
        )

    lap = LAP_WORD[language]
    bare = rf"\d{{1,2}}(?![.,]?\d)(?!{BARE_LAP_UNIT})"
    neutral = NEUTRALIZATION[language]
    return Grammar(
        language=language,
        num=num,
        ord=ordinal,
        compound=compile_cached(comp),
        compound_values=compound_values,
        ambiguous=frozenset(ambiguous),
        noun_only=frozenset(NOUN_ONLY_COMPOUND_WORDS[language]),
        tyre_noun_after=compile_cached(rf"\s+(?:{tyre_nouns})\b"),
        tyre_leader_before=compile_cached(rf"(?:\b(?:{TYRE_LEADERS[language]}|{tyre_nouns}))\s+$"),
        not_after_ambiguous=compile_cached(rf"\s*(?:{NOT_AFTER_AMBIGUOUS[language]})"),
        pit_verb=compile_cached(rf"\b(?:{PIT_VERBS[language]})\b".replace("{COMP}", comp)),  # "went onto (softs)"
        lap_ref=compile_cached(
            rf"\b(?:{lap})\s+(?P<nums>{lap_num}(?:(?:{LIST_JOIN[language]})(?:(?:{lap})\s+)?"
            rf"\d{{1,2}}(?![.,]?\d)(?!\s*(?:{lap}|s\b|sec|seg|places|positions|puestos|posiciones|lugares)))*)"
            rf"|\b(?P<ord>{ordinal})\s+(?:{lap})\b"
            rf"|\b(?:{BARE_LAP_LEAD[language]})\s+(?P<bare>{bare}(?:(?:{LIST_JOIN[language]})(?:(?:{BARE_LAP_LEAD[language]})\s+)?{bare})*)"
        ),
        stay_out=compile_cached(
            rf"\b(?:{STAY_OUT[language]})\b(?P<gap>(?:\s+[^\s.;:]+){{0,6}}?)\s+(?:{STAY_OUT_UNTIL[language]})\s+"
            rf"(?:(?:the end of|el final de|o final da)\s+)?(?:(?:the|la|a)\s+)?(?:(?:{lap})\s+(?P<w>{lap_num})|(?P<n>{bare}))"
        ),
        lap_range=compile_cached(
            rf"\b(?:(?P<open>{RANGE_OPEN[language]})\s+)?(?:(?:las?|as?|the)\s+)?(?:{lap})\s+(?P<a>{lap_num})"
            rf"(?P<join>{RANGE_JOIN[language]})(?:(?:{lap})\s+)?(?P<b>{lap_num})"
        ),
        # "laps 1 to 7, 34 to 41 and 47 to 51": ranges listed after the first
        lap_range_more=compile_cached(
            rf"(?:{LIST_JOIN[language]})(?:(?:{lap})\s+)?(?P<a>{lap_num}){RANGE_ONLY_JOIN[language]}(?:(?:{lap})\s+)?(?P<b>{lap_num})"
        ),
        first_laps=c(rf"\b{FIRST_LAPS[language]}\b"),
        number=compile_cached(lap_num),
        scope_break=compile_cached(rf"\b(?:{SCOPE_BREAK[language]})\b"),
        stop_ordinal=c(rf"\b{STOP_ORDINAL[language]}"),
        stop_at=c(STOP_AT[language]),
        stop_count=tuple(c(p) for p in STOP_COUNT[language]),
        stop_count_noun=STOP_COUNT_NOUN[language],
        stop_count_fillers=STOP_COUNT_FILLERS[language],
        # "eighty eight" (``\s+`` between its words) ends as "eight" does
        count_ends=_suffixes({w.split()[-1] for w in words} | set(STOP_COUNT_WORDS[language])),
        start_words=compile_cached(rf"\b(?:{START_WORDS[language]})\b"),
        end_words=compile_cached(rf"\b(?:{END_WORDS[language]})\b"),
        stint_ordinal=c(rf"\b{STINT_ORDINAL[language]}\b"),
        change=tuple(c(rf"\b(?:{p})\b") for p in CHANGE[language]),
        same_set=tuple(c(rf"\b(?:{p})\b") for p in SAME_SET[language]),
        changes=(),  # filled by ``lexicon`` with the patterns above as compiled there
        one_set_changes=(),
        finish=c(
            rf"(?:\b(?:{FINISH_VERBS[language]})\b\s+|\b(?:{FINISH_LABELS[language]})\s*:\s*(?:\*\*\s*)?){FINISH_FILLER[language]}"
            rf"(?:(?P<ord>{ordinal})(?:\s+(?:{PLACE_WORDS[language]}))?"
            rf"|(?:{POSITION_NUMBER[language]}))"
        ),
        position_after_mention=c(rf"^\s*(?:,\s*)?(?:(?:in|en|em|no|na|el|o|a)\s+)?(?P<ord>{ordinal})\b"),
        win=compile_cached(rf"\b(?:{WIN[language]})\b"),
        # "won by 0.7 seconds" is a win; "ganó 3 segundos" is a gain
        win_not_followed=compile_cached(
            rf"(?!\s*(?:by|por|with|con|com)\b)\s*(?:{WIN_NOT_FOLLOWED[language]})".replace(
                "{D}", r"(?!(?:19|20)\d\d\b)\d")  # a digit, not a season ("the 2021 race")
        ),
        win_by=compile_cached(rf"^\s*(?:(?:{WIN_BY[language]})\s*)+$"),
        ahead_of=compile_cached(rf"\b(?:{AHEAD_OF[language]})\s*$"),
        and_word=compile_cached(rf"^\s*(?:,|,?\s*(?:{AND_WORD[language]}))\s*$"),
        move=compile_cached(r"\b(undercut(?:ting|s)?|overcut(?:ting|s)?)\b"),
        move_rival=compile_cached(
            rf"^\s*(?:(?:{MOVE_NOUN[language]})\s+)?(?:(?:{MOVE_RIVAL[language]})\s+)?(?:{FILLER_BEFORE_NAME[language]})$"
        ),
        possessive=compile_cached(rf"^\s*(?:{POSSESSIVE[language]})\s*$"),
        by=compile_cached(rf"^\s*(?:{BY[language]})\s*$"),
        object_marker=compile_cached(
            rf"\b(?:{OBJECT_MARKER[language].replace('{PASSED}', PASSED[language])})\s+(?:{FILLER_BEFORE_NAME[language]})$"
        ),
        passed_marker=compile_cached(rf"\b(?:{PASSED[language]})\s+(?:{FILLER_BEFORE_NAME[language]})$"),
        shortest_marker=0,  # filled by ``lexicon``
        move_passive=compile_cached(rf"\b{MOVE_PASSIVE[language]}\s*$"),
        move_fail=compile_cached(rf"\b(?:{MOVE_FAIL[language]})\b"),
        move_success=compile_cached(rf"\b(?:{MOVE_SUCCESS[language]})\b"),
        move_behind=compile_cached(rf"\b(?:{MOVE_BEHIND[language]})\b"),
        move_ahead=compile_cached(rf"\b(?:{MOVE_AHEAD[language]})\b"),
        move_hypothetical=compile_cached(rf"\b(?:{MOVE_HYPOTHETICAL[language]})\b"),
        move_verdict_opening=compile_cached(
            rf"{MOVE_VERDICT_OPENING[language]}(?:{MOVE_FAIL[language]}|{MOVE_SUCCESS[language]})\b"
        ),
        rival_pronoun=compile_cached(rf"\s*(?:{GAIN_RIVAL[language]})\s+(?:{RIVAL_PRONOUN[language]})\b"),
        rival_clitic=compile_cached(RIVAL_CLITIC[language]),
        defend_pronoun=compile_cached(rf"(?:{DEFEND_PRONOUN[language]})\b"),
        move_attempt=compile_cached(rf"\b(?:{MOVE_ATTEMPT[language]})\b"),
        gain=c(
            rf"\b(?:(?P<gain>{GAIN[language]})|(?P<loss>{LOSS[language]}))\s+(?:{APPROX[language]})?"
            rf"(?P<n>{num})\s*(?:-\s*)?(?:{SECONDS[language]})"
        ),
        gain_rival=compile_cached(rf"^\s*(?:\w+\s+)??(?:{GAIN_RIVAL[language]})\s+(?:\w+\s+)?$"),
        defend=compile_cached(
            rf"\b(?:{DEFEND[language]})\s+{DEFEND_BEFORE_ATTACKER[language]}(?:{FILLER_BEFORE_NAME[language]})$"
        ),
        defend_for=c(rf"^(?:(?!\.\s).){{0,60}}?\b{DEFEND_FOR[language]}\b"),
        stuck_behind=compile_cached(rf"\b(?:{STUCK_BEHIND[language]})\s+(?:{FILLER_BEFORE_NAME[language]})$"),
        podium_third=compile_cached(rf"\b(?:{PODIUM_THIRD[language]})\b"),
        teammate=compile_cached(rf"\b(?:{TEAMMATE[language]})\b"),
        copula_place=c(rf"\b{COPULA_PLACE[language]}(?={PLACE_END[language]})"),
        podium_list=compile_cached(rf"\b(?:{PODIUM_LIST[language]})\s*$"),
        retired_words=compile_cached(rf"\b(?:{RETIRED_WORDS[language]})\b"),
        finished_words=compile_cached(rf"\b(?:{FINISHED_WORDS[language]})\b"),
        neutralization=compile_cached("|".join(f"(?P<{k}>{v})" for k, v in neutral.items())),
        clause_break=compile_cached(CLAUSE_BREAK[language]),
        subject_reset=compile_cached(SUBJECT_RESET[language]),
        negation_cues=(),  # filled by ``lexicon``
        subject_pronoun=compile_cached(SUBJECT_PRONOUN[language]),
        subordinate_opening=compile_cached(rf"\W*(?:{SUBORDINATE_OPENING[language]})\b"),
        move_done=compile_cached(MOVE_DONE[language]),
        negated_compound=compile_cached(NEGATED_COMPOUND_BEFORE[language]),
        # "." before a space or the end (after a digit too: "on lap 13."), "!" or "?" not
        # after a digit, a line break; each alternative opens with its character (a literal:
        # a class such as [!?] would not do), so the scan jumps from candidate to candidate
        sentence_end=compile_cached(SENTENCE_END),
    )


# ``Grammar``'s name until 0.2.0, whose docs ("How to add a rule") subclassed it: kept for
# plugins written from them; factcov's own code says ``Grammar``.
Lexicon = Grammar
