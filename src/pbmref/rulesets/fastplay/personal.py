"""What one reader of a Fast Play report needs first, from the turn's events.

``pilot_section(turn, pilot)`` opens a pilot's copy: where the plane is and
heads, hits taken of six, cards lost, what it hit and who hit it with the
dice, victories and the way to ace, whether the plane may (or must) leave and
when it returns, an NMR warning, and the next deadline. Sentences only, for
a phone's proportional font. ``glance_section(turn)`` is the summary for
observers and the teacher. ``pilot_facts`` and ``changed_line`` say what a
correction changed for a reader. Everything is read from the turn's typed
positions and events (``turn.FastTurn``); nothing here recomputes a rule.
"""

from __future__ import annotations

from collections.abc import Sequence

from pbmref.reports.common import and_list, count_word, format_deadline
from pbmref.reports.document import Block, Para, Section
from pbmref.reports.model import TurnReport
from pbmref.rules.eventdata import Event
from pbmref.rules.fastplay import events as ev
from pbmref.rules.fastplay.position import position_from_dict
from pbmref.rules.fastplay.state import GameState, Plane
from pbmref.rulesets.air.names import changes_line
from pbmref.rulesets.fastplay.turn import DECK_SIZE, FastTurn

__all__ = ["changed_line", "glance_section", "pilot_facts", "pilot_section"]

OUT = {"left": ("flew off the board (FP13)", "; it returns next turn (FP14)"),
       "down": ("was shot down but landed safely (FP9)", "; it returns next turn (FP14)"),
       "out": ("was shot down and the pilot put out of action (FP9)",
               "; a new pilot returns next turn (FP14)"),
       "removed": ("was removed from the game", "")}


def _title(ace: ev.AcePromoted) -> str:
    return "a double ace" if ace.title == "double ace" else "an ace"


def _hex(turn: FastTurn, plane: Plane) -> str:
    return "None" if plane.hex is None else turn.board.name(plane.hex)


def _next_turn(turn: FastTurn) -> str:
    report = turn.report
    if report.game_over:
        return f"The game is over. Won by {and_list(report.winners) or 'nobody'} (FP19)."
    return (f"Orders for turn {turn.after.turn} by "
            f"{format_deadline(report.next_deadline, report.timezone)}.")


def _where(turn: FastTurn, a: Plane) -> str:
    state = a.state.value
    if state == "flying":
        return (f"Your plane ({turn.letters.get(a.pilot, '?')}, {a.team.value}) is at "
                f"{_hex(turn, a)}, heading {a.heading}.")
    gone, back = OUT.get(state, (state, ""))
    return f"Your plane {gone}{'' if turn.report.game_over else back}."


def _damage(turn: FastTurn, a: Plane) -> str:
    down = turn.after.settings.hits_to_down
    taken = sum(e.amount for e in turn.events_of(ev.Damaged) if e.target == a.pilot)
    hits = a.hits
    text = f"Hits taken: {hits} of {down}" if hits < down else \
        f"Hits taken: {hits}, shot down at {down}"
    text += f" ({taken} this turn)." if taken else "."
    lost = [e.card for e in turn.events_of(ev.CardLost) if e.pilot == a.pilot]
    if lost:
        text += f" Cards lost: {', '.join(lost)} ({len(a.deck)} of {DECK_SIZE} left, FP6)."
    return text


def _rolls(e: ev.Fired) -> str:
    rolls = " ".join(str(r) for r in e.rolls) or "-"
    return f"{count_word(e.dice, 'die', 'dice')} rolled {rolls}"


def _shots(turn: FastTurn, pilot: str, mine: bool) -> str:
    """The pilot's shots (``mine``) or the shots at the pilot, with their dice."""
    shots = [e for e in turn.events_of(ev.Fired)
             if (e.shooter if mine else e.target) == pilot]
    if not shots:
        return "You did not fire." if mine else "Nobody fired at you."
    parts = [f"{turn.name(e.target if mine else e.shooter)} in move {e.move} ({_rolls(e)}: "
             f"{count_word(e.hits, 'hit')})" for e in shots]
    return f"{'You fired at' if mine else 'Fired on by'} {'; '.join(parts)}."


def _victories(turn: FastTurn, a: Plane) -> list[str]:
    out = [f"Victory over {turn.name(e.target)} (FP10)."
           for e in turn.events_of(ev.Victory) if e.pilot == a.pilot]
    ace = turn.after.settings.ace_victories
    promoted = [e for e in turn.events_of(ev.AcePromoted) if e.pilot == a.pilot]
    if promoted:
        out.append(f"You are {_title(promoted[0])} now, with {a.kills} victories (FP11).")
    elif a.ace:
        out.append(f"Victories: {a.kills}; you are an ace (FP11).")
    else:
        out.append(f"Victories: {a.kills} of the {ace} that make an ace (FP11).")
    return out


