"""A whole-fact audit of the f1 oracle on races no earlier test, benchmark or doc used.

Issue 26's fourth round (docs/domains/f1.md, "A whole-fact audit"). Eight races are drawn
with a fixed seed, one per season 2018-2025 (the seasons with an Ergast pit table), from
the races that the repository's tests, benchmarks and docs did not name at the commit the
audit started from (``BASE``); at least ``EVENTFUL`` of them with rain or a red flag. For
each, every fact the oracle emits and every entry of ``factcov f1 check`` (what a rule
dropped, withheld or kept) is listed with its evidence: Ergast's pit laps (raw and by F1
convention, as in ``f1_ergast_agreement.py``), its result and status, the stint's rows in
the lap table (compound, tyre age, Stint number, fresh), and for moves and defenses the
two cars' gap lap by lap. The judgements are in ``benchmarks/f1_fact_audit_judgments.tsv``
(key with the fact's value, verdict, evidence): ``right``, ``wrong``, ``unsure`` for an
emitted fact (a judgement holds for its value only: another value is unjudged); for a check
entry ``right``, ``wrong`` (it dropped a true fact) or ``unsure``. A fact judged right that
the oracle no longer states, or a ``missing`` row, is a true fact missing. A fact that a
table the rule did not read confirms (stop count and pit laps equal to Ergast's by F1
convention, a position or status equal to Ergast's, a stint whose rows read one compound,
a change between two such stints) is judged right with that evidence; every other fact
(stop counts Ergast disagrees with, mixed stints, neutralizations, moves, defenses) and every
check entry was judged by hand from the listed evidence. Rows judged ``wrong`` keep the
values of the code before the fixes they led to, so the benchmark on that code counts them.

An audit set is a named (base, seed, eventful) triple with its own judgments file (``SETS``):
set 1 is the fourth round's (bcc854e, 2604, 2 races with rain or a red flag); set 2 the
generalization audit drawn after the sixth round (a027064, 2607, 3 races with rain, a red flag
or a safety car, from a pool without set 1's races), on races no rule was tuned on; set 3 a
third audit drawn after set 2 was judged (430538d, 2608, 5 eventful races, from a pool without
sets 1 and 2), weighted to the races with rain, red flags and safety cars; set 4 a fourth
(3d764ce, 2609, 3 eventful races, from a pool without sets 1-3), to bound the wrong stop counts.

    python benchmarks/f1_fact_audit.py --draw          # the pool and the draw
    python benchmarks/f1_fact_audit.py --list          # every fact and exclusion, with evidence
    python benchmarks/f1_fact_audit.py                 # the counts per race and fact type
    python benchmarks/f1_fact_audit.py --set 2 [--draw|--list]   # the same for set 2 (3, 4)
"""

from __future__ import annotations

