"""A second, blind judge of the f1 oracle's exclusion decisions, and its agreement with the first.

Every precision figure for the exclusion rules in docs/domains/f1.md was judged by one judge
(``benchmarks/f1_exclusion_judgments.tsv``). This script re-lists, per rule, the decisions
that judge saw (all of them when a rule has at most 40, else a seeded sample of 40) with the
evidence re-derived from the lap table and Ergast, but WITHOUT the first judge's verdict and
evidence, so a second judge can decide each one blind (``--list``). The second judge's
verdicts are in ``benchmarks/f1_second_judge.tsv`` (key, rule, verdict, reason); the default
mode joins the two: per rule, n judged by both, agreement, Cohen's kappa, the rule's
precision under each judge, and every disagreement with both reasons.

    factcov f1 check --laps ../shared/data/f1/laps --ergast ../shared/data/f1/ergast --json > /tmp/check.jsonl
    python benchmarks/f1_second_judge.py --check /tmp/check.jsonl --list    # the blind listing
    python benchmarks/f1_second_judge.py --check /tmp/check.jsonl           # the agreement table

A first-judge key that no longer names a decision the current oracle makes (a rule changed
since it was judged) is left out of the listing and counted as stale. When a rule change
touches a second-judge key, ``benchmarks/f1_second_judge_changes.tsv`` records what happened
and by which commit: ``re-keyed`` (the same cars, laps, rule and outcome under a new detail
text, the evidence the verdict was judged on unchanged: the verdict moves to the new key) or
``resolved`` (the rule no longer makes that decision: the move is kept, or another rule now
makes it). Resolved keys leave the agreement table and are listed as resolved; with
``--check`` the table run lists any second-judge key that is neither a current decision
under its rule nor recorded as resolved (stale), and any key recorded as resolved that the
oracle makes again, and exits 1.

``--later`` does the same for the decisions of issue 26's later rounds that only one judge saw
(``LATER_RULES``: the clean sides kept, judged in f1_clean_sides_judgments.tsv; the later
judges' no_lap_completed and served-time move keys; a seeded 15 of the doubted defense
fall-backs): ``--later --list`` is their blind listing, ``--later`` joins
``f1_second_judge_later.tsv`` with the first verdicts, names the decisions only the second
judge saw, and exits 1 on a verdict outside the listing.
"""

from __future__ import annotations

import argparse
import csv
import json
import random
import re
import sys
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import NoReturn

sys.path.insert(0, str(Path(__file__).resolve().parent))

from f1_exclusion_precision import DOUBTED_FALL_BACK, gap_window, key_of, rule_of  # noqa: E402

REPO = Path(__file__).resolve().parents[1]
FIRST = Path(__file__).with_name("f1_exclusion_judgments.tsv")
SECOND = Path(__file__).with_name("f1_second_judge.tsv")
CHANGES = Path(__file__).with_name("f1_second_judge_changes.tsv")
# issue 26's later rounds: the decisions only a later judge (``LATER_JUDGE``) or
# f1_clean_sides_judgments.tsv judged, and the blind second verdicts on them (``--later``)
LATER = Path(__file__).with_name("f1_second_judge_later.tsv")
CLEAN_SIDES = Path(__file__).with_name("f1_clean_sides_judgments.tsv")
CLEAN_SIDE = "compound kept: the clean side before a distrusted stop"
SERVED = "move: served time, a penalty or a failed stop"
# rule -> how many to list (None: all); rules listed whole whatever judged them first, else
# only the later judges' keys (judge 2 already judged the first judge's no_lap_completed keys)
LATER_RULES = {CLEAN_SIDE: None, "no_lap_completed": None, SERVED: None, DOUBTED_FALL_BACK: 15}
WHOLE_RULES = (CLEAN_SIDE, DOUBTED_FALL_BACK)
CHANGE_KINDS = ("re-keyed", "resolved")
PER_RULE = 40
SEED = 2605
VERDICTS = ("right", "unsure", "wrong")
# rules whose entries are no exclusion (nothing is known to be wrong with them): judged, but
# their "precision" is not a claim of the oracle
UNDECIDABLE = ("defense_undecidable", DOUBTED_FALL_BACK, "move: undecidable, wet-weather tyres at a slow stop",
               "passage: stop-go where the tyre columns miss changes (count withheld)")


