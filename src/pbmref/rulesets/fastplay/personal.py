"""What one reader of a Fast Play report needs first, from the turn's events.

``pilot_section(report, pilot)`` opens a pilot's copy: where the plane is and
heads, hits taken of six, cards lost, what it hit and who hit it with the
dice, victories and the way to ace, whether the plane may (or must) leave and
when it returns, an NMR warning, and the next deadline. Sentences only, for
a phone's proportional font. ``glance_section(report)`` is the summary for
observers and the teacher. ``pilot_facts`` and ``changed_line`` say what a
correction changed for a reader. Nothing here recomputes a rule.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from pbmref.reports.common import and_list, count_word, format_deadline
from pbmref.reports.document import Block, Para, Section
from pbmref.reports.model import TurnReport
from pbmref.rulesets.air.names import changes_line
from pbmref.rulesets.fastplay.common import (
    DECK_SIZE,
    cards_left,
    fastplay_letters,
    fastplay_planes,
    setting,
)

__all__ = ["changed_line", "glance_section", "pilot_facts", "pilot_section"]

Event = dict[str, Any]

OUT = {"left": ("flew off the board (FP13)", "; it returns next turn (FP14)"),
       "down": ("was shot down but landed safely (FP9)", "; it returns next turn (FP14)"),
       "out": ("was shot down and the pilot put out of action (FP9)",
               "; a new pilot returns next turn (FP14)"),
       "removed": ("was removed from the game", "")}


def _of(events: Sequence[Event], kind: str, **match: Any) -> list[Event]:
    return [e for e in events if e.get("kind") == kind
            and all(str(e.get(k)) == str(v) for k, v in match.items())]


def _title(ace: Event) -> str:
    return "a double ace" if ace.get("title") == "double ace" else "an ace"


class _Names:
    def __init__(self, report: TurnReport) -> None:
        self.names = report.names
        self.letters = fastplay_letters(report.position_before, report.position_after)

    def __call__(self, who: Any) -> str:
        return self.names.get(str(who)) or str(who)


def _next_turn(report: TurnReport, name: _Names) -> str:
    if report.game_over:
        return f"The game is over. Won by {and_list(report.winners) or 'nobody'} (FP19)."
    next_turn = report.position_after.get("turn", report.turn + 1)
    return (f"Orders for turn {next_turn} by "
            f"{format_deadline(report.next_deadline, report.timezone)}.")


def _where(report: TurnReport, a: Mapping[str, Any], pilot: str, name: _Names) -> str:
    if a.get("state") == "flying":
        return (f"Your plane ({name.letters.get(pilot, '?')}, {a.get('team')}) is at "
                f"{a.get('hex')}, heading {a.get('heading')}.")
    gone, back = OUT.get(str(a.get("state")), (str(a.get("state")), ""))
    return f"Your plane {gone}{'' if report.game_over else back}."


def _damage(report: TurnReport, pilot: str, a: Mapping[str, Any]) -> str:
    down = setting(report.position_after, "hits_to_down", 6)
    taken = sum(int(e.get("amount", 0)) for e in _of(report.events, "damage", target=pilot))
    hits = int(a.get("hits", 0))
    text = f"Hits taken: {hits} of {down}" if hits < down else \
        f"Hits taken: {hits}, shot down at {down}"
    text += f" ({taken} this turn)." if taken else "."
    lost = [str(e.get("card")) for e in _of(report.events, "card_lost", pilot=pilot)]
    if lost:
        text += f" Cards lost: {', '.join(lost)} ({cards_left(a)} of {DECK_SIZE} left, FP6)."
    return text


def _rolls(e: Event) -> str:
    rolls = " ".join(str(r) for r in e.get("rolls") or []) or "-"
    return f"{count_word(int(e.get('dice', 0)), 'die', 'dice')} rolled {rolls}"


def _shots(report: TurnReport, pilot: str, name: _Names, mine: bool) -> str:
    """The pilot's shots (``mine``) or the shots at the pilot, with their dice."""
    shots = _of(report.events, "fire", **({"shooter": pilot} if mine else {"target": pilot}))
    if not shots:
        return "You did not fire." if mine else "Nobody fired at you."
    other = "target" if mine else "shooter"
    parts = [f"{name(e.get(other))} in move {e.get('move')} ({_rolls(e)}: "
             f"{count_word(int(e.get('hits', 0)), 'hit')})" for e in shots]
    return f"{'You fired at' if mine else 'Fired on by'} {'; '.join(parts)}."


def _fire(report: TurnReport, pilot: str, name: _Names) -> list[str]:
    return [_shots(report, pilot, name, True), _shots(report, pilot, name, False)]


def _victories(report: TurnReport, pilot: str, a: Mapping[str, Any], name: _Names) -> list[str]:
    out = [f"Victory over {name(e.get('target'))} (FP10)."
           for e in _of(report.events, "victory", pilot=pilot)]
    ace = setting(report.position_after, "ace_victories", 5)
    kills = int(a.get("kills", 0))
    promoted = _of(report.events, "ace", pilot=pilot)
    if promoted:
        out.append(f"You are {_title(promoted[0])} now, with {kills} victories (FP11).")
    elif a.get("ace"):
        out.append(f"Victories: {kills}; you are an ace (FP11).")
    else:
        out.append(f"Victories: {kills} of the {ace} that make an ace (FP11).")
    return out


