"""Reading Fast Play order mails: what is accepted, and the words for what is not."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hypo import examples
from pbmref.orders.errors import IllegalOrderError, OrderMailError, OrderSyntaxError
from pbmref.rules.fastplay.cards import Card
from pbmref.rules.fastplay.position import position_from_dict
from pbmref.rules.fastplay.state import GameState
from pbmref.rulesets import get_ruleset
from pbmref.rulesets.fastplay.orders import entry_to_orders, parse_body

RULESET = get_ruleset("fastplay")


def state(**planes: dict[str, Any]) -> GameState:
    base = {
        "anna": {"team": "Germans", "hex": "E5", "heading": "S"},
        "bert": {"team": "Allies", "hex": "J1", "heading": "N"},
    }
    base.update(planes)
    return position_from_dict({"turn": 4, "aircraft": base})


def body(*lines: str) -> list[tuple[int | None, str]]:
    return [(n, text) for n, text in enumerate(lines, 10)]


def refuse(st: GameState, *lines: str, player: str = "anna") -> OrderMailError:
    with pytest.raises(OrderMailError) as info:
        parse_body(st, player, body(*lines))
    return info.value


@pytest.mark.parametrize("lines, entry", [
    (("PLANE", "1: A", "2: L", "3: R"), {"plane": ["A", "L", "R"]}),
    (("a", "ls f-0", "AF f-A"), {"plane": ["A", "LS f-0", "AF"]}),
    (("PLANE 1: STL", "PLANE 3: STR FIRE 0"), {"plane": ["STL", "", "STR f-0"]}),
    (("Move 2: I",), {"plane": ["", "I"]}),
    (("1: RS fire A", "2: st f-O"), {"plane": ["RS", "ST f-0"]}),
    (("PLANE",), {"plane": []}),
])
def test_good_mails(lines: tuple[str, ...], entry: dict[str, Any]) -> None:
    assert parse_body(state(), "anna", body(*lines)) == entry


def test_enter_and_duel_for_a_returning_pilot() -> None:
    st = state(anna={"team": "Germans", "state": "left", "heading": "S"},
               bert={"team": "Allies", "state": "down", "heading": "N"},
               carl={"team": "Allies", "hex": "J1", "heading": "N"})
    entry = parse_body(st, "anna", body("ENTER a10 s", "DUEL bert", "A", "A", "A"))
    assert entry == {"plane": ["A", "A", "A"], "enter": "A10 S", "duel": "bert"}
    typed = entry_to_orders(st, "anna", entry)
    assert typed is not None and typed.enter is not None
    assert st.board.name(typed.enter.hex) == "A10" and typed.duel == "bert"
    assert typed.moves[0] is not None and typed.moves[0].card is Card.A


def test_fp4_single_card_twice_points_at_the_second() -> None:
    err = refuse(state(), "1: AF", "2: AF")
    assert isinstance(err, IllegalOrderError)
    assert (err.rule, err.line_no, err.line, err.column) == ("FP4", 11, "2: AF", 4)
    assert "one AF card" in err.message


def test_fp4_a_fourth_a() -> None:
    st = state(anna={"team": "Germans", "hex": "E9", "heading": "S"})
    err = refuse(st, "A", "A", "A", "A")
    assert "three moves" in err.message


def test_fp4_tweedekker_words_are_not_cards() -> None:
    err = refuse(state(), "1: LT")
    assert isinstance(err, OrderSyntaxError)
    assert err.rule == "FP4" and err.column == 4 and err.suggestion == "L"
    assert "tweedekker" not in f"{err.message} {err.hint}"  # a pupil hears of Fast Play only
    assert refuse(state(), "1: 0").rule == "FP4"
    assert refuse(state(), "1: XYZ").rule == "FP4"


def test_fp4_one_card_per_line() -> None:
    err = refuse(state(), "1: A L")
    assert err.rule == "FP4" and err.column == 6


def test_fp6_card_lost_to_damage() -> None:
    deck = ["A", "L", "L", "L", "R", "R", "R", "LS", "LS", "LS", "RS", "RS", "RS",
            "AF", "ST", "STL", "STR", "I"]
    st = position_from_dict({"turn": 4, "settings": {"critical_hits": True}, "aircraft": {
        "anna": {"team": "Germans", "hex": "E5", "heading": "S", "deck": deck},
        "bert": {"team": "Allies", "hex": "J1", "heading": "N"}}})
    err = refuse(st, "1: A", "2: A")
    assert (err.rule, err.line_no) == ("FP6", 11)
    assert "one" in err.message and "lost to damage" in err.message
    assert parse_body(st, "anna", body("1: A", "2: L", "3: I")) == {"plane": ["A", "L", "I"]}


def test_fp7_only_ahead() -> None:
    err = refuse(state(), "1: A f-L")
    assert (err.rule, err.column, err.width) == ("FP7", 6, 3)
    assert refuse(state(), "1: A FIRE L").rule == "FP7"
    assert refuse(state(), "1: A f-0 f-A").rule == "FP7"


def test_fp13_path_off_the_board() -> None:
    st = state(anna={"team": "Germans", "hex": "E9", "heading": "N", "hits": 3})
    err = refuse(st, "1: A", "2: A", "3: L")
    assert (err.rule, err.line_no, err.line) == ("FP13", 11, "2: A")
    assert "3" in err.message and "4 or more" in err.message
    st4 = state(anna={"team": "Germans", "hex": "E9", "heading": "N", "hits": 4})
    assert parse_body(st4, "anna", body("1: A", "2: A")) == {"plane": ["A", "A"]}


def test_fp13_a_missing_card_is_filled_to_stay_on_the_board() -> None:
    st = state(anna={"team": "Germans", "hex": "E10", "heading": "N"})
    assert parse_body(st, "anna", body("3: ST")) == {"plane": ["", "", "ST"]}


def test_fp14_entry_checks() -> None:
    returning = {"team": "Germans", "state": "left", "heading": "S"}
    st = state(anna=returning, bert={"team": "Allies", "hex": "C5", "heading": "N"})
    err = refuse(st, "ENTER A5 N")
    assert err.rule == "FP14" and "2 hexes" in err.message and err.line == "ENTER A5 N"
    assert refuse(st, "ENTER E5 N").rule == "FP14"
    assert "not on the board" in refuse(st, "ENTER Z5 N").message
    assert refuse(st, "ENTER A5").rule == "FP14"
    assert refuse(state(), "ENTER A5 N").rule == "FP14"  # anna is on the board


def test_fp15_duel_checks() -> None:
    st = state(anna={"team": "Germans", "state": "left", "heading": "S"},
               gus={"team": "Germans", "state": "left", "heading": "S"})
    assert "not entering" in refuse(st, "DUEL bert").message
    assert "own side" in refuse(st, "DUEL gus").message
    assert "no pilot" in refuse(st, "DUEL nobody").message
    assert refuse(state(), "DUEL bert").rule == "FP15"  # anna is not entering


BURNING = {"team": "Germans", "hex": "E5", "heading": "S", "burning": True}


@pytest.mark.parametrize("line, choice", [
    ("BURN CARD", "CARD"), ("burn damage", "DAMAGE"), ("Burn: Card", "CARD"),
])
def test_fp12_burn_choice_of_a_burning_plane(line: str, choice: str) -> None:
    st = state(anna=BURNING)
    entry = parse_body(st, "anna", body("PLANE", "1: A", line))
    assert entry == {"plane": ["A"], "burn": choice}
    typed = entry_to_orders(st, "anna", entry)
    assert typed is not None and typed.burn is not None and typed.burn.value == choice
    assert typed.burn.format() == f"BURN {choice}"
    # a mail with only the choice leaves the cards alone
    assert parse_body(st, "anna", body(line)) == {"burn": choice}


def test_fp12_burn_refusals() -> None:
    st = state(anna=BURNING)
    err = refuse(state(), "BURN CARD")  # anna is not on fire
    assert isinstance(err, IllegalOrderError)
    assert err.rule == "FP12" and "not burning" in err.message and err.line_no == 10
    err = refuse(st, "BURN")
    assert err.rule == "FP12" and err.expected == "BURN CARD or BURN DAMAGE"
    err = refuse(st, "BURN CARDS")
    assert err.rule == "FP12" and err.column == 6
    assert refuse(st, "BURN CARD", "BURN DAMAGE").rule == "FP12"  # given twice
    with pytest.raises(OrderMailError) as info:
        entry_to_orders(st, "anna", {"burn": "fuel"})
    assert info.value.rule == "FP12" and getattr(info.value, "section", "") == "burn"
    with pytest.raises(OrderMailError) as info:
        entry_to_orders(state(), "anna", {"plane": ["A"], "burn": "CARD"})
    assert info.value.rule == "FP12"


def test_fp3_other_games_words() -> None:
    assert refuse(state(), "ZEPPELIN").rule == "FP3"
    assert refuse(state(), "TAKEOFF BETA").rule == "FP3"
    assert refuse(state(), "1: A d-B").rule == "FP3"


def test_several_errors_come_together() -> None:
    err = refuse(state(), "1: LT", "2: A f-R", "3: A")
    assert [e.line_no for e in err.errors] == [10, 11]


def test_unknown_player() -> None:
    with pytest.raises(OrderMailError) as info:
        parse_body(state(), "zed", body("A"))
    assert "zed" in str(info.value)


def test_entries_errors_name_their_place() -> None:
    st = state()
    with pytest.raises(OrderMailError) as info:
        entry_to_orders(st, "anna", {"plane": ["ST", "AF", "AF"]})
    assert info.value.line_no == 3 and getattr(info.value, "section", "") == "plane"
    for key, value in (("takeoff", "BETA"), ("takeoff", True), ("land", "ALPHA")):
        with pytest.raises(OrderMailError) as info:
            entry_to_orders(st, "anna", {"plane": ["A"], key: value})
        assert info.value.rule == "FP3" and "no airfields" in info.value.message
    assert entry_to_orders(st, "anna", None) is None


def test_ruleset_parse_orders_is_the_same_reader() -> None:
    position = {"turn": 2, "aircraft": {
        "anna": {"team": "Germans", "hex": "E5", "heading": "S"},
        "bert": {"team": "Allies", "hex": "J1", "heading": "N"}}}
    state = RULESET.decode(position)
    read = RULESET.read_orders(state, "anna", [(3, "1: AF"), (4, "2: R f-0")])
    assert RULESET.encode_orders(read) == {"plane": ["AF", "R f-0"]}
    assert RULESET.decode_orders(state, "anna", {"plane": ["AF", "R f-0"]}) == read


def test_a_mail_without_cards_has_no_plane_section() -> None:
    st = state(anna={"team": "Germans", "state": "left", "heading": "S"},
               bert={"team": "Allies", "state": "left", "heading": "N"})
    assert parse_body(st, "anna", body("DUEL bert")) == {"duel": "bert"}
    assert parse_body(st, "anna", body("ENTER J10 S")) == {"enter": "J10 S"}
    assert parse_body(st, "anna", body("PLANE", "ENTER J10 S")) == {"plane": [],
                                                                    "enter": "J10 S"}


def test_card_counts_are_reported_beside_unreadable_lines() -> None:
    err = refuse(state(), "1: AF", "2: AF", "3: LT")
    assert sorted((e.line_no, e.rule) for e in err.errors) == [(11, "FP4"), (12, "FP4")]
    assert isinstance(err.errors[0], IllegalOrderError)


@settings(max_examples=examples(300), deadline=None)
@given(st.lists(st.text(alphabet=st.sampled_from(list("ALRSIFTN0-: f1234bdEVDUzp\t.")),
                        max_size=20), max_size=5))
def test_any_text_gives_orders_or_our_errors(lines: list[str]) -> None:
    try:
        entry = parse_body(state(), "anna", body(*lines))
    except OrderMailError as exc:
        assert exc.message and all(e.message for e in exc.errors)
    else:
        assert entry_to_orders(state(), "anna", entry) is not None
