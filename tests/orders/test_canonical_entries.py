"""Stored tweedekker entries are read without the grammar (issue 20: parse once).

Every line the referee stores (``Move.format``, ``ZeppelinVote.format``) reads,
word by word, as exactly what the grammar makes of it; anything else still
goes through the grammar."""

from __future__ import annotations

import itertools

import pytest

from pbmref.rules.tweedekker.orders import FireDir, Manoeuvre, Move, ZeppelinFire, ZeppelinVote
from pbmref.rulesets.tweedekker import orders as tweedekker
from pbmref.rulesets.tweedekker.orders import canonical_line, parse_line


def _stored_lines() -> list[str]:
    lines = []
    for man in Manoeuvre:
        for n in range(3):
            for fire in itertools.product(FireDir, repeat=n):
                lines.append(Move(man, fire).format())
                lines.append(Move(man, fire, hold_fire=True).format())
    for vote_move in (*Manoeuvre, None):
        for vote_fire in (*ZeppelinFire, None):
            text = ZeppelinVote(vote_move, vote_fire).format()
            if text:
                lines.append(text)
    return sorted(set(lines))


@pytest.mark.parametrize("line", _stored_lines())
def test_a_stored_line_reads_as_the_grammar_reads_it(line: str) -> None:
    assert canonical_line(line) == parse_line(line)


@pytest.mark.parametrize("line", ["LT", "a", "FIRE L+R", "1: A", "A  f-A", "A f-a", " A",
                                  "A f-A ", "d-B A", "", "A L"])
def test_other_lines_are_left_to_the_grammar(line: str) -> None:
    assert canonical_line(line) is None


def test_checking_a_stored_entry_parses_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    from pbmref.rules.tweedekker.position import position_from_dict

    state = position_from_dict({
        "ruleset": "tweedekker", "turn": 1, "board": {"side": 10},
        "aircraft": {"baron": {"hex": "J5", "heading": "N", "state": "flying",
                               "airfield": "N"}},
        "zeppelins": {"Z": {"hexes": ["A1", "A2"], "heading": "S", "controlled": True}}})

    def no_grammar(*args: object) -> None:
        raise AssertionError("the grammar was used for a stored line")

    monkeypatch.setattr(tweedekker, "parse_line", no_grammar)
    orders, votes = tweedekker.entry_to_orders(state, "baron", {
        "plane": ["LS f-A f-R", "A", "R f-0"], "zeppelin": ["L f-B", "A d-B", ""]})
    assert orders is not None and [m.format() for m in orders.moves] == [
        "LS f-A f-R", "A", "R f-0"]
    assert votes[1] is not None and votes[1].format() == "A d-B"