@dataclass(frozen=True)
class Decision:
    key: str
    rule: str
    season: int
    round: int
    event: str
    entry: dict


def current_decisions(check_lines: list[dict]) -> dict[str, Decision]:
    """Every exclusion decision the current oracle makes, by its judgment key."""
    found = {}
    for race in check_lines:
        for entry in race["entries"]:
            if rule := rule_of(entry) or (CLEAN_SIDE if entry["rule"] == "clean_side_kept" else None):
                key = key_of(race["season"], race["round"], entry)
                found[key] = Decision(key, rule, race["season"], race["round"], race["event"], entry)
    return found


def usage_error(message: str) -> NoReturn:
    print(f"f1_second_judge: {message}", file=sys.stderr)
    raise SystemExit(2)


def read_tsv(path: Path, columns: tuple[str, ...]) -> list[dict[str, str]]:
    """The rows of a judgments file; a missing file or column is a usage error (exit 2)."""
    try:
        with path.open(encoding="utf-8") as handle:
            reader = csv.DictReader(handle, delimiter="\t")
            missing = [column for column in columns if column not in (reader.fieldnames or ())]
            if missing:
                usage_error(f"{path}: line 1: no column {missing[0]!r}")
            return list(reader)
    except OSError as error:
        usage_error(f"{path}: {error.strerror}")


# a verdict a later judge added to the first judge's file (issue 26's seventh round: "(judge 8,
# issue 26 seventh round)"): judged after judge 2's blind run, so not part of what it re-judged
LATER_JUDGE = re.compile(r"\(judge \d+, issue 26")


def first_judge_keys(path: Path) -> list[str]:
    """The keys the first judge judged (not a later judge's: ``LATER_JUDGE``), read without
    showing its verdict and evidence."""
    return [row["key"] for row in read_tsv(path, ("key", "evidence")) if not LATER_JUDGE.search(row["evidence"])]


def later_judge_keys(path: Path) -> set[str]:
    """The keys a later judge added to the first judge's file (read without its verdicts)."""
    return {row["key"] for row in read_tsv(path, ("key", "evidence")) if LATER_JUDGE.search(row["evidence"])}


def later_sample(later: set[str], current: dict[str, Decision], seed: int = SEED) -> dict[str, list[Decision]]:
    """Per rule of ``LATER_RULES``, the decisions only one judge has seen: every current one of
    the ``WHOLE_RULES``, else the later judges' keys; a seeded sample where a count is set."""
    chosen = {}
    for rule, count in LATER_RULES.items():
        pool = sorted((d for d in current.values() if d.rule == rule and (rule in WHOLE_RULES or d.key in later)),
                      key=lambda d: d.key)
        if count is not None and len(pool) > count:
            pool = sorted(random.Random(f"{seed}:{rule}").sample(pool, count), key=lambda d: d.key)
        chosen[rule] = pool
    return chosen


def clean_side_key(decision: Decision) -> str | None:
    """The key f1_clean_sides_judgments.tsv gives a ``clean_side_kept`` decision."""
    found = re.match(r"stint (\d+) \(laps \d+-\d+\): (\w+)", decision.entry["detail"])
    if decision.rule != CLEAN_SIDE or not found:
        return None
    return f"{decision.season}:{decision.round}:{decision.entry['driver']}:stint={found.group(1)}={found.group(2)}"


def later_first_verdicts(first: Path, clean_sides: Path, current: dict[str, Decision]) -> dict[str, tuple[str, str]]:
    """The first verdicts on the later listing's decisions, by their f1 check key."""
    verdicts = read_verdicts(first, "evidence")
    clean = read_verdicts(clean_sides, "evidence")
    for key, decision in current.items():
        if (side := clean_side_key(decision)) in clean:
            verdicts[key] = clean[side]
    return verdicts


