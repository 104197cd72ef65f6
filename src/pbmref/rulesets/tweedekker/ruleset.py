"""Tweedekker, the WWI air game with its zeppelin scenario, as a ``Ruleset``.

The engine is ``pbmref.rules.tweedekker``; order lines are read by
``pbmref.rulesets.tweedekker.orders``; reports are drawn by ``pbmref.rulesets.tweedekker.report``
(and ``asciimap``, ``svg``). The opening of a new game is built here: every
aircraft landed on its own airfield (B5, L1), the zeppelin controlled and
placed by the referee (Z6) or drifting (Z3).
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Mapping, Sequence
from datetime import timedelta
from typing import ClassVar

from pbmref.orders.errors import OrderMailError
from pbmref.reports.document import Document
from pbmref.reports.model import Focus, TurnReport
from pbmref.rules.dice import Dice
from pbmref.rules.eventdata import Event
from pbmref.rules.hexgrid import Heading, HexBoard
from pbmref.rules.plaindata import mapping
from pbmref.rules.tweedekker import engine
from pbmref.rules.tweedekker import plan as flight_plan
from pbmref.rules.tweedekker.autopilot import choose_orders
from pbmref.rules.tweedekker.engine import place_controlled_zeppelin
from pbmref.rules.tweedekker.events import EVENT_TYPES, Manoeuvred
from pbmref.rules.tweedekker.orders import PlaneOrders, TurnOrders, ZeppelinVote
from pbmref.rules.tweedekker.position import board_from_dict, position_from_dict, position_to_dict
from pbmref.rules.tweedekker.state import Aircraft, AircraftState, GameState
from pbmref.rulesets.air.ruleset import AirRuleset
from pbmref.rulesets.base import (
    DemoGame,
    Lines,
    NewGameOptions,
    Opening,
    OrdersEntry,
    PlayerOrders,
    PlayerSpec,
    Words,
)
from pbmref.rulesets.tweedekker.orders import entry_to_orders, order_line, read_body
from pbmref.rulesets.tweedekker.personal import changed_line
from pbmref.rulesets.tweedekker.picture import reader_focus, render_move_panels, render_svg
from pbmref.rulesets.tweedekker.preview import preview_lines
from pbmref.rulesets.tweedekker.report import render_map_reply, render_report, report_document
from pbmref.rulesets.tweedekker.turn import Turn

__all__ = ["TweedekkerRuleset", "gather_orders", "turn_orders"]

AIRFIELD_ORDER = ("N", "SE", "SW", "NE", "S", "NW")  # spread the first players out

DEMO = DemoGame(
    title="The demonstration game",
    # the original site's six pilots, one on each airfield
    players=tuple(PlayerSpec(pid, (), name, airfield=field) for pid, name, field in (
        ("rode_baron", "Rode Baron", "N"), ("zwarte_valk", "Zwarte Valk", "NE"),
        ("lone_wolf", "Lone Wolf", "SE"), ("kiekendief", "Kiekendief", "S"),
        ("staartschot", "Staartschot", "SW"), ("downing_john", "Downing John", "NW"))),
    players_noun="pilots", turns=10,
    settings={"clouds": ({"kind": "cloud", "hexes": ["F12", "F13", "G13"]},
                         {"kind": "cloud", "hexes": ["N8", "O8", "O7"]},
                         {"kind": "storm", "hexes": ["K5", "L5"]}),
              "wind": {"to": "SE", "strength": 1, "changes": True},
              "zeppelin": "controlled", "zeppelin_length": 2},
)


def turn_orders(state: GameState, orders: Mapping[str, Mapping[str, object]]) -> TurnOrders:
    """Read every player's stored orders entry into typed orders.

    A player left out sent nothing (an NMR when the aircraft is in the fight,
    N1). Raises the orders layer's ``OrderError`` for an entry a player could
    not have mailed.
    """
    return gather_orders({str(p): entry_to_orders(state, str(p), entry or {})
                          for p, entry in orders.items()})


# One pilot's entry read: the plane's orders and its votes for the zeppelins.
Reading = tuple[PlaneOrders | None, tuple[ZeppelinVote | None, ...]]
# A pilot's orders as they cross the Ruleset's seam: the entry with its reading.
PilotOrders = PlayerOrders[Reading]


def gather_orders(readings: Mapping[str, Reading]) -> TurnOrders:
    """The turn's typed orders from each player's entry read (``entry_to_orders``)."""
    plane: dict[str, PlaneOrders] = {}
    zeppelin: dict[str, tuple[ZeppelinVote | None, ...]] = {}
    for player, (mine, votes) in readings.items():
        if mine is not None:
            plane[player] = mine
        if any(v is not None and not v.empty for v in votes):
            zeppelin[player] = votes
    return TurnOrders(plane=plane, zeppelin=zeppelin)


def _aircraft(state: GameState, player: str) -> Aircraft | None:
    return next((a for a in state.aircraft if a.pilot == player), None)


def _place_controlled(position: dict[str, object], seed: int,
                      length: int) -> tuple[dict[str, object], str]:
    """Put the controlled zeppelin on the board with the engine's placement (Z6)."""
    state = position_from_dict(position)
    dice = Dice(seed)
    placed = place_controlled_zeppelin(state, dice, length)
    rolls = dice.values()
    out = position_to_dict(placed)
    z = next(iter(out.get("zeppelins", {}).values()))
    return out, (f"controlled zeppelin placed by the referee (Z6): nose on {z['hexes'][0]}, "
                 f"heading {z['heading']} (die {rolls[0] if rolls else '?'})")


