"""Recorded, replayable dice (V5)."""

from __future__ import annotations

from pbmref.rules.dice import Dice, Roll


def test_v5_same_seed_same_rolls() -> None:
    a, b = Dice(42), Dice(42)
    assert [a.roll("x", "p") for _ in range(20)] == [b.roll("x", "p") for _ in range(20)]


def test_v5_every_roll_is_recorded_with_purpose_and_who() -> None:
    d = Dice(3)
    value = d.roll("kill roll-off", "baron")
    assert d.rolls == [Roll("kill roll-off", "baron", value, 6)]
    assert 1 <= value <= 6


def test_v5_replay_comes_first_then_the_seeded_sequence_goes_on() -> None:
    fresh = Dice(9)
    expected = [fresh.roll("x") for _ in range(5)]
    replayed = Dice(9, replay=[6, 6])
    got = [replayed.roll("x") for _ in range(5)]
    assert got[:2] == [6, 6]
    assert got[2:] == expected[2:]
    assert [r.replayed for r in replayed.rolls] == [True, True, False, False, False]


def test_v5_replayed_value_is_kept_within_the_die() -> None:
    d = Dice(1, replay=[9])
    assert d.roll("x", sides=6) == 3