import argparse
import csv
import random
import re
import subprocess
import sys
from collections import Counter, defaultdict
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(Path(__file__).resolve().parent))
JUDGMENTS = Path(__file__).with_name("f1_fact_audit_judgments.tsv")
BASE = "bcc854e"  # main when the audit was drawn: the texts that name races already used
SEED = 2604
SEASONS = tuple(range(2018, 2026))
EVENTFUL = 2
# files that judge single decisions drawn from every race (not whole races), and this audit's own
NOT_A_USE = ("benchmarks/f1_exclusion_judgments.tsv", "benchmarks/f1_fact_audit")
# how the texts name a race: the event's adjective, its country, its city or circuit
ALIASES = {
    "70th Anniversary": ["70th Anniversary", "Silverstone"], "Abu Dhabi": ["Abu Dhabi", "Yas Marina"],
    "Australian": ["Australia", "Australian", "Melbourne", "Albert Park"],
    "Austrian": ["Austria", "Austrian", "Spielberg", "Red Bull Ring"], "Azerbaijan": ["Azerbaijan", "Baku"],
    "Bahrain": ["Bahrain"], "Belgian": ["Belgium", "Belgian", "Spa"],
    "Brazilian": ["Brazil", "Brazilian", "Interlagos", "São Paulo", "Sao Paulo"],
    "British": ["Britain", "British", "Silverstone"], "Canadian": ["Canada", "Canadian", "Montreal", "Montréal"],
    "Chinese": ["China", "Chinese", "Shanghai"], "Dutch": ["Dutch", "Netherlands", "Zandvoort"],
    "Eifel": ["Eifel", "Nürburgring", "Nurburgring"], "Emilia Romagna": ["Emilia Romagna", "Imola"],
    "French": ["France", "French", "Paul Ricard"], "German": ["Germany", "German", "Hockenheim"],
    "Hungarian": ["Hungary", "Hungarian", "Budapest"], "Italian": ["Italy", "Italian", "Monza"],
    "Japanese": ["Japan", "Japanese", "Suzuka"], "Las Vegas": ["Las Vegas", "Vegas"],
    "Mexican": ["Mexico", "Mexican"], "Mexico City": ["Mexico", "Mexican"], "Miami": ["Miami"],
    "Monaco": ["Monaco"], "Portuguese": ["Portugal", "Portuguese", "Portimão", "Portimao"],
    "Qatar": ["Qatar", "Lusail", "Losail"], "Russian": ["Russia", "Russian", "Sochi"], "Sakhir": ["Sakhir"],
    "Saudi Arabian": ["Saudi", "Jeddah"], "Singapore": ["Singapore"],
    "Spanish": ["Spain", "Spanish", "Barcelona", "Catalunya"], "Styrian": ["Styria", "Styrian"],
    "São Paulo": ["Brazil", "Brazilian", "Interlagos", "São Paulo", "Sao Paulo"],
    "Turkish": ["Turkey", "Turkish", "Istanbul"], "Tuscan": ["Tuscany", "Tuscan", "Mugello"],
    "United States": ["United States", "USA", "US", "Austin", "COTA"], "Barcelona": ["Barcelona", "Catalunya"],
}


# the audited races: the draw of SEED (``--draw`` recomputes it)
AUDITED = ((2018, 5), (2019, 16), (2020, 13), (2021, 19), (2022, 10), (2023, 22), (2024, 16), (2025, 13))
# set 2: the draw of seed 2607 at a027064 (``--set 2 --draw``)
AUDITED_2 = ((2018, 12), (2019, 5), (2020, 17), (2021, 20), (2022, 21), (2023, 6), (2024, 7), (2025, 18))
# set 3: the draw of seed 2608 at 430538d (``--set 3 --draw``)
AUDITED_3 = ((2018, 21), (2019, 7), (2020, 10), (2021, 10), (2022, 12), (2023, 20), (2024, 14), (2025, 9))
# set 4: the draw of seed 2609 at 3d764ce (``--set 4 --draw``)
AUDITED_4 = ((2018, 7), (2019, 19), (2020, 6), (2021, 18), (2022, 3), (2023, 2), (2024, 15), (2025, 17))


@dataclass(frozen=True)
class AuditSet:
    """One audit: the commit whose texts decide which races are unused, the seed, how many
    eventful races the draw needs and what counts as an event, its races (the draw, which
    ``--draw`` recomputes) and its judgments file."""

    name: str
    base: str
    seed: int
    eventful: int
    events: tuple[str, ...]
    audited: tuple[tuple[int, int], ...]
    judgments: Path
    excluded: tuple[tuple[int, int], ...] = ()  # races of earlier sets, never drawn again
    not_a_use: tuple[str, ...] = NOT_A_USE  # files whose naming a race does not count as its use

    def describe(self, article: str = "") -> str:
        """The events in words: "rain or red flag" ("rain or a red flag" with ``article="a "``)."""
        words = [word if word == "rain" else article + word for word in self.events]
        return " or ".join((", ".join(words[:-1]), words[-1])) if len(words) > 1 else words[0]


