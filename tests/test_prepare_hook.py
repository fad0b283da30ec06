"""`Extractor.prepare`: a --jobs run builds the f1 reader's per-race setup in the parent,
before forking, and its workers build none of it again (counted, not timed)."""

from __future__ import annotations

import os

import pytest

from factcov.domains.f1 import mentions, reading
from factcov.domains.f1.extractor import F1RegexExtractor
from factcov.domains.f1.instances import race_instances
from factcov.domains.f1.source import race
from factcov.evaluate import Evaluator
from factcov.extractor import Extractor
from factcov.extractors.scanner import Identities
from factcov.model import Generation
from factcov.parallel import forked_scorer
from factcov.plugins import get_domain

BUILT = {"races": 0, "anchors": 0}  # what the reader built (the counters are copied into each forked worker)


class CountedRaceDrivers(mentions.RaceDrivers):
    def __init__(self, *args, **kwargs) -> None:
        BUILT["races"] += 1
        super().__init__(*args, **kwargs)


class CountedAnchors(reading.Anchors):
    def __init__(self, *args, **kwargs) -> None:
        BUILT["anchors"] += 1
        super().__init__(*args, **kwargs)


PREPARED: list[tuple[int, str, int]] = []  # (process, language, instances) of each ``prepare``


class Recording(F1RegexExtractor):
    def prepare(self, instances) -> None:
        PREPARED.append((os.getpid(), self.language, len(instances)))
        super().prepare(instances)


class Unprepared(F1RegexExtractor):
    prepare = Extractor.prepare  # the interface's default: nothing built ahead


def claims_and_builds(evaluator: Evaluator, pairs: list) -> tuple[list, dict[str, int]]:
    """A worker's piece: its results' claims, and what reading them built in the worker."""
    before = dict(BUILT)
    results = evaluator.evaluate(pairs)
    claims = [[(v.claim.type, v.claim.span) for v in result.verdicts] for result in results]
    return claims, {kind: BUILT[kind] - before[kind] for kind in BUILT}


@pytest.fixture
def cold_reader(monkeypatch):
    """The reader's per-race caches empty, and its builds counted."""
    monkeypatch.setattr(mentions, "RaceDrivers", CountedRaceDrivers)
    monkeypatch.setattr(reading, "Anchors", CountedAnchors)
    monkeypatch.setattr(mentions, "_BY_BLOCK", Identities(256))
    monkeypatch.setattr(mentions, "_BY_FOCUS", {})
    monkeypatch.setattr(reading, "_JOINED", {})
    mentions.race_drivers.cache_clear()
    BUILT.update(races=0, anchors=0)
    PREPARED.clear()
    yield
    mentions.race_drivers.cache_clear()  # its entries are counted subclasses' objects


def two_races(shared_data) -> tuple[dict, list]:
    domain = get_domain("f1")
    instances = [i for r in (1, 2) for i in race_instances(race(shared_data / "f1", 2021, r), languages=("en", "es"))]
    pairs = [(i, Generation(instance_id=i.id, system="s", text=domain.realize(i.facts, i.language, i)))
             for i in instances]
    return {i.id: i for i in instances}, pairs


def run_jobs(extractor: type, instances: dict, pairs: list) -> tuple[list, dict[str, int]]:
    evaluator = Evaluator(get_domain("f1"), extractor=extractor)
    claims: list = []
    built = {"races": 0, "anchors": 0}
    with forked_scorer(evaluator, 2, instances, claims_and_builds) as score:
        for piece_claims, piece_built in score(pairs[start:start + 20] for start in range(0, len(pairs), 20)):
            claims += piece_claims
            built = {kind: built[kind] + piece_built[kind] for kind in built}
    return claims, built


def test_jobs_workers_build_no_race_setup_the_parent_prepared(shared_data, cold_reader):
    instances, pairs = two_races(shared_data)
    claims, built = run_jobs(Recording, instances, pairs)
    # prepared once per language, in this process (the parent), with that language's instances
    assert sorted((pid, language) for pid, language, _ in PREPARED) == [(os.getpid(), "en"), (os.getpid(), "es")]
    assert sum(count for _, _, count in PREPARED) == len(instances)
    assert BUILT["races"] == 2 and BUILT["anchors"] >= 4  # two races, each joined per language
    assert built == {"races": 0, "anchors": 0}  # the workers read every text and built none of it
    one = Evaluator(get_domain("f1"))
    assert claims == [[(v.claim.type, v.claim.span) for v in r.verdicts] for r in one.evaluate(pairs)]


def test_jobs_workers_build_the_race_setup_when_nothing_is_prepared(shared_data, cold_reader):
    # the counting above can see a worker's builds: without ``prepare`` the workers make them
    instances, pairs = two_races(shared_data)
    _, built = run_jobs(Unprepared, instances, pairs)
    assert built["races"] >= 2 and built["anchors"] >= 4
    assert PREPARED == []


def test_prepare_leaves_a_malformed_race_to_the_reading(shared_data, cold_reader):
    instances, _ = two_races(shared_data)
    broken = next(iter(instances.values())).model_copy(update={"context": {"race": {"drivers": "no list"}}})
    F1RegexExtractor("en").prepare([broken, *instances.values()])  # does not raise: reading it will, naming it
    assert BUILT["races"] == 2
