"""Human judgments: load them, correlate a metric with them, and measure how much people agree.

Two input formats, both read into one long table ``system, instance_id, criterion, score``:

- ``webnlg``: the WebNLG 2020 file ``english_humeval_data_all_teams.json``, a JSON list of
  records with ``submission_id``, ``sample_id`` and one number per criterion
  (``Correctness``, ``DataCoverage``, ``Relevance``, ``Fluency``, ``TextStructure``).
  The instance id is ``webnlg:{sample_id}``.
- ``csv``: a header ``system,instance_id,criterion,score`` and one judgment per row
  (several rows for the same system, instance and criterion are averaged by ``correlate``).

Correlations come with percentile bootstrap intervals (``scipy.stats.bootstrap``, seeded).
At system level the bootstrap resamples *instances* (every system keeps its judgments of
the drawn instances, so the systems stay paired); at segment level it resamples
(system, instance) pairs.
"""

from __future__ import annotations

import csv
import math
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from factcov.errors import InputError
from factcov.jsonl import read_json_file
from factcov.statistics import bootstrap_interval, kendall, spearman
from factcov.validation.csv_header import check_repeated_columns

WEBNLG_CRITERIA = ("Correctness", "DataCoverage", "Relevance", "Fluency", "TextStructure")
CSV_COLUMNS = ("system", "instance_id", "criterion", "score")
HUMAN_COLUMNS = list(CSV_COLUMNS)
LEVELS = ("system", "segment")
# The summary file sits beside the per-annotator files; it is not one of them.
WEBNLG_SUMMARY_FILE = "english_humeval_data_all_teams.json"


def webnlg_instance_id(sample_id: Any) -> str:
    return f"webnlg:{sample_id}"


def load_human_judgments(path: str | Path, format: str = "auto") -> pd.DataFrame:
    """Human judgments as a long table with columns system, instance_id, criterion, score."""
    path = Path(path)
    if path.exists() and not path.is_file():  # a FIFO, <(…) or a device: it said "no such file"
        raise InputError("is not a regular file (a pipe or a device): judgments are read twice (header, then "
                         "rows); save them to a file first", path=path)
    if not path.is_file():
        raise InputError("no such file (expected human judgments: WebNLG JSON or CSV)", path=path)
    if format == "auto":
        format = "webnlg" if path.suffix.lower() == ".json" else "csv"
    if format == "webnlg":
        return _load_webnlg(path)
    if format == "csv":
        return _load_csv(path)
    raise InputError(f"unknown format '{format}'; use webnlg, csv or auto", path=path, field="format")


def _load_webnlg(path: Path) -> pd.DataFrame:
    records = read_json_file(path)
    if not isinstance(records, list):
        raise InputError(
            "expected a JSON list of records like english_humeval_data_all_teams.json; this looks like a "
            "per-annotator file ({sample_id: {worker: scores}}), which only annotator agreement reads",
            path=path,
        )
    rows: list[tuple[str, str, str, float]] = []
    for index, record in enumerate(records):
        where = f"record {index}"
        if not isinstance(record, dict):
            raise InputError(f"{where}: expected a JSON object", path=path)
        for required in ("submission_id", "sample_id"):
            if required not in record:
                raise InputError(f"{where}: missing required field", path=path, field=required)
        criteria = [c for c in WEBNLG_CRITERIA if c in record]
        if not criteria:
            raise InputError(
                f"{where}: no criterion; expected some of {', '.join(WEBNLG_CRITERIA)}", path=path
            )
        for criterion in criteria:
            score = _number(record[criterion], path=path, field=criterion, where=where)
            rows.append(
                (str(record["submission_id"]), webnlg_instance_id(record["sample_id"]), criterion, score)
            )
    if not rows:
        raise InputError("no judgments in the file", path=path)
    return pd.DataFrame(rows, columns=HUMAN_COLUMNS)