SETS = {
    "1": AuditSet("1", BASE, SEED, EVENTFUL, ("rain", "red flag"), AUDITED, JUDGMENTS),
    # issue 26's generalization audit: races no rule was tuned on, drawn after the sixth round
    "2": AuditSet("2", "a027064", 2607, 3, ("rain", "red flag", "safety car"), AUDITED_2,
                  JUDGMENTS.with_name("f1_fact_audit_judgments_2.tsv"), excluded=AUDITED,
                  # the second judge's verdicts, like the first's, judge single decisions of nearly every race
                  not_a_use=NOT_A_USE + ("benchmarks/f1_second_judge.tsv", "benchmarks/f1_second_judge_changes.tsv")),
    # issue 26's third audit, weighted to the eventful races where the rules are most tested
    "3": AuditSet("3", "430538d", 2608, 5, ("rain", "red flag", "safety car"), AUDITED_3,
                  JUDGMENTS.with_name("f1_fact_audit_judgments_3.tsv"), excluded=AUDITED + AUDITED_2,
                  not_a_use=NOT_A_USE + ("benchmarks/f1_second_judge.tsv", "benchmarks/f1_second_judge_changes.tsv")),
    # issue 26's fourth audit: 155 more driver-races toward the stop-count bound of 1 in 200
    "4": AuditSet("4", "3d764ce", 2609, 3, ("rain", "red flag", "safety car"), AUDITED_4,
                  JUDGMENTS.with_name("f1_fact_audit_judgments_4.tsv"), excluded=AUDITED + AUDITED_2 + AUDITED_3,
                  not_a_use=NOT_A_USE + ("benchmarks/f1_second_judge.tsv", "benchmarks/f1_second_judge_changes.tsv")),
}


def base_texts(commit: str = BASE, not_a_use: tuple[str, ...] = NOT_A_USE) -> str:
    """tests/, benchmarks/ and docs/ as they were at ``commit`` (the draw does not move when
    this audit's own files and paragraph name its races)."""
    names = subprocess.run(["git", "ls-tree", "-r", "--name-only", commit, "tests", "benchmarks", "docs"],
                           cwd=REPO, capture_output=True, text=True, check=True).stdout.split()
    texts = []
    for name in names:
        if name.startswith(not_a_use) or not name.endswith((".py", ".md", ".tsv", ".txt", ".json")):
            continue
        texts.append(subprocess.run(["git", "show", f"{commit}:{name}"], cwd=REPO, capture_output=True,
                                    text=True, check=True).stdout)
    return re.sub(r"\s+", " ", "\n".join(texts))  # a name broken over two lines is one name


def named(text: str, season: int, round_: int, event: str) -> bool:
    """Whether the texts name the race: "2019 Monza", "Monza 2019", "2025 Bahrain, Japan and
    United States" (a season followed by a list), or (season, round) in code."""
    words = "|".join(re.escape(a) for a in ALIASES[event.replace(" Grand Prix", "")])
    if re.search(rf"\b(?:{words})\s+(?:GP\s+)?{season}\b", text):
        return True
    for found in re.finditer(rf"\b{season}\b([^;.()]{{0,80}})", text):
        if re.search(rf"^\s+(?:[\w ]+?(?:,|\band)\s+)*(?:{words})\b", found.group(1)):
            return True
    return bool(re.search(rf"\b{season},\s*{round_}\)|\b{season}, {round_},|\b{season}:{round_}:", text))


def claims_digest_races() -> set[tuple[int, int]]:
    import f1_claims_digest

    return set(f1_claims_digest.RACES)


