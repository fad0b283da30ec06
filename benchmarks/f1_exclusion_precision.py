"""How often each exclusion rule of the f1 oracle drops a decision rightly, judged by hand.

Every rule that drops a decision (a move, a defense, a stop, a compound, a driver) is
sampled: up to ``--per-rule`` of its entries in ``factcov f1 check`` over the 174 races,
drawn with a fixed seed round-robin across seasons, each listed with its evidence (the
rule's own detail and, for moves and defenses, the two cars' gap lap by lap from the lap
table). The judgements live in ``benchmarks/f1_exclusion_judgments.tsv`` (key, verdict
``right``/``wrong``/``unsure``, the evidence summary that decided it), so they can be
re-checked; the table (rule, n judged, n rightly dropped) is in docs/domains/f1.md.

    factcov f1 check --laps ../shared/data/f1/laps --ergast ../shared/data/f1/ergast --json > /tmp/check.jsonl
    python benchmarks/f1_exclusion_precision.py --check /tmp/check.jsonl --list     # the sample, with evidence
    python benchmarks/f1_exclusion_precision.py --check /tmp/check.jsonl            # the table
"""

from __future__ import annotations

import argparse
import csv
import json
import random
import re
from collections import defaultdict
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
JUDGMENTS = Path(__file__).with_name("f1_exclusion_judgments.tsv")
MOVE_REASONS = (
    ("move: undecidable, wet-weather tyres at a slow stop", "undecidable: a stop onto or off wet"),
    ("move: neutralization", "safety car, VSC or red flag"),
    ("move: slow stop", "stop lost over"),
    ("move: served time, a penalty or a failed stop", "a penalty or a failed stop"),
    ("move: passage", "pit-lane passage"),
    ("move: weather", "weather call"),
    ("move: not adjacent", "not adjacent"),
)
PASSAGE_KINDS = (
    # in a race whose tyre columns miss changes the stop count is withheld: no exclusion, undecidable
    ("passage: stop-go where the tyre columns miss changes (count withheld)", "tyre columns miss changes"),
    ("passage: field", "the field led through"),
    ("passage: red-flag restart", "around a red flag"),
    ("passage: drive-through", "drive-through"),
    ("passage: stop-go", "stop-go"),
)
# defenses kept although the run shows no pace margin (precision of what is KEPT: "right"
# means a real defense)
KEPT_DEFENSES = (
    ("defense kept: held 10+ laps", "held within"),
    ("defense kept: passed 5-15 laps after, still following", "still following"),
    ("defense kept: passed within 4 laps", "passed on track"),
    ("defense kept: faster and closing before", "faster over laps"),
    ("defense kept: closed 1 s on two clean laps before", "two clean laps"),
)
# the exclusions issue 26's seventh round moved to defense_undecidable (a judge's doubt on the
# fall-back; the kept side's doubt was measured and not adopted)
DOUBTED_FALL_BACK = "defense_undecidable: a fall-back doubted (excluded before the seventh round)"
# defense_undecidable is no exclusion (nothing is known to be wrong with it) but is sampled to
# show what the lap table cannot decide
OTHER_RULES = ("defense_excluded", "defense_undecidable", "red_flag_tyres_kept", "tyre_data_distrusted", "no_lap_completed",
               "start_compounds_withheld")
# a compound kept beside a distrusted stop (precision of what is KEPT: "right" means the
# compound the Stint counter names is the stint's)
KEPT_COMPOUNDS = {"distrusted_side_kept": "compound kept: named by the Stint counter",
                  # issue 26's fourth round: a set the feed opened late, an in-lap row showing the next set
                  "late_set_opened": "compound kept: a set opened late after a stop",
                  "in_lap_shows_new_set": "compound kept: an in-lap row showing the next set"}


def rule_of(entry: dict) -> str | None:
    """The exclusion rule an f1 check entry belongs to (None: not an exclusion)."""
    detail = entry["detail"]
    if entry["rule"] == "move_excluded":
        return next((name for name, word in MOVE_REASONS if word in detail), "move: other")
    if entry["rule"] == "pit_passage":
        return next((name for name, word in PASSAGE_KINDS if word in detail), "passage: other")
    if entry["rule"] == "defense_undecidable" and "; undecidable: " in detail:
        # issue 26's seventh round: an exclusion a judge's doubt moved here (domains/f1/defense_doubts.py)
        return DOUBTED_FALL_BACK
    if entry["rule"] == "defense_held_up":
        return next((name for name, word in KEPT_DEFENSES if word in detail), "defense kept: other")
    if entry["rule"] in KEPT_COMPOUNDS:
        return KEPT_COMPOUNDS[entry["rule"]]
    if entry["rule"] == "last_lap_pit_entry" and "retirement" in detail:
        return "last lap: retirement into the pits"
    return entry["rule"] if entry["rule"] in OTHER_RULES else None


def key_of(season: int, round_: int, entry: dict) -> str:
    return f"{season}:{round_}:{entry['rule']}:{entry['driver']}:{entry['lap']}:{entry['detail'][:60]}"


