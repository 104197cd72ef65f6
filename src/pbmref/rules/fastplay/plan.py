"""The flight plan of one pilot's Fast Play turn, as the acceptance shows it.

``preview(state, pilot, orders)`` takes the public position at the start of
the turn and this pilot's own orders, nothing else (no other pilot's orders
can reach it: the signature has none). It gives the hex and heading after
each card and each move's line of fire: the hexes straight ahead within
range (FP7; fire is automatic, so the line is shown unless the pilot holds
fire).

The path is the engine's own: the engine runs on a copy of the position
holding this plane alone. A returning plane without ``ENTER`` first gets the
referee's entry hex from the whole public position, as the real turn gives
it (FP14, measured against the enemy planes on the board). A burning plane's
start-of-turn die (FP12) is left out of the copy and the plan says so
(``burning``): the cards given are flown whatever it shows, but a card it
takes could change the card the referee plays for a move left without one
(FP17). With no enemy on the copy's board nothing is fired at, so no die is
rolled; a die asked for anyway is a bug and raises.

Flying off with ``leave_hits`` or more damage points (or as a duel winner,
FP15) is allowed and gets a plain note (FP13); with fewer it is an error of
the orders already, which this module does not repeat.

>>> from pbmref.rules.fastplay.position import position_from_dict
>>> from pbmref.rules.fastplay.orders import CardPlay
>>> state = position_from_dict({"aircraft": {"anna": {"team": "Germans", "hex": "E2",
...     "heading": "S", "hits": 4}}})
>>> plan = preview(state, "anna", PlaneOrders((CardPlay(Card.A), CardPlay(Card.A))))
>>> [(s.move, s.card, s.outcome) for s in plan.steps]
[(1, 'A', 'flew'), (2, 'A', 'left')]
>>> [state.board.name(h) for h in plan.steps[0].fire], plan.steps[1].fire
([], ())
>>> [(n.kind.value, n.rule, n.move, n.choices) for n in plan.notes]
[('leaves the board', 'FP13', 2, ('ST', 'STL', 'STR'))]
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace
from enum import StrEnum

from pbmref.rules.fastplay.board import FastBoard
from pbmref.rules.fastplay.cards import DEFAULT_CARDS, Card, fly
from pbmref.rules.fastplay.engine import adjudicate_turn
from pbmref.rules.fastplay.events import Entered, Event, HeldFire, Manoeuvred
from pbmref.rules.fastplay.legality import default_entry, may_leave, turn_deck
from pbmref.rules.fastplay.orders import Entry, PlaneOrders, TurnOrders
from pbmref.rules.fastplay.state import GameState, Plane, PlaneState
from pbmref.rules.hexgrid import Heading, Hex

__all__ = ["CardStep", "FlightPlan", "NoteKind", "PlanNote", "preview"]

MOVES = (1, 2, 3)  # FP3
# Cards offered to stay on the board: FP17's own preference first, then the deck.
_OFFER = DEFAULT_CARDS + tuple(c for c in Card if c not in DEFAULT_CARDS)


class NoteKind(StrEnum):
    LEAVES = "leaves the board"  # FP13, FP15: allowed, returns next turn (FP14)


@dataclass(frozen=True, slots=True)
class CardStep:
    """One move: the card, where it ends, and the line of fire after it.

    ``outcome`` is the engine's: ``flew``, ``stayed`` or ``left`` (``to_hex``
    None). ``chosen``: no card was given, the referee plays one (FP17).
    ``fire`` is the line straight ahead within range (FP7), empty when the
    plane holds fire (``held`` says why: ``f-0``, ``duel won (FP15)``) or has
    left.
    """

    move: int
    card: str
    outcome: str
    from_hex: Hex
    to_hex: Hex | None
    heading_before: Heading
    heading: Heading
    chosen: bool = False
    reason: str = ""
    fire: tuple[Hex, ...] = ()
    held: str = ""


@dataclass(frozen=True, slots=True)
class PlanNote:
    """Something the pilot may not mean, though allowed: ``choices`` are the
    cards still in hand for that move that keep the plane on the board."""

    kind: NoteKind
    rule: str
    move: int
    card: str
    hex: Hex
    heading: Heading
    choices: tuple[str, ...] = ()


@dataclass(frozen=True)
class FlightPlan:
    """Everything the acceptance shows of one pilot's turn.

    ``entry`` is where a returning plane comes on (FP14), with
    ``entry_chosen`` ``orders`` or ``referee``; ``steps`` one per move flown
    (none for a plane removed from the game).
    """

    pilot: str
    board: FastBoard
    state: PlaneState
    hits: int
    steps: tuple[CardStep, ...]
    entry: tuple[Hex, Heading] | None = None
    entry_chosen: str = ""
    duel: str | None = None
    burning: bool = False  # FP12: the start-of-turn die may cost a card first
    game_over: bool = False
    notes: tuple[PlanNote, ...] = ()


class _NoDice:
    """A lone plane rolls nothing (see the module); a roll is a bug."""

    def roll(self, purpose: str, who: str = "", sides: int = 6, *, move: int = 0) -> int:
        raise RuntimeError(f"a flight preview asked for a die ({purpose}, {who})")


def preview(state: GameState, pilot: str, orders: PlaneOrders | None) -> FlightPlan:
    """The flight plan of ``pilot``'s orders (None: no mail, FP17) from ``state``."""
    plane = state.plane(pilot)
    duel = orders.duel if orders is not None else None
    if state.game_over or plane.state is PlaneState.REMOVED:
        return FlightPlan(pilot, state.board, plane.state, plane.hits, (), duel=duel,
                          game_over=state.game_over)
    mine = orders or PlaneOrders()
    chosen = ""
    if plane.state.returning:
        chosen = "orders"
        if mine.enter is None:
            hex_, heading, _ = default_entry(state, plane)  # FP14, against the enemies
            mine = replace(mine, enter=Entry(hex_, heading))
            chosen = "referee"
    # The copy: this plane alone, its fire die and its duel partner left out
    # (neither changes the cards flown).
    alone = replace(state, planes=(replace(plane, burning=False, duel=None),),
                    game_over=False)
    _, events = adjudicate_turn(alone, TurnOrders(plane={pilot: mine}), _NoDice())
    entry = next(((e.hex, e.heading) for e in events
                  if isinstance(e, Entered) and e.pilot == pilot), None)
    steps = _steps(alone, pilot, events, entry[1] if entry else plane.heading)
    notes = _notes(state, plane, steps)
    return FlightPlan(pilot, state.board, plane.state, plane.hits, steps, entry, chosen,
                      duel, plane.burning and plane.on_board, notes=notes)