def _leave(report: TurnReport, a: Mapping[str, Any]) -> str | None:
    if a.get("state") != "flying":
        return "Next turn: write ENTER <hex> <heading> to choose where you come back (FP14)." \
            if a.get("state") in ("left", "down", "out") and not report.game_over else None
    if a.get("withdrawing"):
        return "You won your duel: fly off the board before you fight again (FP15)."
    if int(a.get("hits", 0)) >= setting(report.position_after, "leave_hits", 4):
        return "With this damage you may fly off the board to come back whole (FP13)."
    return None


def _nmr(report: TurnReport, pilot: str) -> str | None:
    missed = _of(report.events, "nmr", pilot=pilot)
    if not missed:
        return None
    if _of(report.events, "removed", pilot=pilot):
        return (f"No orders came from you again. That is {missed[0].get('count', 1)} in a "
                "row: you are out of the game (FP17).")
    limit = setting(report.position_after, "nmr_limit", 3)
    return (f"WARNING: no orders came from you, so the referee flew your plane (FP17). "
            f"That is {missed[0].get('count', 1)} in a row; at {limit} you are removed.")


def pilot_section(report: TurnReport, pilot: str) -> Section:
    """The personal block of ``pilot``'s copy of a Fast Play report."""
    name = _Names(report)
    a = fastplay_planes(report.position_after).get(pilot)
    if a is None:
        return Section(f"FOR {name(pilot).upper()}", [Para("You have no plane in this game.")],
                       "personal")
    before = fastplay_planes(report.position_before).get(pilot) or {}
    flew = before.get("state") == "flying" or bool(_of(report.events, "entered", pilot=pilot))
    texts = [_where(report, a, pilot, name),
             *([_damage(report, pilot, a), *_fire(report, pilot, name)] if flew else []),
             *_victories(report, pilot, a, name), _leave(report, a), _nmr(report, pilot),
             _next_turn(report, name)]
    blocks: list[Block] = [Para(t, 2, 2, strong=t.startswith(("WARNING", "Victory over",
                                                              "You are")))
                           for t in texts if t]
    return Section(f"FOR {name(pilot).upper()} ({name.letters.get(pilot, '?')})", blocks,
                   "personal")


def _news(report: TurnReport, name: _Names) -> list[str]:
    out = []
    for e in report.events:
        kind = e.get("kind")
        if kind == "shot_down":
            by = e.get("credited_to")
            out.append(f"{name(e.get('target'))} was shot down"
                       + (f": a victory for {name(by)}." if by else "."))
        elif kind == "manoeuvre" and e.get("outcome") == "left":
            out.append(f"{name(e.get('pilot'))} flew off the board (FP13).")
        elif kind == "entered":
            out.append(f"{name(e.get('pilot'))} came back at {e.get('hex')} (FP14).")
        elif kind == "ace":
            out.append(f"{name(e.get('pilot'))} became {_title(e)}.")
        elif kind == "nmr":
            out.append(f"{name(e.get('pilot'))} sent no orders.")
        elif kind == "removed":
            out.append(f"{name(e.get('pilot'))} was removed from the game.")
    return out


def glance_section(report: TurnReport) -> Section:
    """The summary observers and the teacher read first."""
    name = _Names(report)
    fire = _of(report.events, "fire")
    hits = sum(int(e.get("hits", 0)) for e in fire)
    texts = [f"{count_word(len(fire), 'shot')} fired, {count_word(hits, 'hit')}."
             if fire else "No one fired this turn."]
    scored = [f"{name(e.get('shooter'))} on {name(e.get('target'))} {e.get('hits')} "
              f"(move {e.get('move')})" for e in fire if int(e.get("hits", 0))]
    if scored:
        texts.append(f"Hits: {', '.join(scored)}.")
    texts += _news(report, name)
    score = report.position_after.get("score") or {}
    texts.append(f"Score: Germans {score.get('Germans', 0)}, Allies {score.get('Allies', 0)} "
                 "(FP19).")
    texts.append(_next_turn(report, name))
    return Section(f"TURN {report.turn} AT A GLANCE", [Para(t, 2, 2) for t in texts],
                   "personal")


def pilot_facts(report: TurnReport, pilot: str) -> dict[str, str]:
    """What a pilot's turn came to, as words to compare two runs of it."""
    a = fastplay_planes(report.position_after).get(pilot)
    if a is None:
        return {}
    where = (f"{a.get('hex')} heading {a.get('heading')}" if a.get("state") == "flying"
             else str(a.get("state")))
    return {"position": where, "hits": str(a.get("hits", 0)), "victories": str(a.get("kills", 0)),
            "cards": str(cards_left(a))}


def changed_line(before: TurnReport, after: TurnReport, readers: Sequence[str]) -> str:
    """One line: what the corrected turn changed for these readers."""
    pilots = list(fastplay_planes(after.position_after))
    return changes_line({p: pilot_facts(before, p) for p in pilots},
                        {p: pilot_facts(after, p) for p in pilots}, readers, _Names(after),
                        "plane")
