"""What one reader of a tweedekker report needs first, from the turn's events.

``pilot_section(report, pilot)`` is the block a pilot's copy opens with: where
the aircraft is and heads, damage points and rounds left, who hit it and for
how much, what it hit, kills and points, the zeppelin votes and what won, an
NMR warning and the next deadline. Written as sentences, so a phone's
proportional font shows it as well as a fixed one (no tables, no alignment).
``glance_section(report)`` is what observers and the game master get instead:
the turn in a few sentences and the standing. ``pilot_facts`` and
``changed_line`` say what a correction (``pbmref rerun``) changed for a
reader. Everything is read from the turn's typed positions and events
(``turn.Turn``); no rule is recomputed.
"""

from __future__ import annotations

from collections.abc import Sequence

from pbmref.reports.common import and_list, count_word
from pbmref.reports.document import Block, Para, Section
from pbmref.reports.model import TurnReport
from pbmref.rules.eventdata import Event
from pbmref.rules.tweedekker import events as ev
from pbmref.rules.tweedekker.position import position_from_dict
from pbmref.rules.tweedekker.state import GameState
from pbmref.rulesets.air.names import changes_line
from pbmref.rulesets.air.report import next_turn_line
from pbmref.rulesets.tweedekker.turn import Turn

__all__ = ["changed_line", "glance_section", "pilot_facts",
           "pilot_section"]

GONE = {"down": "was shot down", "left": "flew off the board: out of the fight (M4)",
        "removed": "was removed from the game (N2)"}
CAUSES = {"storm": "the storm (C2)", "bomb": "a bomb (Z15)",
          "explosion": "the zeppelin's explosion (Z12)"}


# ---------------------------------------------------------------- one pilot


def _where(turn: Turn, pilot: str) -> str:
    a = turn.plane(pilot)
    namer = turn.namer
    if a is None:
        return "You have no aircraft in this game."
    state = a.state.value
    if a.in_fight:
        how = {"landed": "landed", "taxiing": "taxiing for take-off"}.get(state, "flying")
        return (f"Your aircraft ({namer.letters.get(pilot, '?')}) is at "
                f"{turn.board.name(a.hex)}, heading {a.heading}, {how}.")
    if state == "down":
        down = [e for e in turn.events_of(ev.ShotDown) if e.target == pilot]
        by = down[0].credited_to if down else None
        if by:
            return f"Your aircraft was shot down this turn: a kill for {namer(by)} (V2)."
        if down:
            return f"Your aircraft was destroyed this turn by {down[0].reason}."
        return "Your aircraft is down: out of the fight."
    return f"Your aircraft {GONE.get(state, state)}."


def _condition(turn: Turn, pilot: str) -> str:
    after = turn.plane(pilot)
    full_dp, full_ammo = turn.after.settings.damage_points, turn.after.settings.ammo
    lost = sum(e.amount for e in turn.events_of(ev.Damaged) if e.target == pilot)
    repaired = sum(e.amount for e in turn.events_of(ev.Repaired) if e.pilot == pilot)
    changes = ([f"{lost} lost this turn"] if lost else []) + (
        [f"{repaired} repaired, L6"] if repaired else [])
    text = f"Damage points: {after.damage if after else full_dp} of {full_dp}"
    text += f" ({', '.join(changes)})" if changes else ""
    text += f". Rounds: {after.ammo if after else full_ammo} of {full_ammo}"
    bursts = sum(1 for e in turn.events_of(ev.Burst) if e.shooter == pilot)
    if any(e.pilot == pilot for e in turn.events_of(ev.Refilled)):
        text += " (refilled on landing, L5)"
    elif bursts:
        text += f" ({count_word(bursts, 'burst')} fired)"
    return text + "."


def _hit_by(turn: Turn, pilot: str) -> str:
    namer = turn.namer
    parts = [f"{namer(h.shooter)} for {h.damage} in move {h.move}"
             for h in turn.events_of(ev.Hit) if h.target == pilot]
    for d in turn.events_of(ev.Damaged):
        if d.target == pilot and d.cause != "gunfire":
            where = f" in move {d.move}" if d.move else ""
            parts.append(f"{CAUSES.get(d.cause, d.cause)} for {d.amount}{where}")
    return f"Hit by {and_list(parts)}." if parts else "Nothing hit you."


def _you_hit(turn: Turn, pilot: str) -> str:
    bursts = [b for b in turn.events_of(ev.Burst) if b.shooter == pilot]
    if not bursts:
        return "You did not fire."
    hits = [f"{turn.namer(h.target)} for {h.damage} in move {h.move}"
            for h in turn.events_of(ev.Hit) if h.shooter == pilot]
    missed = sum(1 for b in bursts if not b.targets)
    text = f"You hit {and_list(hits)}." if hits else "You hit nothing."
    if missed and hits:
        text += f" {count_word(missed, 'burst')} missed."
    elif missed:
        text = f"You hit nothing: {count_word(missed, 'burst')} missed."
    return text


def _score(turn: Turn, pilot: str) -> list[str]:
    out = []
    kills = [turn.namer(e.target) for e in turn.events_of(ev.ShotDown) if e.credited_to == pilot]
    if kills:
        out.append(f"Kill: {and_list(kills)} (V2).")
    gained = sum(e.points for e in turn.events_of(ev.PointsScored) if e.pilot == pilot)
    after = turn.plane(pilot)
    total = after.vp if after else 0
    out.append(f"Victory points: +{gained} this turn, {total} in all." if gained
               else f"Victory points: {total} (none this turn).")
    threshold = turn.after.settings.ace_threshold
    if any(e.pilot == pilot for e in turn.events_of(ev.AcePromoted)):
        out.append(f"You are an ACE now: {after.dealt if after else threshold} damage dealt "
                   "(V4).")
    elif not (after and after.ace):
        out.append(f"Ace: {after.dealt if after else 0} of {threshold} damage dealt (V4).")
    return out