def blind_sample(keys: list[str], current: dict[str, Decision], per_rule: int = PER_RULE,
                 seed: int = SEED) -> tuple[dict[str, list[Decision]], list[str]]:
    """Per current rule, the first judge's keys (all if at most ``per_rule``, else a sample
    seeded with the seed and the rule's name), and the stale keys (no current decision)."""
    by_rule: dict[str, list[Decision]] = defaultdict(list)
    stale = []
    for key in dict.fromkeys(keys):
        if key in current:
            by_rule[current[key].rule].append(current[key])
        else:
            stale.append(key)
    chosen = {}
    for rule in sorted(by_rule):
        decisions = sorted(by_rule[rule], key=lambda d: d.key)
        if len(decisions) > per_rule:
            decisions = sorted(random.Random(f"{seed}:{rule}").sample(decisions, per_rule), key=lambda d: d.key)
        chosen[rule] = decisions
    return chosen, stale


# --- evidence from the lap table and Ergast -------------------------------------------------


class Evidence:
    """The lap table and Ergast rows around one decision, as short text lines."""

    def __init__(self, data: Path) -> None:
        self.data = data

    def laps(self, season: int, round_: int):
        from factcov.domains.f1.source import season_laps

        laps = season_laps(self.data, season)
        return laps[laps["RoundNumber"] == round_]

    def ergast_rows(self, season: int, round_: int, driver: str) -> str:
        from factcov.domains.f1.source import ergast

        tables = ergast(self.data)
        race_id = tables.race_id(season, round_)
        ids = tables.drivers.loc[tables.drivers["code"] == driver, "driverId"]
        result = tables.results[(tables.results["raceId"] == race_id) & tables.results["driverId"].isin(ids)]
        result = result.merge(tables.status, on="statusId", how="left")
        said = [f"result {row.positionText} ({row.status}, {row.laps} laps)" for row in result.itertuples()]
        if tables.pit_stops is not None:
            stops = tables.pit_stops[(tables.pit_stops["raceId"] == race_id) & tables.pit_stops["driverId"].isin(ids)]
            table = "none" if stops.empty else " ".join(f"L{row.lap}:{row.duration}" for row in stops.itertuples())
            said.append(f"Ergast pit stops {table}" if len(tables.pit_stops[tables.pit_stops["raceId"] == race_id])
                        else "no Ergast pit table for the race")
        return f"  {driver} Ergast: " + "; ".join(said)

    def car_rows(self, season: int, round_: int, driver: str, first: int, last: int) -> list[str]:
        """One line per lap: position, lap time, compound/age (F fresh), stint, pit in/out and
        the pit-lane time (out on the next row minus in), track status."""
        laps = self.laps(season, round_)
        car = laps[laps["Driver"] == driver].set_index("LapNumber").sort_index()
        lines = []
        for lap in range(max(1, first), last + 1):
            if lap not in car.index:
                continue
            row = car.loc[lap]
            pit = ""
            if row["PitInTime"] == row["PitInTime"]:
                out = car["PitOutTime"].get(lap + 1)
                pit += f" IN@{row['PitInTime']:.0f}" + (f" pitlane {out - row['PitInTime']:.1f}s" if out == out and out is not None else "")
            if row["PitOutTime"] == row["PitOutTime"]:
                pit += " OUT"
            lines.append(f"  {driver} L{lap} P{_num(row['Position'])} {_num(row['LapTime'], 1)}s "
                         f"{row['Compound']}/{_num(row['TyreLife'])}{'F' if row['FreshTyre'] else ''} "
                         f"set{_num(row['Stint'])}{pit} ts{row['TrackStatus']}")
        return lines

    def stints(self, season: int, round_: int, driver: str) -> str:
        """The car's whole race as runs of (Stint number, compound): laps and tyre ages."""
        laps = self.laps(season, round_)
        car = laps[laps["Driver"] == driver].sort_values("LapNumber")
        runs: list[list] = []
        after_pit = False
        for row in car.itertuples():
            mark = (_num(row.Stint), str(row.Compound))
            if not runs or runs[-1][0] != mark or after_pit:
                runs.append([mark, row.LapNumber, row.LapNumber, _num(row.TyreLife), _num(row.TyreLife)])
            runs[-1][2], runs[-1][4] = row.LapNumber, _num(row.TyreLife)
            after_pit = row.PitInTime == row.PitInTime  # a pit entry starts a new run on the next row
        parts = [f"L{a}-{b} set{m[0]} {m[1]} {x}->{y}" for m, a, b, x, y in runs]
        return f"  {driver} stints: " + "; ".join(parts)

    def field_at(self, season: int, round_: int, driver: str, lap: int) -> str:
        """The cars entering the pits within 60 s of this car (a field led through the pit lane)."""
        laps = self.laps(season, round_)
        own = laps[(laps["Driver"] == driver) & (laps["LapNumber"] == lap)]["PitInTime"]
        if own.empty or own.iloc[0] != own.iloc[0]:
            return ""
        moment = own.iloc[0]
        near = laps[(laps["PitInTime"] - moment).abs() <= 60]
        running = laps[laps["LapNumber"] == lap]["Driver"].nunique()
        outs = {}
        for row in near.itertuples():
            nxt = laps[(laps["Driver"] == row.Driver) & (laps["LapNumber"] == row.LapNumber + 1)]["PitOutTime"]
            if len(nxt) and nxt.iloc[0] == nxt.iloc[0]:
                new = "new" if _changed(laps, row.Driver, row.LapNumber) else "kept"
                outs[row.Driver] = f"{row.Driver}:{nxt.iloc[0] - row.PitInTime:.1f}{new[0]}"
        return f"  pit entries within 60 s: {len(near)} of {running} cars: " + " ".join(outs.values())

    def leader_status(self, season: int, round_: int, first: int, last: int) -> str:
        laps = self.laps(season, round_)
        statuses = laps.groupby("LapNumber")["TrackStatus"].agg(lambda s: "/".join(sorted(set(map(str, s.dropna())))))
        cells = [f"{lap}:{statuses[lap]}" for lap in range(max(1, first), last + 1) if lap in statuses.index]
        return "  track status (all cars) " + " ".join(cells)


