"""The demo of a domain: its own instances and systems, scored by the ordinary run."""

from __future__ import annotations

from pathlib import Path

from factcov.domain import Domain
from factcov.errors import FactcovError
from factcov.jsonl import write_jsonl_atomic
from factcov.plugins import get_domain
from factcov.runner import RunOutcome, score_files


def run_demo(domain_name: str | Domain, outdir: Path, progress: bool = False) -> RunOutcome:
    """Write the demo's instances.jsonl and generations.jsonl to ``outdir`` and score them."""
    domain = get_domain(domain_name) if isinstance(domain_name, str) else domain_name
    instances = list(domain.demo_instances())
    if not instances:
        raise FactcovError(f"domain '{domain.name}' has no demo: it gives no demo_instances or example_instances")
    generations = list(domain.demo_generations(instances))
    outdir.mkdir(parents=True, exist_ok=True)
    write_jsonl_atomic(outdir / "instances.jsonl", instances)
    write_jsonl_atomic(outdir / "generations.jsonl", generations)
    return score_files(
        domain, outdir / "instances.jsonl", outdir / "generations.jsonl", outdir, progress=progress
    )