def _votes(turn: Turn, pilot: str) -> str | None:
    by_move: dict[int, list[str]] = {}
    for e in turn.events_of(ev.VoteTally):
        mine = [c for p, c in e.votes if p == pilot]
        if mine:
            won = "a tie, none won" if e.tie else f"{e.winner} won"
            by_move.setdefault(e.move, []).append(f"{mine[0]} ({won})")
    if not by_move:
        return None
    parts = [f"move {m}: {' and '.join(v)}" for m, v in sorted(by_move.items())]
    return f"Your zeppelin votes (Z7): {'; '.join(parts)}."


def _nmr(turn: Turn, pilot: str) -> str | None:
    missed = [e for e in turn.events_of(ev.MissedOrders) if e.pilot == pilot]
    if not missed:
        return None
    count = missed[0].count
    if any(e.pilot == pilot for e in turn.events_of(ev.Removed)):
        return (f"No orders came from you again. That is {count} in a row: you are out of "
                "the game (N2).")
    limit = turn.after.settings.nmr_limit
    return (f"WARNING: no orders came from you, so your aircraft flew straight ahead "
            f"(N1). That is {count} in a row; at {limit} you are removed (N2).")


def pilot_section(turn: Turn, pilot: str) -> Section:
    """The personal block of ``pilot``'s copy of the report."""
    namer = turn.namer
    before = turn.plane_before(pilot)
    flew = before is not None and before.in_fight
    texts = [_where(turn, pilot),
             *([_condition(turn, pilot), _hit_by(turn, pilot),
                _you_hit(turn, pilot)] if flew else []),
             *_score(turn, pilot), _votes(turn, pilot), _nmr(turn, pilot),
             next_turn_line(turn.report, namer)]
    blocks: list[Block] = [Para(t, 2, 2, strong=t.startswith(("WARNING", "Kill", "You are an")))
                           for t in texts if t]
    return Section(f"FOR {namer(pilot).upper()} ({namer.letters.get(pilot, '?')})", blocks,
                   "personal")


# ---------------------------------------------------------------- everybody


def _fire_text(turn: Turn) -> list[str]:
    namer = turn.namer
    bursts = list(turn.events_of(ev.Burst))
    if not bursts:
        return ["No one fired this turn."]
    hit = sum(1 for b in bursts if b.targets)
    out = [f"{count_word(len(bursts), 'burst')} fired, {hit} hit."]
    hits = [f"{namer(h.shooter)} on {namer(h.target)} {h.damage} (move {h.move})"
            for h in turn.events_of(ev.Hit)]
    if hits:
        out.append(f"Hits: {', '.join(hits)}.")
    return out


def _news(turn: Turn) -> list[str]:
    namer = turn.namer
    out = []
    for e in turn.events:
        if isinstance(e, ev.ShotDown):
            by = e.credited_to
            out.append(f"{namer(e.target)} went down: "
                       + (f"a kill for {namer(by)}." if by else f"{e.reason}."))
        elif isinstance(e, ev.BombDropped) and e.outcome == "aircraft hit":
            out.append(f"Zeppelin {e.zeppelin} bombed airfield {e.airfield}, "
                       f"hitting {and_list(namer(t) for t in e.targets)}.")
        elif isinstance(e, ev.AcePromoted):
            out.append(f"{namer(e.pilot)} became an ace.")
        elif isinstance(e, ev.MissedOrders):
            out.append(f"{namer(e.pilot)} sent no orders "
                       f"({count_word(e.count, 'turn')} in a row).")
        elif isinstance(e, ev.Removed):
            out.append(f"{namer(e.pilot)} was removed from the game.")
    return out


def _standing(turn: Turn) -> str:
    namer = turn.namer
    ranked = sorted(turn.after.aircraft, key=lambda a: (-a.vp, namer(a.pilot)))
    return "Victory points: " + ", ".join(f"{namer(a.pilot)} {a.vp}" for a in ranked) + "."


def glance_section(turn: Turn) -> Section:
    """The summary observers and the game master read first."""
    texts = [*_fire_text(turn), *_news(turn), _standing(turn),
             next_turn_line(turn.report, turn.namer)]
    return Section(f"TURN {turn.report.turn} AT A GLANCE", [Para(t, 2, 2) for t in texts],
                   "personal")


# ---------------------------------------------------------------- corrections


def pilot_facts(state: GameState, pilot: str) -> dict[str, str]:
    """What a pilot's turn came to (``state``: the position after it), as words
    to compare two runs of it."""
    a = next((a for a in state.aircraft if a.pilot == pilot), None)
    if a is None:
        return {}
    where = (f"{state.board.name(a.hex)} heading {a.heading}" if a.in_fight
             else a.state.value)
    return {"position": where, "damage points": str(a.damage), "rounds": str(a.ammo),
            "victory points": str(a.vp), "kills": str(a.kills)}


def changed_line(before: TurnReport[Event], after: TurnReport[Event], readers: Sequence[str]) -> str:
    """One line: what the corrected turn changed for these readers (everyone's
    aircraft for an observer)."""
    turn = Turn.of(after)
    namer, was, now = turn.namer, position_from_dict(before.position_after), turn.after
    return changes_line({p: pilot_facts(was, p) for p in namer.pilots},
                        {p: pilot_facts(now, p) for p in namer.pilots}, readers, namer,
                        "aircraft")
