"""Order lines (grammar/diplomacy.lark) and their checks against a position."""

from __future__ import annotations

import pytest

from pbmref.orders.errors import IllegalOrderError, OrderMailError, OrderSyntaxError
from pbmref.rules.diplomacy import (
    Build,
    Convoy,
    Devastate,
    Disband,
    Hold,
    Loc,
    Move,
    Phase,
    Position,
    Retreat,
    SupportMove,
    Unit,
    UnitType,
    Variant,
    Waive,
    adjudicate,
)
from pbmref.rules.diplomacy.state import DislodgedUnit, initial_position
from pbmref.rulesets.diplomacy.orders import parse_body, parse_line

A, F, D = UnitType.ARMY, UnitType.FLEET, UnitType.DIRIGIBLE


def u(power: str, text: str) -> Unit:
    kind, where = text.split()
    return Unit(power, UnitType(kind), Loc.parse(where))


START = initial_position()
HOMES = START.centers


def dirigible(phase: str, *units: Unit, devastated: tuple[str, ...] = ()) -> Position:
    return Position(Phase.parse(phase), tuple(sorted(units)), HOMES,
                    devastated=frozenset(devastated), variant=Variant.DIRIGIBLE)


# -- spellings ------------------------------------------------------------------

@pytest.mark.parametrize("line", [
    "A Par - Bur", "A Par -> Bur", "A Par to Bur", "a par - bur", "Army Paris - Burgundy",
    "A Paris moves to Burgundy", "A Par-Bur", "A Par => Bur",
])
def test_move_spellings(line: str) -> None:
    assert parse_body(line, "FRA", START) == [Move("FRA", A, Loc("par"), Loc("bur"))]


def test_the_orders_of_the_rules_page() -> None:
    pos = Position(
        Phase.parse("S1901M"),
        tuple(sorted([u("ENG", "F lon"), u("ENG", "F nth"), u("ENG", "A yor"),
                      u("GER", "A ber"), u("GER", "D mun"), u("GER", "D bur")])),
        HOMES, variant=Variant.DIRIGIBLE)
    eng = parse_body("F Lon S F Nth - Eng\nA Yor - Bel via convoy\nF Nth C A Yor - Bel",
                     "ENG", pos)
    assert eng == [
        SupportMove("ENG", F, Loc("lon"), F, Loc("nth"), Loc("eng")),
        Move("ENG", A, Loc("yor"), Loc("bel"), True),
        Convoy("ENG", F, Loc("nth"), Loc("yor"), Loc("bel")),
    ]
    ger = parse_body("D Mun S A Ber - Mun\nD Bur - Ruh\nA Ber H", "GER", pos)
    assert ger == [
        SupportMove("GER", D, Loc("mun"), A, Loc("ber"), Loc("mun")),
        Move("GER", D, Loc("bur"), Loc("ruh")),
        Hold("GER", A, Loc("ber")),
    ]


def test_full_names_and_coasts() -> None:
    pos = Position(Phase.parse("S1901M"), (u("RUS", "F stp/sc"), u("FRA", "F mao")), HOMES)
    assert parse_body("F St Petersburg(sc) - Gulf of Bothnia", "RUS", pos) == [
        Move("RUS", F, Loc("stp", "sc"), Loc("bot"))]
    # the fleet's coast is taken from the position when left out
    assert parse_body("F StP - Fin", "RUS", pos) == [Move("RUS", F, Loc("stp", "sc"), Loc("fin"))]
    assert parse_body("F Mid-Atlantic Ocean - Spa/nc", "FRA", pos) == [
        Move("FRA", F, Loc("mao"), Loc("spa", "nc"))]


def test_the_one_reachable_coast_is_filled_in() -> None:
    pos = Position(Phase.parse("S1901M"), (u("FRA", "F gas"),), HOMES)
    assert parse_body("F Gas - Spa", "FRA", pos) == [Move("FRA", F, Loc("gas"), Loc("spa", "nc"))]


def test_wrong_coast_of_own_fleet_is_no_error() -> None:
    """DD2, DATC 3.0 6.B.10: the coast written for the ordered fleet plays no
    part; the mail is accepted and the fleet moves from the coast it is on."""
    pos = Position(Phase.parse("S1901M"), (u("FRA", "F spa/sc"),), HOMES)
    orders = parse_body("F Spa/nc - Lyo", "FRA", pos)
    after, _ = adjudicate(pos, orders)
    assert after.units == (u("FRA", "F lyo"),)


def test_adjustment_and_retreat_orders() -> None:
    w = dirigible("W1901A", u("GER", "A war"))
    assert parse_body("Build D Ber\nBuild A Kie\nWaive", "GER", w) == [
        Build("GER", D, Loc("ber")), Build("GER", A, Loc("kie")), Waive("GER")]
    r = Position(Phase.parse("S1901R"), (), HOMES,
                 dislodged=(DislodgedUnit(u("GER", "A mun"), "bur"),))
    assert parse_body("A Mun - Boh", "GER", r) == [Retreat("GER", A, Loc("mun"), Loc("boh"))]
    assert parse_body("Disband A Mun", "GER", r) == [Disband("GER", A, Loc("mun"))]
    assert parse_body("A Mun R Boh", "GER", r) == [Retreat("GER", A, Loc("mun"), Loc("boh"))]


