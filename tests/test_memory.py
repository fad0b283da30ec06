"""Memory of a scoring run is bounded by design: nothing is kept per generation.

The ceiling test scores a file whose generations are long texts in a subprocess whose
address space is limited (``RLIMIT_AS``) to what it had after a small warm-up run plus
a margin well below the file's size: a run that kept texts, rows or results per
generation would exceed it and fail. Per-system structures are checked for their bound.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

import numpy as np
import pandas as pd
import pytest

from factcov import aggregate
from factcov.aggregate import MetricSample, SystemTotals, bootstrap_ci, system_table
from factcov.inputs import SeenPairs
from factcov.scoring import ScoringPolicy

ITEMS = ("apples", "pears", "plums", "figs", "kiwis")


def _write_mini_files(folder, instances: int, systems: int, filler: int, into: str = "text") -> None:
    """Instances of the test's mini domain and each system's text for each: the counts,
    some of them wrong, then ``filler`` characters that state nothing, in the text or in the
    generation's ``meta`` (``into``), which a run passes through to its outputs."""
    filler = "-" * filler
    with open(folder / "instances.jsonl", "w") as handle:
        for i in range(instances):
            facts = [{"type": "count", "key": {"item": item}, "value": (i + k) % 7} for k, item in enumerate(ITEMS)]
            handle.write(json.dumps({"id": f"i{i}", "domain": "mini", "task": "count", "language": "en",
                                     "facts": facts}) + "\n")
    with open(folder / "generations.jsonl", "w") as handle:
        for s in range(systems):
            for i in range(instances):
                said = " ".join(f"{item}: {(i + k + (i * s + k) % 3 // 2) % 7}." for k, item in enumerate(ITEMS)
                                if (i + s + k) % 4)
                line = {"instance_id": f"i{i}", "system": f"system-{s:02d}", "text": said}
                if into == "text":
                    line["text"] = f"{said} {filler}"
                else:
                    line["meta"] = {"note": filler}
                handle.write(json.dumps(line) + "\n")


CEILING_RUN = textwrap.dedent("""
    import resource, sys, types
    from pathlib import Path
    from factcov import hookimpl
    from factcov.plugins import register_plugin
    from factcov.runner import score_files
    from tests import mini_domain

    class HeadExtractor(mini_domain.MiniExtractor):
        # reads the first 200 characters: the test's time goes to the run, not to regex scans of filler
        name = "mini-head"

        def extract(self, text, instance):
            return super().extract(text[:200], instance)

    head = types.ModuleType("mini_head")
    head.register_extractors = hookimpl(lambda register: register(HeadExtractor))
    register_plugin(mini_domain, "mini")
    register_plugin(head, "mini-head")
    small, large, margin = Path(sys.argv[1]), Path(sys.argv[2]), int(sys.argv[3])

    def run(folder):
        return score_files("mini", folder / "instances.jsonl", folder / "generations.jsonl", folder / "out",
                           extractor="mini-head", chunk_size=100, report=False)

    run(small)
    status = Path("/proc/self/status").read_text()
    size = int(next(line.split()[1] for line in status.splitlines() if line.startswith("VmSize:"))) * 1024
    resource.setrlimit(resource.RLIMIT_AS, (size + margin, size + margin))
    print(run(large).summary["n_generations"])
""")


@pytest.mark.slow
@pytest.mark.skipif(not os.path.exists("/proc/self/status"), reason="reads VmSize from /proc (Linux, as CI)")
@pytest.mark.parametrize("into", ["text", "meta"])
def test_scoring_a_file_far_larger_than_the_memory_margin_stays_under_the_ceiling(tmp_path, repo_root, into):
    # "meta": the bulk is what the user passes through, beside short texts; the budgets that
    # bound memory by text alone held 20,000 such generations whole
    small, large = tmp_path / "small", tmp_path / "large"
    small.mkdir()
    large.mkdir()
    _write_mini_files(small, instances=300, systems=2, filler=40_000, into=into)
    _write_mini_files(large, instances=300, systems=20, filler=40_000, into=into)  # 6,000 lines, 240 MB
    margin = 64 * 2**20  # chunks of 100 texts (4 MB) fit many times; the file's texts do not
    assert (large / "generations.jsonl").stat().st_size > 3.5 * margin
    env = {**os.environ, "FACTCOV_PLUGINS": "", "MALLOC_ARENA_MAX": "2", "PYTHONPATH": str(repo_root)}
    done = subprocess.run([sys.executable, "-c", CEILING_RUN, str(small), str(large), str(margin)],
                          capture_output=True, text=True, env=env, cwd=repo_root, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.split()[-1] == "6000"
    scores = pd.read_parquet(large / "out" / "scores.parquet", columns=["system"])
    assert len(scores) == 6000 and scores["system"].nunique() == 20


def test_streamed_system_rows_equal_the_whole_column_computation():
    rng = np.random.default_rng(3)
    n = 5000
    frame = pd.DataFrame({
        "system": rng.choice(["a", "b", "c"], n),
        **{c: rng.integers(0, 9, n) for c in aggregate.COUNT_COLUMNS},
        **{m: np.where(rng.random(n) < 0.1, np.nan, rng.random(n)) for m in (*aggregate.METRICS, "weighted_f1")},
    })
    policy = ScoringPolicy(bootstrap_samples=200)
    totals = SystemTotals()
    records = frame.astype(object).where(frame.notna(), None).to_dict("records")
    for first in range(0, n, 777):  # chunks that split systems anywhere
        totals.add(records[first:first + 777])
    streamed = totals.table(policy)
    pd.testing.assert_frame_equal(streamed, system_table(frame, policy))
    for system, group in frame.groupby("system"):
        row = streamed.set_index("system").loc[system]
        values = group["recall"].to_numpy(dtype=float)
        defined = values[~np.isnan(values)]
        assert row["macro_recall"] == float(defined.mean()) and row["n_recall_defined"] == defined.size
        assert (row["macro_recall_lo"], row["macro_recall_hi"]) == bootstrap_ci(values, 200, 0)
        assert row["supported"] == group["supported"].sum()


def test_a_metric_sample_stops_growing_past_the_exact_limit(monkeypatch):
    monkeypatch.setattr(aggregate, "BOOTSTRAP_EXACT_LIMIT", 1000)
    monkeypatch.setattr(MetricSample, "FOLD_EVERY", 500)
    values = np.random.default_rng(1).random(60_000)
    sample = MetricSample()
    longest = 0
    for first in range(0, values.size, 300):
        sample.extend(values[first:first + 300].tolist() + [None])
        longest = max(longest, len(sample.values))
    assert longest <= 1000 + 300 + 1
    mean, count, lo, hi = sample.summary(1000, 0)
    half = 1.959963984540054 * values.std(ddof=1) / np.sqrt(values.size)
    assert count == values.size
    assert mean == pytest.approx(values.mean(), abs=1e-12)
    assert (lo, hi) == pytest.approx((values.mean() - half, values.mean() + half), abs=1e-12)


def test_seen_pairs_tell_a_repeated_pair_from_a_new_one():
    seen = SeenPairs()
    assert all(seen.add(f"i{i}", f"s{s}") for s in range(70) for i in range(50))
    assert not seen.add("i7", "s69") and not seen.add("i0", "s0")
    assert seen.add("i50", "s0") and seen.add("i0", "s70")
