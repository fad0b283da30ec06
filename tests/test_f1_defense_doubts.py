"""The second judge's doubts on defense decisions, as rules over gap sequences (edge cases;
the real races are in test_f1_oracle_audit)."""

from factcov.domains.f1.defense_doubts import closing_doubt, fall_back_doubt, swapped_team_mates


def test_a_closing_spread_over_laps_from_two_seconds_back_with_a_pace_edge_is_no_doubt() -> None:
    assert closing_doubt([4.6, 4.4, 3.7, 2.7, 1.8, 0.9], margin=0.46, closing_s=0.5) == ""


def test_a_closing_in_one_lap_an_edge_in_the_noise_or_from_near_a_second_is_doubted() -> None:
    assert "one lap's" in closing_doubt([1.3, 1.9, 4.5, 3.7, 3.3, 2.9, 0.7], margin=0.53, closing_s=0.5)
    assert "noise" in closing_doubt([2.4, 1.9, 1.3, 1.1, 0.9, 1.0, 0.7], margin=0.12, closing_s=0.5)
    assert "already near" in closing_doubt([1.9, 1.6, 1.3, 1.1, 0.8], margin=0.3, closing_s=0.5)


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