def _drifting(board: HexBoard, options: NewGameOptions, seed: int) -> tuple[list[str], str]:
    """The hexes and heading of a drifting zeppelin: as given, or on the centre
    with a rolled heading, like a controlled one (Z1, Z6)."""
    if options.zeppelin_hexes:
        return list(options.zeppelin_hexes), options.zeppelin_heading or "N"
    roll = random.Random(seed).randint(1, 6)
    h = list(Heading)[roll - 1]
    nose = board.centre
    hexes = [board.name(nose)] + (
        [board.name(nose.step(h.opposite()))] if options.zeppelin_length == 2 else [])
    return hexes, h.value


# The order words; HELP puts an example mail for the player's own game above
# them (pbmref.referee.guide).
HELP = """\
Manoeuvres (one a move): A ahead, L left turn, R right turn,
LS slip left, RS slip right, 0 no move (never in move 1, and after
a 0 in move 2 move 3 is 0 too), I Immelman (aces only).
Fire: f-A ahead, f-L ahead-left, f-R ahead-right, f-B backward
(rear gunner only), f-0 hold fire. At most 3 bursts a turn.
On the ground: TAKEOFF ALPHA|BETA|GAMMA (moves 1 and 2 are A).
To land: LAND ALPHA|BETA|GAMMA, and fly A from the runway's far hex
into its near hex, toward your airfield.
Zeppelin votes: a ZEPPELIN section, a move (A L LS R RS 0) and one
fire vote (f-A f-L f-R f-B f-0, or d-B to drop a bomb) each move:
  ZEPPELIN
  1: L f-B
  2: A d-B
  3: f-0

Commands (alone or beside orders):
  HELP       this text
  HELP M3    rule M3 of the rulebook (any rule number)
  ORDERS     your orders in force
  STATUS     the turn, the deadline, who has sent orders
  MAP        the current map
  HISTORY n  the report of turn n
  CLEAR      withdraw your orders for this turn
  PLAN       your orders in force, previewed: where they take you
  WAIT       this turn is not played before its deadline (NOWAIT)
  SET ABSENCE FROM 2026-07-01 TO 2026-07-14  deadlines wait (J11)
  SET TIMEZONE Europe/Paris  deadlines in your own time zone (J12)
  RESIGN     give up your place (J6)
HELP, HELP <rule> and STATUS need no password.

Where the game master allows press, PRESS TO baron (pilots by
name) or PRESS TO ALL, then the message, then ENDPRESS.

Your mail is checked at once and answered. A mail with a mistake is
refused whole and your earlier orders stay in force. Orders are
secret until the turn is adjudicated.
"""

