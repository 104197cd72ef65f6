"""What one reader of a tweedekker report needs first, from the turn's events.

``pilot_section(report, pilot)`` is the block a pilot's copy opens with: where
the aircraft is and heads, damage points and rounds left, who hit it and for
how much, what it hit, kills and points, the zeppelin votes and what won, an
NMR warning and the next deadline. Written as sentences, so a phone's
proportional font shows it as well as a fixed one (no tables, no alignment).
``glance_section(report)`` is what observers and the game master get instead:
the turn in a few sentences and the standing. ``pilot_facts`` and
``changed_line`` say what a correction (``pbmref rerun``) changed for a
reader. Everything is read from the stored positions and events; no rule is
recomputed.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pbmref.reports.common import (
    IN_FIGHT,
    Namer,
    aircraft_of,
    and_list,
    changes_line,
    count_word,
    setting,
)
from pbmref.reports.document import Block, Para, Section
from pbmref.reports.model import TurnReport
from pbmref.rulesets.air.report import next_turn_line

__all__ = ["changed_line", "glance_section", "pilot_facts",
           "pilot_section"]

Event = dict[str, Any]

GONE = {"down": "was shot down", "left": "flew off the board: out of the fight (M4)",
        "removed": "was removed from the game (N2)"}
CAUSES = {"storm": "the storm (C2)", "bomb": "a bomb (Z15)",
          "explosion": "the zeppelin's explosion (Z12)"}


def _of(events: Sequence[Event], kind: str, **match: Any) -> list[Event]:
    """The events of one kind whose fields hold the given values."""
    return [e for e in events if e.get("kind") == kind
            and all(str(e.get(k)) == str(v) for k, v in match.items())]


# ---------------------------------------------------------------- one pilot


def _where(report: TurnReport, pilot: str, namer: Namer) -> str:
    a = aircraft_of(report.position_after).get(pilot)
    if a is None:
        return "You have no aircraft in this game."
    state = str(a["state"])
    if state in IN_FIGHT:
        how = {"landed": "landed", "taxiing": "taxiing for take-off"}.get(state, "flying")
        return (f"Your aircraft ({namer.letters.get(pilot, '?')}) is at {a.get('hex')}, "
                f"heading {a.get('heading')}, {how}.")
    if state == "down":
        down = _of(report.events, "destroyed", target=pilot)
        by = down[0].get("credited_to") if down else None
        if by:
            return f"Your aircraft was shot down this turn: a kill for {namer(by)} (V2)."
        if down:
            return f"Your aircraft was destroyed this turn by {down[0].get('reason')}."
        return "Your aircraft is down: out of the fight."
    return f"Your aircraft {GONE.get(state, state)}."


def _condition(report: TurnReport, pilot: str) -> str:
    after = aircraft_of(report.position_after).get(pilot) or {}
    full_dp = setting(report.position_after, "damage_points", 12)
    full_ammo = setting(report.position_after, "ammo", 16)
    lost = sum(int(e.get("amount", 0)) for e in _of(report.events, "damage", target=pilot))
    repaired = sum(int(e.get("amount", 0)) for e in _of(report.events, "repaired", pilot=pilot))
    changes = ([f"{lost} lost this turn"] if lost else []) + (
        [f"{repaired} repaired, L6"] if repaired else [])
    text = f"Damage points: {after.get('damage', full_dp)} of {full_dp}"
    text += f" ({', '.join(changes)})" if changes else ""
    text += f". Rounds: {after.get('ammo', full_ammo)} of {full_ammo}"
    bursts = len(_of(report.events, "burst", shooter=pilot))
    if _of(report.events, "refilled", pilot=pilot):
        text += " (refilled on landing, L5)"
    elif bursts:
        text += f" ({count_word(bursts, 'burst')} fired)"
    return text + "."


def _hit_by(report: TurnReport, pilot: str, namer: Namer) -> str:
    parts = [f"{namer(h.get('shooter'))} for {h.get('damage')} in move {h.get('move')}"
             for h in _of(report.events, "hit", target=pilot)]
    for d in _of(report.events, "damage", target=pilot):
        cause = str(d.get("cause", "gunfire"))
        if cause != "gunfire":
            where = f" in move {d.get('move')}" if int(d.get("move", 0)) else ""
            parts.append(f"{CAUSES.get(cause, cause)} for {d.get('amount')}{where}")
    return f"Hit by {and_list(parts)}." if parts else "Nothing hit you."


def _you_hit(report: TurnReport, pilot: str, namer: Namer) -> str:
    bursts = _of(report.events, "burst", shooter=pilot)
    if not bursts:
        return "You did not fire."
    hits = [f"{namer(h.get('target'))} for {h.get('damage')} in move {h.get('move')}"
            for h in _of(report.events, "hit", shooter=pilot)]
    missed = sum(1 for b in bursts if not b.get("targets"))
    text = f"You hit {and_list(hits)}." if hits else "You hit nothing."
    if missed and hits:
        text += f" {count_word(missed, 'burst')} missed."
    elif missed:
        text = f"You hit nothing: {count_word(missed, 'burst')} missed."
    return text


def _score(report: TurnReport, pilot: str, namer: Namer) -> list[str]:
    out = []
    kills = [namer(e.get("target")) for e in _of(report.events, "destroyed", credited_to=pilot)]
    if kills:
        out.append(f"Kill: {and_list(kills)} (V2).")
    gained = sum(int(e.get("points", 0)) for e in _of(report.events, "points", pilot=pilot))
    after = aircraft_of(report.position_after).get(pilot) or {}
    total = int(after.get("vp", 0))
    out.append(f"Victory points: +{gained} this turn, {total} in all." if gained
               else f"Victory points: {total} (none this turn).")
    threshold = setting(report.position_after, "ace_threshold", 15)
    if _of(report.events, "ace", pilot=pilot):
        out.append(f"You are an ACE now: {after.get('dealt', threshold)} damage dealt (V4).")
    elif not after.get("ace"):
        out.append(f"Ace: {after.get('dealt', 0)} of {threshold} damage dealt (V4).")
    return out


def _votes(report: TurnReport, pilot: str) -> str | None:
    by_move: dict[int, list[str]] = {}
    for e in _of(report.events, "vote"):
        mine = [c for p, c in (e.get("votes") or []) if str(p) == pilot]
        if mine:
            won = "a tie, none won" if e.get("tie") else f"{e.get('winner')} won"
            by_move.setdefault(int(e.get("move", 0)), []).append(f"{mine[0]} ({won})")
    if not by_move:
        return None
    parts = [f"move {m}: {' and '.join(v)}" for m, v in sorted(by_move.items())]
    return f"Your zeppelin votes (Z7): {'; '.join(parts)}."


def _nmr(report: TurnReport, pilot: str) -> str | None:
    missed = _of(report.events, "nmr", pilot=pilot)
    if not missed:
        return None
    count = int(missed[0].get("count", 1))
    if _of(report.events, "removed", pilot=pilot):
        return (f"No orders came from you again. That is {count} in a row: you are out of "
                "the game (N2).")
    limit = setting(report.position_after, "nmr_limit", 3)
    return (f"WARNING: no orders came from you, so your aircraft flew straight ahead "
            f"(N1). That is {count} in a row; at {limit} you are removed (N2).")


def pilot_section(report: TurnReport, pilot: str, namer: Namer | None = None) -> Section:
    """The personal block of ``pilot``'s copy of the report."""
    namer = namer or Namer(report)
    before = aircraft_of(report.position_before).get(pilot) or {}
    flew = before.get("state") in IN_FIGHT
    texts = [_where(report, pilot, namer),
             *([_condition(report, pilot), _hit_by(report, pilot, namer),
                _you_hit(report, pilot, namer)] if flew else []),
             *_score(report, pilot, namer), _votes(report, pilot), _nmr(report, pilot),
             next_turn_line(report, namer)]
    blocks: list[Block] = [Para(t, 2, 2, strong=t.startswith(("WARNING", "Kill", "You are an")))
                           for t in texts if t]
    return Section(f"FOR {namer(pilot).upper()} ({namer.letters.get(pilot, '?')})", blocks,
                   "personal")


