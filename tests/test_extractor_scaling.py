"""Extraction time grows linearly with the text, adversarial texts included.

A quadratic step (a list scanned for every match, a regex that backtracks over a long
word) turns 1 MB of text into minutes. Each case extracts a text of n and of 4n
characters in this one process and compares CPU times: linear work gives a ratio near
4, quadratic near 16; the bound of 8 leaves room for noise and still catches it."""

from __future__ import annotations

import gzip
import json
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from factcov.model import Instance
from factcov.plugins import get_domain, get_extractor

REPO = Path(__file__).resolve().parents[1]
INSTANCES = {
    "f1": REPO / "domains" / "f1" / "demo_instances.jsonl.gz",
    "weather": REPO / "domains" / "weather" / "demo_instances.jsonl",
}
N = 25_000


def _first_instance(path: Path) -> Instance:
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt", encoding="utf-8") as handle:
        return Instance.model_validate(json.loads(handle.readline()))


def _texts(domain, instance: Instance) -> dict[str, Callable[[int], str]]:
    realized = domain.realize(instance.facts, instance.language, instance) + " "
    words = " ".join(sorted({w for w in realized.split() if w[:1].isupper()})[:6]) + " lap 12 soft 3.5 seconds "
    return {
        "realized text": lambda n: (realized * (n // len(realized) + 1))[:n],
        "one endless sentence of names and numbers": lambda n: (words * (n // len(words) + 1))[:n],
        "one word": lambda n: "a" * n,
        "one number": lambda n: "7" * n,
        "commas": lambda n: ("then, " * n)[:n],
    }


def _cpu(extract: Callable[[], object]) -> float:
    started = time.process_time()
    extract()
    return time.process_time() - started


def _ratio(large: Callable[[], object], small: Callable[[], object], rounds: int = 5) -> float:
    """CPU of ``large`` over ``small``, each its best of ``rounds``, measured in turn: a busy
    machine only adds time, and a burst of load then falls on both sides of the ratio."""
    best_large = best_small = float("inf")
    for _ in range(rounds):
        best_small = min(best_small, _cpu(small))
        best_large = min(best_large, _cpu(large))
    return best_large / max(best_small, 0.005)


@pytest.mark.parametrize("domain_name", list(INSTANCES))
def test_extraction_is_linear_in_the_length_of_the_text(domain_name):
    domain = get_domain(domain_name)
    instance = _first_instance(INSTANCES[domain_name])
    extractor = get_extractor(domain.default_extractor, instance.language)
    ratios = {}
    for name, make in _texts(domain, instance).items():
        small, large = make(N), make(4 * N)
        ratios[name] = _ratio(lambda text=large: extractor.extract(text, instance),
                              lambda text=small: extractor.extract(text, instance))
    assert all(ratio < 8 for ratio in ratios.values()), ratios
