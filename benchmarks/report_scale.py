"""How the report, compare and the explorer cap behave on a large run.

Generations are built from a domain's real demo instances (../shared/data): each
system states every oracle fact, drops some or corrupts some (seeded), so the run holds
all three verdicts. The run is scored once (report off), then timed: `compare_runs`,
`write_report` (size of the page), and, when /usr/bin/chromium exists, the time until
the page has rendered in headless Chromium.

    python benchmarks/report_scale.py --domain f1 --systems 100 [--per-system 200]
"""

from __future__ import annotations

import argparse
import random
import tempfile
import time
from pathlib import Path

from factcov.jsonl import write_jsonl_atomic
from factcov.model import Generation
from factcov.plugins import get_domain


def generations(domain, instances, systems: int, seed: int) -> list[Generation]:
    rng = random.Random(seed)
    rows = []
    for s in range(systems):
        drop, corrupt = (s % 5) / 10, (s % 3) / 10
        for instance in instances:
            facts = []
            for fact in instance.facts:
                if rng.random() < drop:
                    continue
                if rng.random() < corrupt:
                    try:
                        fact = domain.perturb(fact, rng)
                    except ValueError:
                        pass
                facts.append(fact)
            text = domain.realize(facts, instance.language, instance) if facts else "No comment."
            rows.append(Generation(instance_id=instance.id, system=f"system-{s:03d}", text=text))
    return rows


def browser_seconds(page: Path) -> float | None:
    if not Path("/usr/bin/chromium").exists():
        return None
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.support.ui import WebDriverWait

    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    profile = tempfile.mkdtemp()
    for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 f"--user-data-dir={profile}"):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    try:
        start = time.perf_counter()
        driver.get(page.resolve().as_uri())
        WebDriverWait(driver, 300).until(lambda d: d.find_element("tag name", "body").get_attribute("data-ready"))
        return time.perf_counter() - start
    finally:
        driver.quit()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--domain", default="f1")
    parser.add_argument("--systems", type=int, default=100)
    parser.add_argument("--per-system", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()

    from factcov.compare import compare_runs
    from factcov.report import write_report
    from factcov.runner import score_files

    domain = get_domain(args.domain)
    instances = domain.demo_instances()
    rows = generations(domain, instances, args.systems, args.seed)
    with tempfile.TemporaryDirectory() as folder:
        folder = Path(folder)
        write_jsonl_atomic(folder / "instances.jsonl", instances)
        write_jsonl_atomic(folder / "generations.jsonl", rows)
        start = time.process_time()
        score_files(args.domain, folder / "instances.jsonl", folder / "generations.jsonl", folder / "run",
                    report=False)
        scored = time.process_time() - start
        start = time.process_time()
        compare_runs([folder / "run"])
        compared = time.process_time() - start
        start = time.process_time()
        page = write_report([folder / "run"], folder / "report.html", per_system=args.per_system)
        reported = time.process_time() - start
        size = page.stat().st_size
        rendered = browser_seconds(page)
    print(f"{args.domain}: {len(instances)} instances x {args.systems} systems = {len(rows)} generations")
    print("CPU seconds of this process (the machine may be loaded; CPU time is what an idle core needs)")
    print(f"score (report off)   {scored:8.2f} s")
    print(f"compare_runs         {compared:8.2f} s (1000 bootstrap resamples per system and metric)")
    print(f"write_report         {reported:8.2f} s, {size / 1e6:.1f} MB (explorer: <= {args.per_system} per system, <= 5000 in all)")
    if rendered is not None:
        print(f"headless Chromium    {rendered:8.2f} s wall time to the first 100 cards")


if __name__ == "__main__":
    main()