def test_devastate() -> None:
    pos = dirigible("S1901M", u("FRA", "D mun"))
    assert parse_body("D Mun devastate", "FRA", pos) == [Devastate("FRA", D, Loc("mun"))]


def test_comments_and_blank_lines_are_skipped() -> None:
    assert parse_body("\n# my orders\nA Par - Bur  # go\n\n", "FRA", START) == [
        Move("FRA", A, Loc("par"), Loc("bur"))]


# -- errors ---------------------------------------------------------------------

def _errors(body: str, power: str, pos: Position) -> list[OrderMailError]:
    with pytest.raises(OrderMailError) as info:
        parse_body(body, power, pos)
    return list(info.value.errors)


def test_syntax_error_has_line_and_caret() -> None:
    (e,) = _errors("A Par - Bur\nA Mar S", "FRA", START)
    assert isinstance(e, OrderSyntaxError)
    assert e.line_no == 2
    assert e.line == "A Mar S"
    assert "stops too soon" in e.message
    assert e.caret() == "A Mar S\n       ^"


def test_unknown_province_is_marked() -> None:
    (e,) = _errors("A Par - Bux", "FRA", START)
    assert "'Bux' is not a province" in e.message
    assert e.caret() == "A Par - Bux\n        ^^^"


def test_missing_dash_gets_a_hint() -> None:
    (e,) = _errors("A Par Bur", "FRA", START)
    assert e.hint is not None and "A Par - Bur" in e.hint.replace("'", "").replace("e.g. ", "") or "-" in str(e.hint)


def test_every_error_of_a_mail_is_reported() -> None:
    errors = _errors("A Par - Eng\nA Lon - Wal\nF Bre - Par", "FRA", START)
    assert [e.line_no for e in errors] == [1, 2, 3]
    assert all(isinstance(e, IllegalOrderError) for e in errors)


def test_unit_not_there() -> None:
    (e,) = _errors("A Lon - Wal", "FRA", START)
    assert "has no A Lon" in e.message


def test_army_to_sea() -> None:
    (e,) = _errors("A Par - Eng", "FRA", START)
    assert "army cannot go to sea" in e.message
    assert e.caret() == "A Par - Eng\n        ^^^"


def test_support_to_unreachable_place() -> None:
    (e,) = _errors("A Mar S A Par - Pic", "FRA", START)
    assert "cannot reach Pic" in e.message
    assert e.column == 17


def test_two_orders_for_one_unit() -> None:
    (e,) = _errors("A Par - Bur\nA Par - Gas", "FRA", START)
    assert e.line_no == 2 and "second order" in e.message


def test_build_in_non_home_centre() -> None:
    w = dirigible("W1901A")
    (e,) = _errors("Build A Bel", "FRA", w)
    assert "not a home centre" in e.message


def test_build_in_devastated_centre() -> None:
    w = dirigible("W1901A", devastated=("par",))
    (e,) = _errors("Build A Par", "FRA", w)
    assert "devastated" in e.message and e.rule == "DD10"


def test_build_beyond_supply_points() -> None:
    w = dirigible("W1901A", u("FRA", "A bur"), u("FRA", "A pic"))  # 15 - 8 = 7
    (e,) = _errors("Build F Bre\nBuild A Par", "FRA", w)
    assert e.line_no == 2 and e.rule == "DD11" and "supply points" in e.message


def test_stp_north_coast_in_1900() -> None:
    w = dirigible("W1900A")
    (e,) = _errors("Build F StP/nc", "RUS", w)
    assert e.rule == "DD12"


def test_devastating_own_centre_is_an_error() -> None:
    pos = dirigible("S1901M", u("GER", "D mun"))
    (e,) = _errors("D Mun devastate", "GER", pos)
    assert e.rule == "DD10"


def test_wrong_phase_order() -> None:
    r = Position(Phase.parse("S1901R"), (), HOMES,
                 dislodged=(DislodgedUnit(u("GER", "A mun"), "bur"),))
    (e,) = _errors("A Mun S A Ber", "GER", r)
    assert "retreat phase" in e.message


def test_army_cannot_support_dirigible() -> None:
    pos = dirigible("S1901M", u("FRA", "A par"), u("FRA", "D bur"))
    (e,) = _errors("A Par S D Bur - Pic", "FRA", pos)
    assert e.rule == "DD7"


def test_no_dirigibles_in_standard_game() -> None:
    (e,) = _errors("Build D Par", "FRA", Position(Phase.parse("W1901A"), (), HOMES))
    assert "no dirigibles" in e.message


def test_parse_line_alone() -> None:
    p = parse_line("F Nth C A Lon - Bel", 4)
    assert p.action == "convoy" and p.line_no == 4
    assert p.target is not None and p.target.prov == "lon"
