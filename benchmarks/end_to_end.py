"""`factcov score` end to end against chrF++ (and rag against a raw `nlp.pipe`), as users run them.

Every command runs as a whole process (start-up, imports, reading, writing included);
reported: its CPU seconds (user + system of the process and the children it waited
for, from ``os.wait4``) and peak memory (max RSS), median of ``--repeat`` runs, and the
ratios measured in the same run. The input is built here from ``../shared/data``:

- **f1**: the 2021 season in English (``factcov f1 build``, 574 instances); ten systems
  whose texts drop a growing share (0%, 10%, ... 90%) of the sentences of the silver
  text (the domain's realization of the instance's facts), which is also chrF++'s
  reference. One generations file written system after system (as users concatenate
  per-system outputs: "system-ordered"), the same lines sorted by instance
  ("instance-ordered") and shuffled, each as ``generations.jsonl`` in a folder of its own
  (summary.json records the file's name: one name, so the orders' outputs compare byte
  for byte, printed as "same bytes in every input order"). factcov: ``factcov score -d f1 -i … -g … -o …
  --no-report -q``; chrF++: ``sacrebleu ref.txt -i hyp.txt -m chrf --chrf-word-order 2``
  on the same texts (one line each) in the same order.
- **weather**: the periods of the first 40 responses of
  ``weather/nws_forecast_responses_sample.jsonl.gz`` (560 periods, English, ``factcov
  weather build --nws-generations``), NWS's own text as the silver text, the same ten
  systems, system-ordered.
- **rag**: HaluEval QA (``halueval-qa``): each question's right answer and its one-turn
  and multi-turn hallucinated answers (three answers a question), the knowledge passage
  as the one context and the right answer as the reference: ``factcov rag score -i …
  -o … --no-report -q`` against a process that loads the same spaCy model and runs
  ``nlp.pipe`` (batch 256, every component) over the run's *distinct* texts (answers,
  references, passages) once each.

    python benchmarks/end_to_end.py                                # everything, median of 3
    python benchmarks/end_to_end.py --rounds 4 --repeat 1 --rag-questions 100   # a quick sample
    python benchmarks/end_to_end.py --only f1 --baseline main      # also main's code, interleaved

The machine is shared: CPU time, not wall time, is compared, and the load average is
printed before and after. Every command runs once first, unmeasured (``--warm-up``), and
without ``PYTHONDONTWRITEBYTECODE``: what is measured is a user's run after the first one
(Python's bytecode caches written, as pip wrote sacrebleu's; compile_fast's programs
cached on disk).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile
import zlib
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

REPO = Path(__file__).resolve().parents[1]
DATA = REPO.parent / "shared" / "data"
SYSTEMS = 10  # system k drops k/10 of the silver text's sentences
OUTPUTS = ("claims.parquet", "scores.parquet", "systems.csv", "summary.json")
CLI = "import sys; from factcov.cli.app import main; sys.argv[0] = 'factcov'; main()"
SENTENCE = re.compile(r"(?<=[.!?])\s+")
# the floor of rag: the same model, batch size and components, over the distinct texts
FLOOR = """
import json, sys
from factcov.extractors.spacy_backend import load_pipeline, resolve_model
texts = json.load(open(sys.argv[1], encoding="utf-8"))
nlp = load_pipeline(resolve_model(None))
for _ in nlp.pipe(texts, batch_size=256):
    pass
