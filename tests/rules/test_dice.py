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


# ---------------------------------------------------------------- matched by what for (issue 46)


def first_run() -> tuple[Dice, list[Roll]]:
    """A turn as first played: anna and bert fire in move 1, a critical on bert."""
    d = Dice(5)
    for who in ("anna", "bert"):
        for _ in range(3):
            d.roll("fire", who, move=1)
    d.roll("critical", "bert", move=1)
    d.roll("fire", "bert", move=2)
    return d, list(d.rolls)


def test_v5_recorded_dice_go_to_what_they_were_rolled_for() -> None:
    """anna holds fire in move 1 on the re-run: bert keeps his own dice, not anna's."""
    _, record = first_run()
    again = Dice(5, replay=record)
    bert = [again.roll("fire", "bert", move=1) for _ in range(3)]
    crit = again.roll("critical", "bert", move=1)
    later = again.roll("fire", "bert", move=2)
    assert bert == [r.value for r in record if r.key == (1, "fire", "bert")]
    assert crit == record[6].value and later == record[7].value
    assert all(r.replayed for r in again.rolls)
    # anna's three dice are no longer needed: set apart, handed to nobody
    assert again.unused() == [r for r in record if r.key == (1, "fire", "anna")]
    assert again.new_rolls() == []


def test_v5_a_die_never_rolled_comes_from_the_seeded_generator_and_is_told() -> None:
    _, record = first_run()
    again = Dice(5, replay=record[:6])  # no critical and no move 2 in the record
    for who in ("anna", "bert"):
        for _ in range(3):
            again.roll("fire", who, move=1)
    crit = again.roll("critical", "bert", move=1)
    # the generator goes on as in the first run: the same die for the same place
    assert crit == record[6].value
    assert again.new_rolls() == [Roll("critical", "bert", crit, 6, move=1)]
    assert again.unused() == []


def test_v5_the_nth_die_of_a_kind_keeps_its_place() -> None:
    """A shooter with fewer dice now keeps his first ones; the rest are unused."""
    _, record = first_run()
    again = Dice(5, replay=record)
    assert again.roll("fire", "anna", move=1) == record[0].value
    assert [r.value for r in again.unused()] == [r.value for r in record[1:]]


def test_v5_a_recorded_die_of_other_sides_is_not_stretched_to_fit() -> None:
    """A die rolled to choose among 3 cards is not the one that chooses among 2."""
    first = Dice(8)
    first.roll("card", "anna", sides=3, move=1)
    again = Dice(8, replay=first.rolls)
    value = again.roll("card", "anna", sides=2, move=1)
    assert 1 <= value <= 2 and not again.rolls[0].replayed
    assert again.unused() == first.rolls and again.new_rolls() == again.rolls


def test_v5_an_older_record_without_keys_is_dealt_in_order() -> None:
    _, record = first_run()
    values = [r.value for r in record]
    again = Dice(5, replay=values)
    assert not again.keyed
    assert [again.roll("fire", "bert", move=1) for _ in range(3)] == values[:3]
    assert [r.value for r in again.unused()] == values[3:]


def test_v5_a_roll_reads_back_from_its_record_line() -> None:
    roll = Roll("target", "anna", 2, 3, move=1)
    assert roll.as_record() == [1, "target", "anna", 2, 3]
    assert Roll.from_record([1, "target", "anna", 2, 3]) == roll
    assert Roll.from_record([0, "wind change", "wind", 5]).as_record() == [
        0, "wind change", "wind", 5]
