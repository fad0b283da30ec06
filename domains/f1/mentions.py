"""Finding drivers in a text: by code, surname, full name, or team when the instance
makes the team unambiguous (one of its drivers is the focus of the decision, the other not).

The index is built from the instance's race block and cached per race; drivers of other
races (``drivers.json``, every driver code of 2018-2026 from Ergast) are recognized too,
so a claim about a driver who was not in the race is read (and then judged), not ignored.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from factcov.language import fold

DRIVER_TABLE = Path(__file__).with_name("drivers.json")
ALIASES = {"checo": "PER"}  # unambiguous nicknames (folded)
_TEAM_SUFFIX = re.compile(r"\s+(?:f1 team|racing|team|f1)$")


@dataclass(frozen=True)
class Mention:
    start: int
    end: int
    code: str


@lru_cache(maxsize=1)
def known_drivers() -> dict[str, str]:
    """Code -> full name of every driver in the committed table (empty if absent)."""
    if not DRIVER_TABLE.is_file():
        return {}
    return dict(json.loads(DRIVER_TABLE.read_text(encoding="utf-8")))


def team_key(team: str) -> str:
    return _TEAM_SUFFIX.sub("", fold(team).strip())


class DriverIndex:
    """Compiled name patterns of one race (and of the focus drivers for team names)."""

    def __init__(self, drivers: list[dict[str, Any]], focus: tuple[str, ...]) -> None:
        names: dict[str, str] = {}
        surnames: dict[str, set[str]] = {}
        codes: set[str] = set()
        race_codes = {d["code"] for d in drivers}
        table = {**known_drivers(), **{d["code"]: d["name"] for d in drivers}}
        for code, name in table.items():
            codes.add(code)
            names[fold(name)] = code
            parts = fold(name).split()
            for cut in range(1, len(parts)):  # "de vries", "vries"; "kimi antonelli", "antonelli"
                surnames.setdefault(" ".join(parts[cut:]), set()).add(code)
        # a surname shared by two drivers names neither; the race's own drivers win ties
        for surname, owners in surnames.items():
            in_race = owners & race_codes
            chosen = in_race if in_race else owners
            if len(chosen) == 1 and surname not in names and len(surname) > 2:
                names[surname] = next(iter(chosen))
        for alias, code in ALIASES.items():  # nicknames the press uses, for drivers in the race
            if code in race_codes and alias not in names:
                names[alias] = code
        teams: dict[str, set[str]] = {}
        for d in drivers:
            if d.get("team"):
                teams.setdefault(team_key(d["team"]), set()).add(d["code"])
        for team, members in teams.items():
            focused = members & set(focus)
            if len(focused) == 1 and team and team not in names:
                names[team] = next(iter(focused))
        self.by_name = names
        alternation = "|".join(
            re.escape(n).replace(r"\ ", r"\s+") for n in sorted(names, key=len, reverse=True)
        )
        self.name_pattern = re.compile(rf"\b(?:{alternation})\b") if names else None
        code_alt = "|".join(sorted(codes))
        self.code_pattern = re.compile(rf"\b(?:{code_alt})\b") if codes else None

    def find(self, text: str, folded: str) -> list[Mention]:
        found: list[Mention] = []
        if self.name_pattern is not None:
            for match in self.name_pattern.finditer(folded):
                key = " ".join(match.group(0).split())
                found.append(Mention(match.start(), match.end(), self.by_name[key]))
        if self.code_pattern is not None:  # codes are upper case in the original text
            taken = [(m.start, m.end) for m in found]
            for match in self.code_pattern.finditer(text):
                if not any(s <= match.start() < e for s, e in taken):
                    found.append(Mention(match.start(), match.end(), match.group(0)))
        return sorted(found, key=lambda m: m.start)


def _focus(context: dict[str, Any]) -> tuple[str, ...]:
    focus = context.get("focus", {})
    return tuple(focus[k] for k in ("driver", "rival", "attacker") if isinstance(focus.get(k), str))


@lru_cache(maxsize=256)
def _index(key: str, drivers_json: str, focus: tuple[str, ...]) -> DriverIndex:
    return DriverIndex(json.loads(drivers_json), focus)


def driver_index(context: dict[str, Any]) -> DriverIndex:
    """The (cached) index of an instance's drivers."""
    race = context.get("race", {})
    drivers = [
        {"code": d["code"], "name": d.get("name", d["code"]), "team": d.get("team")}
        for d in race.get("drivers", [])
    ]
    key = f"{race.get('season')}:{race.get('round')}"
    return _index(key, json.dumps(drivers, sort_keys=True), _focus(context))
