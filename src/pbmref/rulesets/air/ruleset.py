"""What the two air rulesets (tweedekker, Fast Play) share behind ``Ruleset``.

Each names its position codec, its orders-layer readers, its engine and how
stored entries become typed orders; decoding, checking, adjudicating with
replayed dice and running scenario files then go the same way for both. A
player's orders cross the seam as ``PlayerOrders[R]``: the stored entry with
its reading ``R``, read once (``decode_orders``) and written back as it was
(``encode_orders``).
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, Generic, Protocol, TypeVar

from pbmref.orders.errors import OrderMailError
from pbmref.rules.dice import Dice, Replay
from pbmref.rules.eventdata import Event, EventBoard, events_from_dicts, events_to_dicts
from pbmref.rules.plaindata import PositionError
from pbmref.rulesets.base import (
    Alias,
    OrdersEntry,
    Outcome,
    PlayerOrders,
    Ruleset,
    ScenarioError,
    ScenarioResult,
    numbered,
    shuffled,
)
from pbmref.rulesets.expect import compare

__all__ = ["AirRuleset", "order_error_path"]

class AirState(Protocol):
    """What the air games' states share: a board that names hexes, and the end."""

    @property
    def board(self) -> EventBoard: ...

    @property
    def game_over(self) -> bool: ...

    @property
    def winners(self) -> tuple[str, ...]: ...


A = TypeVar("A", bound=AirState)
R = TypeVar("R")  # one player's entry read into typed orders
T = TypeVar("T")  # the engine's typed orders of one turn

# Keys of a scenario file that are not part of the position.
SCENARIO_ONLY = ("orders", "expect", "seed", "description", "title")


def order_error_path(exc: OrderMailError, player: str, entry: Any) -> tuple[str | int, ...]:
    """Where in a scenario's ``orders.PLAYER`` an order error points (its section
    and its place in the list), for the file's line."""
    path: tuple[str | int, ...] = ("orders", player)
    section: str | None = None
    line_no = exc.line_no
    if not isinstance(entry, Mapping):
        return path
    if section is None and isinstance(line_no, int):
        for name in ("plane", "zeppelin"):
            items = entry.get(name)
            if isinstance(items, list) and 0 < line_no <= len(items) and (
                exc.line is None or str(items[line_no - 1]).strip() == str(exc.line).strip()
            ):
                section = name
                break
    if section is None:
        return path
    path = (*path, str(section).lower())
    if isinstance(line_no, int) and line_no > 0:
        path = (*path, line_no - 1)
    return path


