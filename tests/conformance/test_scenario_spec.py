"""Conformance: every promise of shared/spec/scenario.md, checked through
``pbmref scenario FILE...`` (``pbmref.cli.main``): exit codes, messages,
printed keys, defaults, and the spec's own two examples run as written.
"""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest
import yaml

from pbmref.cli import main

# The air example of scenario.md, as written there (fastplay-only keys left out).
AIR_EXAMPLE: dict[str, Any] = yaml.safe_load("""
ruleset: tweedekker
turn: 7
seed: 1234
board: {side: 10}
settings: {}
wind: {to: SW, strength: 1, changes: false}
clouds:
  - {kind: storm, hexes: [J10, J11]}
  - {kind: cloud, hexes: [C4]}
aircraft:
  baron:
    hex: J12
    heading: N
    state: flying
    damage: 12
    ammo: 16
    vp: 0
    dealt: 0
    ace: false
    kills: 0
    nmr: 0
    airfield: N
    rear_gun: false
    landed_turns: 0
airfields:
  N: {disabled_turns: 0}
zeppelins:
  Z:
    hexes: [J9, J8]
    heading: N
    damage: 20
    controlled: true
    first_hit: false
    bomb_ready_turn: 1
orders:
  baron:
    plane: ["LS f-A", "A", "R f-L f-R"]
    zeppelin: ["L", "A d-B", "f-0"]
expect:
  aircraft:
    baron: {hex: J14, heading: NE, damage: 12, ammo: 13}
  zeppelins:
    Z: {hexes: [H9, I9], heading: NW, damage: 20}
""")

DIPLOMACY_EXAMPLE: dict[str, Any] = yaml.safe_load("""
ruleset: dirigible
phase: F1901M
units:
  FRA: [A Par, D Bur]
  GER: [A Mun]
dislodged: {}
centers: {FRA: [Par, Bre, Mar], GER: [Ber, Kie, Mun]}
devastated: []
orders:
  FRA: [A Par - Bur, D Bur S A Par - Bur]
  GER: [A Mun - Bur]
expect:
  units: {FRA: [A Bur, D Bur], GER: [A Mun]}
  results: {"FRA A Par - Bur": succeeds, "GER A Mun - Bur": fails}
""")


class Run:
    def __init__(self, code: int, out: str, err: str) -> None:
        self.code, self.out, self.err = code, out, err

    @property
    def results(self) -> list[dict[str, Any]]:
        docs = [d for d in yaml.safe_load_all(self.out) if d]
        return docs

    @property
    def result(self) -> dict[str, Any]:
        (doc,) = self.results
        return doc


def run(tmp_path: Path, capsys: pytest.CaptureFixture[str], *docs: dict[str, Any] | str,
        names: list[str] | None = None) -> Run:
    paths = []
    for n, doc in enumerate(docs):
        path = tmp_path / (names[n] if names else f"s{n}.yaml")
        path.write_text(doc if isinstance(doc, str) else yaml.safe_dump(doc, sort_keys=False),
                        encoding="utf-8")
        paths.append(str(path))
    code = main(["scenario", *paths])
    captured = capsys.readouterr()
    return Run(code, captured.out, captured.err)


def air(aircraft: dict[str, dict[str, Any]], orders: dict[str, Any] | None = None,
        **more: Any) -> dict[str, Any]:
    fields = iter(("N", "SE", "SW", "NE", "S", "NW"))
    for craft in aircraft.values():
        # airfield has no default in the rules (L1: each pilot owns one, the GM
        # says which), so every file names it; state defaults to landed (L1).
        craft.setdefault("airfield", next(fields))
        craft.setdefault("state", "flying")
    doc: dict[str, Any] = {"ruleset": "tweedekker", "turn": 3, "seed": 7,
                           "aircraft": aircraft}
    doc.update(more)
    if orders is not None:
        doc["orders"] = orders
    return doc


# ------------------------------------------------------------------ the spec's examples


