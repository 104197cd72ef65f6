"""Fast Play, the classroom dice rules, as a ``Ruleset``.

The engine is ``pbmref.rules.fastplay``; order lines are read by
``pbmref.rulesets.fastplay.orders``; reports are drawn by ``pbmref.rulesets.fastplay.report``
and ``fastplay_svg``. A class's boards are dealt by ``classroom`` (its
``FastPlayClassroom``) and made into games by ``pbmref.gm.classroom`` (new
games are always given their position).
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, ClassVar

from pbmref.reports.document import Document
from pbmref.reports.model import Focus, TurnReport
from pbmref.rules.dice import Dice
from pbmref.rules.eventdata import Event
from pbmref.rules.fastplay import plan as flight_plan
from pbmref.rules.fastplay.autopilot import orders_entry
from pbmref.rules.fastplay.board import FastBoard
from pbmref.rules.fastplay.engine import adjudicate_turn
from pbmref.rules.fastplay.events import EVENT_TYPES, Manoeuvred
from pbmref.rules.fastplay.orders import PlaneOrders, TurnOrders
from pbmref.rules.fastplay.position import board_from_dict, position_from_dict, position_to_dict
from pbmref.rules.fastplay.state import GameState
from pbmref.rulesets.air.ruleset import AirRuleset
from pbmref.rulesets.base import (
    Lines,
    NewGameOptions,
    Opening,
    PlayerOrders,
    PlayerSpec,
    Words,
)
from pbmref.rulesets.fastplay.orders import entry_to_orders, order_line, read_body
from pbmref.rulesets.fastplay.personal import changed_line
from pbmref.rulesets.fastplay.picture import (
    fastplay_focus,
    render_fastplay_move_panels,
    render_fastplay_svg,
)
from pbmref.rulesets.fastplay.preview import preview_lines
from pbmref.rulesets.fastplay.report import (
    fastplay_report_document,
    render_fastplay_map_reply,
    render_fastplay_report,
)
from pbmref.rulesets.fastplay.turn import FastTurn

if TYPE_CHECKING:
    from pbmref.rulesets.fastplay.classroom import FastPlayClassroom

__all__ = ["FastPlayRuleset", "gather_orders", "turn_orders"]


def turn_orders(state: GameState, orders: Mapping[str, Mapping[str, object]]) -> TurnOrders:
    """Every player's stored entry as typed orders; a player left out sent no mail."""
    return gather_orders({str(p): entry_to_orders(state, str(p), entry or {})
                          for p, entry in orders.items()})


# A pilot's orders as they cross the Ruleset's seam: the entry with its cards.
CardOrders = PlayerOrders[PlaneOrders | None]


def gather_orders(readings: Mapping[str, PlaneOrders | None]) -> TurnOrders:
    """The turn's typed orders from each player's entry read (``entry_to_orders``)."""
    return TurnOrders(plane={p: typed for p, typed in readings.items() if typed is not None})


# The order words; HELP puts an example mail for the pupil's own plane above
# them (pbmref.referee.guide).
HELP = """\
Each turn you play three cards from your deck, one a move (FP4):
A ahead, L left turn, R right turn, LS slip left, RS slip right,
AF two hexes ahead, ST stall (stay), STL / STR stall and turn left
or right, I Immelman. A deck holds three each of A L R LS RS and
one each of AF ST STL STR I; a card may be played in one turn as
often as your deck holds it, and lost cards are gone (FP6).
Your plane fires ahead at the nearest enemy within 5 hexes by itself
(FP7); write f-0 after a card to hold fire that move.
Coming back after leaving or a crash landing (FP14): ENTER <hex>
<heading>, e.g. ENTER C10 S, on an edge hex at least 6 hexes from
every enemy. Two pilots who both come back may each write
DUEL <other pilot> (FP15). A burning plane may write BURN CARD or
BURN DAMAGE (FP12). With 4 or more hits you may fly off the board
(FP13). Missing cards are flown for you (FP17).

Commands (alone or beside orders):
  HELP       this text
  HELP FP4   rule FP4 of the rulebook (any rule number)
  ORDERS     your orders in force
  STATUS     the turn, the deadline, who has sent orders
  MAP        the board now, with every plane
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
refused whole and your earlier orders stay in force; a new PLANE
section replaces the old one with its ENTER and DUEL. Orders are
secret until the turn is adjudicated.
"""