def draw(data: Path, chosen: AuditSet | None = None) -> tuple[list[tuple[int, int, str, bool]],
                                                           list[tuple[int, int, str, bool]]]:
    """(pool, drawn): the unused races with an Ergast result and pit table as (season, round,
    event, eventful), and the draw: one per season, then the latest seasons' picks replaced by
    an eventful race of their season until the set's ``eventful`` many are eventful."""
    import pandas as pd

    from factcov.domains.f1.source import season_laps

    chosen = chosen or SETS["1"]
    read = lambda name: pd.read_csv(data / "ergast" / name, na_values=["\\N"], keep_default_na=False)  # noqa: E731
    races, pits, results, red = read("races.csv"), read("pit_stops.csv"), read("results.csv"), read("red_flags.csv")
    covered = set(races.loc[races["raceId"].isin(set(pits["raceId"]) & set(results["raceId"])),
                            ["year", "round"]].itertuples(index=False, name=None))
    events = set(red["Race"]) | (set(read("safety_cars.csv")["Race"]) if "safety car" in chosen.events else set())
    text, digest = base_texts(chosen.base, chosen.not_a_use), claims_digest_races()
    pool = []
    for season in SEASONS:
        laps = season_laps(data, season)
        for round_, rows in laps.groupby("RoundNumber"):
            event = str(rows["EventName"].iloc[0])
            key = (season, int(round_))
            if (key not in covered or key in digest or key in chosen.excluded
                    or named(text, season, int(round_), event)):
                continue
            wet = rows["Compound"].isin(("INTERMEDIATE", "WET")).any()
            pool.append((season, int(round_), event, bool(wet or f"{season} {event}" in events)))
    rng = random.Random(chosen.seed)
    by_season = {s: rng.sample([r for r in pool if r[0] == s], len([r for r in pool if r[0] == s])) for s in SEASONS}
    drawn = [by_season[s][0] for s in SEASONS if by_season[s]]
    for index in reversed(range(len(drawn))):
        if sum(r[3] for r in drawn) >= chosen.eventful:
            break
        eventful = [r for r in by_season[drawn[index][0]] if r[3]]
        if not drawn[index][3] and eventful:
            drawn[index] = eventful[0]
    return pool, drawn


FACT_VERDICTS = ("right", "wrong", "unsure")


def read_judgments(path: Path = JUDGMENTS) -> dict[str, tuple[str, str]]:
    if not path.is_file():
        return {}
    with path.open(encoding="utf-8") as handle:
        return {row["key"]: (row["verdict"], row["evidence"]) for row in csv.DictReader(handle, delimiter="\t")}


