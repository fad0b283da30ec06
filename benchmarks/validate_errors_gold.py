"""`validate errors` on gold made by corruption, for every built-in domain.

For each domain, `validate perturb --write-gold` corrupts k facts (a third) of each
instance's realized complete text and writes the corrupted spans as gold errors; the
complete texts are scored too (system `realized`, no error: every flag there is a false
alarm). Then the default extractor's contradicted claims are matched against the gold,
with the claim's value span and with its statement span, lenient and strict.

Instances: f1 and weather their `example_instances()`; rag the first 50 WebNLG 2020 test
entries (each entry's triples its complete fact set).

    python benchmarks/validate_errors_gold.py [--data ../shared/data] [--json out.json]
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def instances_of(domain: str, data: Path):
    from factcov.plugins import get_domain

    if domain == "rag":
        from factcov.domains.rag.webnlg import load_instances

        by_number = load_instances(data / "webnlg2020" / "test-en.xml", range(1, 51))
        return [by_number[n] for n in sorted(by_number)]
    return list(get_domain(domain).example_instances())


def measure(domain: str, data: Path, seed: int) -> dict:
    from factcov.plugins import get_domain
    from factcov.validation.corrupted_gold import write_gold
    from factcov.validation.errors import validate_errors

    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        written = write_gold(get_domain(domain), instances_of(domain, data), folder, seed=seed)
        row: dict = {"domain": domain, **written}
        for span in ("value", "statement"):
            start = time.process_time()
            outcome, signature = validate_errors(domain, folder / "instances.jsonl", folder / "generations.jsonl",
                                                 folder / "errors.jsonl", span=span)
            result = outcome.as_dict()
            row[span] = {mode: {k: result[mode][k] for k in ("recall", "precision", "recalled", "predictions",
                                                             "missed")} for mode in ("lenient", "strict")}
            row[span]["cpu_seconds"] = round(time.process_time() - start, 2)
            row["signature"] = signature
    return row


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=REPO.parent / "shared" / "data")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args()
    rows = [measure(domain, args.data, args.seed) for domain in ("f1", "weather", "rag")]
    print("| domain | texts | gold errors | span | lenient R | lenient P | strict R | strict P | strict misses by cause |")
    print("|---|---|---|---|---|---|---|---|---|")
    for row in rows:
        for span in ("value", "statement"):
            lenient, strict = row[span]["lenient"], row[span]["strict"]
            causes = ", ".join(f"{cause} {n}" for cause, n in strict["missed"].items() if n) or "none"
            print(f"| {row['domain']} | {row['generations']} | {row['errors']} | {span} | {lenient['recall']:.3f} | "
                  f"{lenient['precision']:.3f} | {strict['recall']:.3f} | {strict['precision']:.3f} | {causes} |")
    if args.json:
        args.json.write_text(json.dumps(rows, indent=2), encoding="utf-8")


if __name__ == "__main__":
    main()
