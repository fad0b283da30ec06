"""The claims `f1-regex` reads from a fixed corpus, as one digest: a speed change must keep it.

Corpus (about 16,000 texts): for every instance of 11 real races (2019-2024), its
realized text, a hand-varied text (benchmarks/f1_regex.py), the realized sentences
shuffled and joined by other punctuation, and a cut text with words repeated at random;
and every string of 16 characters or more in the f1 tests, read against 12 instances
of each language. Each text's claims (every field) are written as one JSON line; the
digest is the SHA-256 of the lines.

    python benchmarks/f1_claims_digest.py                  # digest of this worktree's code
    python benchmarks/f1_claims_digest.py --baseline main  # and of main's code, compared
    python benchmarks/f1_claims_digest.py --out claims.jsonl  # the lines, to diff

With --baseline, the other commit's code reads the corpus built by this worktree's
oracle (its instances are handed over in a file), so an oracle change that changes the
facts of these races still compares the extractors alone on the same texts.
"""

from __future__ import annotations

import argparse
import ast
import hashlib
import importlib.util
import json
import random
import sys
import tempfile
import zlib
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(Path(__file__).resolve().parent))

RACES = [(2021, r) for r in range(1, 6)] + [(2019, 3), (2022, 1), (2023, 1), (2024, 1), (2020, 9), (2021, 14)]


def _varied():
    spec = importlib.util.spec_from_file_location("f1_regex", Path(__file__).with_name("f1_regex.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.varied


def test_strings(tests: Path) -> list[str]:
    strings: set[str] = set()
    for path in sorted(tests.glob("*f1*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and len(node.value) > 15 and " " in node.value:
                strings.add(node.value)
    return sorted(strings)


def corpus_instances(data: Path, instances_file: Path | None = None) -> list:
    """The corpus's instances: built from the races by this code's oracle, or read back
    from ``instances_file`` (one instance JSON a line) as another run built them."""
    from factcov.model import Instance

    if instances_file is not None:
        return [Instance.model_validate_json(line) for line in instances_file.read_text(encoding="utf-8").splitlines()]
    from factcov.domains.f1.instances import race_instances
    from factcov.domains.f1.source import race

    return [i for season, round_ in RACES for i in race_instances(race(data, season, round_))]


def claim_lines(data: Path, tests: Path, instances_file: Path | None = None) -> list[str]:
    from factcov.plugins import get_domain, get_extractor

    domain = get_domain("f1")
    varied = _varied()
    extractors = {language: get_extractor("f1-regex", language) for language in ("en", "es", "pt")}
    instances = corpus_instances(data, instances_file)
    lines: list[str] = []

    def read(tag: str, instance, text: str, language: str) -> None:
        claims = extractors[language].extract(text, instance)
        lines.append(json.dumps([tag, instance.id, [c.model_dump(mode="json") for c in claims]], sort_keys=True))

    rng = random.Random(7)
    by_language: dict[str, list] = {}
    for instance in instances:
        by_language.setdefault(instance.language, []).append(instance)
        realized = domain.realize(instance.facts, instance.language, instance)
        read("realized", instance, realized, instance.language)
        read("varied", instance, varied(instance, random.Random(zlib.crc32(instance.id.encode()))), instance.language)
        sentences = realized.split(". ")
        rng.shuffle(sentences)
        read("shuffled", instance, rng.choice([", and ", "; ", " ", ".\n", " but "]).join(sentences), instance.language)
        words = realized.split()
        cut = rng.randrange(len(words) + 1)
        read("cut", instance, " ".join(words[:cut]) + " " + " ".join(rng.sample(words, min(8, len(words)))),
             instance.language)
    for language, group in by_language.items():
        picks = [group[i] for i in range(0, len(group), max(1, len(group) // 12))][:12]
        for text in test_strings(tests):
            for instance in picks:
                read("test-string", instance, text, language)
    return lines


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=REPO.parent / "shared" / "data" / "f1")
    parser.add_argument("--tests", type=Path, default=REPO / "tests", help="where the test strings come from")
    parser.add_argument("--out", type=Path, help="also write the claim lines here")
    parser.add_argument("--baseline", help="also read the corpus with this commit's code and compare")
    parser.add_argument("--instances", type=Path, help="read the corpus's instances from this file (one JSON a line)")
    args = parser.parse_args()
    lines = claim_lines(args.data, args.tests, args.instances)
    text = "\n".join(lines) + "\n"
    if args.out:
        args.out.write_text(text, encoding="utf-8")
    digest = hashlib.sha256(text.encode()).hexdigest()
    print(f"{len(lines)} texts, claims digest {digest}")
    if not args.baseline:
        return 0
    from baseline import compare_lines

    with tempfile.TemporaryDirectory() as tmp:
        corpus = Path(tmp) / "instances.jsonl"
        corpus.write_text("".join(i.model_dump_json() + "\n" for i in corpus_instances(args.data, args.instances)),
                          encoding="utf-8")
        # the same corpus (this worktree's instances, tests and data) read by the other commit's code
        return compare_lines(args.baseline, __file__, lines, "--data", str(args.data), "--tests", str(args.tests),
                             "--instances", str(corpus))


if __name__ == "__main__":
    sys.exit(main())
