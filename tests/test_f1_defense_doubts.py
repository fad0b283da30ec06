"""The second judge's doubts on defense exclusions, as rules over gap sequences (edge cases;
the real races are in test_f1_oracle_audit)."""

from factcov.domains.f1.defense_doubts import fall_back_doubt, swapped_team_mates


def test_a_fall_back_must_hold_on_the_next_clean_lap() -> None:
    assert fall_back_doubt([0.9, 1.6, 1.8, 2.0], [True, True, True, True], dropped_s=1.5) == ""
    assert "next clean lap" in fall_back_doubt([0.9, 1.6, 1.8, 23.0], [True, True, False, False], dropped_s=1.5)


def test_a_one_lap_loss_counts_only_when_the_attacker_keeps_losing() -> None:
    moment = [0.6, 2.5, 3.1, 3.5, 3.5]
    assert "a moment" in fall_back_doubt(moment, [True] * 5, dropped_s=1.5)
    pace = [0.5, 2.7, 3.4, 4.5, 5.7]
    assert fall_back_doubt(pace, [True] * 5, dropped_s=1.5) == ""


def test_only_team_mates_who_swapped_places_are_doubted() -> None:
    assert swapped_team_mates(True, [-1.1, 1.0, 1.3])
    assert not swapped_team_mates(False, [-1.1, 1.0, 1.3])
    assert not swapped_team_mates(True, [0.4, 0.6])