def _num(value, digits: int = 0) -> str:
    if value != value or value is None:
        return "-"
    return f"{value:.{digits}f}" if digits else f"{value:g}"


def _changed(laps, driver: str, lap: int) -> bool:
    """A tyre change across this pit entry: another compound, or the age not running on."""
    car = laps[laps["Driver"] == driver].set_index("LapNumber")
    if lap not in car.index or lap + 1 not in car.index:
        return False
    before, after = car.loc[lap], car.loc[lap + 1]
    return before["Compound"] != after["Compound"] or not after["TyreLife"] == before["TyreLife"] + 1


def lap_span(decision: Decision) -> tuple[int, int]:
    detail, lap = decision.entry["detail"], decision.entry["lap"]
    found = re.search(r"laps (\d+)-(\d+)", detail)
    if found:
        return int(found.group(1)), int(found.group(2))
    return (lap or 1), (lap or 1)


def single_car_lines(evidence: Evidence, decision: Decision) -> list[str]:
    season, round_, driver = decision.season, decision.round, decision.entry["driver"]
    first, last = lap_span(decision)
    lines = evidence.car_rows(season, round_, driver, first - 3, first + 3)
    if last > first + 3:
        lines += ["  ..."] + evidence.car_rows(season, round_, driver, last - 2, last + 3)
    lines += [evidence.stints(season, round_, driver), evidence.ergast_rows(season, round_, driver)]
    if decision.rule.startswith("passage") or decision.rule == "red_flag_tyres_kept":
        lines += [evidence.field_at(season, round_, driver, first),
                  evidence.leader_status(season, round_, first - 2, first + 2)]
    if decision.rule == "start_compounds_withheld":
        lap1 = evidence.laps(season, round_)
        lap1 = lap1[lap1["LapNumber"] == 1]
        lines.append("  lap 1 compounds: " + " ".join(f"{d}:{c}/s{_num(s)}" for d, c, s in
                                                        zip(lap1["Driver"], lap1["Compound"], lap1["Stint"])))
    return [line for line in lines if line]