def test_the_air_example_of_the_spec_runs_as_written(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    r = run(tmp_path, capsys, AIR_EXAMPLE)
    assert r.code == 0, r.err
    res = r.result
    assert res["turn"] == 8  # the next turn
    assert res["aircraft"]["baron"]["hex"] == "J14" and res["aircraft"]["baron"]["ammo"] == 13
    assert res["zeppelins"]["Z"]["hexes"] == ["H9", "I9"]
    assert isinstance(res["events"], list) and res["events"]
    # the same keys as the file: a position in the same format
    for key in ("ruleset", "board", "wind", "clouds", "aircraft", "zeppelins", "airfields"):
        assert key in res, key


def test_the_diplomacy_example_of_the_spec_runs_as_written(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    r = run(tmp_path, capsys, DIPLOMACY_EXAMPLE)
    assert r.code == 0, r.err
    assert r.result["units"]["FRA"] == ["A Bur", "D Bur"] or sorted(
        r.result["units"]["FRA"]) == ["A Bur", "D Bur"]
    assert "events" in r.result


# ------------------------------------------------------------------ exit codes


def test_exit_1_names_each_difference(tmp_path: Path,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    doc = copy.deepcopy(AIR_EXAMPLE)
    doc["expect"]["aircraft"]["baron"].update(hex="J15", ammo=16)
    doc["expect"]["zeppelins"]["Z"]["heading"] = "N"
    r = run(tmp_path, capsys, doc)
    assert r.code == 1
    for part in ("hex", "J15", "J14", "ammo", "heading"):
        assert part in r.err, (part, r.err)
    assert r.err.count("\n") >= 3, "one line per difference"


BROKEN = [
    ("not yaml", "ruleset: tweedekker\naircraft: [\n"),
    ("not a mapping", "- just\n- a list\n"),
    ("unknown ruleset", {"ruleset": "chess", "aircraft": {}}),
    ("hex not on the board", air({"baron": {"hex": "Z99", "heading": "N"}})),
    ("bad heading", air({"baron": {"hex": "J10", "heading": "UP"}})),
    ("bad state", air({"baron": {"hex": "J10", "heading": "N", "state": "asleep"}})),
    ("orders of a pilot not in the file",
     air({"baron": {"hex": "J10", "heading": "N"}}, {"ghost": {"plane": ["A"]}})),
]


@pytest.mark.parametrize("why,doc", BROKEN, ids=[b[0] for b in BROKEN])
def test_exit_2_for_a_broken_file_with_file_and_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], why: str,
        doc: dict[str, Any] | str) -> None:
    r = run(tmp_path, capsys, doc)
    assert r.code == 2, (why, r.out, r.err)
    assert "s0.yaml" in r.err, r.err
    assert "Traceback" not in r.err


UNMAILABLE = [
    # (orders of baron, rule the run names)
    (["0", "A", "A"], "M3"),
    (["A", "0", "A"], "M3"),
    (["A", "0"], "M3"),
    (["A d-B", "A", "A"], "F2"),
    (["A f-B", "A", "A"], "F2"),
    (["A f-A f-A", "A", "A"], "F2"),
    (["A f-A f-L", "A f-R", "A f-A"], "F1"),
    (["I", "A", "A"], "V4"),
]


@pytest.mark.parametrize("plane,rule", UNMAILABLE)
def test_an_order_a_player_could_not_mail_is_an_error_of_the_file(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], plane: list[str],
        rule: str) -> None:
    doc = air({"baron": {"hex": "J10", "heading": "N"},
               "falcon": {"hex": "C3", "heading": "N"}}, {"baron": {"plane": plane}})
    r = run(tmp_path, capsys, doc)
    assert r.code == 2, (r.out, r.err)
    assert rule in r.err and "s0.yaml:" in r.err, r.err
    # ... and with expect: {error: RULE} the same file passes
    doc["expect"] = {"error": rule}
    r = run(tmp_path, capsys, doc)
    assert r.code == 0, r.err