# ---------------------------------------------------------------- everybody


def _fire_text(report: TurnReport, namer: Namer) -> list[str]:
    bursts = _of(report.events, "burst")
    if not bursts:
        return ["No one fired this turn."]
    hit = sum(1 for b in bursts if b.get("targets"))
    out = [f"{count_word(len(bursts), 'burst')} fired, {hit} hit."]
    hits = [f"{namer(h.get('shooter'))} on {namer(h.get('target'))} {h.get('damage')}"
            f" (move {h.get('move')})" for h in _of(report.events, "hit")]
    if hits:
        out.append(f"Hits: {', '.join(hits)}.")
    return out


def _news(report: TurnReport, namer: Namer) -> list[str]:
    out = []
    for e in report.events:
        kind = e.get("kind")
        if kind == "destroyed":
            by = e.get("credited_to")
            out.append(f"{namer(e.get('target'))} went down: "
                       + (f"a kill for {namer(by)}." if by else f"{e.get('reason')}."))
        elif kind == "bomb" and e.get("outcome") == "aircraft hit":
            out.append(f"Zeppelin {e.get('zeppelin')} bombed airfield {e.get('airfield')}, "
                       f"hitting {and_list(namer(t) for t in e.get('targets') or [])}.")
        elif kind == "ace":
            out.append(f"{namer(e.get('pilot'))} became an ace.")
        elif kind == "nmr":
            out.append(f"{namer(e.get('pilot'))} sent no orders "
                       f"({count_word(int(e.get('count', 1)), 'turn')} in a row).")
        elif kind == "removed":
            out.append(f"{namer(e.get('pilot'))} was removed from the game.")
    return out