def csv_records(path: Path, columns: tuple[str, ...], what: str) -> Iterator[tuple[int, dict[str, str]]]:
    """(line, record) of a UTF-8 CSV whose header has ``columns``; values stripped, the
    text columns (all but the last) non-empty. Errors name the file, line and field."""
    count = 0
    line = 1
    try:
        with path.open(newline="", encoding="utf-8-sig") as handle:  # spreadsheets often write a BOM
            reader = csv.DictReader(handle)
            missing = [c for c in columns if c not in (reader.fieldnames or [])]
            if missing:
                raise InputError(
                    f"missing column(s) {', '.join(missing)}; the header must be {','.join(columns)}",
                    path=path,
                    line=1,
                )
            check_repeated_columns(reader.fieldnames, columns, path)
            for record in reader:
                values = {c: (record[c] or "").strip() for c in columns}
                for column in columns[:-1]:
                    if not values[column]:
                        raise InputError("empty value", path=path, line=reader.line_num, field=column)
                count += 1
                line = reader.line_num + 1
                yield reader.line_num, values
    except UnicodeDecodeError:
        raise InputError("not UTF-8; re-encode the file as UTF-8", path=path) from None
    except csv.Error as exc:  # a field past csv's size limit (an unclosed quote reads on to the end)
        raise InputError(f"not a readable CSV: {exc}", path=path, line=line) from None
    if not count:
        raise InputError(f"no {what} in the file (only a header?)", path=path)


def _load_csv(path: Path) -> pd.DataFrame:
    rows = [
        (r["system"], r["instance_id"], r["criterion"], _number(r["score"], path=path, field="score", line=line))
        for line, r in csv_records(path, CSV_COLUMNS, "judgments")
    ]
    return pd.DataFrame(rows, columns=HUMAN_COLUMNS)


def _number(value: Any, *, path: Path, field: str, line: int | None = None, where: str = "") -> float:
    try:
        number = float(value)
    except (TypeError, ValueError):
        number = float("nan")
    if isinstance(value, bool) or not math.isfinite(number):  # inf, 1e400 and 10**5000 included
        prefix = f"{where}: " if where else ""
        shown = value if not isinstance(value, str) or len(value) <= 40 else value[:40] + "…"
        raise InputError(f"{prefix}expected a finite number, got {shown!r}", path=path, line=line, field=field)
    return number


def correlate(
    metric_df: pd.DataFrame,
    human_df: pd.DataFrame,
    level: str = "system",
    n_boot: int = 1000,
    seed: int = 0,
) -> dict[str, Any]:
    """Spearman and Kendall correlation of a metric with human scores, with bootstrap CIs.

    ``metric_df`` has columns system, instance_id, value; ``human_df`` has system,
    instance_id, score (one criterion: filter it first). Only (system, instance) pairs
    present in both, with defined values, are used. System level correlates per-system
    means; segment level correlates the pairs themselves.
    """
    if level not in LEVELS:
        raise InputError(f"unknown level '{level}'; use system or segment", field="level")
    _require(metric_df, ("system", "instance_id", "value"), "metric scores")
    _require(human_df, ("system", "instance_id", "score"), "human judgments")
    if "criterion" in human_df.columns and human_df["criterion"].nunique() > 1:
        raise InputError(
            "human judgments hold several criteria; select one "
            f"({', '.join(sorted(human_df['criterion'].unique()))})",
            field="criterion",
        )
    pairs = _paired_table(metric_df, human_df)
    result: dict[str, Any] = {
        "level": level,
        "n_pairs": len(pairs),
        "n_systems": int(pairs["system"].nunique()),
        "n_instances": int(pairs["instance_id"].nunique()),
        "n_boot": n_boot,
        "seed": seed,
    }
    if level == "system":
        x, y = _system_means(pairs)
        statistic = _system_statistic(pairs)
    else:
        x, y = pairs["value"].to_numpy(), pairs["score"].to_numpy()
        statistic = _segment_statistic(pairs)
    result["n"] = len(x)
    result["spearman"] = spearman(x, y)
    result["kendall"] = kendall(x, y)
    result["spearman_ci"], result["kendall_ci"] = statistic(n_boot, seed)
    return result


def _require(frame: pd.DataFrame, columns: Iterable[str], what: str) -> None:
    missing = [c for c in columns if c not in frame.columns]
    if missing:
        raise InputError(f"{what}: missing column(s) {', '.join(missing)}", field=missing[0])