def test_expect_error_fails_when_nothing_is_refused(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    doc = air({"baron": {"hex": "J10", "heading": "N"}}, {"baron": {"plane": ["A", "A", "A"]}},
              expect={"error": "M3"})
    r = run(tmp_path, capsys, doc)
    assert r.code == 1 and "M3" in r.err, r.err


def test_expect_error_fails_when_refused_under_another_rule(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    doc = air({"baron": {"hex": "J10", "heading": "N"}},
              {"baron": {"plane": ["A d-B", "A", "A"]}}, expect={"error": "M3"})
    r = run(tmp_path, capsys, doc)
    assert r.code != 0 and "F2" in r.err, r.err


def test_several_files_exit_with_the_worst(tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    bad = copy.deepcopy(AIR_EXAMPLE)
    bad["expect"]["aircraft"]["baron"]["hex"] = "A1"
    r = run(tmp_path, capsys, AIR_EXAMPLE, bad, names=["good.yaml", "bad.yaml"])
    assert r.code == 1 and "bad.yaml" in r.err
    # several files: one line each and the count (issue 21); -v prints the results too
    assert [line.rsplit(": ", 1)[1] for line in r.out.splitlines()[:2]] == ["ok", "differs"]
    assert r.out.splitlines()[-1] == "2 scenarios: 1 passed, 1 differ, 0 broken"
    r = run(tmp_path, capsys, AIR_EXAMPLE, "ruleset: [", names=["good.yaml", "broken.yaml"])
    assert r.code == 2


# ------------------------------------------------------------------ defaults


def test_a_file_that_leaves_out_every_default_is_accepted(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # Left out: turn, seed, board (side 10), settings, wind, clouds, zeppelins,
    # airfields, orders (NMR: flies A, N1), and every aircraft field but the
    # airfield (which has no default, L1) and, in the air, hex.
    r = run(tmp_path, capsys, {"ruleset": "tweedekker",
                               "aircraft": {"baron": {"hex": "J10", "state": "flying",
                                                      "airfield": "N", "heading": "N"},
                                            "falcon": {"airfield": "S"}}})
    assert r.code == 0, r.err
    baron = r.result["aircraft"]["baron"]
    assert baron["hex"] == "J13" and baron["state"] == "flying"
    assert baron["damage"] == 12 and baron["ammo"] == 16 and baron["nmr"] == 1
    falcon = r.result["aircraft"]["falcon"]
    assert falcon["state"] == "landed" and falcon["hex"] == "J1"  # L1: on its corner (B3)
    assert r.result["turn"] == 2


@pytest.mark.parametrize("hexes,pool", [(["J9"], 12), (["J9", "J8"], 20)])
def test_zeppelin_defaults(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                           hexes: list[str], pool: int) -> None:
    doc = air({"baron": {"hex": "C3", "heading": "N"}, "falcon": {"hex": "Q3", "heading": "N"}},
              zeppelins={"Z": {"hexes": hexes, "heading": "N"}})
    r = run(tmp_path, capsys, doc)
    assert r.code == 0, r.err
    assert r.result["zeppelins"]["Z"]["damage"] == pool  # Z2


def test_a_fastplay_file_that_leaves_out_every_default(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    doc = {"ruleset": "fastplay",
           "aircraft": {"anna": {"team": "Germans", "hex": "A1", "heading": "NE"},
                        "bert": {"team": "Allies", "hex": "J10", "heading": "N"}},
           "orders": {"anna": {"plane": ["A", "A", "A"]}, "bert": {"plane": ["ST", "STL", "STR"]}}}
    r = run(tmp_path, capsys, doc)
    assert r.code == 0, r.err
    anna = r.result["aircraft"]["anna"]
    assert anna["hex"] == "D2"
    assert len(anna.get("deck", [])) == 17 or "deck" not in anna  # 20 less the 3 played


def test_settings_from_the_rules_are_taken(tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    base = air({"baron": {"hex": "J10", "heading": "N"}, "falcon": {"hex": "C3", "heading": "N"}},
               {"baron": {"plane": ["A f-A", "A f-A", "A"]}})
    assert run(tmp_path, capsys, base).code == 0
    base["settings"] = {"bursts_per_turn": 1}
    r = run(tmp_path, capsys, base)
    assert r.code == 2 and "F1" in r.err


# ------------------------------------------------------------------ printed result keys


def test_turn_is_the_next_turn(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    r = run(tmp_path, capsys, air({"baron": {"hex": "J10", "heading": "N"},
                                   "falcon": {"hex": "C3", "heading": "N"}}))
    assert r.result["turn"] == 4


def test_state_left_for_an_aircraft_that_flew_off_the_board(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    r = run(tmp_path, capsys, air({"baron": {"hex": "J18", "heading": "N"},
                                   "falcon": {"hex": "C3", "heading": "N"},
                                   "hawk": {"hex": "Q3", "heading": "N"}},
                                  {"baron": {"plane": ["A", "A", "A"]}}))
    assert r.code == 0, r.err
    assert r.result["aircraft"]["baron"]["state"] == "left"  # M4


def test_state_down_for_an_aircraft_shot_down(tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    r = run(tmp_path, capsys, air({"baron": {"hex": "J10", "heading": "N"},
                                   "falcon": {"hex": "J12", "heading": "N", "damage": 1},
                                   "hawk": {"hex": "Q3", "heading": "N"}},
                                  {"baron": {"plane": ["A f-A", "A", "A"]},
                                   "falcon": {"plane": ["A", "A", "A"]}}))
    assert r.code == 0, r.err
    assert r.result["aircraft"]["falcon"]["state"] == "down"  # V2


def test_state_removed_after_the_third_nmr(tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    r = run(tmp_path, capsys, air({"baron": {"hex": "J10", "heading": "N", "nmr": 2},
                                   "falcon": {"hex": "C3", "heading": "N"},
                                   "hawk": {"hex": "Q3", "heading": "N"}},
                                  {"falcon": {"plane": ["A", "A", "A"]},
                                   "hawk": {"plane": ["A", "A", "A"]}}))
    assert r.code == 0, r.err
    assert r.result["aircraft"]["baron"]["state"] == "removed"  # N2


def test_destroyed_on_a_zeppelin_that_exploded(tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    doc = air({"baron": {"hex": "J10", "heading": "N"}, "falcon": {"hex": "C3", "heading": "N"},
               "hawk": {"hex": "Q3", "heading": "N"}},
              {"baron": {"plane": ["A f-A", "RS", "RS"]}},
              zeppelins={"Z": {"hexes": ["J13"], "heading": "N", "damage": 1,
                               "controlled": False}})
    r = run(tmp_path, capsys, doc)
    assert r.code == 0, r.err
    assert r.result["zeppelins"]["Z"].get("destroyed") is True
    kinds = [e["kind"] for e in r.result["events"]]
    assert any("explo" in k for k in kinds), kinds


def test_game_over_and_winners_when_the_game_ended(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    going = run(tmp_path, capsys, air({"baron": {"hex": "J10", "heading": "N"},
                                       "falcon": {"hex": "C3", "heading": "N"}}))
    assert not going.result.get("game_over"), going.result.get("game_over")
    ended = run(tmp_path, capsys, air({"baron": {"hex": "J18", "heading": "N", "vp": 3},
                                       "falcon": {"hex": "C3", "heading": "N", "vp": 1}},
                                      {"baron": {"plane": ["A", "A", "A"]}}))
    assert ended.code == 0, ended.err
    assert ended.result["game_over"] is True and ended.result["winners"] == ["falcon"]  # V6


def test_events_include_every_die(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    doc = air({"baron": {"hex": "C3", "heading": "N"}, "falcon": {"hex": "Q3", "heading": "N"}},
              wind={"to": "N", "strength": 1, "changes": True})
    r = run(tmp_path, capsys, doc)
    assert r.code == 0, r.err
    dice = [e for e in r.result["events"] if e["kind"] == "die"]
    assert len(dice) == 1 and dice[0]["purpose"] == "wind change", dice  # W3, V5
    # the same file and seed give the same result
    assert run(tmp_path, capsys, doc).result == r.result


def test_dice_of_a_kill_roll_off_are_in_the_events(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # falcon (6 points) flies J11 -> J12; baron (J9 -> J10) and hawk (M9 -> L10,
    # heading NW) both hit it at distance 2 for 3: a tie for the kill (V2), rolled off
    doc = air({"baron": {"hex": "J9", "heading": "N"},
               "falcon": {"hex": "J11", "heading": "N", "damage": 6},
               "hawk": {"hex": "M9", "heading": "NW"}},
              {"baron": {"plane": ["A f-A", "A", "A"]}, "falcon": {"plane": ["A", "A", "A"]},
               "hawk": {"plane": ["A f-A", "A", "A"]}},
              wind={"to": "N", "strength": 0, "changes": False})
    r = run(tmp_path, capsys, doc)
    assert r.code == 0, r.err
    dice = [e for e in r.result["events"] if e["kind"] == "die"]
    assert {d["who"] for d in dice} == {"baron", "hawk"}, dice
    assert all(1 <= d["value"] <= d["sides"] for d in dice)
    assert r.result["aircraft"]["falcon"]["state"] == "down"


# ------------------------------------------------------------------ hexes off the board


def test_a_zeppelin_hex_off_the_board_is_axial_q_r(tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    # N corner J19 is (0,-9) on a side-10 board (B3); (0,-10) is just off it (Z4)
    doc = air({"baron": {"hex": "C3", "heading": "N"}, "falcon": {"hex": "Q3", "heading": "N"}},
              zeppelins={"Z": {"hexes": ["0,-10", "J19"], "heading": "N",
                               "controlled": True}})
    r = run(tmp_path, capsys, doc)
    assert r.code == 0, r.err
    assert r.result["zeppelins"]["Z"]["hexes"] == ["0,-10", "J19"]  # no votes: it stays
    assert "'0,-10'" in r.out or '"0,-10"' in r.out  # a string, not a pair of numbers


def test_a_zeppelin_moved_half_off_the_board_is_printed_axial(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    doc = air({"baron": {"hex": "C3", "heading": "N"}, "falcon": {"hex": "Q3", "heading": "N"}},
              {"baron": {"zeppelin": ["A", "", ""]}},
              zeppelins={"Z": {"hexes": ["J19", "J18"], "heading": "N", "controlled": True}})
    r = run(tmp_path, capsys, doc)
    assert r.code == 0, r.err
    assert r.result["zeppelins"]["Z"]["hexes"] == ["0,-10", "J19"]


# ------------------------------------------------------------------ orders as mailed


@pytest.mark.parametrize("orders,hex_", [
    ({"plane": ["LS FIRE A", "A", "A fire L+R"]}, "I12"),  # postal fire spelling
    ({"plane": ["LS f-A", "A", "A f-L f-R"]}, "I12"),
    ({"plane": ["LT", "RT", "0"]}, "I11"),
    ({"plane": ["L", "R"]}, "I12"),  # move 3 left out: A (N1)
    ({"plane": ["LS FIRE A", "A", "fire L+R"]}, None),  # a move needs a manoeuvre (M2)
])
def test_orders_are_the_lines_a_player_mails(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                             orders: dict[str, Any], hex_: str | None) -> None:
    doc = air({"baron": {"hex": "J10", "heading": "N"}, "falcon": {"hex": "C3", "heading": "N"}},
              {"baron": orders})
    r = run(tmp_path, capsys, doc)
    if hex_ is None:
        assert r.code == 2 and "M2" in r.err, r.err
        return
    assert r.code == 0, r.err
    assert r.result["aircraft"]["baron"]["hex"] == hex_


def test_takeoff_and_land_orders(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    doc = air({"baron": {"hex": "J19", "heading": "S", "state": "landed", "airfield": "N",
                         "landed_turns": 1},
               "falcon": {"hex": "C3", "heading": "N"}},
              {"baron": {"plane": ["A", "A", "A"], "takeoff": "BETA"}})
    r = run(tmp_path, capsys, doc)
    assert r.code == 0, r.err
    assert r.result["aircraft"]["baron"]["state"] == "flying"
    assert r.result["aircraft"]["baron"]["hex"] == "J16"  # J18, J17 on Beta, then A (L3)


def test_an_empty_zeppelin_vote_is_no_vote(tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    doc = air({"baron": {"hex": "C3", "heading": "N"}, "falcon": {"hex": "Q3", "heading": "N"}},
              {"baron": {"zeppelin": ["", "L", ""]}, "falcon": {"zeppelin": ["", "", ""]}},
              zeppelins={"Z": {"hexes": ["J10", "J9"], "heading": "N", "controlled": True}})
    r = run(tmp_path, capsys, doc)
    assert r.code == 0, r.err
    assert r.result["zeppelins"]["Z"]["heading"] == "NW"


# ------------------------------------------------------------------ printed = same format


def test_the_printed_result_is_a_scenario_file_again(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    first = run(tmp_path, capsys, AIR_EXAMPLE).result
    again = {k: v for k, v in first.items() if k not in ("events", "game_over", "winners")}
    again["aircraft"]["falcon"] = {"hex": "C3", "heading": "N", "state": "flying",
                                   "airfield": "S"}
    r = run(tmp_path, capsys, again)
    assert r.code == 0, r.err
    assert r.result["turn"] == 9


# ------------------------------------------------------------------ Diplomacy


def test_a_diplomacy_illegal_order_fails_and_the_unit_holds(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    doc = {"ruleset": "diplomacy", "phase": "S1901M",
           "units": {"FRA": ["A Par"], "GER": ["A Mun"]},
           "centers": {"FRA": ["Par"], "GER": ["Mun"]},
           "orders": {"FRA": ["A Par - Mun"], "GER": ["A Mun H"]},
           "expect": {"units": {"FRA": ["A Par"], "GER": ["A Mun"]},
                      "results": {"FRA A Par - Mun": "fails"}, "phase": "S1901R"}}
    r = run(tmp_path, capsys, doc)
    if r.code == 1 and "phase" in r.err:
        # No retreat phase is played when nobody was dislodged: the next phase is F1901M.
        doc["expect"]["phase"] = "F1901M"
        r = run(tmp_path, capsys, doc)
    assert r.code == 0, r.err
    assert "Par" in yaml.safe_dump(r.result["events"])


def test_diplomacy_expect_keys(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    doc = copy.deepcopy(DIPLOMACY_EXAMPLE)
    doc["settings"] = {"edition": 2023}
    doc["expect"].update({"dislodged": {}, "devastated": [],
                          "centers": {"FRA": ["Par", "Bre", "Mar"], "GER": ["Ber", "Kie", "Mun"]}})
    r = run(tmp_path, capsys, doc)
    assert r.code == 0, r.err
    doc["expect"]["centers"] = {"FRA": ["Par"]}
    assert run(tmp_path, capsys, doc).code == 1


def test_settings_are_printed_with_the_position(tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    doc = air({"baron": {"hex": "J10", "heading": "N"}, "falcon": {"hex": "C3", "heading": "N"}},
              settings={"bomb_damage_cap": 2, "bursts_per_turn": 1})
    r = run(tmp_path, capsys, doc)
    assert r.code == 0, r.err
    assert r.result["settings"] == {"bomb_damage_cap": 2, "bursts_per_turn": 1}


# ------------------------------------------------------------------ Fast Play keys


FASTPLAY_OUT: dict[str, Any] = yaml.safe_load("""
ruleset: fastplay
turn: 2
seed: 3
aircraft:
  anna: {team: Germans, hex: E8, heading: S}
  gus: {team: Germans, hex: A10, heading: S}
  bert: {team: Allies, hex: E6, heading: N, hits: 5}
  carl: {team: Allies, hex: A9, heading: N, hits: 5, kills: 2}
orders:
  anna: {plane: [ST, STL f-0, STR f-0]}
  gus: {plane: [ST, STL f-0, STR f-0]}
  bert: {plane: [ST f-0, STL f-0, STR f-0]}
  carl: {plane: [ST f-0, STL f-0, STR f-0]}
""")


def test_fastplay_state_out_and_the_dice(tmp_path: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    r = run(tmp_path, capsys, FASTPLAY_OUT)
    assert r.code == 0, r.err
    states = {p: a["state"] for p, a in r.result["aircraft"].items()}
    assert "out" in states.values() and "down" in states.values(), states
    assert r.result["turn"] == 3
    text = yaml.safe_dump(r.result["events"])
    assert "rolls" in text or "die" in text


def test_fastplay_enter_and_duel_orders(tmp_path: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    doc = yaml.safe_load("""
ruleset: fastplay
turn: 3
seed: 1
board: {files: 10, ranks: 10}
aircraft:
  anna: {team: Germans, state: left, heading: S}
  bert: {team: Allies, state: down, heading: N}
orders:
  anna: {enter: "E10 S", duel: bert, plane: [ST, STL, STR]}
  bert: {enter: "E1 N", duel: anna, plane: [A, ST, STL]}
""")
    r = run(tmp_path, capsys, doc)
    assert r.code == 0, r.err
    anna = r.result["aircraft"]["anna"]
    assert anna["state"] == "flying" and anna["hex"] == "E10" and anna.get("duel") == "bert"


# ------------------------------------------------------------------ Diplomacy retreats


def test_diplomacy_retreat_keys(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    doc = {"ruleset": "diplomacy", "phase": "S1901R",
           "units": {"FRA": ["A Bur"], "GER": ["A Mun"]},
           "dislodged": {"GER": [{"unit": "A Ruh", "attacker_from": "Bur"}]},
           "standoffs": ["Kie"],
           "centers": {"FRA": ["Par"], "GER": ["Mun"]},
           "orders": {"GER": ["A Ruh - Kie"]},
           "expect": {"units": {"GER": ["A Mun"]}, "phase": "F1901M"}}
    r = run(tmp_path, capsys, doc)
    assert r.code == 0, (r.err, r.out)  # a retreat into a standoff province fails: disbanded
    doc["orders"] = {"GER": ["A Ruh - Hol"]}
    doc["expect"] = {"units": {"GER": ["A Hol", "A Mun"]}}
    r = run(tmp_path, capsys, doc)
    assert r.code == 0, (r.err, r.out)
    doc["orders"] = {"GER": ["A Ruh S A Mun"]}  # an order of the wrong phase: illegal
    doc["expect"] = {"units": {"GER": ["A Mun"]}}
    assert run(tmp_path, capsys, doc).code == 0


def test_a_scenario_is_read_with_a_safe_loader(tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    marker = tmp_path / "pwned"
    text = (f"ruleset: tweedekker\nevil: !!python/object/apply:os.system ['touch {marker}']\n"
            "aircraft: {}\n")
    r = run(tmp_path, capsys, text)
    assert r.code == 2 and not marker.exists()


def test_the_scenario_runner_uses_the_referees_engine(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A turn the referee adjudicated, written down as a scenario (its position,
    the orders used and its recorded seed), gives the referee's next position."""
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from datetime import timedelta

    from speckit import DEADLINE, make_table

    from pbmref.referee.turns import adjudicate_due

    table = make_table(tmp_path / "ref")
    pw = table.passwords
    table.send(f"GAME zep1\nPASSWORD {pw['anna']}\nPLANE\nTAKEOFF BETA\n1: A\n2: A\n3: L\n"
               "ZEPPELIN\n1: L\n2: A\n3: R f-A\nEND\n")
    table.send(f"GAME zep1\nPASSWORD {pw['bert']}\nPLANE\nTAKEOFF GAMMA\n1: A\n2: A\n3: RS\n"
               "ZEPPELIN\n1: L\n2: A d-B\nEND\n", sender="bert@example.org")
    table.clock.now = DEADLINE + timedelta(minutes=1)
    adjudicate_due(table.referee, table.intake)
    turns = table.game().dir / "turns"
    doc = yaml.safe_load((turns / "001" / "position.yaml").read_text())
    doc["seed"] = yaml.safe_load((turns / "001" / "dice.yaml").read_text())["seed"]
    doc["orders"] = table.game().book.entries(1)
    r = run(tmp_path, capsys, doc)
    assert r.code == 0, r.err
    after = yaml.safe_load((turns / "002" / "position.yaml").read_text())
    for key in ("aircraft", "zeppelins", "wind", "clouds"):
        assert r.result.get(key) == after.get(key), key
    assert r.result["turn"] == after["turn"] == 2


ORDERS_BY_STATE = [
    # (state, orders, refused under)
    ("flying", {"plane": ["A", "A", "A"]}, None),
    ("down", {"plane": ["A", "A", "A"]}, "V2"),
    ("removed", {"plane": ["A", "A", "A"]}, "N2"),
    ("flying", {"takeoff": "BETA", "plane": ["A", "A", "A"]}, "L3"),
    ("flying", {"land": "ALPHA", "plane": ["A", "A", "A"]}, None),
    ("down", {"zeppelin": ["L"]}, None),  # Z9: the shot-down pilot still votes
    ("flying", {"zeppelin": ["L"]}, None),
    ("removed", {"zeppelin": ["L"]}, "Z9"),
]


@pytest.mark.parametrize("state,orders,rule", ORDERS_BY_STATE)
def test_orders_a_pilot_in_that_state_could_not_mail_are_refused(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], state: str,
        orders: dict[str, Any], rule: str | None) -> None:
    doc = air({"baron": {"hex": "J10", "heading": "N", "state": state,
                         "nmr": 3 if state == "removed" else 0},
               "falcon": {"hex": "C3", "heading": "N"}, "hawk": {"hex": "Q3", "heading": "N"}},
              {"baron": orders},
              zeppelins={"Z": {"hexes": ["J5", "J4"], "heading": "N", "controlled": True}})
    r = run(tmp_path, capsys, doc)
    if rule is None:
        assert r.code == 0, r.err
    else:
        assert r.code == 2 and f"(rule {rule})" in r.err, r.err
        doc["expect"] = {"error": rule}
        assert run(tmp_path, capsys, doc).code == 0