def _standing(report: TurnReport, namer: Namer) -> str:
    planes = aircraft_of(report.position_after)
    ranked = sorted(planes, key=lambda p: (-int(planes[p]["vp"]), namer(p)))
    return "Victory points: " + ", ".join(f"{namer(p)} {planes[p]['vp']}" for p in ranked) + "."


def glance_section(report: TurnReport, namer: Namer | None = None) -> Section:
    """The summary observers and the game master read first."""
    namer = namer or Namer(report)
    texts = [*_fire_text(report, namer), *_news(report, namer), _standing(report, namer),
             next_turn_line(report, namer)]
    return Section(f"TURN {report.turn} AT A GLANCE", [Para(t, 2, 2) for t in texts],
                   "personal")


# ---------------------------------------------------------------- corrections


def pilot_facts(report: TurnReport, pilot: str) -> dict[str, str]:
    """What a pilot's turn came to, as words to compare two runs of it."""
    a = aircraft_of(report.position_after).get(pilot)
    if a is None:
        return {}
    where = (f"{a.get('hex')} heading {a.get('heading')}" if a["state"] in IN_FIGHT
             else str(a["state"]))
    return {"position": where, "damage points": str(a["damage"]), "rounds": str(a["ammo"]),
            "victory points": str(a["vp"]), "kills": str(a["kills"])}


def changed_line(before: TurnReport, after: TurnReport, readers: Sequence[str]) -> str:
    """One line: what the corrected turn changed for these readers (everyone's
    aircraft for an observer)."""
    namer = Namer(after)
    return changes_line({p: pilot_facts(before, p) for p in namer.pilots},
                        {p: pilot_facts(after, p) for p in namer.pilots}, readers, namer,
                        "aircraft")