def sample(check_lines: list[dict], per_rule: int, seed: int) -> dict[str, list[tuple[int, int, str, dict]]]:
    """Up to ``per_rule`` entries per rule, round-robin over seasons, each rule from its own
    generator seeded with the rule's name: one rule's change of entries leaves the other
    rules' samples as they were judged."""
    pools: dict[str, dict[int, list]] = defaultdict(lambda: defaultdict(list))
    for race in check_lines:
        for entry in race["entries"]:
            rule = rule_of(entry)
            if rule:
                pools[rule][race["season"]].append((race["season"], race["round"], race["event"], entry))
    chosen: dict[str, list] = {}
    for rule in sorted(pools, key=lambda name: (name.startswith("defense kept"), name)):
        rng = random.Random(f"{seed}:{rule}")
        seasons = {season: rng.sample(items, len(items)) for season, items in sorted(pools[rule].items())}
        picked: list = []
        while len(picked) < per_rule and any(seasons.values()):
            for season in sorted(seasons):
                if seasons[season] and len(picked) < per_rule:
                    picked.append(seasons[season].pop())
        chosen[rule] = picked
    return chosen


def gap_window(data: Path, season: int, round_: int, entry: dict) -> str:
    """The two cars' gap (second car behind the first, s) and order lap by lap around a
    move or a defense, from the lap table."""
    from factcov.domains.f1.source import race

    detail = entry["detail"]
    found = re.search(r"(\w{3}) behind (\w{3}) laps (\d+)-(\d+)", detail) or re.search(
        r"(?:undercut|overcut) (\w{3}) on (\w{3}) \(laps (\d+)/(\d+)\)", detail)
    if not found:
        return ""
    a, b, first, last = found.group(1), found.group(2), int(found.group(3)), int(found.group(4))
    first, last = min(first, last), max(first, last)
    analysis = race(data, season, round_)
    times = analysis.times
    neutral = {lap for first_lap, last_lap in zip(analysis.neutralizations["first_lap"],
                                                  analysis.neutralizations["last_lap"])
               for lap in range(int(first_lap), int(last_lap) + 1)} if len(analysis.neutralizations) else set()
    pits = set(zip(analysis.stops["driver"], analysis.stops["lap"])) if len(analysis.stops) else set()
    cells = []
    before = 8 if "behind" in found.group(0) else 3  # a defense: the attacker's pace before the run
    passed = re.search(r"passed on track on lap (\d+)", detail)  # show the laps up to a late pass
    end = max(last + 6, int(passed.group(1)) + 2) if passed else last + 6
    for lap in range(max(1, first - before), end):
        if lap in times.index and a in times.columns and b in times.columns:
            gap = times.at[lap, a] - times.at[lap, b]
            # n: a neutralized lap, p: a stop of either car on that lap
            mark = ("n" if lap in neutral else "") + ("p" if (a, lap) in pits or (b, lap) in pits else "")
            cells.append(f"{lap}{mark}:{gap:+.1f}" if gap == gap else f"{lap}{mark}:-")
    return f"{a} minus {b}: " + " ".join(cells)


def read_judgments(path: Path) -> dict[str, tuple[str, str]]:
    if not path.is_file():
        return {}
    with path.open(encoding="utf-8") as handle:
        return {row["key"]: (row["verdict"], row["evidence"]) for row in csv.DictReader(handle, delimiter="\t")}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", type=Path, required=True, help="`factcov f1 check --json` output")
    parser.add_argument("--data", type=Path, default=REPO.parent / "shared" / "data" / "f1")
    parser.add_argument("--per-rule", type=int, default=30)
    parser.add_argument("--seed", type=int, default=26)
    parser.add_argument("--list", action="store_true", help="print the sample with its evidence")
    parser.add_argument("--judgments", type=Path, default=JUDGMENTS)
    args = parser.parse_args()
    lines = [json.loads(line) for line in args.check.read_text(encoding="utf-8").splitlines() if line.strip()]
    chosen = sample(lines, args.per_rule, args.seed)
    judged = read_judgments(args.judgments)
    print("| rule | entries | sampled | judged | rightly dropped | unsure | wrongly dropped |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    totals = defaultdict(int)
    for race in lines:
        for entry in race["entries"]:
            if (rule := rule_of(entry)):
                totals[rule] += 1
    for rule, picked in chosen.items():
        verdicts = [judged[key_of(s, r, e)][0] for s, r, _, e in picked if key_of(s, r, e) in judged]
        right, unsure, wrong = verdicts.count("right"), verdicts.count("unsure"), verdicts.count("wrong")
        print(f"| {rule} | {totals[rule]} | {len(picked)} | {len(verdicts)} | {right} | {unsure} | {wrong} |")
    if args.list:
        for rule, picked in chosen.items():
            print(f"\n## {rule}")
            for season, round_, event, entry in picked:
                key = key_of(season, round_, entry)
                verdict = judged.get(key, ("", ""))[0]
                print(f"{key}\t{verdict}\t{event}: {entry['detail']}")
                if rule.startswith(("move", "defense")):
                    print(f"    {gap_window(args.data, season, round_, entry)}")


if __name__ == "__main__":
    main()
