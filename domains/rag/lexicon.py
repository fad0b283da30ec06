"""How a knowledge-graph predicate is worded: a learned lexicon plus a generic fallback.

``predicate_lexicon.json`` (next to this module, built by
``benchmarks/rag_build_lexicon.py`` from the WebNLG training texts; CC BY-NC-SA 4.0,
Gardent et al. 2017, Castro Ferreira et al. 2018) maps each predicate seen in training to
the word stems people use for it, each with the share of that predicate's sentences
holding the stem ("birthPlace": born 0.8, birth 0.2, ...). Only stems far more frequent
with the predicate than overall are kept, so "in" or "the" never count as evidence.

A predicate the lexicon has not seen is worded by its label: camelCase, digits and
underscores split ("iso6392Code" -> iso, 639, 2, code), each word stemmed, plus a small
synonym table for labels whose usual wording shares no stem with them ("birthPlace" is
said "born"), and a character similarity between the label's words and the text's words
for the rest.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass, field
from difflib import SequenceMatcher
from functools import lru_cache
from pathlib import Path

import snowballstemmer

from factcov.domains.rag.patterns import CAPITALS_THEN_WORD, DIGIT_THEN_LETTER, LABEL_SEPARATOR, LOWER_THEN_UPPER

LEXICON_FILE = Path(__file__).with_name("predicate_lexicon.json")
STOPWORDS = frozenset(
    "a an the of in on at by for to from with and or as is are was were be been being has have had "
    "it its he she his her they their them this that these those which who whom whose there than also "
    "s 's , . ; : ( ) ` '' \" known called named".split()
)
IRREGULAR = {
    "wrote": "write", "written": "write", "led": "lead", "flew": "fly", "flown": "fly", "began": "begin",
    "begun": "begin", "made": "make", "built": "build", "held": "hold", "won": "win", "sang": "sing",
    "sung": "sing", "spoke": "speak", "spoken": "speak", "grew": "grow", "grown": "grow", "ran": "run",
    "bought": "buy", "sold": "sell", "taught": "teach", "fought": "fight", "died": "die", "dies": "die",
    "lies": "lie", "lay": "lie", "took": "take", "taken": "take", "gave": "give", "given": "give",
    "came": "come", "went": "go", "gone": "go", "known": "know", "knew": "know", "founded": "found",
}
_STEMMERS = threading.local()
# Labels whose common wording shares no stem with the label's own words.
SYNONYMS: dict[str, tuple[str, ...]] = {
    "birth": ("born",), "death": ("died", "die"), "burial": ("buried",), "author": ("wrote", "written"),
    "leader": ("led", "leads", "head"), "director": ("directed",), "starring": ("starred", "stars"),
    "owner": ("owned", "owns"), "operator": ("operated", "run", "runs"), "creator": ("created",),
    "founding": ("founded", "established"), "language": ("speak", "spoken"), "ground": ("home", "stadium"),
    "location": ("located", "situated", "based"), "capital": ("capital",), "club": ("played", "plays"),
    "manager": ("managed", "manages", "coach"), "genre": ("music", "style"), "population": ("inhabitants",
    "people"), "runtime": ("minutes", "long", "lasts"), "elevation": ("above", "sea", "metres", "meters"),
    "country": ("nation", "located", "situated", "based", "lies"), "successor": ("succeeded",),
    "predecessor": ("preceded",),
    "number": ("total",), "area": ("square", "km"), "demonym": ("people", "called"),
    "instrument": ("plays", "player"), "origin": ("native", "born"), "spouse": ("married", "wife", "husband"),
    "mission": ("crew", "flew", "flight"), "nationality": ("citizen",), "occupation": ("worked", "profession"),
    # Where a thing is: "located in Bangalore" words a city, state or country as well as a location.
    **{place: ("located", "situated", "based", "lies") for place in ("city", "state", "region", "county")},
    "build": ("built", "produced", "made", "manufactured", "constructed"), "length": ("long",),
    "manufacturer": ("made", "built", "produced", "manufactured"),
}


@lru_cache(maxsize=65536)
def stem(word: str) -> str:
    """A deterministic stem: lower-cased, irregular forms mapped, the Snowball English
    stemmer, at most 5 letters.

    The same function is applied when the lexicon is built and when a text is read, so
    every inflection of a word must land on one stem: "cookies"/"cookie", "cities"/"city",
    "named"/"name" and "located"/"location" do. The cut at 5 letters joins a word's
    derivations the stemmer keeps apart ("location"/"located" -> "locat", "writer"/"write").
    """
    word = word.lower().strip("'`\".,;:()")
    word = IRREGULAR.get(word, word)
    return _english_stemmer().stemWord(word)[:5]


def _english_stemmer() -> snowballstemmer.stemmer:
    # A Snowball stemmer keeps the word it works on in itself: one per thread (Dask
    # workers may score in threads).
    stemmer = getattr(_STEMMERS, "english", None)
    if stemmer is None:
        stemmer = _STEMMERS.english = snowballstemmer.stemmer("english")
    return stemmer


def is_verbal(word: str) -> bool:
    """A past form ("located", "published", "born", "wrote"): the words whose direction
    says who did what; a noun ("director") says nothing about it."""
    word = word.lower()
    return (word.endswith("ed") and len(word) > 4) or word in IRREGULAR or word == "born"


NOT_AGENTS = frozenset("number member order water character center centre chapter other after cover floor power "
                       "tower border letter colour color former latter matter parameter quarter".split())


def is_agent_noun(predicate: str) -> bool:
    """The label names who does something ("author", "creator", "architect", "artist"):
    an English agent noun (-or, -er, -ist, -ect), so "X by Y" says Y is it."""
    return any(len(w) >= 5 and w not in NOT_AGENTS and w.endswith(("or", "er", "ist", "ect"))
               for w in label_words(predicate))


def label_words(predicate: str) -> list[str]:
    """'iso6392Code' -> ['iso', '6392', 'code']; 'was_a_crew_member_of' -> ['was', 'a', ...]."""
    return list(_label_words(predicate))


@lru_cache(maxsize=65536)
def _label_words(predicate: str) -> tuple[str, ...]:
    # Cached: every text's evidence for a predicate splits the same few labels again.
    spaced = LOWER_THEN_UPPER.sub(r"\1 \2", predicate)
    spaced = DIGIT_THEN_LETTER.sub(r"\1 \2", spaced)
    spaced = CAPITALS_THEN_WORD.sub(r"\1 \2", spaced)
    return tuple(w.lower() for w in LABEL_SEPARATOR.split(spaced) if w)


def content_stems(words: Iterable[str]) -> set[str]:
    return {stem(w) for w in words if w.lower() not in STOPWORDS and any(c.isalpha() for c in w) and len(w) > 1}


@dataclass
class PredicateLexicon:
    """Stem weights per predicate (learned) and the generic fallback for the rest."""

    weights: dict[str, dict[str, float]] = field(default_factory=dict)  # each predicate's top stem = 1
    owned: dict[str, dict[str, float]] = field(default_factory=dict)  # see ``specific``
    implicit: dict[str, float] = field(default_factory=dict)  # share of sentences naming none of its stems
    direction: dict[str, int] = field(default_factory=dict)  # "predicate|stem": +1 subject is the doer, -1 object

    @classmethod
    def load(cls, path: Path = LEXICON_FILE) -> PredicateLexicon:
        data = json.loads(path.read_text(encoding="utf-8"))
        shares = {p: dict(w) for p, w in data["predicates"].items()}
        weights = {p: {s: round(w / max(ws.values()), 3) for s, w in ws.items()} for p, ws in shares.items() if ws}
        return cls(weights=weights, owned=specific(shares), implicit=dict(data.get("implicit", {})),
                   direction=dict(data.get("direction", {})))

    def by_stem(self) -> dict[str, list[tuple[str, float]]]:
        """Learned (predicate, weight) pairs by stem (built once)."""
        return _by_stem(self)

    def rival(self, predicate: str, words: Iterable[str], strength: float = 0.9,
              among: Collection[str] | None = None) -> tuple[str, str] | None:
        """Another predicate (of ``among`` when given) ``words`` clearly word instead of ``predicate``.

        A stem is a rival's when the rival owns it (``specific`` weight >= ``strength``)
        and ``predicate`` is worded with it less than half as often; and the other words
        give ``predicate`` no evidence of their own ("has 2900 students" words
        numberOfStudents, not academicStaffSize; "plays" is shared by club and instrument).
        """
        stems = {stem(w) for w in words if w.lower() not in STOPWORDS and len(w) > 1}
        own = self.stems_of(predicate)
        index = self.by_stem()
        for s in sorted(stems):
            for other, weight in index.get(s, ()):
                if other == predicate or weight < strength or (among is not None and other not in among):
                    continue
                if own.get(s, 0.0) >= 0.5 * self.weights.get(other, {}).get(s, 0.0):
                    continue
                if any(own.get(t, 0.0) >= 0.3 for t in stems - {s}):
                    continue
                return other, s
        return None

    def stems_of(self, predicate: str) -> dict[str, float]:
        """Stems that word ``predicate``, each with a weight in (0, 1]."""
        return _stems_of(self, predicate)

    def evidence(self, predicate: str, words: Iterable[str]) -> float:
        """How strongly ``words`` (the words linking the two arguments) say ``predicate``: 0..1."""
        content = [w for w in words if w.lower() not in STOPWORDS and len(w) > 1]
        return self.evidence_of(predicate, content, {stem(w) for w in content})

    def evidence_of(self, predicate: str, content: Sequence[str], stems: Collection[str]) -> float:
        """``evidence`` for content words already filtered and stemmed (a sentence's, once)."""
        wanted = self.stems_of(predicate)
        if not wanted:
            return 1.0  # a bare copula ("be", "be in") has nothing to be worded by
        if not content:
            return 0.0
        best = max((wanted.get(s, 0.0) for s in stems), default=0.0)
        if best >= 1.0:
            return 1.0
        # Character similarity for wording the stems miss ("runtime" vs "run time").
        if best < 0.8:
            label = "".join(label_words(predicate))
            if any(_similar(word.lower(), label) for word in content if len(word) >= 4):
                return 0.8
        return best

    def __hash__(self) -> int:
        return id(self)


@lru_cache(maxsize=262144)
def _similar(word: str, label: str) -> bool:
    """Character similarity of a word and a predicate label ("runtime" / "run-time")."""
    if abs(len(word) - len(label)) > len(label) // 4 + 1:
        return False
    matcher = SequenceMatcher(None, word, label)
    return matcher.quick_ratio() >= 0.8 and matcher.ratio() >= 0.8


def specific(weights: dict[str, dict[str, float]]) -> dict[str, dict[str, float]]:
    """Weights that say *which* predicate: a stem's share is scaled by how much of it this
    predicate owns ("student" words numberOfStudents far more than academicStaffSize, with
    which it shares many sentences), then each predicate's top stem is set to 1."""
    peak: dict[str, float] = {}
    for stems in weights.values():
        for s, w in stems.items():
            peak[s] = max(peak.get(s, 0.0), w)
    out = {}
    for predicate, stems in weights.items():
        scaled = {s: w * w / peak[s] for s, w in stems.items()}
        top = max(scaled.values(), default=0.0)
        out[predicate] = {s: round(w / top, 3) for s, w in scaled.items() if top and w / top >= 0.05}
    return out


@lru_cache(maxsize=4)
def _by_stem(lexicon: PredicateLexicon) -> dict[str, list[tuple[str, float]]]:
    index: dict[str, list[tuple[str, float]]] = {}
    for predicate, stems in lexicon.owned.items():
        for s, w in stems.items():
            index.setdefault(s, []).append((predicate, w))
    return index


@lru_cache(maxsize=4096)
def _stems_of(lexicon: PredicateLexicon, predicate: str) -> dict[str, float]:
    out = dict(lexicon.weights.get(predicate, {}))
    # The label's own words count too: in full for a predicate never seen in training
    # (the generic fallback), less for a learned one, whose label words ("place",
    # "name") often never appear in how people word it.
    full = 0.7 if out else 1.0
    for word in label_words(predicate):
        if word in STOPWORDS or not any(c.isalpha() for c in word) or len(word) < 3:
            continue
        out[stem(word)] = max(out.get(stem(word), 0.0), full)
        for synonym in SYNONYMS.get(word, ()):
            out[stem(synonym)] = max(out.get(stem(synonym), 0.0), 0.8 * full)
    return out


@lru_cache(maxsize=1)
def default_lexicon() -> PredicateLexicon:
    return PredicateLexicon.load()