def move_lines(evidence: Evidence, decision: Decision) -> list[str]:
    found = re.search(r"(?:undercut|overcut) (\w{3}) on (\w{3}) \(laps (\d+)/(\d+)\)", decision.entry["detail"])
    if not found:
        return []
    a, b, la, lb = found.group(1), found.group(2), int(found.group(3)), int(found.group(4))
    lo, hi = min(la, lb), max(la, lb)
    lines = [evidence.leader_status(decision.season, decision.round, lo - 1, hi + 1)]
    for car in (a, b):
        lines += evidence.car_rows(decision.season, decision.round, car, lo - 2, hi + 2)
        lines.append(evidence.ergast_rows(decision.season, decision.round, car))
    return lines


def evidence_lines(evidence: Evidence, decision: Decision) -> list[str]:
    """What the second judge reads for one decision (never the first judge's columns)."""
    lines = []
    if decision.rule.startswith(("move", "defense")):
        lines.append("  " + gap_window(evidence.data, decision.season, decision.round, decision.entry))
    if decision.rule.startswith("move"):
        lines += move_lines(evidence, decision)
    elif decision.rule.startswith("defense"):
        cars = re.search(r"(\w{3}) behind (\w{3})", decision.entry["detail"])
        if cars:
            lines += [evidence.ergast_rows(decision.season, decision.round, car) for car in cars.groups()]
    else:
        lines += single_car_lines(evidence, decision)
    return lines


def print_listing(chosen: dict[str, list[Decision]], data: Path) -> None:
    evidence = Evidence(data)
    for rule, decisions in chosen.items():
        print(f"\n## {rule} ({len(decisions)})")
        for decision in decisions:
            print(f"{decision.key}\n  {decision.event}: {decision.entry['detail']}")
            for line in evidence_lines(evidence, decision):
                print(line)


# --- the join with the first judge (step 3) --------------------------------------------------


def read_verdicts(path: Path, reason_column: str) -> dict[str, tuple[str, str]]:
    return {row["key"]: (row["verdict"], row[reason_column])
            for row in read_tsv(path, ("key", "verdict", reason_column))}


def second_judge_rules(path: Path) -> dict[str, str]:
    """Key -> the rule the decision was listed under (the second judge's ``rule`` column)."""
    return {row["key"]: row["rule"] for row in read_tsv(path, ("key", "rule"))}


@dataclass(frozen=True)
class Change:
    """What a rule change did to a judged key: ``re-keyed`` (``now`` is the new key) or
    ``resolved`` (``now`` says what the oracle does instead), and the commit (``by``)."""

    key: str
    rule: str
    kind: str
    now: str
    by: str


def read_changes(path: Path) -> dict[str, Change]:
    """Old key -> its recorded change; an unknown kind is a usage error (exit 2)."""
    changes = {}
    for line, row in enumerate(read_tsv(path, ("key", "rule", "change", "now", "by")), start=2):
        if row["change"] not in CHANGE_KINDS:
            usage_error(f"{path}: line {line}: change {row['change']!r} is not one of {', '.join(CHANGE_KINDS)}")
        changes[row["key"]] = Change(row["key"], row["rule"], row["change"], row["now"], row["by"])
    return changes


def resolved_keys(changes: dict[str, Change]) -> dict[str, Change]:
    return {key: change for key, change in changes.items() if change.kind == "resolved"}


def judged_as(changes: dict[str, Change]) -> dict[str, str]:
    """New key -> the old key a re-keyed verdict was judged under."""
    return {change.now: key for key, change in changes.items() if change.kind == "re-keyed"}


def is_current(key: str, rule: str, current: dict[str, Decision]) -> bool:
    return key in current and current[key].rule == rule


