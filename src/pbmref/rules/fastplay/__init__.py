"""Fast Play: the classroom dice rules as a second air ruleset (``shared/rules/fastplay.md``).

A pure engine: ``adjudicate_turn(state, orders, dice) -> (state, events)``,
with the board (FP1), the deck (FP4-FP6), the position codec and the order
checks shared with the order reader.

Judgement calls made here, beyond the rulebook's own rulings:

- FP6/FP12: a card lost during a turn leaves the deck at once, but the three
  cards already chosen are still flown; the loss counts from the next orders.
- FP7: with several enemies in the nearest hex, a die with as many sides
  picks one, in the order of the pilots' names.
- FP8: dice = ``range`` - distance + 1 (5 ... 1), plus one for an ace, less
  one per gun hit (FP12), never below none.
- FP10: every pilot tied for most damage rolls; those tied at the top roll
  again. Damage from a fire (FP12) is nobody's: a plane brought down by its
  fire alone is no one's victory.
- FP11: no promotion for a pilot put out of action in the same turn; a double
  ace has twice ``ace_victories``.
- FP12: a random card is picked by a die with as many sides as cards left,
  in deck order (A L R LS RS AF ST STL STR I). An engine hit takes AF and I,
  then for each of them already gone one random card of the deck left. A gun
  hit counts from the next move. Fire, 5-6 (the rulebook's ruling: ``BURN
  CARD`` or ``BURN DAMAGE``, else the damage point): the card given up is a
  random one; with no card left, the damage point; the damage point may shoot
  the plane down, which is then no one's victory and returns next turn, not
  in the turn it came down. ``BURN`` is refused from a plane not on fire.
- FP13: after flying off, a plane's remaining cards are not flown.
- FP14: entry hexes are measured against the planes on the board at the start
  of the turn (planes entering together do not block each other); the
  heading is free; the referee's own-edge hex is used even when nearer than
  ``entry_distance``, if no own-edge hex is far enough.
- FP15: in a game's first turn every plane counts as entering; a duel is
  fought against an enemy pilot (named by player id); it also ends, without a
  winner, when one of the two flies off or is removed.
- FP17: when none of A, L, R, ST is left that keeps the plane on the board,
  the first card in deck order that does; if none does, the plane stays.
- FP19: a side's victories are those its pilots scored in this game (each
  plane's ``score``), also those of a pilot since put out of action; equal
  victories are a draw, and both sides are named as winners.
"""

from pbmref.rules.fastplay.board import FastBoard
from pbmref.rules.fastplay.cards import DECK_COUNTS, FULL_DECK, Card, fly
from pbmref.rules.fastplay.engine import GameOverError, adjudicate_turn
from pbmref.rules.fastplay.events import event_to_dict
from pbmref.rules.fastplay.legality import Problem, check_plane_orders
from pbmref.rules.fastplay.orders import Burn, CardPlay, Entry, PlaneOrders, TurnOrders
from pbmref.rules.fastplay.position import PositionError, position_from_dict, position_to_dict
from pbmref.rules.fastplay.state import GameState, Plane, PlaneState, Settings, Team

__all__ = [
    "DECK_COUNTS", "FULL_DECK", "Burn", "Card", "CardPlay", "Entry", "FastBoard", "GameOverError",
    "GameState", "Plane", "PlaneOrders", "PlaneState", "PositionError", "Problem", "Settings",
    "Team", "TurnOrders", "adjudicate_turn", "check_plane_orders", "event_to_dict", "fly",
    "position_from_dict", "position_to_dict",
]
