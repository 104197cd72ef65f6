"""What a Fast Play order may say, checked against the position (FP4-FP6,
FP7, FP12, FP13-FP15, FP17). The order reader and the engine share these checks.

Each problem names the rule, the part of the orders it is about (``move``
1-3, or 0 for ENTER/DUEL/the whole) and plain words.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from pbmref.rules.fastplay.cards import DECK_COUNTS, DEFAULT_CARDS, FULL_DECK, Card, fly
from pbmref.rules.fastplay.orders import CardPlay, Entry, PlaneOrders
from pbmref.rules.fastplay.state import GameState, Plane, PlaneState, Team
from pbmref.rules.hexgrid import Heading, Hex

__all__ = [
    "Problem", "check_plane_orders", "default_card", "default_entry", "entering",
    "may_leave", "nearest_enemy", "turn_deck",
]


@dataclass(frozen=True, slots=True)
class Problem:
    rule: str
    message: str
    part: str  # "move", "enter", "duel", "burn", "orders"
    move: int = 0


def nearest_enemy(state: GameState, team: Team, hex_: Hex) -> int | None:
    """Distance from ``hex_`` to the nearest enemy plane on the board (None: no enemy)."""
    ds = [hex_.distance(p.hex) for p in state.enemies_on_board(team) if p.hex is not None]
    return min(ds) if ds else None


def default_entry(state: GameState, plane: Plane) -> tuple[Hex, Heading, int]:
    """FP14: the hex of the plane's own edge farthest from the nearest enemy
    (ties: the westmost), facing the enemy edge; with the distance (0: no enemy)."""
    best: tuple[Hex, int] | None = None
    for hex_ in state.board.edge_row(plane.team.north):
        d = nearest_enemy(state, plane.team, hex_)
        dist = d if d is not None else 0
        if best is None or (d is not None and dist > best[1]):
            best = (hex_, dist)
    assert best is not None
    return best[0], plane.team.facing, best[1]


def entering(state: GameState, plane: Plane) -> bool:
    """FP15: a plane enters the board this turn when it returns (FP14), and
    (**ruling**) every plane counts as entering in the game's first turn."""
    return plane.state.returning or state.turn == 1


def turn_deck(plane: Plane) -> tuple[Card, ...]:
    """The cards the plane may play this turn: a returning plane is new (FP6)."""
    return FULL_DECK if plane.state.returning else plane.deck


def may_leave(state: GameState, plane: Plane) -> bool:
    """FP13 (and FP15 for a duel winner): may this plane fly off the board?"""
    if plane.state.returning:
        return False  # it returns undamaged
    return plane.withdrawing or plane.hits >= state.settings.leave_hits


def default_card(
    state: GameState, deck_left: Counter[Card], hex_: Hex, heading: Heading
) -> Card | None:
    """FP17: the first of A, L, R, ST still in the deck that keeps the plane on
    the board; **ruling**: failing those, the first card of the deck that does;
    None when no card keeps it on the board."""
    board = state.board
    cards = list(DEFAULT_CARDS) + [c for c in Card if c not in DEFAULT_CARDS]
    for card in cards:
        if deck_left[card] <= 0:
            continue
        path, _ = fly(card, hex_, heading)
        if all(board.contains(h) for h in path):
            return card
    return None


def check_plane_orders(state: GameState, pilot: str, orders: PlaneOrders) -> list[Problem]:
    """Every rule the orders break, in order; an empty list when they are fine."""
    problems: list[Problem] = []
    try:
        plane = state.plane(pilot)
    except KeyError:
        return [Problem("FP1", f"{pilot!r} has no plane in this game", "orders")]
    if plane.state is PlaneState.REMOVED:
        return [Problem("FP17", f"{pilot} was removed from the game for missed orders; "
                                "no more orders are taken", "orders")]

    start: tuple[Hex, Heading] | None = None
    if plane.on_board and plane.hex is not None:
        start = (plane.hex, plane.heading)
    if orders.enter is not None:
        problems.extend(_check_entry(state, plane, orders.enter))
        if plane.state.returning:
            start = (orders.enter.hex, orders.enter.heading)
    elif plane.state.returning:
        hex_, heading, _ = default_entry(state, plane)
        start = (hex_, heading)

    if orders.duel is not None:
        problems.extend(_check_duel(state, plane, orders.duel))

    if orders.burn is not None and not (plane.on_board and plane.burning):
        problems.append(Problem(
            "FP12", f"{orders.burn.format()} is only for a plane on fire; {pilot}'s plane "
                    "is not burning", "burn"))

    deck = Counter(turn_deck(plane))
    problems.extend(_check_cards(orders, deck))
    # FP13: the path must stay on the board unless the plane may leave.
    if start is not None and not may_leave(state, plane):
        problems.extend(_check_path(state, plane, orders, deck, start))
    return problems