WORDS = Words(
    noun="turn", keyword="TURN", help=HELP,
    none_yet="  (none yet: without orders your aircraft flies straight ahead, N1)",
    accepted=("You may send new orders until then; a new PLANE or ZEPPELIN",
              "section replaces the old one. Send CLEAR to withdraw them."),
    cleared=("Without new orders by the deadline your aircraft flies straight",
             "ahead and does not fire (rule N1)."),
    reminder=("Without orders your aircraft flies straight ahead and does not",
              "fire (rule N1); three such turns in a row and you are removed (N2).",
              "Send HELP for how to write orders."),
)


# A landed aircraft without orders stays landed (L2a, N1); it is still an NMR.
LANDED_WORDS = dataclasses.replace(
    WORDS,
    none_yet="  (none yet: without orders your aircraft stays landed, L2a, N1)",
    cleared=("Without new orders by the deadline your aircraft stays landed",
             "(rules L2a, N1)."),
    reminder=("Without orders your aircraft stays landed (rules L2a, N1); three",
              "such turns in a row and you are removed (N2).",
              "Send HELP for how to write orders."),
)


class TweedekkerRuleset(AirRuleset[GameState, Reading, TurnOrders]):
    name: ClassVar[str] = "tweedekker"
    title: ClassVar[str] = "Tweedekker"
    words: ClassVar[Words] = WORDS
    event_types: ClassVar[Mapping[str, type[Event]]] = EVENT_TYPES
    # Half an hour to change provisional orders once everyone's are in.
    early_delay: ClassVar[timedelta] = timedelta(minutes=30)
    sections: ClassVar[Mapping[str, frozenset[str]]] = {
        "plane": frozenset({"plane", "takeoff", "land"}),
        "zeppelin": frozenset({"zeppelin"}),
    }
    # 40 keep the sky, the clouds and the pilots' colours apart (at 32 the
    # quantizer makes the sky the clouds' white)
    picture_colours: ClassVar[int] = 40
    places_shared: ClassVar[bool] = True  # six airfields, shared in turn (B5)
    board_options: ClassVar[frozenset[str]] = frozenset({"board_side"})

    def decode(self, data: Mapping[str, object]) -> GameState:
        return position_from_dict(data)

    def event_board(self, position: Mapping[str, object]) -> HexBoard:
        return board_from_dict(position)

    def encode(self, state: GameState) -> dict[str, object]:
        return position_to_dict(state)

    def read_orders(self, state: GameState, player: str, lines: Lines) -> PilotOrders:
        entry, plane, votes = read_body(state, player, lines)
        return PlayerOrders(entry, (plane, votes))

    def order_line(self, state: GameState, cleaned: str) -> bool:
        del state
        return order_line(cleaned)

    def read_entry(self, state: GameState, player: str, entry: Mapping[str, object]
                   ) -> Reading:
        """The plane's orders and the zeppelin votes of an entry (what
        ``decode_orders`` keeps beside it, and ``encode_orders`` writes back).

        >>> rules = TweedekkerRuleset()
        >>> state = rules.decode({"turn": 2, "aircraft": {
        ...     "anna": {"hex": "E8", "heading": "S", "state": "flying"},
        ...     "bert": {"hex": "E3", "heading": "N", "state": "flying"}}})
        >>> entry = {"plane": ["A", "L f-A", "RS"]}
        >>> orders = rules.decode_orders(state, "anna", entry)
        >>> [m.format() for m in orders.typed[0].moves]
        ['A', 'L f-A', 'RS']
        >>> rules.encode_orders(orders) == entry
        True
        """
        return entry_to_orders(state, player, entry)

    def gather(self, readings: Mapping[str, Reading]) -> TurnOrders:
        return gather_orders(readings)

    def merge_reading(self, old: Reading, new: Reading, replaced: frozenset[str],
                      given: Mapping[str, object]) -> Reading:
        """The plane's orders of the PLANE section, the votes of the ZEPPELIN one."""
        del given
        return (new[0] if "plane" in replaced else old[0],
                new[1] if "zeppelin" in replaced else old[1])

    def preview(self, state: GameState, player: str,
                orders: PilotOrders | None) -> list[str]:
        """The flight plan: hex and heading after each move, bursts, rounds left,
        and the warnings of ``pbmref.rules.tweedekker.plan``."""
        plane, votes = (orders.typed if orders is not None
                        else entry_to_orders(state, player, None))
        return preview_lines(flight_plan.preview(state, player, plane, votes))

    def run_engine(self, state: GameState, orders: TurnOrders,
                   dice: Dice) -> tuple[GameState, tuple[Event, ...]]:
        return engine.adjudicate(state, orders, dice)

    def opening(self, players: Sequence[PlayerSpec], options: NewGameOptions, seed: int,
                position: Mapping[str, object] | None = None) -> Opening:
        """Every aircraft landed on its airfield (L1); the zeppelin controlled (Z6)
        or drifting (Z3). ``seed`` is the seed of turn 0 (the set-up dice). A game of
        one pilot would end at once (V6): it is refused."""
        if len(players) < 2:
            raise ValueError("a tweedekker game needs at least two pilots (a computer "
                             "pilot counts: --computer-player ID); with one it ends at once "
                             "(V6)")
        scenario = {"board_side": options.board_side, "zeppelin": options.zeppelin or "none",
                    "zeppelin_length": options.zeppelin_length}
        if position is not None:
            self.decode(position)
            return Opening(dict(position), "position given by the game master",
                           {**scenario, "placement": "position given by the game master"})
        board = HexBoard(options.board_side)
        free = [a for a in AIRFIELD_ORDER if a not in {p.airfield for p in players}]
        aircraft: dict[str, object] = {}
        unplaced = 0
        for p in players:
            # Ruling (B5): six airfields; with more pilots than free airfields the
            # airfields are shared in turn, each pilot still owning one.
            if p.airfield:
                field_name = p.airfield
            else:
                pool = free or list(AIRFIELD_ORDER)
                field_name = pool[unplaced % len(pool)]
                unplaced += 1
            corner = Heading.parse(field_name)
            aircraft[p.id] = {"hex": board.name(board.corner(corner)), "state": "landed",
                              "airfield": corner.value}
        opening: dict[str, object] = {
            "ruleset": "tweedekker", "turn": 1, "board": {"side": options.board_side},
            "settings": dict(options.rule_settings or {}),
            "wind": dict(options.wind or {"to": "N", "strength": 0, "changes": False}),
            "clouds": [dict(c) for c in options.clouds],
            "aircraft": aircraft,
        }
        placement = "no zeppelin"
        if options.zeppelin == "controlled":
            opening, placement = _place_controlled(opening, seed, options.zeppelin_length)
        elif options.zeppelin == "drifting":
            hexes, heading = _drifting(board, options, seed)
            opening["zeppelins"] = {"Z": {"hexes": hexes, "heading": heading,
                                          "controlled": False}}
            placement = f"drifting zeppelin on {', '.join(hexes)} heading {heading} (Z3)"
        elif options.zeppelin is not None:
            raise ValueError(f"zeppelin must be controlled, drifting or none, "
                             f"not {options.zeppelin!r}")
        # the canonical form: every value written out, checked by the rules' own codec
        return Opening(position_to_dict(position_from_dict(opening)), placement,
                       {**scenario, "placement": placement})

    def places(self, variant: str | None = None) -> list[tuple[str, str]]:
        """The six airfields (B5), the first players spread out."""
        del variant
        return [(a, f"airfield {a}") for a in AIRFIELD_ORDER]

    def seat(self, player: PlayerSpec, place: str) -> PlayerSpec:
        return dataclasses.replace(player, airfield=place)

    def place_of(self, position: Mapping[str, object], player: str) -> str:
        aircraft = mapping(position.get("aircraft"), ("aircraft",)).get(player)
        return str(aircraft.get("airfield") or "") if isinstance(aircraft, Mapping) else ""

    def counts_as_orders(self, state: GameState, player: str,
                         entry: Mapping[str, object]) -> bool:
        """Whether ``entry`` spares the player an NMR, for early adjudication and
        reminders (referee.md). Zeppelin votes never count for N1 (N3, Z8): a
        pilot whose aircraft is in the fight has sent orders only with a PLANE
        section (or TAKEOFF/LAND); one out of the fight has only votes to send.
        """
        plane = _aircraft(state, player)
        in_fight = plane is None or plane.state.in_fight
        return not in_fight or any(k in entry for k in ("plane", "takeoff", "land"))

    def computer_orders(self, state: GameState, player: str,
                        rng: random.Random) -> PilotOrders | None:
        return self.decode_orders(state, player, choose_orders(state, player, rng))

    def example_orders(self, state: GameState, player: str) -> PilotOrders | None:
        """The computer pilot's PLANE section (with TAKEOFF for a landed
        aircraft, L3; HELP shows the zeppelin votes in words), or its votes
        alone when the aircraft is out of the fight (N3)."""
        entry = choose_orders(state, player, random.Random(0))
        plane = {k: v for k, v in entry.items() if k != "zeppelin"}
        shown = plane or entry
        return self.decode_orders(state, player, shown) if shown else None

    def order_template(self, state: GameState, player: str) -> PilotOrders | None:
        """Straight ahead in each move (T1) for an aircraft in the air, when the
        rules take that as it stands; else HELP's example (the computer pilot's
        plan weighs each burst of fire: about 18 ms a pilot, a tenth of a
        deadline's work, for a block the player rewrites anyway)."""
        plane = _aircraft(state, player)
        if plane is not None and plane.state is AircraftState.FLYING:
            entry: OrdersEntry = {"plane": ["A", "A", "A"]}
            try:
                return self.decode_orders(state, player, entry)
            except OrderMailError:
                pass
        return self.example_orders(state, player)

    def alias_of(self, aircraft: Mapping[str, object]) -> tuple[str, str] | None:
        """An anonymous game calls a pilot after its airfield (B5): ``Pilot N``."""
        corner = str(aircraft.get("airfield") or "").upper()
        return (corner, f"Pilot {corner}") if corner else None

    def words_for(self, state: GameState, player: str) -> Words:
        plane = _aircraft(state, player)
        landed = plane is not None and plane.state is AircraftState.LANDED
        return LANDED_WORDS if landed else WORDS

    def player_brief(self, state: GameState, player: str) -> str:
        plane = _aircraft(state, player)
        if plane is None:
            return ""
        board = state.board
        field = f"airfield {plane.airfield.value}"
        where = f"hex {board.name(plane.hex)}, heading {plane.heading.value}"
        if plane.state is AircraftState.LANDED:
            return (f"Your aircraft stands landed on its {field} ({where}); it takes off "
                    "with TAKEOFF ALPHA, BETA or GAMMA (rule L3).")
        if plane.state.in_fight:
            return f"Your aircraft flies at {where}; its home is {field}."
        return f"Your aircraft is out of the fight ({plane.state.value}); its home is {field}."

    def demo_game(self) -> DemoGame:
        return DEMO

    def render_report(self, report: TurnReport[Event]) -> str:
        return render_report(report)

    def report_document(self, report: TurnReport[Event], readers: Sequence[str] = ()) -> Document:
        return report_document(report, readers)

    def render_changes(self, before: TurnReport[Event], after: TurnReport[Event],
                       readers: Sequence[str] = ()) -> str:
        return changed_line(before, after, readers)

    def render_map_svg(self, report: TurnReport[Event]) -> str | None:
        turn = Turn.of(report)
        return render_svg(turn.after, turn.events, names=report.names,
                          title=f"After turn {report.turn}", before=turn.before)

    def reader_focus(self, report: TurnReport[Event], readers: Sequence[str]) -> Focus | None:
        turn = Turn.of(report)
        return reader_focus(turn.after, turn.events, readers, names=report.names,
                            title=f"After turn {report.turn}", before=turn.before)

    def render_move_svgs(self, report: TurnReport[Event]) -> list[str]:
        turn = Turn.of(report)
        if not any(isinstance(e, Manoeuvred) for e in turn.events):
            return []
        return render_move_panels(turn.before, turn.events, names=report.names,
                                  after=turn.after)

    def render_position_svg(self, position: Mapping[str, object],
                            names: Mapping[str, str]) -> str | None:
        state = self.decode(position)
        return render_svg(state, None, names=names, title=f"The sky now: turn {state.turn}")

    def map_reply(self, position: Mapping[str, object], names: Mapping[str, str],
                  title: str) -> str:
        return render_map_reply(self.decode(position), names, title)
