"""Fast Play order mails: what a pupil (or a computer pilot) would write.

The computer pilot itself is ``pbmref.rules.fastplay.autopilot`` (it picks
the cards from the position); here its orders entry becomes the text of an
order mail (``shared/spec/orders.md``: the envelope, then the ``PLANE``
section with one card a line, ``ENTER`` and ``DUEL`` for a returning plane,
FP14, FP15), for demos and for tests that play a class by mail.

>>> print(order_mail_body("7b-1", "swordfish", 2,
...                       {"plane": ["AF", "L f-0", ""], "enter": "C10 S"}), end="")
GAME 7b-1
PASSWORD swordfish
TURN 2
PLANE
1: AF
2: L f-0
ENTER C10 S
END
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from typing import Any

__all__ = ["order_mail_body", "pupil_mail"]


def order_mail_body(game_id: str, password: str, turn: int, entry: Mapping[str, Any],
                    extra: Iterable[str] = ()) -> str:
    """The order mail for a Fast Play orders entry; a move left empty is left
    out (the referee flies it, FP17)."""
    lines = [f"GAME {game_id}", f"PASSWORD {password}", f"TURN {turn}"]
    if "plane" in entry:
        lines.append("PLANE")
        lines += [f"{n}: {card}" for n, card in enumerate(entry["plane"] or [], 1)
                  if str(card).strip()]
    if entry.get("enter"):
        lines.append(f"ENTER {entry['enter']}")
    if entry.get("duel"):
        lines.append(f"DUEL {entry['duel']}")
    lines += list(extra)
    lines.append("END")
    return "\n".join(lines) + "\n"


def pupil_mail(position: Mapping[str, Any], game_id: str, password: str, pilot: str,
               rng: random.Random) -> tuple[dict[str, Any], str]:
    """The orders entry the Fast Play autopilot picks for ``pilot`` in the open
    turn of ``position``, and the mail that gives it."""
    from pbmref.rules.fastplay.autopilot import orders_entry
    from pbmref.rules.fastplay.position import position_from_dict

    state = position_from_dict(position)
    entry = orders_entry(state, pilot, rng)
    return entry, order_mail_body(game_id, password, state.turn, entry)