def stale_judgments(rules: dict[str, str], current: dict[str, Decision],
                    resolved: dict[str, Change] | None = None) -> list[str]:
    """The second judge's keys that no longer name a decision the oracle makes under that rule
    and are not recorded as resolved by a rule change."""
    resolved = resolved or {}
    return [key for key, rule in rules.items() if not is_current(key, rule, current) and key not in resolved]


def unresolved(resolved: dict[str, Change], current: dict[str, Decision]) -> list[str]:
    """Keys recorded as resolved that the oracle makes again under the same rule."""
    return [key for key, change in resolved.items() if is_current(key, change.rule, current)]


def kappa(first: list[str], second: list[str]) -> float | None:
    """Cohen's kappa of two judges' verdicts on the same decisions: (p_o - p_e) / (1 - p_e),
    from scipy's contingency table (scikit-learn is not installed here); None when it is
    undefined (chance agreement 1: both judges gave one and the same label throughout)."""
    from scipy.stats.contingency import crosstab

    table = crosstab(first, second, levels=(VERDICTS, VERDICTS)).count
    n = table.sum()
    observed = table.trace() / n
    expected = float((table.sum(axis=1) * table.sum(axis=0)).sum()) / n**2
    return None if expected == 1 else float((observed - expected) / (1 - expected))


@dataclass
class RuleAgreement:
    rule: str
    both: int
    agree: int
    kappa: float | None
    first: dict[str, int]
    second: dict[str, int]
    disagreements: list[tuple[str, str, str, str, str]]  # key, verdict 1, reason 1, verdict 2, reason 2

    @property
    def precision_second(self) -> float | None:
        return self.second["right"] / self.both if self.both else None


def agreement(first: dict[str, tuple[str, str]], second: dict[str, tuple[str, str]],
              rules: dict[str, str], changes: dict[str, Change] | None = None) -> list[RuleAgreement]:
    """Per rule (``rules``: key -> rule), the keys both judges judged and how they agree.
    Resolved keys are left out (the rule no longer makes that decision); a re-keyed key
    takes the first judge's verdict under its new key, else under the old one."""
    changes = changes or {}
    old_key = judged_as(changes)
    first = dict(first)
    for new, old in old_key.items():
        if new not in first and old in first:
            first[new] = first[old]
    keys_by_rule: dict[str, list[str]] = defaultdict(list)
    for key in sorted(second):
        if key in first and key in rules and key not in resolved_keys(changes):
            keys_by_rule[rules[key]].append(key)
    table = []
    for rule in sorted(keys_by_rule):
        keys = keys_by_rule[rule]
        one, two = [first[k][0] for k in keys], [second[k][0] for k in keys]
        table.append(RuleAgreement(
            rule, len(keys), sum(a == b for a, b in zip(one, two)), kappa(one, two),
            {v: one.count(v) for v in VERDICTS}, {v: two.count(v) for v in VERDICTS},
            [(k, first[k][0], first[k][1], second[k][0], second[k][1]) for k in keys if first[k][0] != second[k][0]]))
    return table


def _pct(value: float | None) -> str:
    return "—" if value is None else f"{100 * value:.0f}%"


