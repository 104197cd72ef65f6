"""Diplomacy and Dirigible Diplomacy as ``Ruleset`` objects.

Positions are the scenario schema's Diplomacy keys (``phase``, ``units``,
``centers``, ``dislodged``, ``standoffs``, ``devastated``, ``winner``,
``settings``; the codec is ``pbmref.rules.diplomacy.codec``), plus
``players``: which player plays which power (a player id that is a power
code, ``FRA``, plays that power). An orders entry is ``{"orders": ["A Par -
Bur", ...]}`` (canonical order lines, read by ``pbmref.rulesets.diplomacy.orders``).
One phase is played per turn (DD1); players name a turn by its phase.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import timedelta
from typing import Any, ClassVar

from pbmref.orders.errors import OrderMailError, UnknownPlayerError
from pbmref.reports.document import Document
from pbmref.reports.model import Focus, Picture, TurnReport
from pbmref.rules.dice import Replay
from pbmref.rules.diplomacy import (
    Adjudication,
    Order,
    Phase,
    Position,
    Variant,
    adjudicate_full,
    order_key,
)
from pbmref.rules.diplomacy.adjust import balance, orders_due
from pbmref.rules.diplomacy.bot import choose_orders, order_lines
from pbmref.rules.diplomacy.codec import (
    dislodged_entry,
    position_from_dict,
    position_to_dict,
    unit_text,
)
from pbmref.rules.diplomacy.dirigible import supply_points
from pbmref.rules.diplomacy.events import Event
from pbmref.rules.diplomacy.map import POWERS
from pbmref.rules.diplomacy.orders import Hold, parse_order
from pbmref.rules.diplomacy.plan import preview as orders_plan
from pbmref.rules.diplomacy.variant import (
    DEFAULT,
    VariantError,
    VariantSpec,
    load_variant,
    map_of,
    opening,
    variant_in,
    variant_names,
    variant_of,
)
from pbmref.rules.plaindata import PositionError, mapping
from pbmref.rulesets.base import (
    Alias,
    Correspondent,
    DemoGame,
    Lines,
    NewGameOptions,
    Opening,
    OrdersEntry,
    Outcome,
    PlayerOrders,
    PlayerSpec,
    Ruleset,
    ScenarioError,
    ScenarioResult,
    Votes,
    Words,
    numbered,
)
from pbmref.rulesets.diplomacy.board import power_focus, render_board
from pbmref.rulesets.diplomacy.orders import (
    order_line,
    parse_body,
    parse_line,
    to_order,
)
from pbmref.rulesets.diplomacy.preview import preview_lines
from pbmref.rulesets.diplomacy.report import (
    diplomacy_document,
    ending_sentence,
    render_diplomacy_report,
    render_position_text,
)

__all__ = ["Board", "DiplomacyRuleset", "DirigibleRuleset", "assign_powers"]


@dataclass(frozen=True)
class Board:
    """A decoded Diplomacy position and who plays which power."""

    position: Position
    players: Mapping[str, str] = field(default_factory=dict)  # player id -> power

    @property
    def spec(self) -> VariantSpec:
        """The variant played: its powers, their names, its map."""
        return variant_of(self.position)

    def power_of(self, player: str) -> str:
        power = str(self.players.get(player, player)).strip().upper()
        powers = self.position.powers
        if power not in powers:
            raise UnknownPlayerError(
                f"{player} plays no power of this game (powers: {', '.join(powers)})")
        return power


def _lines(entry: Mapping[str, object] | Sequence[Any] | None) -> list[str]:
    if entry is None:
        return []
    if isinstance(entry, Mapping):
        lines = entry.get("orders") or []
        return [str(x) for x in lines] if isinstance(lines, list | tuple) else [str(lines)]
    return [str(x) for x in entry]


def _orders_by_power(report: TurnReport[Event], before: Board) -> dict[str, list[Order]]:
    """The orders of a phase's report, typed, as the board draws them: power ->
    orders (the stored lines are the orders' own, ``parse_order`` reads them)."""
    pos = before.position
    retreat = pos.phase.kind == "R"
    out: dict[str, list[Order]] = {}
    for player, entry in sorted(report.orders.items()):
        power = str(before.players.get(player, player)).upper()
        if power in pos.powers:
            out.setdefault(power, []).extend(
                parse_order(before.spec.map, power, line, retreat=retreat)
                for line in _lines(entry))
    return out


def assign_powers(players: Sequence[PlayerSpec],
                  powers: Sequence[str] = POWERS) -> dict[str, str]:
    """Player id -> power (by default AUS ENG FRA GER ITA RUS TUR; a variant's own).

    A player keeps the power named by ``power`` (or by an id or ``airfield`` that
    is a power code); the others get the free powers in the usual order. Powers
    nobody plays stay in civil disorder (their units hold, DD3).
    """
    if len(players) > len(powers):
        raise ValueError(f"the game has {len(powers)} powers; {len(players)} players given")
    out: dict[str, str] = {}
    for p in players:
        wish = next((str(w).upper() for w in (p.power, p.id, p.airfield)
                     if w and str(w).upper() in powers), None)
        for named in (p.power, p.airfield):  # the CLI's fourth field names the power
            if named and str(named).upper() not in powers:
                raise ValueError(f"{p.id}: {named!r} is not a power; powers: "
                                 f"{', '.join(powers)}")
        if wish is not None:
            if wish in out.values():
                raise ValueError(f"{wish} is given to two players")
            out[p.id] = wish
    free = [pw for pw in powers if pw not in out.values()]
    for p in players:
        if p.id not in out:
            out[p.id] = free.pop(0)
    return {p.id: out[p.id] for p in players}


# ---------------------------------------------------------------- scenario files


def _power_code(name: object, where: tuple[str | int, ...], powers: Sequence[str]) -> str:
    p = str(name).strip().upper()
    if p not in powers:
        raise ScenarioError(f"unknown power {name!r}; powers are {', '.join(powers)}",
                            path=where)
    return p


def _powers_mapping(data: Mapping[str, object], key: str) -> Mapping[object, object]:
    value = data.get(key) or {}
    if not isinstance(value, Mapping):
        raise ScenarioError("expected a mapping of powers", path=(key,))
    return value


def _items(value: object, where: tuple[str | int, ...]) -> list[Any]:
    if value is None:
        return []
    if isinstance(value, (str, int)):
        return [value]
    if not isinstance(value, list):
        raise ScenarioError("expected a list", path=where)
    return value


def _scenario_orders(data: Mapping[str, object], pos: Position) -> list[Order]:
    out: list[Order] = []
    for power, items in _powers_mapping(data, "orders").items():
        pw = _power_code(power, ("orders",), pos.powers)
        for n, line in enumerate(_items(items, ("orders", pw)), 1):
            try:
                parsed = parse_line(str(line), n, map_of(pos))
                out.append(to_order(parsed, pw, pos, strict=False))
            except OrderMailError as exc:
                caret = exc.caret()
                detail = f"\n{caret}" if caret else ""
                raise ScenarioError(f"{exc.message}{detail}",
                                    path=("orders", pw, n - 1)) from None
    return out


def _compare(expected: Any, actual: Any, path: str) -> list[str]:
    """Subset comparison; lists of scalars compare as sets (unit order is free)."""
    if isinstance(expected, Mapping):
        if not isinstance(actual, Mapping):
            return [f"{path}: expected {expected!r}, got {actual!r}"]
        out: list[str] = []
        for k, v in expected.items():
            sub = f"{path}.{k}" if path else str(k)
            if str(k) not in actual:
                if v in ([], {}, None):
                    continue
                out.append(f"{sub}: expected {v!r}, but there is none")
                continue
            out.extend(_compare(v, actual[str(k)], sub))
        return out
    if isinstance(expected, list):
        if not isinstance(actual, list):
            return [f"{path}: expected {expected!r}, got {actual!r}"]
        if all(not isinstance(e, (Mapping, list)) for e in expected):
            want = sorted(_norm(e) for e in expected)
            got = sorted(_norm(a) for a in actual)
            if want != got:
                return [f"{path}: expected {sorted(map(str, expected))}, got {sorted(map(str, actual))}"]
            return []
        # entries (events, retreats) are found in order among the actual ones
        i = 0
        for n, item in enumerate(expected):
            while i < len(actual) and _compare(item, actual[i], path):
                i += 1
            if i >= len(actual):
                return [f"{path}[{n}]: expected an entry {item!r} (in this order), found none"]
            i += 1
        return []
    if _norm(expected) != _norm(actual):
        return [f"{path}: expected {expected!r}, got {actual!r}"]
    return []


def _norm(value: Any) -> str:
    if value is None:
        return "null"
    return " ".join(str(value).replace("(", "/").replace(")", "").lower().split())


def _dislodged_entries(adj: Adjudication) -> dict[str, list[dict[str, object]]]:
    """Every unit dislodged in the phase, in the position's own form (``{unit,
    attacker_from}``, with ``attacker_via_convoy`` when the attack was convoyed):
    the units that retreat next, those disbanded at once for want of a retreat,
    and dislodged dirigibles (disbanded at once, DD9)."""
    out: dict[str, list[dict[str, object]]] = {}
    for d in adj.dislodged:
        out.setdefault(d.unit.power, []).append(dislodged_entry(d))
    for e in adj.events:
        if e.kind == "dislodged" and e.unit and e.unit.startswith("D "):
            air: dict[str, object] = {"unit": e.unit}
            if e.province:
                air["attacker_from"] = e.province
            out.setdefault(str(e.power), []).append(air)
    return {p: sorted(v, key=lambda x: str(x["unit"])) for p, v in sorted(out.items())}


def _dislodged_differences(expected: object, actual: Mapping[str, list[dict[str, object]]]
                           ) -> list[str]:
    """``expect.dislodged`` against the units dislodged: per power named, the
    same units (bare, ``A Mun``, or in the position's form, ``{unit: A Mun,
    attacker_from: Bur}``, whose other keys must match too)."""
    if expected is None:
        return []
    if not isinstance(expected, Mapping):
        return [f"dislodged: expected a mapping of powers, got {expected!r}"]
    out: list[str] = []
    for power, items in expected.items():
        got = {_norm(e["unit"]): e for e in actual.get(str(power).upper(), [])}
        want: dict[str, Mapping[object, object]] = {}
        for item in items if isinstance(items, list) else [items] if items else []:
            entry = item if isinstance(item, Mapping) else {"unit": item}
            want[_norm(entry.get("unit"))] = entry
        if set(want) != set(got):
            shown = sorted(str(e["unit"]) for e in got.values())
            asked = sorted(str(w.get("unit")) for w in want.values())
            out.append(f"dislodged.{power}: expected {asked}, got {shown}")
            continue
        for unit, entry in want.items():
            for key, value in entry.items():
                if key != "unit" and _norm(value) != _norm(got[unit].get(str(key))):
                    out.append(f"dislodged.{power}.{entry.get('unit')}.{key}: expected "
                               f"{value!r}, got {got[unit].get(str(key))!r}")
    return out


def _normalise_expect(expect: Mapping[str, object]) -> dict[str, object]:
    out = dict(expect)
    results = expect.get("results")
    if isinstance(results, Mapping):
        out["results"] = {" ".join(str(k).split()).lower(): v for k, v in results.items()}
    return out


# The order words; HELP puts an example mail for the player's own power above
# them (pbmref.referee.guide).
_ORDER_WORDS = """\
One order a line. Movement: hold (A Par H), move (A Par - Bur),
support (F Lon S F Nth - Eng), convoy (F Nth C A Lon - Bel, with
A Lon - Bel via convoy).{airships}
Retreats: A Mun - Boh, or Disband A Mun.
Winter: Build A Par, Build F StP/sc,{build_d} Disband A War,
Waive. Units without an order hold; missed retreats disband.
PHASE is optional; when given it must be the open phase.

Commands (alone or beside orders):
  HELP       this text
  HELP DD8   rule DD8 of the rulebook (any rule number)
  ORDERS     your orders in force
  STATUS     the phase, the deadline, who has sent orders
  MAP        the board now
  HISTORY n  the report of turn n (the n-th phase played)
  CLEAR      withdraw your orders for this phase
  PLAN       your orders in force read back, with warnings
  DRAW       vote for a draw shared by every surviving power
             (NODRAW takes it back; J13)
  DRAW AUS ENG  a draw among named powers, where the game allows
  CONCEDE TO ENG  concede the game to England (NOCONCEDE: undo)
  WAIT       this phase is not played before its deadline (NOWAIT)
  SET ABSENCE FROM 2026-07-01 TO 2026-07-14  deadlines wait (J11)
  SET TIMEZONE Europe/Paris  deadlines in your own time zone (J12)
  RESIGN     give up your place (J6)
HELP, HELP <rule> and STATUS need no password.

Press to other powers goes out at once from the referee, e.g.:

  PRESS TO FRA ENG
  Shall we talk about Belgium?
  ENDPRESS

PRESS TO ALL writes to everyone; in a grey game PRESS GREY TO ENG
keeps you anonymous. A mail may hold orders and several press
blocks, or press alone (which changes no orders). Press never
carries orders.

Your mail is checked at once and answered. A mail with a mistake is
refused whole and your earlier orders stay in force; a new mail's
orders replace all earlier ones. Orders are secret until the phase
is adjudicated.
"""
# Plain Diplomacy's HELP never speaks of dirigibles (issue 43, item 3).
HELP = _ORDER_WORDS.format(airships="", build_d="").replace("HELP DD8   rule DD8",
                                                           "HELP DD3   rule DD3")
HELP_DIRIGIBLE = _ORDER_WORDS.format(
    airships="\nDirigibles (D) move to any neighbour, support dirigibles, support\n"
             "the army or fleet in their own province (DD8) and devastate\n"
             "(D Mun devastate, DD10).",
    build_d=" Build D Ber,")

WORDS = Words(
    noun="phase", keyword="PHASE", help=HELP, next_after="the next phase",
    none_yet="  (none yet: without orders your units hold, DD3)",
    accepted=("You may send new orders until then; a new mail's orders",
              "replace all of these. Units without an order hold.",
              "Send CLEAR to withdraw them."),
    cleared=("Without new orders by the deadline your units hold, dislodged",
             "units are disbanded and nothing is built (rule DD3)."),
    reminder=("Without orders your units hold, dislodged units are disbanded",
              "and nothing is built (rule DD3). Send HELP for how to write orders."),
)


LAST_DEMO_YEAR = 1920  # the demo stops after this year when nobody has won


def _demo_over(position: Mapping[str, object]) -> bool:
    """Past the demo's last year (``S1921M`` is open)."""
    phase = str(position.get("phase") or "")
    return phase[1:5].isdigit() and int(phase[1:5]) > LAST_DEMO_YEAR


# The demo's seven computer powers (each mails its orders through the pipeline).
DEMO_PLAYERS = tuple(PlayerSpec(pid, (), name, power=power) for pid, name, power in (
    ("berchtold", "Graf Berchtold", "AUS"), ("grey", "Sir Edward", "ENG"),
    ("cambon", "Monsieur Cambon", "FRA"), ("bethmann", "Herr Bethmann", "GER"),
    ("giuliano", "Marchese Giuliano", "ITA"), ("sazonov", "Count Sazonov", "RUS"),
    ("halim", "Said Halim", "TUR")))


# One power's orders: its entry (``orders:`` the lines) with the typed orders.
PowerOrders = PlayerOrders[tuple[Order, ...]]


def _written(orders: Sequence[Order]) -> PowerOrders:
    """Typed orders with the entry of their canonical lines (``order_lines``: as a
    player mails them, ``parse_order`` reads them back)."""
    return PlayerOrders({"orders": order_lines(orders)}, tuple(orders))


class DiplomacyRuleset(Ruleset[Board, PowerOrders, Event]):
    """Standard Diplomacy (DD1-DD4), as the DATC adjudicates it."""

    name: ClassVar[str] = "diplomacy"
    title: ClassVar[str] = "Diplomacy"
    words: ClassVar[Words] = WORDS
    variant: ClassVar[Variant] = Variant.STANDARD
    player_keys: ClassVar[tuple[str, ...]] = ()
    # Orders are often provisional while the talks go on: an hour to change them.
    early_delay: ClassVar[timedelta] = timedelta(hours=1)

    # ------------------------------------------------------------ a new game

    def opening(self, players: Sequence[PlayerSpec], options: NewGameOptions, seed: int,
                position: Mapping[str, object] | None = None) -> Opening:
        """The engine's opening position of the variant (``options.variant``, by
        default the rules' own: DD4: Spring 1901; DD12: Winter 1900 builds), or
        the GM's ``position``, with the players' powers under ``players``."""
        del seed
        if position is None:
            spec = self.variant_spec(options.variant)
            out = position_to_dict(opening(spec))
            named = "" if spec.default else f", variant {spec.name} ({spec.title})"
            how = f"opening position of {self.name}{named} ({out['phase']})"
        else:
            out = dict(position)
            out.setdefault("ruleset", self.name)
            if out["ruleset"] != self.name:
                raise ValueError(f"the position is for {out['ruleset']}, the game is "
                                 f"{self.name}")
            how = f"position given by the game master ({out.get('phase', '?')})"
        playing = out.get("players")
        if not playing:
            playing = out["players"] = assign_powers(players, variant_in(out).powers)
        shown = playing.items() if isinstance(playing, Mapping) else ()
        powers = ", ".join(f"{pid} {pw}" for pid, pw in shown)
        return Opening(out, f"{how}; powers: {powers}")

    def variant_names(self) -> tuple[str, ...]:
        """The variant folders played with these rules (``docs/variants.md``)."""
        return tuple(n for n in variant_names() if load_variant(n).ruleset == self.name)

    def variant_spec(self, name: str | None) -> VariantSpec:
        """The variant ``name`` (None: the rules' own), which must be played
        with these rules; raises ValueError with the variants there are."""
        try:
            spec = load_variant(name or DEFAULT[self.variant])
        except VariantError as exc:
            raise ValueError(str(exc)) from None
        if spec.ruleset != self.name:
            raise ValueError(f"the variant {spec.name} is played with --ruleset {spec.ruleset}")
        return spec

    def variant_title(self, position: Mapping[str, object]) -> str:
        """The game as a list of games names it: ``Diplomacy``, ``Diplomacy:
        Chaos (variant chaos)``."""
        spec = variant_in({"ruleset": self.name, **position})
        return self.title if spec.default else f"{self.title}: {spec.title} (variant {spec.name})"

    def places(self, variant: str | None = None) -> list[tuple[str, str]]:
        """The powers of the variant (J2)."""
        spec = self.variant_spec(variant)
        return [(p, spec.power_names[p]) for p in spec.powers]

    def seat(self, player: PlayerSpec, place: str) -> PlayerSpec:
        return replace(player, power=place)

    def place_of(self, position: Mapping[str, object], player: str) -> str:
        players = position.get("players")
        return str(players.get(player, "")) if isinstance(players, Mapping) else ""

    def clock_kind(self, position: Mapping[str, object]) -> str:
        """Retreat and adjustment phases may have clocks of their own (J8)."""
        kind = str(position.get("phase", "S1901M"))[-1:].upper()
        return {"R": "retreats", "A": "adjustments"}.get(kind, "moves")

    def unplayed(self, position: Mapping[str, object]) -> list[str]:
        players = position.get("players")
        played = {str(p).upper() for p in players.values()} if isinstance(players, Mapping) \
            else set()
        return [p for p in variant_in({"ruleset": self.name, **position}).powers
                if p not in played]

    def computer_player(self, side: str) -> PlayerSpec:
        """The computer playing a power: id ``fra``, name ``computer`` (the report
        reads ``France (FRA, computer)``)."""
        return PlayerSpec(side.lower(), (), "computer", computer=True, power=side)

    def unplayed_note(self, sides: Sequence[str]) -> str:
        they = "it is" if len(sides) == 1 else "they are"
        return (f"nobody plays {', '.join(sides)}: {they} in civil disorder for the whole "
                "game (DD3): units hold, dislodged units are disbanded, nothing is built, "
                "and the referee chooses the removals owed. No press reaches them and "
                "they have no vote; a draw is shared with them while they survive. "
                "new-game --computer-powers gives them to the computer instead")

    # ------------------------------------------------------------ positions

    def decode(self, data: Mapping[str, object]) -> Board:
        merged = dict(data)
        merged.setdefault("ruleset", self.name)
        players = data.get("players") or {}
        if not isinstance(players, Mapping):
            raise PositionError(("players",), "expected a mapping of player ids to powers")
        return Board(position_from_dict(merged), {str(k): str(v) for k, v in players.items()})

    def encode(self, state: Board) -> dict[str, object]:
        out = position_to_dict(state.position)
        if state.players:
            out["players"] = dict(state.players)
        return out

    def reads_positions_of(self, name: str) -> bool:
        return name in (DiplomacyRuleset.name, DirigibleRuleset.name)

    def turn_label(self, position: Mapping[str, object], turn: int) -> int | str:
        return str(position.get("phase") or turn)

    # ------------------------------------------------------------ orders

    def read_orders(self, state: Board, player: str, lines: Lines) -> PowerOrders:
        return _written(parse_body(lines, state.power_of(player), state.position))

    def order_line(self, state: Board, cleaned: str) -> bool:
        return order_line(cleaned, map_of(state.position))

    def decode_orders(self, state: Board, player: str,
                      entry: Mapping[str, object]) -> PowerOrders:
        """The entry's ``orders`` lines read and checked as a mail's (DD1, DD2).

        >>> rules = DiplomacyRuleset()
        >>> board = rules.decode(rules.opening([], NewGameOptions(), 0).position)
        >>> entry = {"orders": ["A Par - Bur", "F Bre - Mao", "A Mar H"]}
        >>> orders = rules.decode_orders(board, "FRA", entry)
        >>> [str(o) for o in orders.typed]
        ['A Par - Bur', 'F Bre - Mao', 'A Mar H']
        >>> rules.encode_orders(orders) == entry
        True

        An entry the game master wrote in other words is written back as it is:

        >>> by_hand = rules.decode_orders(board, "FRA", {"orders": ["a par-bur"]})
        >>> by_hand.typed == orders.typed[:1], rules.encode_orders(by_hand)
        (True, {'orders': ['a par-bur']})
        """
        typed = parse_body(list(enumerate(_lines(entry), 1)), state.power_of(player),
                           state.position)
        return PlayerOrders.of(entry, tuple(typed))

    def encode_orders(self, orders: PowerOrders) -> OrdersEntry:
        return orders.encoded()

    def example_orders(self, state: Board, player: str) -> PowerOrders | None:
        """Every unit holding in a movement phase; in a retreat or Winter phase
        the computer player's orders (the ones due, DD1). None: nothing to order."""
        pos = state.position
        power = state.power_of(player)
        orders: Sequence[Order]
        if pos.phase.kind == "M":
            orders = [Hold(power, u.kind, u.loc) for u in pos.units_of(power)]
        else:
            orders = choose_orders(pos, power, random.Random(0))
        return _written(orders) if orders else None

    def player_brief(self, state: Board, player: str) -> str:
        power = state.power_of(player)
        units = ", ".join(unit_text(u) for u in state.position.units_of(power))
        return (f"You play {state.spec.power_names[power]} ({power}); "
                f"your units: {units or 'none'}.")

    def computer_orders(self, state: Board, player: str,
                        rng: random.Random) -> PowerOrders | None:
        """The computer's orders for the player's power (``rules.diplomacy.bot``),
        with the lines a player would mail; None when the power has nothing to
        order in this phase (``needs_orders``)."""
        if not self.needs_orders(state, player):
            return None
        power = state.power_of(player)
        return _written(choose_orders(state.position, power, rng))

    def demo_game(self) -> DemoGame:
        """Seven computer powers from the opening to a winner or 1920."""
        return DemoGame(title=f"The {self.title} demonstration game", players=DEMO_PLAYERS,
                        players_noun="powers", turns=200, over=_demo_over,
                        length=f"to a winner or the end of {LAST_DEMO_YEAR}")

    def preview(self, state: Board, player: str, orders: PowerOrders | None) -> list[str]:
        """Each order in plain words, the units left without one, and warnings
        for orders that cannot do what they seem to want (DD2, DD2a, DD1, DD3)."""
        power = state.power_of(player)
        typed = list(orders.typed) if orders is not None else []
        return preview_lines(orders_plan(state.position, power, typed))

    def needs_orders(self, state: Board, player: str) -> bool:
        """Has this player anything to order in the open phase (DD1)? A power with
        no units in a movement phase, no dislodged unit in a retreat phase, or no
        build or removal due in a Winter phase is not waited for."""
        try:
            power = state.power_of(player)
        except UnknownPlayerError:
            return True  # unsure: wait for the player
        return orders_due(state.position, power)

    def year_of(self, position: Mapping[str, object]) -> int | None:
        """The game year of a position: its phase's (``S1901M``: 1901)."""
        try:
            return Phase.parse(str(position.get("phase") or "")).year
        except ValueError:
            return None

    # ------------------------------------------------------------ press and votes

    default_press: ClassVar[str] = "white"
    has_draws: ClassVar[bool] = True

    def aliases(self, position: Mapping[str, object], players: Sequence[str],
                salt: str) -> dict[str, Alias]:
        """An anonymous game calls each player by the power played: ``France``
        (``FRA``); one playing no power (none left to play) is ``Player 1`` ..."""
        playing = position.get("players")
        playing = playing if isinstance(playing, Mapping) else {}
        variant = variant_in({"ruleset": self.name, **position})
        out: dict[str, Alias] = {}
        for pid in players:
            power = str(playing.get(pid, "")).upper()
            if power in variant.powers:
                label = variant.power_names[power]
                out[pid] = Alias(power.lower(), label, (power, label.upper()))
        return {**out, **numbered([p for p in players if p not in out], salt, "Player")}

    def correspondents(self, state: Board, names: Mapping[str, str]) -> list[Correspondent]:
        """Press goes to powers, by code or name (``FRA``, ``France``)."""
        out = []
        names_of = state.spec.power_names
        for pid in names:
            power = str(state.players.get(pid, pid)).upper()
            if power in names_of:
                label = names_of[power]
                out.append(Correspondent(pid, label, (power, label.upper()), power))
        return out

    def vote_sides(self, state: Board, names: Mapping[str, str]) -> list[Correspondent]:
        """The surviving powers (a unit or a supply centre left), each with the
        player of ``names`` playing it ("" for none)."""
        pos = state.position
        playing = {c.side: c.player for c in self.correspondents(state, names)}
        label = state.spec.power_names
        return [Correspondent(playing.get(p, ""), label[p], (p, label[p].upper()), p)
                for p in pos.powers if pos.units_of(p) or pos.centers_of(p)]

    def settle_votes(self, position: Mapping[str, object], outcome: Outcome[Event],
                     votes: Votes) -> Outcome[Event]:
        """A concession or a draw, decided by the votes standing when the phase
        is adjudicated. The voters are the players of the powers surviving at
        its start: when every one of them but the player of power X concedes to
        X, X wins; when every one of them has a vote standing for the same draw
        (J13: a plain DRAW is the draw of every power that survives the phase,
        played or not; a named one, of the powers it names, each of which must
        survive it), the game ends in that draw. A draw that does not pass is
        reported only when the game's votes are open, with who votes for what;
        with secret votes nothing says one was proposed."""
        if outcome.game_over:
            return outcome
        sides = self.vote_sides(self.decode(position), {p: p for p in votes.voters})
        voting = {c.player: c.side for c in sides if c.player}
        if not voting:
            return outcome
        conceded = _concession(sides, voting, votes)
        if conceded is not None:
            return replace(outcome, game_over=True, winners=[str(conceded.power)],
                           events=(*outcome.events, conceded))
        survivors = frozenset(c.side for c in self.vote_sides(self.decode(outcome.position), {}))
        return _settle_draw(outcome, voting, votes, survivors)

    # ------------------------------------------------------------ events

    def encode_events(self, events: Sequence[Event],
                      position: Mapping[str, object]) -> list[dict[str, object]]:
        """Each event as it writes itself (``Event.to_dict``); its provinces are
        named alike on every board."""
        del position
        return [e.to_dict() for e in events]

    def decode_events(self, data: Sequence[Mapping[str, object]],
                      position: Mapping[str, object]) -> tuple[Event, ...]:
        del position
        return tuple(Event.from_dict(e) for e in data)

    # ------------------------------------------------------------ adjudication

    def adjudicate(self, position: Mapping[str, object], orders: Mapping[str, PowerOrders],
                   seed: int, replay: Replay | None = None, *,
                   state: Board | None = None) -> Outcome[Event]:
        """One phase; Diplomacy rolls no dice (``seed`` and ``replay`` are unused)."""
        del seed, replay
        board = self.decode(position) if state is None else state
        typed = [order for o in orders.values() for order in o.typed]
        adj = adjudicate_full(board.position, typed)
        new = position_to_dict(adj.state)
        if "players" in position:
            new["players"] = position["players"]
        winner = adj.state.winner
        return Outcome(position=new, events=tuple(adj.events),
                       game_over=winner is not None, winners=[winner] if winner else [])

    # ------------------------------------------------------------ reports

    def centre_chart(self, positions: Sequence[Mapping[str, object]]
                     ) -> list[tuple[str, dict[str, int]]]:
        """The supply centres each power held at the start and at the end of
        each year played (J14), the powers of the variant as columns."""
        if not positions:
            return []
        powers = list(variant_in({"ruleset": self.name, **positions[0]}).powers)

        def held(position: Mapping[str, object]) -> dict[str, int]:
            centres = mapping(position.get("centers"), ("centers",))
            return {p: len(owned) if isinstance(owned := centres.get(p), list | tuple) else 0
                    for p in powers}

        chart: dict[str, dict[str, int]] = {"start": held(positions[0])}
        for before, after in zip(positions, positions[1:], strict=False):
            year = str(before.get("phase", "S1901M"))[1:5]
            chart[year] = held(after)
        return list(chart.items())

    def ending(self, report: TurnReport[Event]) -> str:
        """A victory, a draw or a concession (DD4, DD14, J13)."""
        return ending_sentence(report) or super().ending(report)

    def render_report(self, report: TurnReport[Event]) -> str:
        return render_diplomacy_report(report)

    def report_document(self, report: TurnReport[Event], readers: Sequence[str] = ()) -> Document:
        """Each player's copy opens with the block of the power they play
        (``pbmref.rulesets.diplomacy.reader``); an observer's has none."""
        return diplomacy_document(report, readers)

    def render_pictures(self, report: TurnReport[Event]) -> list[Picture]:
        """Two pictures of a phase: its orders (with their results) on the
        position they were given on, and the board after it."""
        phase = self.report_label(report)
        before = self.decode(report.position_before)
        events = report.events
        given = None if any(e.kind == "order" for e in events) \
            else _orders_by_power(report, before)
        orders = render_board(before.position, events, given, mode="orders")
        return [Picture(orders, f"{phase}: the orders and what became of them", "orders"),
                Picture(self._after(report, events), f"The board after {phase}", "after")]

    def render_map_svg(self, report: TurnReport[Event]) -> str | None:
        return self._after(report, report.events)

    def reader_focus(self, report: TurnReport[Event], readers: Sequence[str]) -> Focus | None:
        """The board after the phase around the reader's power (the second of
        ``render_pictures``)."""
        after = self.decode(report.position_after)
        players = self.decode(report.position_before).players
        powers = [players[r] for r in readers if r in players]
        return power_focus(after.position, powers[0], 1) if powers else None

    def _after(self, report: TurnReport[Event], events: Sequence[Event]) -> str:
        return render_board(self.decode(report.position_after).position, events, mode="after")

    def render_position_svg(self, position: Mapping[str, object],
                            names: Mapping[str, str]) -> str | None:
        """The board as it stands (the MAP reply's picture, the archive's 'now')."""
        del names
        return render_board(self.decode(position).position, mode="after")

    def map_reply(self, position: Mapping[str, object], names: Mapping[str, str],
                  title: str) -> str:
        return render_position_text(position, names, title)

    def report_label(self, report: TurnReport[Event]) -> str:
        return str(report.position_before.get("phase") or self.words.turn(report.turn))

    def file_label(self, report: TurnReport[Event]) -> str:
        return str(report.position_before.get("phase") or f"turn-{report.turn:03d}")

    # ------------------------------------------------------------ scenarios

    def play_scenario(self, data: Mapping[str, object], expect: Any) -> ScenarioResult:
        """One phase of a scenario. A line that cannot be read is an error of the
        file; a readable order the rules do not allow is adjudicated as not given
        (DD2): the unit holds, the order fails, and the reason is in the events."""
        if not isinstance(data, Mapping):
            raise ScenarioError("a scenario is a mapping of keys (ruleset, phase, units, "
                                "orders ...)")
        try:
            pos = position_from_dict({"ruleset": self.name, **data})
        except PositionError as exc:
            raise ScenarioError.of_position(exc) from None
        adj = adjudicate_full(pos, _scenario_orders(data, pos))
        result = position_to_dict(adj.state)
        result["dislodged"] = dislodged = _dislodged_entries(adj)
        result["results"] = results = {order_key(r.order): r.outcome.value for r in adj.results}
        if pos.variant is Variant.DIRIGIBLE:
            basis = pos if pos.phase.kind == "A" else adj.state
            result["supply_points"] = {p: supply_points(basis, p) for p in basis.powers}
            result["upkeep_balance"] = {p: balance(basis, p) for p in basis.powers}
        events = [e.to_dict() for e in adj.events]
        result["events"] = events
        differences: list[str] = []
        if expect is not None:
            if not isinstance(expect, Mapping):
                raise ScenarioError("expected a mapping of results", path=("expect",))
            actual = dict(result)
            actual["results"] = {" ".join(k.split()).lower(): v
                                 for k, v in results.items()}
            del actual["dislodged"]
            wanted = _normalise_expect(expect)
            differences = _dislodged_differences(wanted.pop("dislodged", None), dislodged)
            differences += _compare(wanted, actual, "")
        return ScenarioResult(result, differences)


class DirigibleRuleset(DiplomacyRuleset):
    """Dirigible Diplomacy: airship fleets, supply points, devastation (DD5-DD14)."""

    name: ClassVar[str] = "dirigible"
    title: ClassVar[str] = "Dirigible Diplomacy"
    variant: ClassVar[Variant] = Variant.DIRIGIBLE
    words: ClassVar[Words] = replace(WORDS, help=HELP_DIRIGIBLE)


def _concession(sides: Sequence[Correspondent], voting: Mapping[str, str],
                votes: Votes) -> Event | None:
    """The concession event when every voter but one side's concedes to it."""
    for side in sides:
        others = [p for p, s in voting.items() if s != side.side]
        if others and all(votes.concede.get(p) == side.side for p in others):
            return Event("conceded", power=side.side,
                         powers=tuple(sorted(voting[p] for p in others)))
    return None


def _settle_draw(outcome: Outcome[Event], voting: Mapping[str, str], votes: Votes,
                 survivors: frozenset[str]) -> Outcome[Event]:
    """J13: a draw every voter stands for, of two or more surviving powers, ends
    the game; one that does not pass is told only when the votes are open."""
    wanted = {p: votes.draw_of(p, survivors) for p in voting}
    draws = {w for w in wanted.values() if w is not None}
    if len(draws) == 1 and None not in wanted.values():
        shared = next(iter(draws))
        if len(shared) >= 2 and shared <= survivors:
            event = Event("draw", outcome="passed", powers=tuple(sorted(shared)))
            return replace(outcome, game_over=True, winners=sorted(shared),
                           events=(*outcome.events, event))
    if draws and not votes.secret:
        standing = {voting[p]: tuple(sorted(w)) for p, w in wanted.items() if w is not None}
        failed = Event("draw", outcome="failed", votes=tuple(sorted(standing.items())))
        return replace(outcome, events=(*outcome.events, failed))
    return outcome
