"""Stream forecast files into instance (and NWS generation) files, atomically."""

from __future__ import annotations

import contextlib
import hashlib
import json
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

from factcov.domains.weather.instances import LANGUAGES, instances_of
from factcov.domains.weather.periods import forecast_files, iter_periods
from factcov.errors import InputError
from factcov.jsonl import atomic_output, open_binary
from factcov.progress import progress as console_progress

NO_PERIOD = "no forecast period in the input; nothing written (the existing file is as it was)"
NO_NWS_TEXT = "no period with NWS's own text; nothing written (the existing files are as they were)"
# The estimate is said once this many periods are written: enough to measure the bytes
# of an instance, few enough (a second) to be said before the long work.
ESTIMATE_AFTER = 500
ESTIMATE_WITHIN_S = 2.0  # or after this long (a small --sample takes a while to keep 500)


@dataclass
class BuildCounts:
    periods: int = 0
    instances: int = 0
    duplicates: int = 0


def build_instances(
    forecasts: Iterable[Path],
    languages: tuple[str, ...],
    out: Path,
    nws_out: Path | None = None,
    progress: bool = False,
    limit: int | None = None,
    sample: float | None = None,
    say: Callable[[str], None] | None = None,
) -> BuildCounts:
    """Write instances of every period (a period seen twice, e.g. the same issue in two
    files, is written once). NWS's texts go to ``nws_out`` as system ``nws``, language en.

    ``sample``: keep a fraction of the periods, chosen by a hash of each period's id (the
    same periods on every run and machine, streamed: nothing held in memory); ``limit``:
    stop after that many periods (after sampling). ``say`` gets one line estimating the
    output's size once the first periods are written."""
    _check_options(languages, limit, sample)
    files = forecast_files(forecasts)
    counts = BuildCounts()
    seen: set[str] = set()
    with contextlib.ExitStack() as stack:
        output = stack.enter_context(atomic_output(out, nothing=NO_PERIOD))
        handle = stack.enter_context(output.path.open("w", encoding="utf-8"))
        nws = nws_output = None
        if nws_out is not None:
            nws_output = stack.enter_context(atomic_output(nws_out, nothing=NO_NWS_TEXT))
            nws = stack.enter_context(nws_output.path.open("w", encoding="utf-8"))
        bar = stack.enter_context(console_progress("weather build", "periods", progress))
        written, estimate_by = 0, time.monotonic() + ESTIMATE_WITHIN_S
        estimate_at = min(ESTIMATE_AFTER, limit or ESTIMATE_AFTER)
        for period in iter_periods(files):
            if period.instance_key in seen:
                counts.duplicates += 1
                continue
            seen.add(period.instance_key)
            if sample is not None and not _sampled(period.instance_key, sample):
                continue
            counts.periods += 1
            for instance in instances_of(period, languages):
                line = instance.model_dump_json() + "\n"
                handle.write(line)
                written += len(line.encode())
                counts.instances += 1
                output.records += 1
                if nws is not None and nws_output is not None and period.detailed_forecast:
                    nws_output.records += 1
                    nws.write(json.dumps({"instance_id": instance.id, "system": "nws", "text": period.detailed_forecast,
                                          "language": "en"}, ensure_ascii=False) + "\n")
            bar(1)
            if say is not None and (counts.periods == estimate_at or time.monotonic() > estimate_by):
                say(size_estimate(files, counts, written, limit, sample))
                say = None
            if limit is not None and counts.periods >= limit:
                break
    return counts


def _check_options(languages: tuple[str, ...], limit: int | None, sample: float | None) -> None:
    """Refuse what the build cannot do before any output is opened."""
    unknown = [code for code in languages if code not in LANGUAGES]
    if unknown or not languages:
        raise InputError(f"unknown language(s) {', '.join(unknown) or '(none given)'}; weather supports {', '.join(LANGUAGES)}")
    if limit is not None and limit < 1:
        raise InputError(f"--limit must be 1 or more, got {limit}", field="--limit")
    if sample is not None and not 0 < sample <= 1:
        raise InputError(f"--sample is the fraction of periods to keep, in (0, 1], got {sample}", field="--sample")


def _sampled(key: str, fraction: float) -> bool:
    """Whether a period is in a ``fraction`` sample: its id's hash, not a random draw."""
    return int.from_bytes(hashlib.sha256(key.encode()).digest()[:8], "big") < fraction * 2**64


_PERIOD_MARK = b'"detailedForecast"'


def count_periods(files: Iterable[Path]) -> int:
    """Periods in the input files, counted as their ``detailedForecast`` keys (every period
    has one, in every input format) without parsing: ~1 s of CPU for the 977,064-period corpus."""
    found = 0
    for path in files:
        with open_binary(path) as handle:
            tail = b""
            while chunk := handle.read(1 << 20):
                window = tail + chunk
                found += window.count(_PERIOD_MARK)
                tail = window[-(len(_PERIOD_MARK) - 1):]  # a mark cut in two by the chunk is counted once
    return found


def size_estimate(files: list[Path], counts: BuildCounts, written: int, limit: int | None,
                  sample: float | None) -> str:
    """'up to 977,000 periods → 2,930,000 instances, 2.4 GB': the input's periods (before
    duplicates are dropped), sampled and limited as asked, times the instances per period
    and bytes per instance so far."""
    per_period = counts.instances / counts.periods
    bytes_per_instance = written / max(counts.instances, 1)
    if limit is not None and limit <= 100 * ESTIMATE_AFTER:
        periods = limit  # a small limit: counting the input's lines would take longer than the build
    else:
        periods = int(count_periods(files) * (sample or 1.0))
        if limit is not None:
            periods = min(periods, limit)
    instances = int(periods * per_period)
    size = instances * bytes_per_instance
    human = f"{size / 1e9:.1f} GB" if size >= 1e9 else f"{size / 1e6:.0f} MB" if size >= 1e6 else f"{size / 1e3:.0f} kB"
    hint = "" if limit is not None or sample is not None else "; --limit N or --sample FRACTION for less"
    return f"weather build: up to {periods:,} periods → {instances:,} instances, {human}{hint}"
