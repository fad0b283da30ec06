"""When the lap table only seems to decide a defense exclusion (issue 26, the second judge's doubts).

A run excluded as a defense because the attacker fell back after it fell under 90% under a
second, blind judge, every miss an "unsure": the judge could not tell from the gaps whether
the attacker lacked the pace. The reasons recur as classes, and each class is a doubt here:
an exclusion that carries one is moved to ``defense_undecidable`` (no fact, no exclusion)
instead of being made. An exclusion states nothing, so a doubt costs no fact.

A run *excluded* because the attacker fell back (``fall_back_doubt``) is doubtful when the
two cars are team-mates who swapped places just before it (a hold order or a stopped fight,
not pace), when the run is ``LONG_RUN_LAPS`` or longer (a car that follows that long within
a second is as likely held up as in a train: on the kept side such runs were real defenses
in 14 of 30; judge 2: "11 laps at 0.8-1.0 s ... could be held"), when the fall-back is not
held on the next clean lap (it falls on the lap before an in-lap, or a neutralization
follows), or when one lap's loss made it and the attacker did not keep losing after it (a
mistake or traffic while attacking, not pace).

The kept side has no doubts on purpose: the same treatment of defenses kept as "faster and
closing before" was measured (issue 26's seventh round) and moved no run judged no defense
but 13 of 30 judged real ones, facts a keep rule exists to state (docs/domains/f1.md).

Pure functions over gap sequences (seconds the attacker is behind the defender, lap by
lap), so the rules read and test without a race.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import takewhile

SWAP_LAPS = 5  # team-mates with the attacker ahead within this many laps before the run
LONG_RUN_LAPS = 10  # a car following this long within a second may be held up: no exclusion


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
