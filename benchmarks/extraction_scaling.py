"""Extraction time against text length, adversarial texts included: is it linear?

For the f1 and weather regex extractors, six texts (the realized demo text repeated,
one endless sentence of names and numbers, one long word, one long number, commas,
numbers with units) at
125 KB, 250 KB, 500 KB and 1 MB; CPU seconds of one ``extract`` call each (best of
--repeat), seconds per MB, and the ratio of 1 MB to 250 KB (4 when linear, 16 when
quadratic). The test tests/test_extractor_scaling.py makes the same comparison at
25 KB vs 100 KB with a bound of 8.

    python benchmarks/extraction_scaling.py [--repeat 2] [--domain f1 --domain weather]
"""

from __future__ import annotations

import argparse
import gzip
import json
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
INSTANCES = {
    "f1": REPO / "domains" / "f1" / "demo_instances.jsonl.gz",
    "weather": REPO / "domains" / "weather" / "demo_instances.jsonl",
}
SIZES = (125_000, 250_000, 500_000, 1_000_000)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--domain", action="append", choices=sorted(INSTANCES))
    args = parser.parse_args()
    from factcov.model import Instance
    from factcov.plugins import get_domain, get_extractor

    for name in args.domain or sorted(INSTANCES):
        path = INSTANCES[name]
        opener = gzip.open if path.suffix == ".gz" else open
        with opener(path, "rt", encoding="utf-8") as handle:
            instance = Instance.model_validate(json.loads(handle.readline()))
        domain = get_domain(name)
        extractor = get_extractor(domain.default_extractor, instance.language)
        realized = domain.realize(instance.facts, instance.language, instance) + " "
        words = " ".join(sorted({w for w in realized.split() if w[:1].isupper()})[:6]) + " lap 12 soft 3.5 seconds "
        texts = {
            "realized text": realized, "names and numbers, one sentence": words,
            "one word": "a", "one number": "7", "commas": "then, ",
            "numbers with units": "12 mph 30 degrees 40% 10 to 15 mph ",  # a claim every few characters (weather)
        }
        print(f"## {name} ({extractor.signature()})")
        print("| text | " + " | ".join(f"{n // 1000} KB" for n in SIZES) + " | s per MB | 1 MB / 250 KB |")
        print("|---|" + "---|" * (len(SIZES) + 2))
        for label, unit in texts.items():
            seconds = []
            for size in SIZES:
                text = (unit * (size // len(unit) + 1))[:size]
                best = float("inf")
                for _ in range(args.repeat):
                    started = time.process_time()
                    extractor.extract(text, instance)
                    best = min(best, time.process_time() - started)
                seconds.append(best)
            ratio = seconds[-1] / max(seconds[1], 1e-3)
            print(f"| {label} | " + " | ".join(f"{s:.2f}" for s in seconds)
                  + f" | {seconds[-1]:.2f} | {ratio:.1f} |")
        print()


if __name__ == "__main__":
    main()