class AirRuleset(Ruleset[A, PlayerOrders[R], Event], Generic[A, R, T]):
    """A Ruleset of an air game, generic over its state ``A``, a player's orders
    read ``R`` and the turn's orders ``T``; subclasses name the parts. Its
    events are the engine's (``rules.eventdata.Event``)."""

    player_keys: ClassVar[tuple[str, ...]] = ("aircraft",)
    # the engine's event classes by their kind (the game's ``EVENT_TYPES``)
    event_types: ClassVar[Mapping[str, type[Event]]]

    @abstractmethod
    def read_entry(self, state: A, player: str, entry: Mapping[str, object]) -> R:
        """One player's stored entry as typed orders; raises ``OrderMailError`` for
        an entry the player could not have mailed."""

    @abstractmethod
    def gather(self, readings: Mapping[str, R]) -> T:
        """The engine's orders of one turn from each player's ``read_entry``."""

    def decode_orders(self, state: A, player: str,
                      entry: Mapping[str, object]) -> PlayerOrders[R]:
        """The entry with its reading (``read_entry``); the entry kept as it is."""
        return PlayerOrders.of(entry, self.read_entry(state, player, entry))

    def encode_orders(self, orders: PlayerOrders[R]) -> OrdersEntry:
        return orders.encoded()

    @abstractmethod
    def merge_reading(self, old: R, new: R, replaced: frozenset[str],
                      given: Mapping[str, object]) -> R:
        """The reading of the entry in force after a mail: ``new``'s for the
        sections it ``replaced``, ``old``'s for the others (keys of no section:
        ``new``'s where its entry, ``given``, has them)."""

    def merge_orders(self, old: PlayerOrders[R] | None,
                     new: PlayerOrders[R]) -> PlayerOrders[R]:
        """Section by section (``sections``): what the mail gives replaces its
        sections whole, the others stay in force."""
        if old is None:
            return new
        entry, replaced = self.merged_entry(old.entry, new.entry)
        return PlayerOrders(entry, self.merge_reading(old.typed, new.typed, replaced, new.entry))

    def typed_orders(self, orders: Mapping[str, PlayerOrders[R]]) -> T:
        """The engine's typed orders of one turn from every player's orders."""
        return self.gather({str(p): o.typed for p, o in orders.items()})

    @abstractmethod
    def event_board(self, position: Mapping[str, object]) -> EventBoard:
        """The board of a position, read alone: what names its events' hexes."""

    def encode_events(self, events: Sequence[Event],
                      position: Mapping[str, object]) -> list[dict[str, object]]:
        return events_to_dicts(events, self.event_board(position))

    def decode_events(self, data: Sequence[Mapping[str, object]],
                      position: Mapping[str, object]) -> tuple[Event, ...]:
        return events_from_dicts(data, self.event_types, self.event_board(position))

    @abstractmethod
    def run_engine(self, state: A, orders: T, dice: Dice) -> tuple[A, tuple[Event, ...]]:
        """The engine's turn: ``(state, orders, dice) -> (state, events)``."""

    @abstractmethod
    def alias_of(self, aircraft: Mapping[str, object]) -> tuple[str, str] | None:
        """The word and the label an anonymous game calls the pilot of ``aircraft``
        (its entry in the first position): ``("N", "Pilot N")``; None: not known."""

    def aliases(self, position: Mapping[str, object], players: Sequence[str],
                salt: str) -> dict[str, Alias]:
        """Each pilot by its ``alias_of``; pilots called alike are numbered
        (``Pilot N 1``, ``Pilot N 2``) in an order only ``salt`` tells, pilots
        without an aircraft in ``position`` are ``Player 1`` ..."""
        aircraft = position.get("aircraft")
        aircraft = aircraft if isinstance(aircraft, Mapping) else {}
        alike: dict[tuple[str, str], list[str]] = {}
        others = []
        for pid in players:
            entry = aircraft.get(pid)
            called = self.alias_of(entry) if isinstance(entry, Mapping) else None
            if called is None:
                others.append(pid)
            else:
                alike.setdefault(called, []).append(pid)
        out = numbered(others, salt, "Player")
        for (word, label), pids in alike.items():
            several = len(pids) > 1
            for n, pid in enumerate(shuffled(pids, salt), 1):
                w, shown = (f"{word}{n}", f"{label} {n}") if several else (word, label)
                out[pid] = Alias(w.lower(), shown, tuple(dict.fromkeys(
                    (w.upper(), "".join(shown.split()).upper()))))
        return out

    def remove_player(self, data: Mapping[str, object], player: str) -> dict[str, object] | None:
        """The aircraft of a kicked player is out of play (state ``removed``)."""
        aircraft = data.get("aircraft")
        if not isinstance(aircraft, Mapping) or player not in aircraft:
            return None
        entry = dict(aircraft[player])
        if entry.get("state") in ("left", "down", "removed"):
            return None
        entry["state"] = "removed"
        return {**data, "aircraft": {**aircraft, player: entry}}

    def adjudicate(self, position: Mapping[str, object],
                   orders: Mapping[str, PlayerOrders[R]],
                   seed: int, replay: Replay | None = None, *,
                   state: A | None = None) -> Outcome[Event]:
        state = self.decode(position) if state is None else state
        dice = Dice(seed, replay=replay)
        new_state, events = self.run_engine(state, self.typed_orders(orders), dice)
        return Outcome(
            position=self.encode(new_state),
            events=events,
            rolls=tuple(dice.rolls),
            unused=tuple(dice.unused()),
            game_over=new_state.game_over,
            winners=list(new_state.winners),
        )

    def play_scenario(self, data: Mapping[str, object], expect: Any) -> ScenarioResult:
        position = {k: v for k, v in data.items() if k not in SCENARIO_ONLY}
        try:
            state = self.decode(position)
        except PositionError as exc:
            raise ScenarioError.of_position(exc) from None
        orders = data.get("orders") or {}
        if not isinstance(orders, Mapping):
            raise ScenarioError("orders: expected one entry per player", path=("orders",))
        typed: dict[str, PlayerOrders[R]] = {}
        for player, entry in orders.items():
            if entry is not None and not isinstance(entry, Mapping):
                raise ScenarioError(f"orders of {player}: expected a mapping such as "
                                    "{plane: [...], zeppelin: [...]}", path=("orders", player))
            try:
                typed[str(player)] = self.decode_orders(state, str(player), dict(entry or {}))
            except OrderMailError as exc:
                raise ScenarioError(f"orders of {player}: {exc.message}", exc.rule,
                                    order_error_path(exc, str(player), entry)) from None
        seed = data.get("seed", 0)
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise ScenarioError(f"seed: expected a whole number, found {seed!r}", path=("seed",))
        outcome = self.adjudicate(position, typed, seed, state=state)
        result = dict(outcome.position)
        if outcome.game_over:
            result["game_over"] = True
            result["winners"] = list(outcome.winners)
        result["events"] = events_to_dicts(outcome.events, state.board)
        return ScenarioResult(result, compare(expect or {}, result))