def print_table(table: list[RuleAgreement]) -> None:
    print("| rule | judged by both | agree | Cohen's kappa | judge 1 right / unsure / wrong "
          "| judge 2 right / unsure / wrong | precision, judge 1 | precision, judge 2 |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for row in table:
        k = "—" if row.kappa is None else f"{row.kappa:.2f}"
        name = f"{row.rule} (no exclusion)" if row.rule in UNDECIDABLE else row.rule
        one = " / ".join(str(row.first[v]) for v in VERDICTS)
        two = " / ".join(str(row.second[v]) for v in VERDICTS)
        print(f"| {name} | {row.both} | {row.agree} ({_pct(row.agree / row.both)}) | {k} | {one} | {two} "
              f"| {_pct(row.first['right'] / row.both)} | {_pct(row.precision_second)} |")
    for row in table:
        for key, v1, r1, v2, r2 in row.disagreements:
            print(f"\n{row.rule}: {key}\n  judge 1 {v1}: {r1}\n  judge 2 {v2}: {r2}")


def read_check(path: Path) -> dict[str, Decision]:
    lines = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    return current_decisions(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", type=Path, help="`factcov f1 check --json` output (needed by --list; "
                        "with the table, every judged key is checked against it)")
    parser.add_argument("--data", type=Path, default=REPO.parent / "shared" / "data" / "f1")
    parser.add_argument("--first", type=Path, default=FIRST)
    parser.add_argument("--second", type=Path, default=SECOND)
    parser.add_argument("--changes", type=Path, default=CHANGES)
    parser.add_argument("--list", action="store_true", help="the blind listing with evidence, no verdicts")
    parser.add_argument("--later", action="store_true", help="the decisions only a later judge saw "
                        f"(with --list: their blind listing; else their join with {LATER.name})")
    parser.add_argument("--later-file", type=Path, default=LATER)
    parser.add_argument("--clean-sides", type=Path, default=CLEAN_SIDES)
    args = parser.parse_args(argv)
    if (args.list or args.later) and args.check is None:
        parser.error("--list and --later need --check")
    current = read_check(args.check) if args.check else None
    if args.later:
        return later_main(args, current)
    if args.list:
        chosen, stale = blind_sample(first_judge_keys(args.first), current)
        print(f"{sum(map(len, chosen.values()))} decisions in {len(chosen)} rules; {len(stale)} stale keys left out")
        print_listing(chosen, args.data.resolve())
        return 0
    rules = second_judge_rules(args.second)
    changes = read_changes(args.changes)
    second = read_verdicts(args.second, "reason")
    print_table(agreement(read_verdicts(args.first, "evidence"), second, rules, changes))
    return report_changes(rules, second, changes, current)


def later_main(args: argparse.Namespace, current: dict[str, Decision]) -> int:
    """--later: the blind listing of the later rounds' decisions, or its join (exit 1 when a
    verdict names no decision of the current listing)."""
    chosen = later_sample(later_judge_keys(args.first), current)
    if args.list:
        print(f"{sum(map(len, chosen.values()))} decisions in {len(chosen)} rules")
        print_listing(chosen, args.data.resolve())
        return 0
    listed = {d.key: rule for rule, decisions in chosen.items() for d in decisions}
    rules = second_judge_rules(args.later_file)
    first, second = later_first_verdicts(args.first, args.clean_sides, current), read_verdicts(args.later_file, "reason")
    print_table(agreement(first, second, rules))
    for key in (key for key in second if key not in first):  # no first verdict: no agreement to state
        print(f"\nonly the second judge: {rules[key]}: {key}\n  {second[key][0]}: {second[key][1]}")
    stray = [key for key, rule in rules.items() if listed.get(key) != rule]
    for key in stray:
        print(f"stale: {key} names no decision of the later listing under {rules[key]!r}")
    return 1 if stray else 0


def report_changes(rules: dict[str, str], second: dict[str, tuple[str, str]], changes: dict[str, Change],
                   current: dict[str, Decision] | None) -> int:
    """List the resolved keys; with the current decisions, the stale ones and the resolved
    ones made again (exit 1 if any)."""
    resolved = {key: change for key, change in resolved_keys(changes).items() if key in rules}
    if resolved:
        print(f"\n{len(resolved)} second-judge keys resolved by a rule change (left out of the table):")
    for key, change in resolved.items():
        verdict = second[key][0] if key in second else "-"
        print(f"resolved: {key} ({change.rule}; judge 2 {verdict}) now {change.now}; by {change.by}")
    if current is None:
        return 0
    stale = stale_judgments(rules, current, resolved)
    for key in stale:
        print(f"stale: {key} names no decision of the current oracle under {rules[key]!r}")
    again = unresolved(resolved, current)
    for key in again:
        print(f"not resolved: {key} is recorded as resolved, yet the oracle makes it under {resolved[key].rule!r}")
    return 1 if stale or again else 0


if __name__ == "__main__":
    sys.exit(main())