class Evidence:
    """What the tables say about one race, independently of the oracle's rules: Ergast's pit
    laps and results, neutralizations, and the lap table's rows."""

    def __init__(self, data: Path, season: int, round_: int) -> None:
        import json

        import pandas as pd

        from factcov.domains.f1.context import race_block
        from factcov.domains.f1.oracle import race_facts
        from factcov.domains.f1.source import ergast, race, season_laps

        self.season, self.round = season, round_
        self.analysis = race(data, season, round_)
        self.block = race_block(self.analysis)
        self.facts = race_facts(self.block)
        laps = season_laps(data, season)
        self.laps = laps[laps["RoundNumber"] == round_].sort_values(["Driver", "LapNumber"])
        raw, convention = _references(data)
        self.raw, self.convention = raw.get((season, round_), {}), convention.get((season, round_), {})
        self.results = ergast(data).classification(season, round_).set_index("code")
        name = f"{season} {self.analysis.event}"
        read = lambda n: pd.read_csv(data / "ergast" / n)  # noqa: E731
        cars = read("safety_cars.csv")
        self.safety_cars = [(r.Deployed, r.Retreated) for r in cars[cars["Race"] == name].itertuples()]
        red = read("red_flags.csv")
        self.red_flags = sorted(int(lap) for lap in red.loc[red["Race"] == name, "Lap"])
        vsc = json.loads((data / "ergast" / "virtual_safety_car_estimates.json").read_text())
        self.vsc_laps = vsc.get(name, [])

    def stint_rows(self, driver: str, stint: dict) -> str:
        rows = self.laps[(self.laps["Driver"] == driver) & self.laps["LapNumber"].between(stint["first_lap"],
                                                                                        stint["last_lap"])]
        compounds = Counter(str(c) for c in rows["Compound"])
        first = rows.iloc[0] if len(rows) else None
        start = "" if first is None else (f"first row: TyreLife {first['TyreLife']}, Stint {first['Stint']}, "
                                          f"Fresh {first.get('FreshTyre', '?')}")
        return f"laps {stint['first_lap']}-{stint['last_lap']}: {dict(compounds)}; {start}"

    def gaps(self, a: str, b: str, first: int, last: int) -> str:
        """a minus b (s) lap by lap; n: a neutralized lap, p: a stop of either car."""
        times, stops = self.analysis.times, self.analysis.stops
        neutral = {lap for f, t in zip(self.analysis.neutralizations["first_lap"],
                                       self.analysis.neutralizations["last_lap"]) for lap in range(f, t + 1)}
        pits = set(zip(stops["driver"], stops["lap"]))
        cells = []
        for lap in range(max(1, first), last + 1):
            if lap in times.index and a in times.columns and b in times.columns:
                gap = times.at[lap, a] - times.at[lap, b]
                mark = ("n" if lap in neutral else "") + ("p" if (a, lap) in pits or (b, lap) in pits else "")
                cells.append(f"{lap}{mark}:{gap:+.1f}" if gap == gap else f"{lap}{mark}:-")
        return f"{a}-{b}: " + " ".join(cells)


_REFERENCES: dict = {}


def _references(data: Path) -> tuple[dict, dict]:
    if data not in _REFERENCES:
        from f1_ergast_agreement import convention_reference

        _REFERENCES[data] = convention_reference(data)
    return _REFERENCES[data]


FACT_TYPES = ("stop_count", "pit_lap", "stint_compound", "compound_change", "final_position", "retired", "winner",
              "neutralization", "undercut", "overcut", "time_gained", "defense")


def fact_key(season: int, round_: int, fact) -> str:
    """The fact with its value: a judgement holds for that value only (another value is unjudged)."""
    import json

    key = ",".join(f"{k}={v}" for k, v in sorted(fact.key.items()))
    return f"{season}:{round_}:{fact.type}:{key}={json.dumps(fact.value)}"


def entry_key(season: int, round_: int, entry: dict) -> str:
    return f"{season}:{round_}:{entry['rule']}:{entry['driver']}:{entry['lap']}:{entry['detail'][:60]}"


def fact_evidence(ev: Evidence, fact) -> str:
    """The evidence a judge needs for one fact, from tables the oracle's rule did not decide."""
    key = fact.key
    driver = key.get("driver")
    if fact.type in ("stop_count", "pit_lap"):
        return f"ours {_stops(ev, driver)}; Ergast raw {ev.raw.get(driver, [])}, convention {ev.convention.get(driver, [])}"
    if fact.type in ("stint_compound", "compound_change"):
        car = next(d for d in ev.block["drivers"] if d["code"] == driver)
        if fact.type == "stint_compound":
            stints = [s for s in car["stints"] if s["stint"] == key["stint"]]
        else:  # the stints either side of the stop (a red-flag change also starts a stint)
            lap = next(p["lap"] for p in car["pit_stops"] if p["stop"] == key["stop"])
            stints = [s for s in car["stints"] if s["last_lap"] == lap or s["first_lap"] == lap + 1]
        return " | ".join(ev.stint_rows(driver, s) for s in stints) + f"; Ergast {ev.convention.get(driver, [])}"
    if fact.type in ("final_position", "retired"):
        row = ev.results.loc[driver] if driver in ev.results.index else None
        return "no Ergast result" if row is None else f"Ergast position {row['position']}, status {row['status']}"
    if fact.type == "winner":
        return f"Ergast P1 {ev.results.index[ev.results['position'] == 1].tolist()}"
    if fact.type == "neutralization":
        return f"Ergast SC (deployed, retreated) {ev.safety_cars}, VSC laps {ev.vsc_laps}, red {ev.red_flags}"
    if fact.type in ("undercut", "overcut", "time_gained"):
        move = next(m for m in ev.block["moves"] if m["driver"] == driver and m["rival"] == key["rival"])
        first = min(move["driver_pit_lap"], move["rival_pit_lap"])
        last = max(move["driver_pit_lap"], move["rival_pit_lap"])
        return (f"{move['kind']} stops {move['driver_pit_lap']}/{move['rival_pit_lap']} gap {move['gap_before_s']}"
                f" -> {move['gap_after_s']}; " + ev.gaps(driver, key["rival"], first - 3, last + 3))
    if fact.type == "defense":
        d = next(d for d in ev.block["defenses"] if d["driver"] == driver and d["attacker"] == key["attacker"])
        return f"laps {d['first_lap']}-{d['last_lap']}; " + ev.gaps(key["attacker"], driver, d["first_lap"] - 6,
                                                                    d["last_lap"] + 6)
    return ""