def _paired_table(metric_df: pd.DataFrame, human_df: pd.DataFrame) -> pd.DataFrame:
    metric = metric_df.groupby(["system", "instance_id"], as_index=False)["value"].mean()
    human = human_df.groupby(["system", "instance_id"], as_index=False)["score"].mean()
    pairs = metric.merge(human, on=["system", "instance_id"], how="inner")
    pairs = pairs.dropna(subset=["value", "score"]).sort_values(["system", "instance_id"])
    if pairs.empty:
        raise InputError(
            "no (system, instance_id) pair is both scored and judged; check that system names "
            "and instance ids match (WebNLG ids look like 'webnlg:12')"
        )
    return pairs.reset_index(drop=True)


def _system_means(pairs: pd.DataFrame) -> tuple[np.ndarray, np.ndarray]:
    means = pairs.groupby("system")[["value", "score"]].mean()
    return means["value"].to_numpy(), means["score"].to_numpy()


def _intervals(statistic_of_rows, n: int, n_boot: int, seed: int) -> tuple[list[float] | None, list[float] | None]:
    """Spearman and Kendall intervals over the same resamples (one seed draws the same rows)."""
    def rho(rows: np.ndarray) -> float | None:
        return spearman(*statistic_of_rows(rows))

    def tau(rows: np.ndarray) -> float | None:
        return kendall(*statistic_of_rows(rows))

    return bootstrap_interval(rho, n, n_boot, seed), bootstrap_interval(tau, n, n_boot, seed)


