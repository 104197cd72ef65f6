"""The Fast Play orders preview in words: the path and notes an acceptance shows.

``preview_lines(plan)`` words a ``FlightPlan`` of ``pbmref.rules.fastplay.plan``
for a phone (``pbmref.reports.plan`` holds the wording every game kind shares).
"""

from __future__ import annotations

from pbmref.reports.plan import HEADER, either, hex_list, item
from pbmref.rules.fastplay import plan as fp

__all__ = ["preview_lines"]

def preview_lines(plan: fp.FlightPlan) -> list[str]:
    """The preview of one pilot's orders as text lines (each at most WIDTH columns)."""
    name = plan.board.name
    if plan.game_over:
        return ["The game is over: there is no turn to fly."]
    if not plan.steps and plan.entry is None:
        return ["You were removed from the game for missed orders (FP17)."]
    out = [HEADER]
    if plan.entry is not None:
        hex_, heading = plan.entry
        by = " (the referee's choice, FP14)" if plan.entry_chosen == "referee" else ""
        out += item(f"Enters at {name(hex_)}, heading {heading}{by}")
    if plan.burning:
        out += item("Burning (FP12): the die at the start of the turn may cost you a "
                     "card or a damage point first.")
    for step in plan.steps:
        out += item(_fp_step(plan, step))
    if plan.duel is not None:
        out += item(f"DUEL {plan.duel}: the duel begins only if {plan.duel} names you "
                     "too (FP15).")
    for note in plan.notes:
        stay = (f" To stay on, play {either(note.choices)} in move {note.move}."
                if note.choices else "")
        out += item(f"Note ({note.rule}): move {note.move} ({note.card}) flies you off "
                     f"the board from {name(note.hex)}; you come back next turn (FP14)."
                     + stay)
    return out


def _fp_step(plan: fp.FlightPlan, step: fp.CardStep) -> str:
    name = plan.board.name
    n = step.move
    card = f"{step.card} (no card given, FP17)" if step.chosen else step.card
    if not step.card:
        return f"Move {n}: no card keeps you on the board: stays in {name(step.from_hex)}"
    if step.outcome == "left" or step.to_hex is None:
        return f"Move {n}: {card} from {name(step.from_hex)} off the board"
    if step.to_hex == step.from_hex:
        text = f"Move {n}: {card}, stays in {name(step.to_hex)}, heading {step.heading}"
    else:
        text = (f"Move {n}: {card} from {name(step.from_hex)} to {name(step.to_hex)}, "
                f"heading {step.heading}")
    if step.reason and not step.chosen:
        text += f" ({step.reason})"
    if step.held == "f-0":
        return text + "; holds fire (f-0)"
    if step.held:
        return text + f"; holds fire ({step.held})"
    if not step.fire:
        return text + "; no hex ahead to fire at"
    return text + f"; fires along {hex_list(name, step.fire)}"


