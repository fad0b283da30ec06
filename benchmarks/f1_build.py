"""Building the whole f1 benchmark (175 races x 5 tasks x en/es/pt): seconds and peak memory.

Reads ../shared/data/f1 (lap files of 2018-2026 and the Ergast tables), derives every
race, writes every instance (JSON lines, gzipped when --out ends in .gz) and prints the
counts per task and split that docs/domains/f1.md records.

    python benchmarks/f1_build.py [--out /tmp/f1_instances.jsonl] [--languages en,es,pt] [--jobs 2]

The file is written in instance-file format 2 (each race block once). Also printed: the
size the same instances take in format 1 (every line its own race block), and whether
reading the file back gives every instance exactly (SHA-256 over each instance's
format-1 JSON, built vs read: no fact, prompt or context value lost).
"""

from __future__ import annotations

import argparse
import hashlib
import resource
import tempfile
import time
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=REPO.parent / "shared" / "data" / "f1")
    parser.add_argument("--out", type=Path, default=None, help="instances file (default: a temp file)")
    parser.add_argument("--languages", default="en,es,pt")
    parser.add_argument("--jobs", type=int, default=1, help="processes deriving races")
    parser.add_argument("--roundtrip", action="store_true",
                        help="after the timed build, realize every instance's facts and score them (P = R = 1 expected)")
    args = parser.parse_args()

    from factcov.domains.f1.build import iter_race_instances, write_instances

    laps = sorted((args.data / "laps").glob("*.csv.gz"))
    languages = args.languages.split(",")
    counts: Counter = Counter()
    by_season: Counter = Counter()
    races: set[tuple[int, int]] = set()
    built = hashlib.sha256()
    format_1 = 0

    def counted(batches):
        nonlocal format_1
        for batch in batches:
            for instance in batch:
                line = instance.model_dump_json().encode() + b"\n"
                built.update(line)
                format_1 += len(line)
                counts[(instance.task, instance.split)] += 1
                by_season[(instance.task, int(instance.id.split(":")[1]))] += 1
                counts[("facts", instance.split)] += len(instance.facts)
                races.add(tuple(int(p) for p in instance.id.split(":")[1:3]))
            yield batch

    with tempfile.TemporaryDirectory() as tmp:
        out = args.out or Path(tmp) / "f1_instances.jsonl"
        start, cpu_start = time.perf_counter(), time.process_time()
        written = write_instances(out, counted(iter_race_instances(laps, args.data / "ergast", languages=languages, jobs=args.jobs)))
        seconds = time.perf_counter() - start
        children = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = time.process_time() - cpu_start + children.ru_utime + children.ru_stime
        size = out.stat().st_size
        from factcov.instance_files import iter_instance_file

        read = hashlib.sha256()
        for _, instance in iter_instance_file(out):
            read.update(instance.model_dump_json().encode() + b"\n")
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    peak_worker = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    print(f"races: {len(races)}  instances: {written}  languages: {','.join(languages)}  jobs: {args.jobs}")
    worker = f" (largest worker {peak_worker:,.0f} MiB)" if args.jobs > 1 else ""
    print(f"build: {seconds:.1f} s wall, {cpu:.1f} s CPU in all processes ({written / seconds:,.0f} instances/s)"
          f"  peak RSS: {peak:,.0f} MiB{worker}  output: {size / 2**20:,.1f} MiB")
    print(f"format 1 (race block in every instance): {format_1 / 2**20:,.1f} MiB, {format_1 / size:.1f}x the file; "
          f"read back identical: {read.hexdigest() == built.hexdigest()}")
    tasks = sorted({task for task, _ in counts if task != "facts"})
    print(f"{'task':15} {'train':>7} {'test':>7} {'total':>7}")
    for task in tasks:
        train, test = counts[(task, "train")], counts[(task, "test")]
        print(f"{task:15} {train:7d} {test:7d} {train + test:7d}")
    train = sum(counts[(t, "train")] for t in tasks)
    test = sum(counts[(t, "test")] for t in tasks)
    print(f"{'all':15} {train:7d} {test:7d} {train + test:7d}")
    print(f"facts/instance: train {counts[('facts', 'train')] / max(train, 1):.2f}, "
          f"test {counts[('facts', 'test')] / max(test, 1):.2f}")
    seasons = sorted({season for _, season in by_season})
    print(f"{'season':7} " + " ".join(f"{task:>13}" for task in tasks) + f" {'all':>7}")
    for season in seasons:
        row = [by_season[(task, season)] for task in tasks]
        print(f"{season:<7} " + " ".join(f"{n:13d}" for n in row) + f" {sum(row):7d}")
    if args.roundtrip:
        roundtrip(laps, args.data / "ergast", languages)


def roundtrip(laps: list[Path], ergast: Path, languages: list[str]) -> None:
    """Every instance's complete realized text must score P = R = 1 (not timed)."""
    from factcov.domains.f1.build import iter_race_instances
    from factcov.evaluate import Evaluator
    from factcov.plugins import get_domain
    from factcov.scoring import ScoringPolicy

    domain = get_domain("f1")
    evaluator = Evaluator(domain, policy=ScoringPolicy())
    checked, failed = 0, []
    for batch in iter_race_instances(laps, ergast, languages=languages):
        for instance in batch:
            if not instance.facts:
                continue
            text = domain.realize(list(instance.facts), instance.language, instance)
            metrics = evaluator.evaluate_text(instance, text).score.metrics(evaluator.policy)
            checked += 1
            if metrics["precision"] != 1.0 or metrics["recall"] != 1.0:
                failed.append((instance.id, metrics["precision"], metrics["recall"]))
    print(f"realizer round trip: {checked - len(failed)} of {checked} instances at P = R = 1")
    for row in failed[:20]:
        print("  not P = R = 1:", *row)


if __name__ == "__main__":
    main()
