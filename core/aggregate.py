"""From per-generation scores to systems: macro and micro averages, bootstrap CIs, ranks.

Inputs are the rows of ``scores.parquet`` (one per generation). Macro averages are the
mean of per-generation values over the generations where the value is defined (the
count is reported); micro averages are computed from pooled counts. A domain that grades
its own precision/recall/F1 (``Domain.graded_scores``) has no counts behind them to
pool: its headline is the macro mean and its ``micro_*`` columns are undefined.
"""

from __future__ import annotations

import math
from array import array
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING

import numpy as np

from factcov.scoring import Counts, ScoringPolicy
from factcov.statistics import kendall, spearman

if TYPE_CHECKING:
    import pandas as pd

METRICS = ("precision", "recall", "f1")
COUNT_COLUMNS = ("n_claims", "supported", "contradicted", "unverifiable", "n_facts", "covered", "out_of_scope")
# Above this many generations the percentile bootstrap of a mean is replaced by its
# normal approximation: same interval to three decimals, and memory stays bounded.
BOOTSTRAP_EXACT_LIMIT = 100_000


def bootstrap_ci(
    values: Sequence[float] | np.ndarray, samples: int = 1000, seed: int = 0, level: float = 0.95
) -> tuple[float | None, float | None]:
    """Percentile bootstrap interval of the mean of the defined (non-NaN) values."""
    return bootstrap_cis([values], samples, seed, level)[0]


def bootstrap_cis(
    value_sets: Sequence[Sequence[float] | np.ndarray], samples: int = 1000, seed: int = 0, level: float = 0.95
) -> list[tuple[float | None, float | None]]:
    """``bootstrap_ci`` of each value set, the same numbers, computed together: a set equal
    to an earlier one (a system's f1 and weighted_f1 without type weights) is resampled
    once, and every interval is read from the sets' resample means in one quantile call
    (per row, the arithmetic of one call on that row alone)."""
    alpha = (1 - level) / 2
    intervals: list[tuple[float | None, float | None]] = []
    rows: dict[bytes, int] = {}  # a resampled set's values -> its row of resample means
    means: list[np.ndarray] = []
    resampled: list[tuple[int, int]] = []  # (interval index, row)
    for values in value_sets:
        data = np.asarray(values, dtype=float)
        data = data[~np.isnan(data)]
        if data.size == 0:
            intervals.append((None, None))
        elif data.size == 1 or samples <= 0:
            only = float(data[0]) if data.size == 1 else None
            intervals.append((only, only))
        elif data.size > BOOTSTRAP_EXACT_LIMIT:
            half = 1.959963984540054 * data.std(ddof=1) / np.sqrt(data.size)
            intervals.append((float(data.mean() - half), float(data.mean() + half)))
        else:
            row = rows.get(data.tobytes())
            if row is None:
                row = rows[data.tobytes()] = len(means)
                means.append(_resample_means(data, samples, seed))
            resampled.append((len(intervals), row))
            intervals.append((None, None))
    if means:
        bounds = np.quantile(np.stack(means), [alpha, 1 - alpha], axis=1)
        for index, row in resampled:
            intervals[index] = (float(bounds[0, row]), float(bounds[1, row]))
    return intervals


def _resample_means(data: np.ndarray, samples: int, seed: int) -> np.ndarray:
    """The mean of each of ``samples`` resamples of ``data``: ``data[draw].mean(axis=1)``
    per drawn block, as ``take`` without bounds checks (the indices are drawn below
    ``data.size``) and the sum divided by the count, which is what ``mean`` computes."""
    means = np.empty(samples)
    first = 0
    for draw in _resamples(data.size, samples, seed):
        np.divide(np.add.reduce(np.take(data, draw, mode="clip"), axis=1), data.size,
                  out=means[first : first + len(draw)])
        first += len(draw)
    return means


# The resample indices depend only on (size, samples, seed), not on the values: every
# metric of a system, and every system with as many defined values, draws the same ones
# (a run's systems usually answer the same instances). Drawing them is half the cost of
# a bootstrap, so small sets of them are kept (at most RESAMPLE_CACHE_ELEMENTS indices each).
RESAMPLE_CACHE_ELEMENTS = 2_000_000
_resample_cache: dict[tuple[int, int, int], list[np.ndarray]] = {}