def _steps(state: GameState, pilot: str, events: Sequence[Event],
           heading: Heading) -> tuple[CardStep, ...]:
    board = state.board
    reach = state.settings.range
    out: list[CardStep] = []
    for move in MOVES:
        m = next((e for e in events if isinstance(e, Manoeuvred) and e.move == move
                  and e.pilot == pilot), None)
        if m is None:
            break
        held = next((e.reason for e in events if isinstance(e, HeldFire) and e.move == move
                     and e.pilot == pilot), "")
        fire: tuple[Hex, ...] = ()
        if m.to_hex is not None and not held:
            fire = board.line(m.to_hex, m.heading, reach)  # FP7
        out.append(CardStep(move, m.card, m.outcome, m.from_hex, m.to_hex, heading, m.heading,
                            m.reason.startswith("no card given"), m.reason, fire, held))
        heading = m.heading
    return tuple(out)


def _notes(state: GameState, plane: Plane, steps: Sequence[CardStep]) -> tuple[PlanNote, ...]:
    """FP13: a path off the board that the rules allow, with the cards that stay."""
    board = state.board
    left = Counter(turn_deck(plane))
    out: list[PlanNote] = []
    for step in steps:
        if step.outcome == "left" and may_leave(state, plane):
            choices = tuple(
                c.value for c in _OFFER if left[c] > 0 and c.value != step.card
                and all(board.contains(h) for h in fly(c, step.from_hex, step.heading_before)[0]))
            out.append(PlanNote(NoteKind.LEAVES, "FP13", step.move, step.card,
                                step.from_hex, step.heading_before, choices))
        if step.card:
            left[Card(step.card)] -= 1
    return tuple(out)