_WITHOUT_ORDERS = ("Without orders your plane plays, each move, the first of A, L, R,",
                   "ST that keeps it on the board and fires ahead (rule FP17); three",
                   "such turns in a row and you are removed.")

WORDS = Words(
    noun="turn", keyword="TURN", help=HELP,
    none_yet="  (none yet: without orders the referee flies your plane, FP17)",
    accepted=("You may send new orders until then; a new PLANE section",
              "replaces the old one with its ENTER and DUEL. Send CLEAR to",
              "withdraw them."),
    cleared=("Without new orders by the deadline your plane plays, each move,",
             "the first of A, L, R, ST that keeps it on the board and fires",
             "ahead (rule FP17)."),
    reminder=(*_WITHOUT_ORDERS, "Send HELP for how to write orders."),
)


# How an anonymous game calls the pilots of each side (FP1): word and label.
_SIDE_ALIASES = {"Germans": ("G", "German pilot"), "Allies": ("A", "Allied pilot")}


class FastPlayRuleset(AirRuleset[GameState, PlaneOrders | None, TurnOrders]):
    name: ClassVar[str] = "fastplay"
    title: ClassVar[str] = "Fast Play"
    words: ClassVar[Words] = WORDS
    event_types: ClassVar[Mapping[str, type[Event]]] = EVENT_TYPES
    sections: ClassVar[Mapping[str, frozenset[str]]] = {
        "plane": frozenset({"plane", "enter", "duel"}),
    }
    careers: ClassVar[bool] = True  # FP16

    def classroom(self) -> FastPlayClassroom:
        """A class of pupils on many boards (FP1, FP14, FP16)."""
        from pbmref.rulesets.fastplay.classroom import FastPlayClassroom

        return FastPlayClassroom(self)

    def decode(self, data: Mapping[str, object]) -> GameState:
        return position_from_dict(data)

    def event_board(self, position: Mapping[str, object]) -> FastBoard:
        return board_from_dict(position)

    def encode(self, state: GameState) -> dict[str, object]:
        return position_to_dict(state)

    def read_orders(self, state: GameState, player: str, lines: Lines) -> CardOrders:
        entry, orders = read_body(state, player, lines)
        return PlayerOrders(entry, orders)

    def order_line(self, state: GameState, cleaned: str) -> bool:
        del state
        return order_line(cleaned)

    def read_entry(self, state: GameState, player: str,
                   entry: Mapping[str, object]) -> PlaneOrders | None:
        """The cards, entry, duel and burn of an entry (what ``decode_orders``
        keeps beside it, and ``encode_orders`` writes back); an empty line is a
        move without a card (FP17).

        >>> rules = FastPlayRuleset()
        >>> state = rules.decode({"turn": 2, "aircraft": {
        ...     "anna": {"team": "Germans", "hex": "E8", "heading": "S"},
        ...     "bert": {"team": "Allies", "hex": "E3", "heading": "N"}}})
        >>> entry = {"plane": ["A", "L f-0", ""]}
        >>> orders = rules.decode_orders(state, "anna", entry)
        >>> [m.format() for m in orders.typed.moves if m is not None]
        ['A', 'L f-0']
        >>> rules.encode_orders(orders) == entry
        True
        """
        return entry_to_orders(state, player, entry)

    def gather(self, readings: Mapping[str, PlaneOrders | None]) -> TurnOrders:
        return gather_orders(readings)

    def merge_reading(self, old: PlaneOrders | None, new: PlaneOrders | None,
                      replaced: frozenset[str], given: Mapping[str, object]
                      ) -> PlaneOrders | None:
        """The cards, the entry and the duel of the PLANE section; what a burning
        plane gives up (FP12) kept unless the mail says it again."""
        section = new if replaced else old
        burn_of = new if "burn" in given else old
        burn = burn_of.burn if burn_of is not None else None
        if section is None:
            return None if burn is None else PlaneOrders(burn=burn)
        return dataclasses.replace(section, burn=burn)

    def preview(self, state: GameState, player: str,
                orders: CardOrders | None) -> list[str]:
        """Hex and heading after each card and each move's line of fire (FP7), with
        the notes of ``pbmref.rules.fastplay.plan``."""
        return preview_lines(flight_plan.preview(
            state, player, orders.typed if orders is not None else None))

    def run_engine(self, state: GameState, orders: TurnOrders,
                   dice: Dice) -> tuple[GameState, tuple[Event, ...]]:
        return adjudicate_turn(state, orders, dice)

    def opening(self, players: Sequence[PlayerSpec], options: NewGameOptions, seed: int,
                position: Mapping[str, object] | None = None) -> Opening:
        """A Fast Play board comes from its class (``pbmref new-class``): the
        position must be given."""
        del players, options, seed
        if position is None:
            raise ValueError("a Fast Play board is made by `pbmref new-class` (or give the "
                             "position of turn 1 as a scenario file)")
        self.decode(position)
        return Opening(dict(position), "position given by the game master")

    def computer_orders(self, state: GameState, player: str,
                        rng: random.Random) -> CardOrders | None:
        return self.decode_orders(state, player, orders_entry(state, player, rng))

    def alias_of(self, aircraft: Mapping[str, object]) -> tuple[str, str] | None:
        """An anonymous game calls a pilot by its side (FP1), numbered:
        ``German pilot 1``, ``Allied pilot 2``."""
        team = str(aircraft.get("team") or "")
        return _SIDE_ALIASES.get(team)

    def player_brief(self, state: GameState, player: str) -> str:
        plane = next((p for p in state.planes if p.pilot == player), None)
        if plane is None:
            return ""
        side = f"You fly for the {plane.team.value}"
        if plane.on_board and plane.hex is not None:
            return (f"{side}; your plane is at {state.board.name(plane.hex)}, "
                    f"heading {plane.heading.value}.")
        return f"{side}; your plane is off the board: bring it in with ENTER (rule FP14)."

    def render_report(self, report: TurnReport[Event]) -> str:
        return render_fastplay_report(report)

    def report_document(self, report: TurnReport[Event], readers: Sequence[str] = ()) -> Document:
        return fastplay_report_document(report, readers)

    def render_changes(self, before: TurnReport[Event], after: TurnReport[Event],
                       readers: Sequence[str] = ()) -> str:
        return changed_line(before, after, readers)

    def render_map_svg(self, report: TurnReport[Event]) -> str | None:
        turn = FastTurn.of(report)
        return render_fastplay_svg(turn.after, turn.events, names=report.names,
                                   title=f"After turn {report.turn}", before=turn.before)

    def reader_focus(self, report: TurnReport[Event], readers: Sequence[str]) -> Focus | None:
        turn = FastTurn.of(report)
        return fastplay_focus(turn.after, turn.events, readers, names=report.names,
                              title=f"After turn {report.turn}", before=turn.before)

    def render_move_svgs(self, report: TurnReport[Event]) -> list[str]:
        turn = FastTurn.of(report)
        if not any(isinstance(e, Manoeuvred) for e in turn.events):
            return []
        return render_fastplay_move_panels(turn.before, turn.events, names=report.names,
                                           after=turn.after)

    def render_position_svg(self, position: Mapping[str, object],
                            names: Mapping[str, str]) -> str | None:
        state = self.decode(position)
        return render_fastplay_svg(state, None, names=names,
                                   title=f"The sky now: turn {state.turn}")

    def map_reply(self, position: Mapping[str, object], names: Mapping[str, str],
                  title: str) -> str:
        return render_fastplay_map_reply(self.decode(position), names, title)
