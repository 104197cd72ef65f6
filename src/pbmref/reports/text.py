"""The turn report as plain text: what every player reads after a deadline.

Written for a 70-column phone mail client as much as for a desktop: every
line is at most 70 characters. The report reads only the stored data (the
positions before and after the turn, the engine's events and the orders) and
never recomputes a rule; rule numbers from ``shared/rules/tweedekker.md`` are
cited where they explain an outcome.

Sections: header (game, turn, next deadline or GAME OVER), the map of the
sky now, the turn in short (postal notation: ``*`` a hit scored that move,
``[..]`` a move in which the pilot was hit), move by move, the end of the
turn, the aircraft table, the zeppelin, wind and clouds, and the orders every
player gave (secret until now).
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from pbmref.reports.asciimap import map_legend, render_map
from pbmref.reports.common import (
    IN_FIGHT,
    WIDTH,
    aircraft_of,
    clouds_of,
    fit_width,
    pilot_letters,
    wrap,
    zeppelins_of,
)
from pbmref.reports.model import TurnReport

__all__ = [
    "format_deadline",
    "render_orders",
    "render_report",
    "render_state_tables",
]

RULE = "=" * WIDTH
THIN = "-" * WIDTH

STATE_WORDS = {
    "flying": "flying", "landed": "landed", "taxiing": "taxiing",
    "left": "left board", "down": "shot down", "removed": "removed",
}


def format_deadline(deadline: datetime | None, timezone: str = "UTC", *,
                    seconds: bool = False) -> str:
    """``Tue 1 Dec 2026 18:00 CET (Europe/Amsterdam)``, in the game's zone;
    ``seconds`` adds them (``18:00:07``), to tell two moments of one minute apart."""
    if deadline is None:
        return "none set"
    try:
        zone = ZoneInfo(timezone)
    except (ZoneInfoNotFoundError, ValueError):
        zone = ZoneInfo("UTC")
        timezone = "UTC"
    if deadline.tzinfo is None:
        deadline = deadline.replace(tzinfo=ZoneInfo("UTC"))
    local = deadline.astimezone(zone)
    clock = f"{local:%H:%M:%S}" if seconds else f"{local:%H:%M}"
    text = f"{local:%a} {local.day} {local:%b %Y} {clock} {local.tzname()}"
    if timezone not in ("UTC", local.tzname()):
        text += f" ({timezone})"
    return text


class _Namer:
    """Display names and map letters for pilots and zeppelins."""

    def __init__(self, report: TurnReport) -> None:
        before, after = report.position_before, report.position_after
        self.pilots = sorted(set(aircraft_of(before)) | set(aircraft_of(after)))
        self.zeppelins = sorted(set(zeppelins_of(before)) | set(zeppelins_of(after)))
        self.letters = pilot_letters(self.pilots, self.zeppelins)
        self.names = dict(report.names)

    def __call__(self, who: Any) -> str:
        if who is None or who == "":
            return "nobody"
        who = str(who)
        if who in self.zeppelins:
            return f"zeppelin {who}"
        return self.names.get(who) or who

    def tagged(self, who: str) -> str:
        """``B baron``: the map letter and the name."""
        return f"{self.letters.get(who, '?')} {self(who)}"


def _hexes(value: Any) -> str:
    if isinstance(value, list | tuple):
        return " ".join(str(v) for v in value) or "-"
    return str(value)


def _count_word(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


# ---------------------------------------------------------------- sections


def _header(report: TurnReport, namer: _Namer) -> list[str]:
    lines = [RULE]
    title = (report.title or report.game_id).upper()
    tag = f"game {report.game_id}"
    if len(title) + len(tag) + 4 <= WIDTH:
        lines.append(f"  {title}{' ' * (WIDTH - 2 - len(title) - len(tag))}{tag}")
    else:
        lines += wrap(title, "  ")
        lines.append(f"  {tag}")
    lines += wrap(f"{report.ruleset.title()} - report of turn {report.turn}", "  ")
    if report.game_over:
        winners = ", ".join(namer(w) for w in report.winners) or "nobody"
        lines += wrap(f"GAME OVER. Winner{'s' if len(report.winners) > 1 else ''}: "
                      f"{winners}", "  ")
    else:
        next_turn = report.position_after.get("turn", report.turn + 1)
        lines += wrap(f"Next deadline (turn {next_turn}): "
                      f"{format_deadline(report.next_deadline, report.timezone)}", "  ", "    ")
    lines.append(RULE)
    return lines


def _map_section(report: TurnReport, namer: _Namer) -> list[str]:
    after = report.position_after
    when = "at the end of the game" if report.game_over else (
        f"at the start of turn {after.get('turn', report.turn + 1)}")
    lines = ["", f"THE SKY {when.upper()}", ""]
    lines += render_map(after, namer.letters)
    lines += map_legend(after, namer.letters, namer.names)
    return lines


def _postal_lines(report: TurnReport, namer: _Namer) -> list[str]:
    """One line per pilot: the three moves flown, with * and [ ] marks."""
    moves: dict[str, dict[int, str]] = {}
    fired: dict[tuple[str, int], list[str]] = {}
    scored: set[tuple[str, int]] = set()
    was_hit: set[tuple[str, int]] = set()
    for e in report.events:
        kind, move = e.get("kind"), int(e.get("move", 0))
        if kind == "manoeuvre":
            code = e.get("manoeuvre") or "-"
            if e.get("outcome") in ("stayed", "skipped"):
                code = "-"
            moves.setdefault(str(e.get("pilot")), {})[move] = code
        elif kind == "burst":
            fired.setdefault((str(e.get("shooter")), move), []).append(str(e.get("direction")))
        elif kind == "hit":
            scored.add((str(e.get("shooter")), move))
        elif kind == "damage":
            was_hit.add((str(e.get("target")), move))
    if not moves:
        return []
    lines = ["", "THE TURN IN SHORT", "",
             "  Moves flown; * = scored a hit that move, [ ] = was hit."]
    for pilot in namer.pilots:
        if pilot not in moves:
            continue
        cells = []
        for m in (1, 2, 3):
            code = moves[pilot].get(m)
            if code is None:
                cells.append("")
                continue
            text = " ".join([code, *fired.get((pilot, m), [])])
            if (pilot, m) in scored:
                text += "*"
            if (pilot, m) in was_hit:
                text = f"[{text}]"
            cells.append(text)
        head = f"  {namer.tagged(pilot)[:16]:<17}"
        body = "  ".join(f"{c:<14}" for c in cells).rstrip()
        lines += wrap(head + body, "", " " * 19)
    return lines


class _Fire:
    """Bursts of one move with the hits each did (F3-F6)."""

    def __init__(self, events: list[dict[str, Any]]) -> None:
        self.bursts = [e for e in events if e.get("kind") == "burst"]
        self.hits: dict[int, list[dict[str, Any]]] = {i: [] for i in range(len(self.bursts))}
        for hit in (e for e in events if e.get("kind") == "hit"):
            for i, b in enumerate(self.bursts):
                if (b.get("shooter") == hit.get("shooter")
                        and hit.get("target") in (b.get("targets") or [])
                        and all(h.get("target") != hit.get("target") for h in self.hits[i])):
                    self.hits[i].append(hit)
                    break


def _burst_lines(burst: dict[str, Any], hits: list[dict[str, Any]], namer: _Namer) -> list[str]:
    line = list(burst.get("line") or [])
    stop = burst.get("stopped_by", "range")
    hit_distances = {int(h.get("distance", 0)) for h in hits}
    shown = " ".join(f"{hx}*" if i + 1 in hit_distances else str(hx)
                     for i, hx in enumerate(line)) or "(nowhere)"
    why = {
        "range": "", "cloud": ", cloud blocks (F4)",
        "zeppelin": ", zeppelin blocks (F5)", "edge": ", to the edge",
    }.get(str(stop), f", stopped by {stop}")
    text = (f"{namer(burst.get('shooter'))} fires {burst.get('direction')} "
            f"from {burst.get('from_hex')}: {shown}{why}")
    out = wrap(text, "    ", "      ")
    if hits:
        parts = [f"{namer(h.get('target'))} {h.get('damage')} "
                 f"(at {h.get('distance')})" for h in hits]
        out += wrap("hits " + ", ".join(parts), "      ", "        ")
    else:
        out += ["      no hit"]
    return out


def _manoeuvre_line(e: dict[str, Any], namer: _Namer) -> list[str]:
    who = f"{namer.tagged(str(e.get('pilot')))[:16]:<16}"
    code = e.get("manoeuvre") or "-"
    outcome = e.get("outcome", "flew")
    src, dst, hd = e.get("from_hex"), e.get("to_hex"), e.get("heading")
    if outcome == "stayed":
        text = f"{who}    stays landed at {dst}"
    elif outcome == "skipped":
        text = f"{who} {code:<3} ignored: already landed (L4)"
    elif outcome == "held":
        text = f"{who} {code:<3} {src} holds, facing {hd}"
    elif outcome == "left":
        text = f"{who} {code:<3} {src} -> off the board: out of the fight (M4)"
    elif outcome == "landed":
        text = f"{who} {code:<3} {src} -> {dst} LANDED (L4)"
    elif outcome == "taxied":
        text = f"{who} {code:<3} {src} -> {dst} {hd}, taxiing (L3)"
    else:
        text = f"{who} {code:<3} {src} -> {dst} {hd}"
    if e.get("reason") and not (outcome == "taxied" and "L3" in str(e.get("reason"))):
        text += f"  ({e.get('reason')})"
    return wrap(text, "  ", " " * 23)


def _vote_line(e: dict[str, Any], namer: _Namer) -> list[str]:
    half = "movement" if e.get("half") == "move" else "fire"
    counts = ", ".join(f"{c} {n}" for c, n in (e.get("counts") or []))
    winner = e.get("winner")
    if not e.get("votes"):
        what = "it holds" if half == "movement" else "it holds fire"
        return wrap(f"Zeppelin {e.get('zeppelin')} {half} vote: none cast, {what} (Z7)",
                    "  ", "    ")
    elif e.get("tie"):
        result = ("(Z7: tie, the zeppelin holds)" if half == "movement"
                  else "(Z7: tie, no fire)")
    else:
        result = f"-> {winner} (Z7)"
    out = wrap(f"Zeppelin {e.get('zeppelin')} {half} vote: {counts or '-'} {result}",
               "  ", "    ")
    votes = ", ".join(f"{namer(p)} {c}" for p, c in (e.get("votes") or []))
    if votes:
        out += wrap(f"votes: {votes}", "    ", "      ")
    return out


def _event_lines(e: dict[str, Any], namer: _Namer, turn: int,
                 wind_changed: bool = False) -> list[str]:
    """Any event other than manoeuvres, votes, bursts and hits."""
    k = e.get("kind")
    if k == "zeppelin_move":
        order = e.get("order")
        how = "drifts" if order == "drift" else f"flies {order}:"
        text = (f"Zeppelin {e.get('zeppelin')} {how} {_hexes(e.get('from_hexes'))} -> "
                f"{_hexes(e.get('to_hexes'))}, heading {e.get('heading')}")
        if e.get("reentered"):
            text += ", re-entering across the board (Z4)"
        return wrap(text, "  ", "    ")
    if k == "takeoff":
        return wrap(f"{namer(e.get('pilot'))} takes off on runway "
                    f"{str(e.get('runway')).title()} (L3)", "  ", "    ")
    if k == "landed":
        return wrap(f"{namer(e.get('pilot'))} lands on runway {str(e.get('runway')).title()}"
                    f" of airfield {e.get('airfield')} (L4)", "  ", "    ")
    if k == "damage":
        cause = e.get("cause", "gunfire")
        rule = {"storm": " (C2)", "bomb": " (Z15)", "explosion": " (Z12)"}.get(str(cause), "")
        rem = e.get("remaining")
        left = f"{rem} left" if rem is None or int(rem) > 0 else f"{rem} left: DESTROYED"
        return wrap(f"{namer(e.get('target'))} takes {e.get('amount')} from {cause}{rule}, "
                    f"{left}", "  ", "    ")
    if k == "points":
        reason = str(e.get("reason", ""))
        rule = {"damage": "V1", "kill": "V2", "zeppelin first hit": "Z5",
                "zeppelin destroyed": "Z5"}.get(reason, "")
        target = namer(e.get("target")) if e.get("target") else ""
        what = {
            "damage": f"damage to {target}", "kill": f"the kill of {target}",
            "zeppelin first hit": f"the first hit on {target}",
            "zeppelin destroyed": f"destroying {target}",
        }.get(reason, f"{reason} {target}".strip())
        return wrap(f"{namer(e.get('pilot'))} +{e.get('points')} VP for {what}"
                    + (f" ({rule})" if rule else ""), "  ", "    ")
    if k == "destroyed":
        target = namer(e.get("target"))
        reason = e.get("reason", "gunfire")
        if str(e.get("target")) in namer.zeppelins:
            by = (f" by {namer(e.get('credited_to'))}'s gunfire"
                  if e.get("credited_to") else f" by {reason}")
            text = f"*** {target} is destroyed{by} (Z5)"
        elif e.get("credited_to"):
            text = f"*** {target} is shot down: a kill for {namer(e.get('credited_to'))} (V2)"
        else:
            text = f"*** {target} is destroyed by {reason}: nobody's kill (V2)"
        return wrap(text, "  ", "      ")
    if k == "explosion":
        parts = [f"{namer(p)} {dmg} (at {dist})" for p, dist, dmg in (e.get("damage") or [])]
        text = (f"*** Zeppelin {e.get('zeppelin')} EXPLODES at {_hexes(e.get('hexes'))} (Z12): "
                + (", ".join(parts) if parts else "nobody near"))
        return wrap(text, "  ", "      ")
    if k == "bomb":
        outcome = str(e.get("outcome", ""))
        votes = _count_word(int(e.get("votes", 0)), "vote")
        zep = f"Zeppelin {e.get('zeppelin')}"
        if outcome == "aircraft hit":
            who = ", ".join(namer(t) for t in e.get("targets") or [])
            text = f"{zep} bombs airfield {e.get('airfield')} ({votes}): hits {who} (Z15)"
        elif outcome == "airfield disabled":
            text = f"{zep} bombs airfield {e.get('airfield')}: airfield disabled (Z16)"
        elif outcome == "no airfield":
            text = f"{zep}: bomb vote won but it is over no airfield, no bomb (Z14)"
        elif outcome == "not ready":
            text = f"{zep}: bomb vote won but no bomb is ready (Z14, Z17)"
        else:
            text = f"{zep} bomb: {outcome}"
        if e.get("ready_turn") and outcome in ("aircraft hit", "airfield disabled"):
            text += f"; next bomb ready in turn {e.get('ready_turn')} (Z17)"
        return wrap(text, "  ", "    ")
    if k == "airfield_disabled":
        return wrap(f"Airfield {e.get('airfield')} cannot refill or repair for "
                    f"{e.get('turns')} more turns (Z16, L7)", "  ", "    ")
    if k == "drift":
        return wrap(f"Cloud {int(e.get('cloud', 0)) + 1} drifts {_hexes(e.get('from_hexes'))}"
                    f" -> {_hexes(e.get('to_hexes'))} (W2)", "  ", "    ")
    if k == "repaired":
        return wrap(f"{namer(e.get('pilot'))} repairs {e.get('amount')}, now "
                    f"{e.get('damage')} damage points (L6)", "  ", "    ")
    if k == "refilled":
        return wrap(f"{namer(e.get('pilot'))} refills to {e.get('ammo')} rounds (L5)",
                    "  ", "    ")
    if k == "nmr":
        return wrap(f"{namer(e.get('pilot'))}: no orders received, NMR {e.get('count')} "
                    "in a row (N1)", "  ", "    ")
    if k == "removed":
        return wrap(f"{namer(e.get('pilot'))} is removed from the game "
                    f"({e.get('reason')}, N2)", "  ", "    ")
    if k == "ace":
        return wrap(f"{namer(e.get('pilot'))} becomes an ACE, {e.get('dealt')} damage "
                    "dealt (V4)", "  ", "    ")
    if k == "wind":
        return wrap(f"Wind: die {e.get('roll')}, wind now blows to {e.get('after')} "
                    f"(was {e.get('before')}) (W3)", "  ", "    ")
    if k == "game_over":
        winners = ", ".join(namer(w) for w in e.get("winners") or []) or "nobody"
        return wrap(f"GAME OVER ({e.get('reason')}, V6): {winners} "
                    f"win{'s' if len(e.get('winners') or []) == 1 else ''}", "  ", "    ")
    if k == "die":
        sides = e.get("sides", 6)
        die = f"{e.get('value')}" + ("" if sides == 6 else f" on a d{sides}")
        if e.get("purpose") == "wind change":
            if wind_changed:
                return []
            return wrap(f"Wind: die {die}, the wind holds (W3)", "  ", "    ")
        who = namer(e.get("who")) if e.get("who") else ""
        about = f" about {namer(e.get('target'))}" if e.get("target") else ""
        return wrap(f"Die for {e.get('purpose')}{about}: {who + ' ' if who else ''}"
                    f"rolls {die} (V5)", "  ", "    ")
    # An event this renderer does not know: show its data rather than lose it.
    rest = ", ".join(f"{key} {val}" for key, val in e.items() if key not in ("kind", "move"))
    return wrap(f"{k}: {rest}", "  ", "    ")


def _move_section(title: str, events: list[dict[str, Any]], namer: _Namer,
                  turn: int) -> list[str]:
    lines = ["", title, "-" * len(title)]
    votes = [e for e in events if e.get("kind") == "vote"]
    for e in votes:
        lines += _vote_line(e, namer)
    moving = [e for e in events if e.get("kind") in ("manoeuvre", "zeppelin_move", "takeoff")]
    if moving:
        if votes:
            lines.append("")
        for e in moving:
            lines += (_manoeuvre_line(e, namer) if e.get("kind") == "manoeuvre"
                      else _event_lines(e, namer, turn))
    fire = _Fire(events)
    if fire.bursts:
        lines += ["", "  Fire:"]
        for i, burst in enumerate(fire.bursts):
            lines += _burst_lines(burst, fire.hits[i], namer)
    rest = [e for e in events
            if e.get("kind") not in ("vote", "manoeuvre", "zeppelin_move", "takeoff",
                                     "burst", "hit")]
    wind_changed = any(e.get("kind") == "wind" for e in rest)
    if rest:
        if len(lines) > 3:
            lines.append("")
        for e in rest:
            lines += _event_lines(e, namer, turn, wind_changed)
    if len(lines) == 3:
        lines.append("  nothing happened")
    return lines


def _moves(report: TurnReport, namer: _Namer) -> list[str]:
    before_first: list[dict[str, Any]] = []
    by_move: dict[int, list[dict[str, Any]]] = {}
    end: list[dict[str, Any]] = []
    seen_move = False
    for e in report.events:
        m = int(e.get("move", 0))
        if m == 0:
            (end if seen_move else before_first).append(e)
        else:
            seen_move = True
            by_move.setdefault(m, []).append(e)
    lines = ["", "MOVE BY MOVE"]
    if before_first:
        lines += _move_section("Before move 1", before_first, namer, report.turn)
    for m in sorted(by_move):
        lines += _move_section(f"Move {m}", by_move[m], namer, report.turn)
    if end:
        lines += _move_section("End of turn (T3)", end, namer, report.turn)
    if not report.events:
        lines.append("  No events were recorded for this turn.")
    return lines


def _ace_cell(a: Mapping[str, Any], threshold: int) -> str:
    if a.get("ace"):
        return "ACE"
    return f"{a.get('dealt', 0)}/{threshold}"


def render_state_tables(position: Mapping[str, Any], names: Mapping[str, str] | None = None,
                        letters: Mapping[str, str] | None = None) -> list[str]:
    """The aircraft table, the zeppelin, wind, clouds and airfields."""
    names = names or {}
    planes = aircraft_of(position)
    zeps = zeppelins_of(position)
    if letters is None:
        letters = pilot_letters(planes, zeps)
    settings = position.get("settings") or {}
    threshold = int(settings.get("ace_threshold", 15))
    full_dp = int(settings.get("damage_points", 12))
    lines = ["", "AIRCRAFT", "",
             "  Pilot            Hex  Hdg State       DP Ammo  VP Kill Ace   NMR",
             "  " + "-" * 66]
    for pilot, a in planes.items():
        shown = f"{letters.get(pilot, '?')} {names.get(pilot) or pilot}"[:16]
        state = STATE_WORDS.get(str(a["state"]), str(a["state"]))
        on_map = a["state"] in IN_FIGHT
        hex_ = str(a.get("hex", "-")) if on_map else "-"
        hdg = str(a.get("heading", "-")) if on_map else "-"
        lines.append(
            f"  {shown:<16} {hex_:<4} {hdg:<3} {state:<10} {a['damage']:>3} {a['ammo']:>4}"
            f" {a['vp']:>3} {a['kills']:>4} {_ace_cell(a, threshold):<5} {a['nmr']:>3}")
    lines.append(f"  (DP: damage points left of {full_dp}; Ace: damage dealt of "
                 f"{threshold}, V4)")
    turn = int(position.get("turn", 1))
    for name, z in zeps.items():
        lines += ["", f"ZEPPELIN {name}", ""]
        hexes = list(z["hexes"])
        pool = int(settings.get("zeppelin_damage_points_2" if len(hexes) > 1 else
                                "zeppelin_damage_points_1", 20 if len(hexes) > 1 else 12))
        if z["destroyed"]:
            lines.append("  Destroyed: it exploded (Z12).")
            continue
        where = (f"nose {hexes[0]}, tail {hexes[1]}" if len(hexes) > 1
                 else f"hex {hexes[0] if hexes else '-'}")
        lines += wrap(f"{where}, heading {z['heading']}, {z.get('damage', pool)} of {pool} "
                      "damage points (Z2)", "  ", "  ")
        how = "steered by the players' votes (Z6-Z11)" if z.get("controlled") else (
            "drifting with the wind (Z3)")
        ready = int(z.get("bomb_ready_turn", 1))
        bomb = ("bomb ready" if ready <= turn else
                f"bomb ready in turn {ready}, {_count_word(ready - turn, 'turn')} "
                "from now (Z17)")
        first = "already hit" if z.get("first_hit") else "not yet hit: first hit scores 2 (Z5)"
        lines += wrap(f"{how}; {bomb}; {first}", "  ", "  ")
    lines += ["", "WIND, CLOUDS AND AIRFIELDS", ""]
    wind = position.get("wind") or {}
    strength = int(wind.get("strength", 0))
    if strength:
        text = f"Wind blows to {wind.get('to', 'N')}, {_count_word(strength, 'hex')} a turn (W1)"
    else:
        text = "No wind (W1)"
    text += ("; it may change each turn (W3)." if wind.get("changes") else "; steady.")
    lines += wrap(text, "  ", "  ")
    clouds = clouds_of(position)
    if not clouds:
        lines.append("  No clouds.")
    for i, c in enumerate(clouds, 1):
        kind = "Storm" if c.get("kind") == "storm" else "Cloud"
        lines += wrap(f"{kind} {i}: {_hexes(c.get('hexes') or [])}", "  ", "    ")
    fields = position.get("airfields") or {}
    bombed = [f"{k} ({v.get('disabled_turns')} turns)" for k, v in sorted(fields.items())
              if (v or {}).get("disabled_turns")]
    if bombed:
        lines += wrap("Airfields disabled by bombing (Z16, L7): " + ", ".join(bombed),
                      "  ", "    ")
    else:
        lines.append("  All six airfields in service (B5).")
    return lines


def render_orders(orders: Mapping[str, Mapping[str, Any]], pilots: list[str],
                  namer: Any = None) -> list[str]:
    """The orders each player gave, as they would be mailed."""
    def name(p: str) -> str:
        return str(namer(p)) if namer else p

    lines: list[str] = []
    for pilot in pilots:
        entry = orders.get(pilot)
        if not entry:
            lines += wrap(f"{name(pilot)}: no orders received", "  ", "    ")
            continue
        lines.append(f"  {name(pilot)}:")
        if not isinstance(entry, Mapping):
            items = entry if isinstance(entry, list | tuple) else [entry]
            for item in items:
                lines += wrap(str(item), "    ", "      ")
            continue
        for key in ("takeoff", "land", "enter", "duel"):
            if entry.get(key):
                lines.append(f"    {key.upper()} {entry[key]}")
        for section in ("plane", "zeppelin"):
            moves = entry.get(section)
            if moves is None:
                continue
            parts = [f"{i}: {m}" for i, m in enumerate(moves, 1) if str(m).strip()]
            # An empty PLANE section keeps a landed aircraft on the ground (L2a).
            empty = "(stay landed, L2a)" if section == "plane" else "(no votes)"
            lines += wrap(f"{section.upper():<9} " + ("   ".join(parts) if parts else empty),
                          "    ", "              ")
        other = [k for k in entry if k not in ("plane", "zeppelin", "takeoff", "land",
                                               "enter", "duel", "raw", "message_id")]
        for key in other:
            lines += wrap(f"{key}: {entry[key]}", "    ", "      ")
    return lines






def render_report(report: TurnReport) -> str:
    """The whole tweedekker turn report as text, every line at most 70 characters.
    (Fast Play and Diplomacy reports have renderers of their own.)"""
    namer = _Namer(report)
    lines = _header(report, namer)
    lines += _map_section(report, namer)
    lines += _postal_lines(report, namer)
    lines += _moves(report, namer)
    lines += render_state_tables(report.position_after, namer.names, namer.letters)
    lines += ["", f"ORDERS GIVEN FOR TURN {report.turn} (secret until now)", ""]
    before_pilots = [p for p, a in aircraft_of(report.position_before).items()
                     if a["state"] in IN_FIGHT]
    pilots = before_pilots + sorted(p for p in report.orders if p not in before_pilots)
    lines += render_orders(report.orders, pilots, namer)
    if report.dice:
        lines += ["", *wrap("Dice rolled this turn (V5): "
                            + " ".join(str(d) for d in report.dice), "", "  ")]
    lines += ["", RULE]
    if report.game_over:
        lines += wrap("The game is over. Thank you for flying.", "  ")
    else:
        next_turn = report.position_after.get("turn", report.turn + 1)
        lines += wrap(f"Orders for turn {next_turn} by "
                      f"{format_deadline(report.next_deadline, report.timezone)}. "
                      "Send MAP or STATUS for a fresh look.", "  ", "  ")
    lines.append(RULE)
    return "\n".join(fit_width(lines)) + "\n"
