"""The generate -> refine loop against the test suite's local model server, on every demo instance.

The server (tests/chat_server.py) answers from the real oracle facts with a third left
out and a quarter wrong, and fixes half of what the feedback names; ``--latency`` makes
each answer take that long, like a model. Measured in one run: generate at concurrency 1
and N (same requests, no cache), a resumed rerun (no request), refinement F1 per round
and the SFT export.

    python benchmarks/loop_fake_model.py --domain f1 --latency 0.05 --concurrency 8 --rounds 3
"""

from __future__ import annotations

import argparse
import csv
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from factcov.cli.app import run  # noqa: E402
from factcov.plugins import get_domain  # noqa: E402
from tests.chat_server import ChatServer, ModelBehaviour  # noqa: E402

DEMO = {"f1": REPO / "domains" / "f1" / "demo_instances.jsonl.gz",
        "weather": REPO / "domains" / "weather" / "demo_instances.jsonl"}


def timed(argv: list[str]) -> float:
    start = time.perf_counter()
    code = run(argv)
    if code != 0:
        raise SystemExit(f"{' '.join(argv[:3])} exited {code}")
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--domain", default="f1", choices=sorted(DEMO))
    parser.add_argument("--latency", type=float, default=0.05)
    parser.add_argument("--concurrency", type=int, default=8)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    from factcov.inputs import load_instances

    instances = DEMO[args.domain]
    chosen = list(load_instances(instances, get_domain(args.domain)).values())
    model = ModelBehaviour(chosen, delay_s=args.latency)
    with tempfile.TemporaryDirectory() as tmp, ChatServer(model) as server:
        out = Path(tmp)
        chat = ["--model", "fake", "--base-url", server.url, "-q"]
        base = ["generate", "-d", args.domain, "-i", str(instances), "--no-cache", *chat]
        serial = timed([*base, "-o", str(out / "serial.jsonl"), "-c", "1"])
        parallel = timed([*base, "-o", str(out / "gens.jsonl"), "-c", str(args.concurrency)])
        asked = len(model.requests)
        resumed = timed([*base, "-o", str(out / "gens.jsonl")])
        assert len(model.requests) == asked
        refine = timed(["refine", "-d", args.domain, "-i", str(instances), "-g", str(out / "gens.jsonl"),
                        "-o", str(out / "refined"), "--rounds", str(args.rounds), "--no-report", "--no-cache",
                        "-c", str(args.concurrency), *chat])
        export = timed(["export", "sft", "-d", args.domain, "-i", str(instances), "-o", str(out / "sft.jsonl"), "-q"])
        with (out / "refined" / "rounds.csv").open() as handle:
            rounds = list(csv.DictReader(handle))
    n = len(chosen)
    print(f"{args.domain}: {n} instances, server latency {args.latency:g} s per answer")
    print(f"generate, concurrency 1:  {serial:6.2f} s ({n / serial:6.1f} instances/s)")
    print(f"generate, concurrency {args.concurrency}:  {parallel:6.2f} s ({n / parallel:6.1f} instances/s), "
          f"x{serial / parallel:.1f}")
    print(f"resumed rerun:            {resumed:6.2f} s (0 requests)")
    print(f"refine, {args.rounds} rounds:        {refine:6.2f} s")
    print(f"export sft:               {export:6.2f} s")
    print("round  revised  precision  recall  f1")
    for row in rounds:
        print(f"{row['round']:>5}  {row['revised']:>7}  {float(row['precision']):9.3f}  {float(row['recall']):6.3f}  "
              f"{float(row['f1']):.3f}")


if __name__ == "__main__":
    main()
