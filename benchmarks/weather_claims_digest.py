"""The claims `weather-regex` reads from a fixed corpus, as one digest: a speed change must keep it.

Corpus: for the first 3,000 NWS periods of the shared sample, NWS's own text and the
realized text in en, es and pt, the realized sentences shuffled and joined by other
punctuation, and a cut text with words repeated at random; and texts of numbers with
units, 20 KB each (the hostile kind issue 31 timed). Each text's claims (every field) are
one JSON line; the digest is the SHA-256 of the lines.

    python benchmarks/weather_claims_digest.py                  # digest of this worktree's code
    python benchmarks/weather_claims_digest.py --baseline main  # and of main's code, compared
    python benchmarks/weather_claims_digest.py --out claims.jsonl  # the lines, to diff
"""

from __future__ import annotations

import argparse
import hashlib
import itertools
import json
import random
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(Path(__file__).resolve().parent))
DATA = REPO.parent / "shared" / "data" / "weather" / "nws_forecast_responses_sample.jsonl.gz"
UNITS = ("12 mph ", "30 mph 45 degrees 40% 10 to 15 mph ", "5 km/h 30% 40 °F 2 inches ", "High near 30, low 45. ",
         "viento de 20 km/h, 30 %, máxima de 25 °C ", "vento de 15 km/h, 40%, mínima de 12 graus ")


def claim_lines(data: Path, periods: int) -> list[str]:
    from factcov.domains.weather.extractor import WeatherRegexExtractor
    from factcov.domains.weather.oracle import relevant_facts
    from factcov.domains.weather.periods import iter_file_periods
    from factcov.domains.weather.realizer import realize

    extractors = {language: WeatherRegexExtractor(language) for language in ("en", "es", "pt")}
    lines: list[str] = []

    def read(tag: str, language: str, text: str) -> None:
        claims = extractors[language].extract(text)
        lines.append(json.dumps([tag, language, [c.model_dump(mode="json") for c in claims]], sort_keys=True))

    rng = random.Random(7)
    for period in itertools.islice(iter_file_periods(data), periods):
        if period.detailed_forecast:
            read("nws", "en", period.detailed_forecast)
        for language in extractors:
            realized = realize(relevant_facts(period), language)
            read("realized", language, realized)
            sentences = realized.split(". ")
            rng.shuffle(sentences)
            read("shuffled", language, rng.choice([", and ", "; ", " ", ".\n", " but "]).join(sentences))
            words = realized.split()
            cut = rng.randrange(len(words) + 1)
            read("cut", language, " ".join(words[:cut]) + " " + " ".join(rng.sample(words, min(8, len(words)))))
    for unit in UNITS:
        for language in extractors:
            read("units", language, (unit * (20_000 // len(unit) + 1))[:20_000])
    return lines


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--periods", type=int, default=3000)
    parser.add_argument("--out", type=Path, help="also write the claim lines here")
    parser.add_argument("--baseline", help="also read the corpus with this commit's code and compare")
    args = parser.parse_args()
    lines = claim_lines(args.data, args.periods)
    text = "\n".join(lines) + "\n"
    if args.out:
        args.out.write_text(text, encoding="utf-8")
    print(f"{len(lines)} texts, claims digest {hashlib.sha256(text.encode()).hexdigest()}")
    if not args.baseline:
        return 0
    from baseline import compare_lines

    return compare_lines(args.baseline, __file__, lines, "--data", str(args.data), "--periods", str(args.periods))


if __name__ == "__main__":
    sys.exit(main())
