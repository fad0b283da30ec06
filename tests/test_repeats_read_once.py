"""A deterministic extractor (``Extractor.deterministic``) reads each distinct (instance,
text) of a chunk once; the repeats (systems agreeing on a text) get the same claims,
verdicts and scores as if read. Others read every pair, as before."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from factcov.domains.weather.domain import WeatherDomain
from factcov.domains.weather.extractor import WeatherRegexExtractor
from factcov.evaluate import Evaluator
from factcov.instance_files import iter_instance_file
from factcov.model import Generation

DEMO = Path(__file__).resolve().parents[1] / "domains" / "weather"


def _pairs():
    instances = {instance.id: instance for _, instance in iter_instance_file(DEMO / "demo_instances.jsonl")}
    texts = [json.loads(line) for line in (DEMO / "demo_nws.jsonl").read_text(encoding="utf-8").splitlines()][:12]
    pairs = []
    for system in ("a", "b", "c"):
        for line in texts:
            text = line["text"] if system != "c" else line["text"] + " Breezy."
            pairs.append((instances[line["instance_id"]], Generation(instance_id=line["instance_id"], system=system,
                                                                      text=text)))
    return pairs


def _read(monkeypatch, deterministic: bool):
    read: list[str] = []
    real = WeatherRegexExtractor.extract_batch

    def counting(self, texts, instances):
        read.extend(texts)
        return real(self, texts, instances)

    monkeypatch.setattr(WeatherRegexExtractor, "extract_batch", counting)
    monkeypatch.setattr(WeatherRegexExtractor, "deterministic", deterministic)
    results = Evaluator(WeatherDomain()).evaluate(_pairs())
    monkeypatch.undo()
    return read, results


def _rows(results):
    return [(r.instance.id, r.generation.system, r.generation.text, [v.model_dump() for v in r.verdicts],
             r.metrics, r.extraction_error) for r in results]


def test_repeats_are_read_once_and_scored_the_same(monkeypatch):
    once, results = _read(monkeypatch, True)
    every, plain = _read(monkeypatch, False)
    assert len(every) == 36 and len(once) == 24  # systems a and b agree on every text
    assert _rows(results) == _rows(plain)
    assert results[0].verdicts is not results[12].verdicts  # each result its own list


def test_another_instance_object_of_the_same_id_is_read_apart(monkeypatch):
    read: list[str] = []
    real = WeatherRegexExtractor.extract_batch
    monkeypatch.setattr(WeatherRegexExtractor, "extract_batch",
                        lambda self, texts, instances: read.extend(texts) or real(self, texts, instances))
    instance, generation = _pairs()[0]
    copy = instance.model_copy()
    Evaluator(WeatherDomain()).evaluate([(instance, generation), (copy, generation), (instance, generation)])
    assert len(read) == 2


@pytest.mark.parametrize("cls", ["factcov.domains.f1.extractor:F1RegexExtractor",
                                 "factcov.domains.weather.extractor:WeatherRegexExtractor"])
def test_the_regex_extractors_say_they_are_deterministic(cls):
    import importlib

    module, _, name = cls.partition(":")
    assert getattr(importlib.import_module(module), name).deterministic
