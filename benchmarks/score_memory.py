"""Peak memory and CPU time of `factcov score` as the generations file grows.

Instances: the first --instances NWS periods of ../shared/data/weather/nws_periods.jsonl.gz
(English). Generations: --systems systems per instance, system 0 NWS's own text and
system k the same text without its k-th sentence (so scores differ), written system after
system. Each size in --lines scores the first N lines of that file in a fresh process,
which reports its CPU time (``time.process_time``) and peak RSS (``ru_maxrss``).

    python benchmarks/score_memory.py --instances 100000 --systems 20 --lines 200000,2000000
    python benchmarks/score_memory.py --instances 10000 --systems 20 --lines 50000,200000 --baseline 4e89082

With --baseline the same sizes are also scored by that commit's code, in the same run.
Memory bounded by design means the peak stays flat as --lines grows; it still grows
with the instances, which are held in memory (~5 KB each for weather).
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

REPO = Path(__file__).resolve().parents[1]
PERIODS = REPO.parent / "shared" / "data" / "weather" / "nws_periods.jsonl.gz"

RUN = """
import json, resource, sys, time
from factcov.runner import score_files
start = time.process_time()
outcome = score_files("weather", sys.argv[1], sys.argv[2], sys.argv[3], report=False)
print(json.dumps({"cpu": time.process_time() - start, "peak_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
                  "generations": outcome.summary["n_generations"]}))
"""


def write_inputs(folder: Path, instances: int, systems: int) -> Path:
    from factcov.domains.weather.instances import instances_of
    from factcov.domains.weather.periods import iter_file_periods

    periods = itertools.islice((p for p in iter_file_periods(PERIODS) if p.detailed_forecast), instances)
    texts: list[tuple[str, str]] = []
    with open(folder / "instances.jsonl", "w") as handle:
        for period in periods:
            instance = next(instances_of(period, ["en"]))
            handle.write(instance.model_dump_json() + "\n")
            texts.append((instance.id, period.detailed_forecast))
    generations = folder / "generations.jsonl"
    with open(generations, "w") as handle:
        for system in range(systems):
            for instance_id, text in texts:
                sentences = re.split(r"(?<=\.)\s+", text)
                if system and len(sentences) > 1:
                    del sentences[system % len(sentences)]
                handle.write(json.dumps({"instance_id": instance_id, "system": f"system-{system:02d}",
                                         "text": " ".join(sentences)}) + "\n")
    return generations


def score(tree: Path | None, folder: Path, lines: int) -> dict:
    from baseline import command

    part = folder / f"generations-{lines}.jsonl"
    if not part.exists():
        with open(folder / "generations.jsonl") as source, open(part, "w") as target:
            target.writelines(itertools.islice(source, lines))
    out = Path(tempfile.mkdtemp(prefix="score-memory-"))
    done = subprocess.run(command(tree, "-c", RUN, str(folder / "instances.jsonl"), str(part), str(out)),
                          capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(done.stderr[-3000:])
    return json.loads(done.stdout.strip().splitlines()[-1])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--instances", type=int, default=100_000)
    parser.add_argument("--systems", type=int, default=20)
    parser.add_argument("--lines", default="200000,2000000", help="comma-separated sizes to score")
    parser.add_argument("--baseline", help="also score with this commit's code")
    parser.add_argument("--folder", type=Path, help="keep the generated files here")
    args = parser.parse_args(argv)
    folder = args.folder or Path(tempfile.mkdtemp(prefix="score-memory-inputs-"))
    folder.mkdir(parents=True, exist_ok=True)
    if not (folder / "generations.jsonl").exists():
        write_inputs(folder, args.instances, args.systems)
    trees: list[tuple[str, Path | None]] = [("this worktree", None)]
    if args.baseline:
        from baseline import checkout

        trees.insert(0, (args.baseline, checkout(args.baseline)))
    print(f"{args.instances:,} instances, {args.systems} systems; load average {os.getloadavg()[0]:.1f}")
    print(f"{'code':16} {'lines':>10} {'CPU s':>8} {'gen/s':>8} {'peak MiB':>9}")
    for lines in (int(n) for n in args.lines.split(",")):
        for name, tree in trees:
            result = score(tree, folder, lines)
            print(f"{name:16} {result['generations']:>10,} {result['cpu']:>8.1f} "
                  f"{result['generations'] / result['cpu']:>8,.0f} {result['peak_mib']:>9,.0f}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