"""


# The commands run as a user's would: Python writes and reads its bytecode caches (this
# machine's shells set PYTHONDONTWRITEBYTECODE, so an editable install's modules would be
# compiled from source in every run, ~0.1 s, while sacrebleu's were compiled by pip).
CHILD_ENV = {name: value for name, value in os.environ.items() if name != "PYTHONDONTWRITEBYTECODE"}


def measured(command: list[str], cwd: Path | None = None) -> dict[str, float]:
    """Run ``command`` to its end; its CPU seconds and peak MiB (and those of the children it waited for)."""
    process = subprocess.Popen(command, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=CHILD_ENV)
    stderr = process.stderr.read()  # type: ignore[union-attr]
    _, status, usage = os.wait4(process.pid, 0)
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode != 0:
        raise SystemExit(f"{' '.join(command)[:300]}: exit {process.returncode}\n{stderr.decode()[-3000:]}")
    return {"cpu": usage.ru_utime + usage.ru_stime, "mib": usage.ru_maxrss / 1024}


def factcov(tree: Path | None, *args: str) -> list[str]:
    from baseline import command

    return command(tree, "-c", CLI, *args)


def dropped(text: str, share: float, seed: str) -> str:
    """``text`` without ``share`` of its sentences (a fixed choice per seed)."""
    sentences = SENTENCE.split(text.strip())
    drop = round(len(sentences) * share)
    if drop >= len(sentences):
        drop = len(sentences) - 1
    gone = set(random.Random(zlib.crc32(seed.encode())).sample(range(len(sentences)), drop))
    return " ".join(s for i, s in enumerate(sentences) if i not in gone)


def systems_of(silver: dict[str, str]) -> list[dict[str, str]]:
    """The ten systems' generations, system after system."""
    return [
        {"instance_id": instance_id, "system": f"drop{k * 10:02d}",
         "text": dropped(text, k / SYSTEMS, f"{instance_id}/{k}")}
        for k in range(SYSTEMS) for instance_id, text in silver.items()
    ]


def write_orders(folder: Path, name: str, generations: list[dict[str, str]], silver: dict[str, str]) -> dict[str, Path]:
    """The generations file in each order, and chrF++'s ref/hyp files for the system-ordered one."""
    orders = {
        "system-ordered": generations,
        "instance-ordered": sorted(generations, key=lambda g: (g["instance_id"], g["system"])),
        "shuffled": random.Random(7).sample(generations, len(generations)),
    }
    paths = {}
    for order, lines in orders.items():
        # one file name in every order (a folder each): summary.json records the
        # generations file's name, so the orders' outputs can be compared byte for byte
        (folder / f"{name}-{order}").mkdir(exist_ok=True)
        path = paths[order] = folder / f"{name}-{order}" / "generations.jsonl"
        path.write_text("".join(json.dumps(g, ensure_ascii=False) + "\n" for g in lines), encoding="utf-8")
    one_line = [" ".join(g["text"].split()) for g in generations]
    (folder / f"{name}-hyp.txt").write_text("".join(t + "\n" for t in one_line), encoding="utf-8")
    (folder / f"{name}-ref.txt").write_text(
        "".join(" ".join(silver[g["instance_id"]].split()) + "\n" for g in generations), encoding="utf-8")
    return paths


def build_f1(folder: Path, rounds: int | None) -> dict[str, Path]:
    from factcov.instance_files import iter_instance_file
    from factcov.plugins import get_domain

    instances = folder / "f1.jsonl"
    args = ["f1", "build", "--laps", str(DATA / "f1" / "laps" / "2021.csv.gz"), "--ergast", str(DATA / "f1" / "ergast"),
            "--seasons", "2021", "--languages", "en", "-o", str(instances), "-q"]
    if rounds:
        args += ["--rounds", ",".join(str(r) for r in range(1, rounds + 1))]
    subprocess.run(factcov(None, *args), check=True, stdout=subprocess.DEVNULL)
    domain = get_domain("f1")
    silver = {}
    for _, instance in iter_instance_file(instances):
        silver[instance.id] = domain.realize(instance.facts, instance.language, instance)
    paths = write_orders(folder, "f1", systems_of(silver), silver)
    paths["instances"] = instances
    return paths


def build_weather(folder: Path, responses: int) -> dict[str, Path]:
    sample = folder / "responses.jsonl"
    with subprocess.Popen(["zcat", str(DATA / "weather" / "nws_forecast_responses_sample.jsonl.gz")],
                          stdout=subprocess.PIPE) as unzip:
        lines = [unzip.stdout.readline() for _ in range(responses)]  # type: ignore[union-attr]
        unzip.kill()
    sample.write_bytes(b"".join(lines))
    instances, nws = folder / "weather.jsonl", folder / "weather-nws.jsonl"
    subprocess.run(factcov(None, "weather", "build", "-f", str(sample), "-l", "en", "-o", str(instances),
                           "--nws-generations", str(nws), "-q"), check=True, stdout=subprocess.DEVNULL)
    silver = {}
    for line in nws.read_text(encoding="utf-8").splitlines():
        generation = json.loads(line)
        silver[generation["instance_id"]] = generation["text"]
    paths = write_orders(folder, "weather", systems_of(silver), silver)
    paths["instances"] = instances
    return paths