def _leave(turn: FastTurn, a: Plane) -> str | None:
    state = a.state.value
    if state != "flying":
        return "Next turn: write ENTER <hex> <heading> to choose where you come back (FP14)." \
            if state in ("left", "down", "out") and not turn.report.game_over else None
    if a.withdrawing:
        return "You won your duel: fly off the board before you fight again (FP15)."
    if a.hits >= turn.after.settings.leave_hits:
        return "With this damage you may fly off the board to come back whole (FP13)."
    return None


def _nmr(turn: FastTurn, pilot: str) -> str | None:
    missed = [e for e in turn.events_of(ev.MissedOrders) if e.pilot == pilot]
    if not missed:
        return None
    if any(e.pilot == pilot for e in turn.events_of(ev.Removed)):
        return (f"No orders came from you again. That is {missed[0].count} in a "
                "row: you are out of the game (FP17).")
    limit = turn.after.settings.nmr_limit
    return (f"WARNING: no orders came from you, so the referee flew your plane (FP17). "
            f"That is {missed[0].count} in a row; at {limit} you are removed.")


def pilot_section(turn: FastTurn, pilot: str) -> Section:
    """The personal block of ``pilot``'s copy of a Fast Play report."""
    a = turn.plane(pilot)
    if a is None:
        return Section(f"FOR {turn.name(pilot).upper()}",
                       [Para("You have no plane in this game.")], "personal")
    before = turn.plane_before(pilot)
    flew = (before is not None and before.state.value == "flying") or any(
        e.pilot == pilot for e in turn.events_of(ev.Entered))
    texts = [_where(turn, a),
             *([_damage(turn, a), _shots(turn, pilot, True), _shots(turn, pilot, False)]
               if flew else []),
             *_victories(turn, a), _leave(turn, a), _nmr(turn, pilot), _next_turn(turn)]
    blocks: list[Block] = [Para(t, 2, 2, strong=t.startswith(("WARNING", "Victory over",
                                                              "You are")))
                           for t in texts if t]
    return Section(f"FOR {turn.name(pilot).upper()} ({turn.letters.get(pilot, '?')})", blocks,
                   "personal")


def _news(turn: FastTurn) -> list[str]:
    name = turn.name
    out = []
    for e in turn.events:
        if isinstance(e, ev.ShotDown):
            by = e.credited_to
            out.append(f"{name(e.target)} was shot down"
                       + (f": a victory for {name(by)}." if by else "."))
        elif isinstance(e, ev.Manoeuvred) and e.outcome == "left":
            out.append(f"{name(e.pilot)} flew off the board (FP13).")
        elif isinstance(e, ev.Entered):
            out.append(f"{name(e.pilot)} came back at {turn.board.name(e.hex)} (FP14).")
        elif isinstance(e, ev.AcePromoted):
            out.append(f"{name(e.pilot)} became {_title(e)}.")
        elif isinstance(e, ev.MissedOrders):
            out.append(f"{name(e.pilot)} sent no orders.")
        elif isinstance(e, ev.Removed):
            out.append(f"{name(e.pilot)} was removed from the game.")
    return out


def glance_section(turn: FastTurn) -> Section:
    """The summary observers and the teacher read first."""
    name = turn.name
    fire = list(turn.events_of(ev.Fired))
    hits = sum(e.hits for e in fire)
    texts = [f"{count_word(len(fire), 'shot')} fired, {count_word(hits, 'hit')}."
             if fire else "No one fired this turn."]
    scored = [f"{name(e.shooter)} on {name(e.target)} {e.hits} (move {e.move})"
              for e in fire if e.hits]
    if scored:
        texts.append(f"Hits: {', '.join(scored)}.")
    texts += _news(turn)
    score = {team.value: n for team, n in turn.after.score}
    texts.append(f"Score: Germans {score.get('Germans', 0)}, Allies {score.get('Allies', 0)} "
                 "(FP19).")
    texts.append(_next_turn(turn))
    return Section(f"TURN {turn.report.turn} AT A GLANCE", [Para(t, 2, 2) for t in texts],
                   "personal")


def pilot_facts(state: GameState, pilot: str) -> dict[str, str]:
    """What a pilot's turn came to (``state``: the position after it), as words
    to compare two runs of it."""
    a = next((p for p in state.planes if p.pilot == pilot), None)
    if a is None:
        return {}
    hex_ = "None" if a.hex is None else state.board.name(a.hex)
    where = (f"{hex_} heading {a.heading}" if a.state.value == "flying" else a.state.value)
    return {"position": where, "hits": str(a.hits), "victories": str(a.kills),
            "cards": str(len(a.deck))}


def changed_line(before: TurnReport[Event], after: TurnReport[Event], readers: Sequence[str]) -> str:
    """One line: what the corrected turn changed for these readers."""
    turn = FastTurn.of(after)
    was = position_from_dict(before.position_after)
    pilots = [p.pilot for p in turn.after.planes]
    return changes_line({p: pilot_facts(was, p) for p in pilots},
                        {p: pilot_facts(turn.after, p) for p in pilots}, readers, turn.name,
                        "plane")
