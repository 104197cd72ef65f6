"""The tweedekker air-combat rules and its zeppelin scenario, as a pure engine.

``adjudicate(state, orders, dice) -> (state, events)`` plays one turn;
``place_controlled_zeppelin(state, dice, length)`` sets up a new game's
controlled zeppelin (Z6). See ``engine`` for the rule-by-rule account.
"""

from pbmref.rules.tweedekker.engine import adjudicate, place_controlled_zeppelin

__all__ = ["adjudicate", "place_controlled_zeppelin"]