def build_rag(folder: Path, questions: int) -> tuple[Path, Path, int, int]:
    """The answers file, the distinct texts (JSON list), the answers and the texts a run parses in all."""
    answers, texts = [], []
    with open(DATA / "halueval-qa" / "qa_one-turn_data.json", encoding="utf-8") as one, open(
            DATA / "halueval-qa" / "qa_multi-turn_data.json", encoding="utf-8") as multi:
        for number, (first, second) in enumerate(zip(one, multi)):
            if number >= questions:
                break
            a, b = json.loads(first), json.loads(second)
            for system, text in (("right", a["right_answer"]), ("one-turn", a["hallucinated_answer"]),
                                 ("multi-turn", b["hallucinated_answer"])):
                answers.append({"id": f"q{number}-{system}", "system": system, "question": a["question"],
                                "answer": text, "reference": a["right_answer"],
                                "contexts": [{"id": "k", "text": a["knowledge"]}]})
                texts += [text, a["right_answer"], a["knowledge"]]
    path, distinct = folder / "answers.jsonl", folder / "distinct.json"
    path.write_text("".join(json.dumps(a, ensure_ascii=False) + "\n" for a in answers), encoding="utf-8")
    unique = list(dict.fromkeys(texts))
    distinct.write_text(json.dumps(unique), encoding="utf-8")
    return path, distinct, len(answers), len(texts)


def digest(out: Path) -> str:
    return hashlib.sha256(b"".join((out / name).read_bytes() for name in OUTPUTS)).hexdigest()[:16]


def median_run(commands: dict[str, list[str]], repeat: int, outs: dict[str, Path], warm_up: int = 1) -> dict[str, dict]:
    """Each command ``warm_up`` times unmeasured (a user's second run: bytecode and
    compile_fast's programs cached), then ``repeat`` times, interleaved; the median CPU
    and peak memory of each."""
    runs: dict[str, list[dict[str, float]]] = {name: [] for name in commands}
    digests: dict[str, str] = {}
    for round_ in range(warm_up + repeat):
        for name, command in commands.items():
            out = outs.get(name)
            if out is not None:
                subprocess.run(["rm", "-rf", str(out)], check=True)
            usage = measured(command)
            if round_ >= warm_up:
                runs[name].append(usage)
            if out is not None:
                digests[name] = digest(out)
    return {name: {"cpu": statistics.median(r["cpu"] for r in found), "mib": statistics.median(r["mib"] for r in found),
                   "runs": [round(r["cpu"], 2) for r in found], "digest": digests.get(name)}
            for name, found in runs.items()}


def print_rows(title: str, rows: dict[str, dict], texts: int, against: str, ratio_goal: str) -> None:
    floor = rows[against]["cpu"]
    print(f"\n{title}")
    print(f"{'command':44} {'CPU s':>7} {'texts/s':>8} {'peak MiB':>9} {'ratio':>7}  runs, outputs")
    for name, row in rows.items():
        rate = texts / row["cpu"] if row["cpu"] else 0.0
        print(f"{name:44} {row['cpu']:7.2f} {rate:8,.0f} {row['mib']:9.0f} {row['cpu'] / floor:6.2f}x  "
              f"{row['runs']} {row['digest'] or ''}")
    print(f"(ratio: CPU / {against}'s; goal {ratio_goal})")