def _check_cards(orders: PlaneOrders, deck: Counter[Card]) -> list[Problem]:
    """FP4 / FP6: no card played more often than the deck holds it, nor more
    often than the plane's deck still holds it."""
    problems: list[Problem] = []
    played: Counter[Card] = Counter()
    for n, play in enumerate(orders.moves, 1):
        if play is None:
            continue
        played[play.card] += 1
        if played[play.card] > DECK_COUNTS[play.card]:
            times = DECK_COUNTS[play.card]
            problems.append(Problem(
                "FP4", f"{play.card} is played more often than the deck holds it: the deck "
                       f"has {_times(times)} {play.card} card{'s' if times > 1 else ''}",
                "move", n))
        elif played[play.card] > deck[play.card]:
            have = deck[play.card]
            problems.append(Problem(
                "FP6", f"{play.card} is no longer in your deck: it was lost to damage"
                if have == 0 else
                f"{play.card} is played more often than your deck still holds it "
                f"({_times(have)}; the others were lost to damage)", "move", n))
    return problems


def _check_path(state: GameState, plane: Plane, orders: PlaneOrders, deck: Counter[Card],
                start: tuple[Hex, Heading]) -> list[Problem]:
    """FP13: the three moves flown from ``start`` (a move not given: its default
    card, FP17) must stay on the board; the first given move leaving it is refused."""
    board = state.board
    hex_, heading = start
    left = deck - Counter()
    for n in range(1, 4):
        given: CardPlay | None = orders.move(n)
        card = given.card if given is not None else default_card(state, left, hex_, heading)
        if card is None:
            break
        left[card] -= 1
        path, after = fly(card, hex_, heading)
        if not all(board.contains(h) for h in path):
            if given is not None:
                return [Problem(
                    "FP13", f"move {n} ({card}) takes the plane off the board from "
                            f"{board.name(hex_)} heading {heading}; only a plane with "
                            f"{state.settings.leave_hits} or more damage points may leave "
                            f"(it has {0 if plane.state.returning else plane.hits})",
                    "move", n)]
            break
        heading = after
        if path:
            hex_ = path[-1]
    return []


def _times(n: int) -> str:
    return {1: "one", 2: "two", 3: "three"}.get(n, str(n))


def _check_entry(state: GameState, plane: Plane, entry: Entry) -> list[Problem]:
    board = state.board
    if not plane.state.returning:
        return [Problem("FP14", "ENTER is only for a plane returning to the board; "
                                f"{plane.pilot}'s plane is already on it", "enter")]
    if not board.contains(entry.hex):
        return [Problem("FP14", f"{board.name(entry.hex)} is not on the board", "enter")]
    name = board.name(entry.hex)
    if not board.on_edge(entry.hex):
        return [Problem("FP14", f"{name} is not an edge hex: a plane enters on a hex of "
                                "the first or last file or the first or last number", "enter")]
    d = nearest_enemy(state, plane.team, entry.hex)
    need = state.settings.entry_distance
    if d is not None and d < need:
        return [Problem("FP14", f"{name} is {d} hex{'es' if d != 1 else ''} from the nearest "
                                f"enemy plane; an entry hex must be at least {need} away",
                        "enter")]
    return []


def _check_duel(state: GameState, plane: Plane, partner: str) -> list[Problem]:
    if not entering(state, plane):
        return [Problem("FP15", "DUEL is only for a pilot entering the board this turn",
                        "duel")]
    if partner == plane.pilot:
        return [Problem("FP15", "a pilot cannot duel with himself", "duel")]
    try:
        other = state.plane(partner)
    except KeyError:
        return [Problem("FP15", f"there is no pilot {partner!r} in this game", "duel")]
    if other.team is plane.team:
        return [Problem("FP15", f"{partner} flies on your own side; a duel is fought "
                                "against an enemy pilot", "duel")]
    if not entering(state, other):
        return [Problem("FP15", f"{partner} is not entering the board this turn; a duel "
                                "is fought by two pilots who enter in the same turn", "duel")]
    return []