def _stops(ev: Evidence, driver: str) -> list[int]:
    stops = ev.analysis.stops
    return [int(lap) for lap in stops.loc[stops["driver"] == driver, "lap"]]


def entry_evidence(ev: Evidence, entry: dict) -> str:
    """A check entry's evidence: the gaps around a move or a defense, the Ergast pit laps of a stop rule."""
    detail, driver = entry["detail"], entry["driver"]
    found = re.search(r"(\w{3}) behind (\w{3}) laps (\d+)-(\d+)", detail)
    if found:
        a, b, first, last = found.group(1), found.group(2), int(found.group(3)), int(found.group(4))
        return ev.gaps(a, b, first - 6, last + 8)
    found = re.search(r"(?:undercut|overcut) (\w{3}) on (\w{3}) \(laps (\d+)/(\d+)\)", detail)
    if found:
        a, b = found.group(1), found.group(2)
        first, last = sorted((int(found.group(3)), int(found.group(4))))
        return ev.gaps(a, b, first - 3, last + 3)
    if driver:
        return f"ours {_stops(ev, driver)}; Ergast raw {ev.raw.get(driver, [])}, convention {ev.convention.get(driver, [])}"
    return ""


def audit(data: Path, judged: dict[str, tuple[str, str]], listing: bool,
          races: tuple[tuple[int, int], ...] = AUDITED) -> Counter:
    """Every audited race's facts and check entries against the judgements; the counts."""
    counts: Counter = Counter()
    emitted: set[str] = set()
    lapless: set[tuple[int, int, str]] = set()  # cars that completed no lap: no instance, no facts
    for season, round_ in races:
        ev = Evidence(data, season, round_)
        if ev.analysis.quality is not None:
            log = ev.analysis.quality
            lapless |= {(season, round_, str(d)) for d in log.loc[log["rule"] == "no_lap_completed", "driver"]}
        if listing:
            print(f"\n# {season} {ev.analysis.event} (round {round_}): {len(ev.facts)} facts")
        for fact in ev.facts:
            key = fact_key(season, round_, fact)
            emitted.add(key)
            verdict = judged.get(key, ("", ""))[0]
            counts[("fact", fact.type, verdict or "unjudged")] += 1
            if listing:
                print(f"{key}\t{fact.value}\t{verdict}\t{fact_evidence(ev, fact)}")
        for entry in ([] if ev.analysis.quality is None else ev.analysis.quality.to_dict("records")):
            entry["driver"] = entry["driver"] if isinstance(entry["driver"], str) else None
            lap = entry["lap"]
            entry["lap"] = None if lap is None or lap != lap else int(lap)
            key = entry_key(season, round_, entry)
            verdict = judged.get(key, ("", ""))[0]
            counts[("entry", entry["rule"], verdict or "unjudged")] += 1
            if listing:
                print(f"{key}\t{verdict}\t{entry['detail']}\t{entry_evidence(ev, entry)}")
    for key, (verdict, _) in judged.items():
        parts = key.split(":")
        if tuple(int(p) for p in parts[:2]) not in races or parts[2] not in FACT_TYPES:
            continue
        driver = re.search(r"driver=(\w{3})", key)
        if key not in emitted and driver and (int(parts[0]), int(parts[1]), driver.group(1)) in lapless:
            counts[("no instance", parts[2], verdict)] += 1  # judged before its car was found lapless
            continue
        # a true fact the oracle does not state (judged missing, or judged right and no longer emitted)
        if verdict == "missing" or (verdict == "right" and key not in emitted):
            counts[("missing", parts[2], "missing")] += 1
    return counts


