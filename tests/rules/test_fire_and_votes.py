"""Lines of fire (F3-F6) and vote counting (Z7) as pure functions."""

from __future__ import annotations

from pbmref.rules.hexgrid import Heading, HexBoard
from pbmref.rules.tweedekker.fire import burst_damage, trace_line
from pbmref.rules.tweedekker.votes import tally

B = HexBoard(10)


def names(hexes: tuple[object, ...]) -> list[str]:
    return [B.name(h) for h in hexes]  # type: ignore[arg-type]


def test_f3_line_reaches_four_hexes() -> None:
    line = trace_line(B.parse("J10"), Heading.N, 4, B, frozenset(), frozenset())
    assert names(line.hexes) == ["J11", "J12", "J13", "J14"]
    assert line.stopped_by == "range"


def test_f3_damage_four_three_two_one_and_ace_bonus() -> None:
    assert [burst_damage(k, 4, 0) for k in (1, 2, 3, 4)] == [4, 3, 2, 1]
    assert [burst_damage(k, 4, 1) for k in (1, 2, 3, 4)] == [5, 4, 3, 2]


def test_f4_line_stops_before_a_cloud() -> None:
    line = trace_line(B.parse("J10"), Heading.N, 4, B, frozenset({B.parse("J12")}), frozenset())
    assert names(line.hexes) == ["J11"] and line.stopped_by == "cloud"


def test_f4_firing_out_of_a_cloud_is_allowed() -> None:
    line = trace_line(B.parse("J10"), Heading.N, 4, B, frozenset({B.parse("J10")}), frozenset())
    assert len(line.hexes) == 4


def test_f5_zeppelin_hex_is_the_last_hex_reached() -> None:
    line = trace_line(B.parse("J10"), Heading.N, 4, B, frozenset(), frozenset({B.parse("J12")}))
    assert names(line.hexes) == ["J11", "J12"] and line.stopped_by == "zeppelin"


def test_f3_line_stops_at_the_board_edge() -> None:
    line = trace_line(B.parse("J18"), Heading.N, 4, B, frozenset(), frozenset())
    assert names(line.hexes) == ["J19"] and line.stopped_by == "edge"


def test_z7_most_votes_win_without_majority() -> None:
    t = tally([("a", "A"), ("b", "A"), ("c", "L"), ("d", "R"), ("e", "LS"), ("f", "RS")],
              ("A", "L", "LS", "R", "RS", "0"))
    assert t.winner == "A" and not t.tie
    assert t.counts[0] == ("A", 2)


def test_z7_tie_for_the_most_means_nothing() -> None:
    # The seed's sample turn: L L A A RS R -> tie, the zeppelin holds.
    t = tally([("rode", "L"), ("valk", "A"), ("wolf", "RS"), ("kiek", "R"), ("staart", "L"),
               ("john", "A")], ("A", "L", "LS", "R", "RS", "0"))
    assert t.winner is None and t.tie


def test_z7_no_votes_no_winner_and_no_tie() -> None:
    t = tally([], ("A",))
    assert t.winner is None and not t.tie and t.counts == ()
