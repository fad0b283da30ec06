"""When the lap table only seems to decide a defense (issue 26, the second judge's doubts).

Two defense rules of ``derive.build_defenses`` fell under 90% under a second, blind judge,
every miss an "unsure": the judge could not tell from the gaps whether the rule was right.
The reasons recur as classes, and each class is a doubt here: a decision that carries one
is moved to ``defense_undecidable`` (no fact, no exclusion) instead of being made.

A run *kept* as a defense because the attacker was faster and closing in before it
(``closing_doubt``) is doubtful when the closing is one lap's dip (traffic, a defender's
moment: the closing less its largest one-lap gain is under ``DEFENSE_CLOSING_S``), when the
pace edge is within the noise of lap times (under ``CLOSING_PACE_S`` a lap), or when the
attacker started closing from inside ``CLOSING_FROM_S`` (already near a second behind:
little closing, a car in DRS range behaves the same in a train).

A run *excluded* because the attacker fell back (``fall_back_doubt``) is doubtful when the
two cars are team-mates who swapped places just before it (a hold order or a stopped fight,
not pace), when the run is ``LONG_RUN_LAPS`` or longer (a car that follows that long within
a second is as likely held up as in a train: on the kept side such runs were real defenses
in 14 of 30; judge 2: "11 laps at 0.8-1.0 s ... could be held"), when the fall-back is not held on the next clean lap (it falls on the lap before
an in-lap, or a neutralization follows), or when one lap's loss made it and the attacker did
not keep losing after it (a mistake or traffic while attacking, not pace).

Pure functions over gap sequences (seconds the attacker is behind the defender, lap by
lap), so the rules read and test without a race.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import takewhile

CLOSING_PACE_S = 0.2  # a pace edge before the run under this is lap-time noise, not a faster car
CLOSING_FROM_S = 2.0  # the closing must start at least this far back (twice DRS range)
SWAP_LAPS = 5  # team-mates with the attacker ahead within this many laps before the run
LONG_RUN_LAPS = 10  # a car following this long within a second may be held up: no exclusion


def closing_doubt(gaps: Sequence[float], margin: float, closing_s: float) -> str:
    """Why a closing-in before a run does not show a held-up attacker ('' when it does).
    ``gaps``: the gap at the end of the lap before the clean stretch, each lap of it, and
    the run's first lap; ``margin``: the attacker's pace edge over the stretch (s a lap);
    ``closing_s``: the closing the rule asks for (``DEFENSE_CLOSING_S``)."""
    gains = [a - b for a, b in zip(gaps, gaps[1:])]
    closed = gaps[0] - gaps[-1]
    largest = max(gains, default=0.0)
    if closed - largest < closing_s:
        return f"most of the closing ({largest:.1f} of {closed:.1f} s) is one lap's"
    if margin < CLOSING_PACE_S:
        return f"a pace edge of {margin:.2f} s a lap before the run is within lap-time noise"
    if gaps[0] < CLOSING_FROM_S:
        return f"the closing started {gaps[0]:.1f} s back, already near the defender"
    return ""


def swapped_team_mates(team_mates: bool, gaps_before: Sequence[float]) -> bool:
    """Team-mates, the attacker ahead at the end of one of the laps before the run."""
    return team_mates and any(gap < 0 for gap in gaps_before)


def fall_back_doubt(gaps: Sequence[float], clean: Sequence[bool], dropped_s: float) -> str:
    """Why a fall-back after a run does not show an attacker without the pace ('' when it
    does). ``gaps``: the gap from the lap before the fall-back lap (index 0) to a few laps
    after it; ``clean``: whether each of those laps is clean for both cars;
    ``dropped_s``: the fall-back the rule asks for (``DEFENSE_DROPPED_S``). A one-lap loss
    of ``dropped_s`` or more counts when the attacker lost ``dropped_s`` more over the clean
    laps that follow it (give ``gaps`` up to ``DEFENSE_DROP_LAPS`` laps after the fall-back)."""
    if len(gaps) < 3 or not clean[2] or not gaps[2] >= dropped_s:
        return "the fall-back is not held on the next clean lap (an in-lap or a neutralization follows)"
    loss = gaps[1] - gaps[0]
    if loss >= dropped_s:
        held = takewhile(lambda pair: pair[1], zip(gaps[2:], clean[2:]))  # the clean laps after it
        more = max(gap for gap, _ in held) - gaps[1]
        if more < dropped_s:
            return f"one lap's loss of {loss:.1f} s, then {more:.1f} s more: a moment, not its pace"
    return ""