def _system_statistic(pairs: pd.DataFrame):
    instances = pairs["instance_id"].unique()
    systems = sorted(pairs["system"].unique())
    # A dense system x instance grid makes one resample (of instances, i.e. columns) two numpy calls.
    grid_value = pairs.pivot(index="system", columns="instance_id", values="value").reindex(index=systems, columns=instances)
    grid_score = pairs.pivot(index="system", columns="instance_id", values="score").reindex(index=systems, columns=instances)
    values, scores = grid_value.to_numpy(dtype=float), grid_score.to_numpy(dtype=float)

    def system_means(columns: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        return _nanmean(values[:, columns]), _nanmean(scores[:, columns])

    return lambda n_boot, seed: _intervals(system_means, len(instances), n_boot, seed)


def _nanmean(matrix: np.ndarray) -> np.ndarray:
    counts = (~np.isnan(matrix)).sum(axis=1)
    sums = np.nansum(matrix, axis=1)
    out = np.full(matrix.shape[0], np.nan)
    np.divide(sums, counts, out=out, where=counts > 0)
    return out


def _segment_statistic(pairs: pd.DataFrame):
    values, scores = pairs["value"].to_numpy(dtype=float), pairs["score"].to_numpy(dtype=float)

    def drawn_pairs(rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        return values[rows], scores[rows]

    return lambda n_boot, seed: _intervals(drawn_pairs, len(values), n_boot, seed)


def load_annotations(per_annotator_files: Iterable[str | Path] | str | Path) -> pd.DataFrame:
    """WebNLG per-team files ``{sample_id: {worker: {criterion: score}}}`` as a long table.

    Columns: system (the file's stem), instance_id, worker, criterion, score. A directory
    is read as all its ``*.json`` files except the averaged summary file.
    """
    if isinstance(per_annotator_files, (str, Path)):
        folder = Path(per_annotator_files)
        if not folder.is_dir():
            raise InputError("expected a folder of per-team files or a list of files", path=folder)
        files = sorted(p for p in folder.glob("*.json") if p.name != WEBNLG_SUMMARY_FILE)
    else:
        files = [Path(p) for p in per_annotator_files]
    if not files:
        raise InputError("no per-annotator files given")
    rows: list[tuple[str, str, str, str, float]] = []
    for path in files:
        data = read_json_file(path)
        if not isinstance(data, dict):
            raise InputError("expected {sample_id: {worker: {criterion: score}}}", path=path)
        for sample_id, workers in data.items():
            if not isinstance(workers, dict):
                raise InputError(f"sample {sample_id}: expected {{worker: {{criterion: score}}}}", path=path)
            for worker, judged in workers.items():
                if not isinstance(judged, dict):
                    raise InputError(f"sample {sample_id}, worker {worker}: expected {{criterion: score}}", path=path)
                for criterion, score in judged.items():
                    if criterion not in WEBNLG_CRITERIA:
                        continue  # free-text feedback and the like
                    number = _number(score, path=path, field=criterion, where=f"sample {sample_id}, worker {worker}")
                    rows.append((path.stem, webnlg_instance_id(sample_id), str(worker), criterion, number))
    return pd.DataFrame(rows, columns=["system", "instance_id", "worker", "criterion", "score"])


def annotator_agreement(
    per_annotator_files: Iterable[str | Path] | str | Path,
    criterion: str,
    level: str = "segment",
    n_boot: int = 1000,
    seed: int = 0,
) -> dict[str, Any]:
    """How well one person's judgment predicts the others': the ceiling of a metric's correlation.

    Definition ("one versus the rest"): for every judged (system, instance) with at least
    two annotators, one annotator is drawn at random (seeded) and compared with the mean
    of the remaining annotators. The two columns are then correlated exactly as a metric
    would be (``correlate``): at segment level over the items, at system level over the
    per-system means. A metric whose correlation reaches this value agrees with people as
    well as a single person does.
    """
    table = load_annotations(per_annotator_files)
    table = table[table["criterion"] == criterion]
    if table.empty:
        raise InputError(f"no judgments for criterion '{criterion}'; use one of {', '.join(WEBNLG_CRITERIA)}",
                         field="criterion")
    rng = np.random.default_rng(seed)
    one_rows, rest_rows = [], []
    for (system, instance_id), group in table.groupby(["system", "instance_id"], sort=True):
        if len(group) < 2:
            continue
        scores = group.sort_values("worker")["score"].to_numpy()
        chosen = int(rng.integers(0, len(scores)))
        one_rows.append((system, instance_id, float(scores[chosen])))
        rest_rows.append((system, instance_id, float(np.delete(scores, chosen).mean())))
    if not one_rows:
        raise InputError("no item has two or more annotators; agreement is undefined")
    one = pd.DataFrame(one_rows, columns=["system", "instance_id", "value"])
    rest = pd.DataFrame(rest_rows, columns=["system", "instance_id", "score"])
    result = correlate(one, rest, level=level, n_boot=n_boot, seed=seed)
    result["criterion"] = criterion
    result["definition"] = "one annotator (drawn at random, seeded) versus the mean of the others"
    return result


def correlate_run(
    outdir: str | Path,
    human_path: str | Path,
    *,
    format: str = "auto",
    metric: str = "f1",
    criteria: Iterable[str] | None = None,
    levels: Iterable[str] = LEVELS,
    n_boot: int = 1000,
    seed: int = 0,
) -> list[dict[str, Any]]:
    """``correlate`` a scoring run's per-generation metric with each human criterion and level."""
    metric_df = run_metric(outdir, metric)
    human = load_human_judgments(human_path, format=format)
    wanted = chosen_criteria(human, criteria, human_path)
    results = []
    for criterion in wanted:
        for level in levels:
            result = correlate(metric_df, human[human["criterion"] == criterion], level=level, n_boot=n_boot, seed=seed)
            results.append({"criterion": criterion, "metric": metric, **result})
    return results


def run_metric(outdir: str | Path, metric: str) -> pd.DataFrame:
    """A run's per-generation ``metric`` as a table system, instance_id, value."""
    from factcov.compare import load_run

    run = load_run(outdir)
    allowed = ["precision", "recall", "f1", "weighted_f1", *run.metrics]  # a domain's own (rag's) too
    if metric not in allowed:
        raise InputError(f"unknown metric '{metric}'; use {', '.join(allowed)}", field="metric")
    return run.scores[["system", "instance_id", metric]].rename(columns={metric: "value"})


def chosen_criteria(judgments: pd.DataFrame, criteria: Iterable[str] | None, path: str | Path) -> list[str]:
    """The criteria asked for (default: every one in the file); an unknown one is an InputError."""
    available = sorted(judgments["criterion"].unique())
    wanted = list(criteria) if criteria else available
    for criterion in wanted:
        if criterion not in available:
            raise InputError(f"no criterion '{criterion}'; available: {', '.join(available)}",
                             path=path, field="criterion")
    return wanted