def _by_name(counts: Counter, kind: str) -> dict[str, Counter]:
    """The verdicts' counts of one kind ("fact" or "entry"), per fact type or check rule."""
    rows: dict[str, Counter] = defaultdict(Counter)
    for (each, name, verdict), n in counts.items():
        if each == kind:
            rows[name][verdict] += n
    return rows


def _row(name: str, row: Counter) -> str:
    return f"| {name} | {sum(row.values())} | {row['right']} | {row['wrong']} | {row['unsure']} | {row['unjudged']} |"


def report(counts: Counter) -> None:
    facts = _by_name(counts, "fact")
    print("| fact type | emitted | right | wrong | unsure | unjudged |")
    print("|---|---:|---:|---:|---:|---:|")
    for name in sorted(facts):
        print(_row(name, facts[name]))
    print(_row("all", sum(facts.values(), Counter())))
    entries = _by_name(counts, "entry")
    print("\n| check rule | entries | rightly | wrongly (a true fact lost) | unsure | unjudged |")
    print("|---|---:|---:|---:|---:|---:|")
    for name in sorted(entries):
        print(_row(name, entries[name]))
    missing = Counter({name: n for (kind, name, _), n in sorted(counts.items()) if kind == "missing"})
    lost = sum(row["wrong"] for row in entries.values())
    print(f"\ntrue facts missing (judged true, not stated): {sum(missing.values())} {dict(missing)}; "
          f"check entries that dropped a true fact: {lost}")
    gone: Counter = Counter()
    for (kind, _, verdict), n in counts.items():
        if kind == "no instance":
            gone[verdict] += n
    if gone:  # not missing: the docs give a car that completed no lap no instance and no facts
        print(f"facts judged about cars since found to have completed no lap (no instance, not missing): "
              f"{sum(gone.values())} {dict(gone)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=REPO.parent / "shared" / "data" / "f1")
    parser.add_argument("--draw", action="store_true", help="print the pool of unused races and the draw")
    parser.add_argument("--list", action="store_true", help="every fact and check entry, with evidence")
    parser.add_argument("--set", choices=sorted(SETS), default="1", help="the audit set (default: 1)")
    parser.add_argument("--judgments", type=Path, help="default: the set's own judgments file")
    args = parser.parse_args()
    chosen = SETS[args.set]
    if args.draw:
        pool, drawn = draw(args.data, chosen)
        print(f"{len(pool)} races with an Ergast result and pit table that tests, benchmarks and docs did not name "
              f"at {chosen.base}{'' if not chosen.excluded else ', not in an earlier set'}; "
              f"{sum(r[3] for r in pool)} with {chosen.describe('a ')}")
        for season, round_, event, eventful in drawn:
            print(f"  {season} round {round_:2d} {event}{f' ({chosen.describe()})' if eventful else ''}")
        return
    report(audit(args.data, read_judgments(args.judgments or chosen.judgments), args.list, chosen.audited))


if __name__ == "__main__":
    main()