def _resamples(size: int, samples: int, seed: int) -> Iterator[np.ndarray]:
    """Index arrays of shape (count, size), ``samples`` rows in all, in the order one
    generator seeded with ``seed`` draws them (a few at a time: bounded memory)."""
    key = (size, samples, seed)
    cached = _resample_cache.get(key)
    if cached is not None:
        yield from cached
        return
    keep = size * samples <= RESAMPLE_CACHE_ELEMENTS
    drawn: list[np.ndarray] = []
    rng = np.random.default_rng(seed)
    per_draw = max(1, 2_000_000 // size)  # resamples drawn at once, bounded memory
    for first in range(0, samples, per_draw):
        draw = rng.integers(0, size, (min(per_draw, samples - first), size))
        if keep:
            drawn.append(draw)
        yield draw
    if keep:
        if len(_resample_cache) >= 8:
            _resample_cache.pop(next(iter(_resample_cache)))
        _resample_cache[key] = drawn


def average_ranks(values: Sequence[float | None], descending: bool = True) -> np.ndarray:
    """Ranks 1..n (1 = best), ties sharing their average rank; undefined values (None,
    NaN) rank last, tied among themselves (pandas' ``rank(method="average",
    na_option="bottom")``, without pandas)."""
    data = np.array([math.nan if value is None else value for value in values], dtype=float)
    ranks = np.empty(len(data))
    defined = [index for index in range(len(data)) if not math.isnan(data[index])]
    defined.sort(key=lambda index: -data[index] if descending else data[index])
    start = 0
    while start < len(defined):  # a run of equal values shares the mean of its positions
        end = start
        while end + 1 < len(defined) and data[defined[end + 1]] == data[defined[start]]:
            end += 1
        ranks[defined[start:end + 1]] = (start + 1 + end + 1) / 2
        start = end + 1
    undefined = [index for index in range(len(data)) if math.isnan(data[index])]
    ranks[undefined] = (len(defined) + 1 + len(data)) / 2
    return ranks


class MetricSample:
    """One metric's defined values over one system's generations, in bounded memory.

    Up to ``BOOTSTRAP_EXACT_LIMIT`` defined values the values themselves are kept (8 bytes
    each, in generation order), so the macro mean and the percentile bootstrap are exactly
    those of a whole column. Past the limit only their count, mean and sum of squared
    deviations are kept (folded in batches with Chan et al.'s parallel update) and the
    interval is the normal approximation the bootstrap switches to at that size anyway:
    memory stops growing with the number of generations.
    """

    __slots__ = ("values", "folded", "count", "mean", "m2")
    FOLD_EVERY = 65_536  # values buffered between folds once past the limit

    def __init__(self) -> None:
        self.values = array("d")
        self.folded = False
        self.count = 0  # values folded into mean and m2
        self.mean = 0.0
        self.m2 = 0.0

    def extend(self, values: Iterable[float | None]) -> None:
        self.values.extend(v for v in values if v is not None and v == v)  # v == v: not NaN
        if len(self.values) > (self.FOLD_EVERY if self.folded else BOOTSTRAP_EXACT_LIMIT):
            self._fold()

    def _fold(self) -> None:
        batch = np.frombuffer(self.values, dtype=float)
        if batch.size:
            total = self.count + batch.size
            batch_mean = float(batch.mean())
            delta = batch_mean - self.mean
            self.m2 += float(((batch - batch_mean) ** 2).sum()) + delta * delta * self.count * batch.size / total
            self.mean += delta * batch.size / total
            self.count = total
        self.values = array("d")
        self.folded = True

    def summary(self, samples: int, seed: int) -> tuple[float | None, int, float | None, float | None]:
        """(mean of the defined values, how many, bootstrap CI low, high)."""
        return MetricSample.summaries([self], samples, seed)[0]

    @staticmethod
    def summaries(
        metric_samples: Sequence[MetricSample], samples: int, seed: int
    ) -> list[tuple[float | None, int, float | None, float | None]]:
        """``summary`` of each, the exact ones' intervals computed together (``bootstrap_cis``)."""
        exact = [sample for sample in metric_samples if not sample.folded]
        defined = [np.frombuffer(sample.values, dtype=float) for sample in exact]
        intervals = iter(bootstrap_cis(defined, samples, seed))
        values = iter(defined)
        out = []
        for sample in metric_samples:
            if not sample.folded:
                data = next(values)
                lo, hi = next(intervals)
                out.append(((float(data.mean()) if data.size else None), int(data.size), lo, hi))
                continue
            sample._fold()
            half = 1.959963984540054 * np.sqrt(sample.m2 / (sample.count - 1)) / np.sqrt(sample.count)
            out.append((sample.mean, sample.count, float(sample.mean - half), float(sample.mean + half)))
        return out


class SystemAccumulator:
    """Everything a system's row of ``systems.csv`` needs, without keeping its score rows."""

    def __init__(self, metrics: Sequence[str], graded: bool = False) -> None:
        self.graded = graded  # precision/recall/f1 graded per generation: nothing to pool
        self.n = 0
        self.counts = dict.fromkeys(COUNT_COLUMNS, 0)
        self.metrics = {metric: MetricSample() for metric in metrics}

    def add(self, columns: Mapping[str, Sequence], n: int) -> None:
        """``n`` generations' values, one sequence per column (a column an older run lacks counts 0)."""
        self.n += n
        for column in COUNT_COLUMNS:
            values = columns.get(column)
            if values is not None:
                self.counts[column] += sum(int(value or 0) for value in values)
        for metric, sample in self.metrics.items():
            values = columns.get(metric)
            if values is not None:
                sample.extend(values)

    def row(self, system: str, policy: ScoringPolicy) -> dict[str, object]:
        row: dict[str, object] = {"system": system, "n": self.n}
        summaries = MetricSample.summaries(list(self.metrics.values()), policy.bootstrap_samples, policy.seed)
        for metric, (mean, defined, lo, hi) in zip(self.metrics, summaries):
            row[f"macro_{metric}"] = mean
            row[f"n_{metric}_defined"] = defined
            row[f"macro_{metric}_lo"], row[f"macro_{metric}_hi"] = lo, hi
        pooled = Counts(**self.counts)
        for metric, value in pooled.metrics(policy).items():
            row[f"micro_{metric}"] = None if self.graded else value
        for column in COUNT_COLUMNS:
            row[column] = self.counts[column]
        row["claims_per_text"] = self.counts["n_claims"] / self.n
        row["facts_per_instance"] = self.counts["n_facts"] / self.n
        return row


class SystemTotals:
    """Per-system accumulators fed chunk by chunk with score rows (dicts holding
    ``system``, the count columns and the metrics, ``extra_metrics`` included). Memory:
    per system, the ``MetricSample`` bound (at most ``BOOTSTRAP_EXACT_LIMIT`` values per
    metric) and a few counters; nothing per generation beyond that."""

    def __init__(self, extra_metrics: Sequence[str] = (), graded: bool = False) -> None:
        self.metrics = (*METRICS, "weighted_f1", *extra_metrics)
        self.graded = graded  # ``Domain.graded_scores``: the headline is the macro mean
        self.extra_metrics = tuple(extra_metrics)
        self.systems: dict[str, SystemAccumulator] = {}
        self.n = 0

    def add(self, rows: Sequence[dict]) -> None:
        """Score rows as dicts (``add_columns`` takes what a run builds)."""
        names = ("system", *COUNT_COLUMNS, *self.metrics)
        self.add_columns({name: [row.get(name) for row in rows] for name in names})

    def add_columns(self, columns: Mapping[str, Sequence]) -> None:
        """Score rows as one sequence per column, ``system`` among them."""
        systems = columns["system"]
        by_system: dict[str, list[int]] = {}
        for index, system in enumerate(systems):
            by_system.setdefault(system, []).append(index)
        wanted = [name for name in (*COUNT_COLUMNS, *self.metrics) if name in columns]
        for system, indices in by_system.items():
            if system not in self.systems:
                self.systems[system] = SystemAccumulator(self.metrics, self.graded)
            if len(indices) == len(systems):
                group = {name: columns[name] for name in wanted}
            else:
                group = {name: [columns[name][i] for i in indices] for name in wanted}
            self.systems[system].add(group, len(indices))
        self.n += len(systems)

    def rows(self, policy: ScoringPolicy) -> list[dict[str, object]]:
        """The systems table as rows, one per system by name (``table`` is them as a DataFrame)."""
        rows = [self.systems[system].row(system, policy) for system in sorted(self.systems)]
        return ranked_rows(rows, policy, self.extra_metrics, self.graded)

    def table(self, policy: ScoringPolicy) -> pd.DataFrame:
        import pandas as pd

        return pd.DataFrame(self.rows(policy))


def system_table(scores: pd.DataFrame, policy: ScoringPolicy, extra_metrics: Sequence[str] = (),
                 graded: bool = False) -> pd.DataFrame:
    """One row per system: macro means with bootstrap CIs, micro scores, counts, ranks.

    A domain's ``extra_metrics`` (columns of ``scores``) get their mean over the
    generations where they are defined, ``n_<metric>_defined`` and a bootstrap CI.
    The headline ``precision``/``recall``/``f1`` columns follow ``policy.average``, but
    are the macro means when ``graded`` (a ``Domain.graded_scores`` domain's).
    Rows are sorted by system name; ranks are 1 = best, ties averaged. The same
    computation as a run's streaming ``SystemTotals``, from a whole table of score rows.
    """
    totals = SystemTotals(extra_metrics, graded)
    wanted = ["system", *COUNT_COLUMNS, *totals.metrics]
    columns = [c for c in wanted if c in scores.columns]
    part = scores[columns]
    totals.add(part.astype(object).where(part.notna(), None).to_dict("records"))
    return totals.table(policy)


def ranked_rows(rows: list[dict[str, object]], policy: ScoringPolicy, extra_metrics: Sequence[str] = (),
                graded: bool = False) -> list[dict[str, object]]:
    """The rows with their headline columns (the policy's average, macro when ``graded``)
    and ranks by precision and by F1 (1 = best, ties averaged), appended in that order."""
    if not rows:
        return rows
    average = "macro" if graded else policy.average
    out = []
    for row in rows:
        row = dict(row)
        for metric in METRICS:
            row[metric] = row[f"{average}_{metric}"]
        row["weighted_f1"] = row["macro_weighted_f1"]  # per-type weights are defined per text
        for metric in extra_metrics:
            row[metric] = row[f"macro_{metric}"]
        out.append(row)
    by_precision = average_ranks([row["precision"] for row in out])  # type: ignore[misc]
    by_f1 = average_ranks([row["f1"] for row in out])  # type: ignore[misc]
    for row, rank_precision, rank_f1 in zip(out, by_precision.tolist(), by_f1.tolist()):
        row["rank_precision"], row["rank_f1"] = rank_precision, rank_f1
        row["rank_change"] = rank_precision - rank_f1
    return out


def headline_average(summary: Mapping[str, object]) -> str:
    """Which average a run's headline precision/recall/f1 are: its policy's, but always
    ``macro`` for a domain that grades them (``graded_scores`` in its summary.json)."""
    if summary.get("graded_scores"):
        return "macro"
    policy = summary.get("policy")
    return str(policy.get("average", "macro")) if isinstance(policy, Mapping) else "macro"


def prepare_summary() -> None:
    """Work ``ranking_summary`` can do before the last result (a parallel run's parent calls
    it while its workers score the first pieces): none since its correlations stopped
    importing ``scipy.stats`` (``factcov.statistics``)."""


def ranking_line(order: Sequence[str], rank: Mapping[str, float]) -> str:
    """Systems in ``order`` as a line, ties shown as ties: 'complete = terse > verbose'
    when complete and terse share rank 1.5 (an order between them would be invented)."""
    groups: list[list[str]] = []
    for system in order:
        if groups and rank[system] == rank[groups[-1][0]]:
            groups[-1].append(system)
        else:
            groups.append([system])
    return " > ".join(" = ".join(group) for group in groups)


def ranking_summary(table: pd.DataFrame | list[dict[str, object]]) -> dict[str, object]:
    """Systems ordered by precision and by F1, and how much the two orders agree (of a
    systems table or its rows)."""
    rows = table if isinstance(table, list) else table.to_dict(orient="records")
    if not rows:
        return {"by_precision": [], "by_f1": [], "spearman": None, "kendall": None}
    by_precision = [row["system"] for row in sorted(rows, key=lambda row: (row["rank_precision"], row["system"]))]
    by_f1 = [row["system"] for row in sorted(rows, key=lambda row: (row["rank_f1"], row["system"]))]
    precision = np.array([math.nan if row["precision"] is None else row["precision"] for row in rows], dtype=float)
    f1_values = np.array([math.nan if row["f1"] is None else row["f1"] for row in rows], dtype=float)
    return {
        "by_precision": by_precision,
        "by_f1": by_f1,
        "spearman": spearman(precision, f1_values),
        "kendall": kendall(precision, f1_values),
    }