def f1_like(name: str, paths: dict[str, Path], folder: Path, trees: list[tuple[str, Path | None]], repeat: int,
            orders: tuple[str, ...], warm_up: int = 1) -> None:
    commands, outs = {}, {}
    lines = sum(1 for _ in open(paths["system-ordered"], encoding="utf-8"))
    for prefix, tree in trees:
        for order in orders:
            label = f"{prefix}factcov score -d {name}, {order}"
            outs[label] = folder / f"out-{name}-{order}-{len(commands)}"
            commands[label] = factcov(tree, "score", "-d", name, "-i", str(paths["instances"]), "-g", str(paths[order]),
                                      "-o", str(outs[label]), "--no-report", "-q")
    commands["chrF++ (sacrebleu)"] = [str(Path(sys.executable).with_name("sacrebleu")), str(folder / f"{name}-ref.txt"),
                                      "-i", str(folder / f"{name}-hyp.txt"), "-m", "chrf", "--chrf-word-order", "2"]
    rows = median_run(commands, repeat, outs, warm_up)
    print_rows(f"{name}: {lines:,} texts, {SYSTEMS} systems", rows, lines, "chrF++ (sacrebleu)", "<= 0.50x")
    if len(trees) > 1:  # each order's output files, this code's against the baseline's
        same = [rows[f"{trees[0][0]}factcov score -d {name}, {order}"]["digest"]
                == rows[f"factcov score -d {name}, {order}"]["digest"] for order in orders]
        print(f"same bytes as {trees[0][0].rstrip(': ')} in every order: {all(same)}")
    for prefix, _tree in trees:  # rows are in the canonical order (factcov.canonical_order): any input order
        found = {rows[f"{prefix}factcov score -d {name}, {order}"]["digest"] for order in orders}
        if len(orders) > 1:
            print(f"{prefix}{name}: {'same bytes' if len(found) == 1 else 'DIFFERENT bytes'} in every input order")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", choices=("f1", "weather", "rag"), action="append", help="run only these (repeatable)")
    parser.add_argument("--repeat", type=int, default=3, help="runs of each command (the median is kept)")
    parser.add_argument("--rounds", type=int, help="f1: rounds 1..N of 2021 only (a sample)")
    parser.add_argument("--responses", type=int, default=40, help="weather: NWS responses (14 periods each)")
    parser.add_argument("--rag-questions", type=int, default=500, help="rag: HaluEval questions (3 answers each)")
    parser.add_argument("--baseline", help="also run factcov on this commit's code, interleaved")
    parser.add_argument("--warm-up", type=int, default=1, help="unmeasured runs of each command first (0: a cold first run counts)")
    args = parser.parse_args(argv)
    only = set(args.only or ("f1", "weather", "rag"))
    folder = Path(tempfile.mkdtemp(prefix="end-to-end-"))
    trees: list[tuple[str, Path | None]] = [("", None)]
    if args.baseline:
        from baseline import checkout

        trees.insert(0, (f"{args.baseline}: ", checkout(args.baseline)))
    print(f"load average {os.getloadavg()[0]:.1f}; {os.cpu_count()} cores; inputs in {folder}")
    if "f1" in only:
        f1_like("f1", build_f1(folder, args.rounds), folder, trees, args.repeat,
                ("system-ordered", "instance-ordered", "shuffled"), args.warm_up)
    if "weather" in only:
        f1_like("weather", build_weather(folder, args.responses), folder, trees, args.repeat, ("system-ordered",), args.warm_up)
    if "rag" in only:
        answers, distinct, count, parsed = build_rag(folder, args.rag_questions)
        commands, outs = {}, {}
        for prefix, tree in trees:
            label = f"{prefix}factcov rag score"
            outs[label] = folder / f"out-rag-{len(commands)}"
            commands[label] = factcov(tree, "rag", "score", "-i", str(answers), "-o", str(outs[label]),
                                      "--no-report", "-q")
        commands["nlp.pipe over the distinct texts"] = [sys.executable, "-c", FLOOR, str(distinct)]
        rows = median_run(commands, args.repeat, outs, args.warm_up)
        unique = len(json.loads(distinct.read_text(encoding="utf-8")))
        print_rows(f"rag: {count:,} answers, {parsed:,} texts parsed ({unique:,} distinct)", rows, count,
                   "nlp.pipe over the distinct texts", "<= 1.20x")
    print(f"\nload average after: {os.getloadavg()[0]:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
