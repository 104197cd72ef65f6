"""The rules: pure engines of every game kind, and what they share.

``tweedekker``, ``fastplay`` and ``diplomacy`` each adjudicate a turn as
``(state, orders, dice) -> (state, events)``: frozen dataclasses in, frozen
dataclasses and events (what happened, as data) out; no I/O, no clock,
every die drawn from a seeded ``Dice`` that records it (``dice``). Shared:
``hexgrid`` (hex geometry and names, B3), ``plaindata`` (checking positions
given as plain data, with the key path of a bad value), ``eventdata``
(events as plain data). Each engine has its position codec (``position``,
or ``diplomacy.codec``) and its computer player (``autopilot``).

The bottom of the house but for ``pbmref.config`` and ``pbmref.base``: it
imports neither of them nor anything above.
"""
