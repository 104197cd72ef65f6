"""The tweedekker turn report: what a player reads after a deadline.

Written for a phone first: every line is at most 70 characters, and what a
reader needs most comes first. The report reads only the stored data (the
positions before and after the turn, the engine's events and the orders)
and never recomputes a rule; rule numbers from the rulebook are cited where
they explain an outcome.

Sections, in reading order: the header (game, turn, next deadline or GAME
OVER); the reader's own block (``personal.pilot_section``: one per pilot the
reader flies) or, for observers and the game master, the turn at a glance;
the turn in short (postal notation: ``*`` a hit scored that move, ``[..]`` a
move in which the pilot was hit); move by move; the aircraft table, the
zeppelin, wind and clouds; the orders every player gave (secret until now);
the dice; and last the character map of the sky. ``report_document`` gives
the ``Document`` (for the HTML mail), ``render_report`` its text.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from pbmref.reports.common import (
    IN_FIGHT,
    WIDTH,
    Namer,
    aircraft_of,
    clouds_of,
    count_word,
    format_deadline,
    pilot_letters,
    wrap,
    zeppelins_of,
)
from pbmref.reports.document import (
    Block,
    Document,
    Fixed,
    Gap,
    Para,
    Section,
    Sub,
)
from pbmref.reports.model import TurnReport
from pbmref.rulesets.air.report import foot_section, head_section, orders_blocks
from pbmref.rulesets.tweedekker.asciimap import map_legend, render_map
from pbmref.rulesets.tweedekker.personal import glance_section, pilot_section

__all__ = [
    "format_deadline",
    "render_map_reply",
    "render_report",
    "render_state_tables",
    "report_document",
    "state_blocks",
]

THIN = "-" * WIDTH

STATE_WORDS = {
    "flying": "flying", "landed": "landed", "taxiing": "taxiing",
    "left": "left board", "down": "shot down", "removed": "removed",
}

Event = dict[str, Any]


def _hexes(value: Any) -> str:
    if isinstance(value, list | tuple):
        return " ".join(str(v) for v in value) or "-"
    return str(value)


# ---------------------------------------------------------------- the head


def _map_section(report: TurnReport, namer: Namer) -> Section:
    after = report.position_after
    when = "at the end of the game" if report.game_over else (
        f"at the start of turn {after.get('turn', report.turn + 1)}")
    return Section(f"THE SKY {when.upper()} (character map)",
                   [Fixed(render_map(after, namer.letters)),
                    Fixed(map_legend(after, namer.letters, namer.names))], "map")


# ---------------------------------------------------------------- the turn in short


def _postal_marks(events: Sequence[Event]) -> tuple[dict[str, dict[int, str]],
                                                     dict[tuple[str, int], list[str]],
                                                     set[tuple[str, int]],
                                                     set[tuple[str, int]]]:
    moves: dict[str, dict[int, str]] = {}
    fired: dict[tuple[str, int], list[str]] = {}
    scored: set[tuple[str, int]] = set()
    was_hit: set[tuple[str, int]] = set()
    for e in events:
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
    return moves, fired, scored, was_hit


def _postal_section(report: TurnReport, namer: Namer) -> Section | None:
    """One line per pilot: the three moves flown, with * and [ ] marks."""
    moves, fired, scored, was_hit = _postal_marks(report.events)
    if not moves:
        return None
    rows = []
    for pilot in (p for p in namer.pilots if p in moves):
        cells = []
        for m in (1, 2, 3):
            code = moves[pilot].get(m)
            text = "" if code is None else " ".join([code, *fired.get((pilot, m), [])])
            if code is not None and (pilot, m) in scored:
                text += "*"
            if code is not None and (pilot, m) in was_hit:
                text = f"[{text}]"
            cells.append(text)
        head = f"  {namer.tagged(pilot)[:16]:<17}"
        rows.append((head + "  ".join(f"{c:<14}" for c in cells)).rstrip())
    return Section("THE TURN IN SHORT", [
        Para("Moves flown; * = scored a hit that move, [ ] = was hit.", 2, 2),
        Fixed(rows)], "short")


# ---------------------------------------------------------------- move by move


class _Fire:
    """Bursts of one move with the hits each did (F3-F6)."""

    def __init__(self, events: list[Event]) -> None:
        self.bursts = [e for e in events if e.get("kind") == "burst"]
        self.hits: dict[int, list[Event]] = {i: [] for i in range(len(self.bursts))}
        by_shooter: dict[Any, list[tuple[int, Event]]] = {}  # each shooter's bursts, in order
        for i, b in enumerate(self.bursts):
            by_shooter.setdefault(b.get("shooter"), []).append((i, b))
        for hit in (e for e in events if e.get("kind") == "hit"):
            for i, b in by_shooter.get(hit.get("shooter"), ()):
                if (hit.get("target") in (b.get("targets") or [])
                        and all(h.get("target") != hit.get("target") for h in self.hits[i])):
                    self.hits[i].append(hit)
                    break


STOPS = {"range": "", "cloud": ", cloud blocks (F4)", "zeppelin": ", zeppelin blocks (F5)",
         "edge": ", to the edge"}


def _burst_blocks(burst: Event, hits: list[Event], namer: Namer) -> list[Block]:
    line = list(burst.get("line") or [])
    stop = str(burst.get("stopped_by", "range"))
    hit_distances = {int(h.get("distance", 0)) for h in hits}
    shown = " ".join(f"{hx}*" if i + 1 in hit_distances else str(hx)
                     for i, hx in enumerate(line)) or "(nowhere)"
    why = STOPS.get(stop, f", stopped by {stop}")
    out: list[Block] = [Para(f"{namer(burst.get('shooter'))} fires {burst.get('direction')} "
                             f"from {burst.get('from_hex')}: {shown}{why}", 4, 6)]
    if hits:
        parts = [f"{namer(h.get('target'))} {h.get('damage')} (at {h.get('distance')})"
                 for h in hits]
        out.append(Para("hits " + ", ".join(parts), 6, 8))
    else:
        out.append(Para("no hit", 6, 8))
    return out


MANOEUVRE_WORDS: dict[str, Callable[[str, Any, Any, Any], str]] = {
    "stayed": lambda code, src, dst, hd: f"   stays landed at {dst}",
    "skipped": lambda code, src, dst, hd: f"{code:<3} ignored: already landed (L4)",
    "held": lambda code, src, dst, hd: f"{code:<3} {src} holds, facing {hd}",
    "left": lambda code, src, dst, hd: f"{code:<3} {src} -> off the board: out of the fight (M4)",
    "landed": lambda code, src, dst, hd: f"{code:<3} {src} -> {dst} LANDED (L4)",
    "taxied": lambda code, src, dst, hd: f"{code:<3} {src} -> {dst} {hd}, taxiing (L3)",
}


def _flew(code: str, src: Any, dst: Any, hd: Any) -> str:
    return f"{code:<3} {src} -> {dst} {hd}"


def _manoeuvre_block(e: Event, namer: Namer) -> Para:
    who = f"{namer.tagged(str(e.get('pilot')))[:16]:<16}"
    code = e.get("manoeuvre") or "-"
    outcome = str(e.get("outcome", "flew"))
    words = MANOEUVRE_WORDS.get(outcome, _flew)
    text = f"{who} " + words(code, e.get("from_hex"), e.get("to_hex"), e.get("heading"))
    if e.get("reason") and not (outcome == "taxied" and "L3" in str(e.get("reason"))):
        text += f"  ({e.get('reason')})"
    return Para(text, 2, 23)


def _vote_blocks(e: Event, namer: Namer) -> list[Block]:
    half = "movement" if e.get("half") == "move" else "fire"
    counts = ", ".join(f"{c} {n}" for c, n in (e.get("counts") or []))
    if not e.get("votes"):
        what = "it holds" if half == "movement" else "it holds fire"
        return [Para(f"Zeppelin {e.get('zeppelin')} {half} vote: none cast, {what} (Z7)")]
    if e.get("tie"):
        result = ("(Z7: tie, the zeppelin holds)" if half == "movement"
                  else "(Z7: tie, no fire)")
    else:
        result = f"-> {e.get('winner')} (Z7)"
    out: list[Block] = [Para(f"Zeppelin {e.get('zeppelin')} {half} vote: {counts or '-'} "
                             f"{result}")]
    votes = ", ".join(f"{namer(p)} {c}" for p, c in (e.get("votes") or []))
    if votes:
        out.append(Para(f"votes: {votes}", 4, 6))
    return out


def _zeppelin_move(e: Event, namer: Namer) -> str:
    order = e.get("order")
    how = "drifts" if order == "drift" else f"flies {order}:"
    text = (f"Zeppelin {e.get('zeppelin')} {how} {_hexes(e.get('from_hexes'))} -> "
            f"{_hexes(e.get('to_hexes'))}, heading {e.get('heading')}")
    return text + (", re-entering across the board (Z4)" if e.get("reentered") else "")


def _damage(e: Event, namer: Namer) -> str:
    cause = e.get("cause", "gunfire")
    rule = {"storm": " (C2)", "bomb": " (Z15)", "explosion": " (Z12)"}.get(str(cause), "")
    rem = e.get("remaining")
    left = f"{rem} left" if rem is None or int(rem) > 0 else f"{rem} left: DESTROYED"
    return f"{namer(e.get('target'))} takes {e.get('amount')} from {cause}{rule}, {left}"


POINTS_RULES = {"damage": "V1", "kill": "V2", "zeppelin first hit": "Z5",
                "zeppelin destroyed": "Z5"}


def _points(e: Event, namer: Namer) -> str:
    reason = str(e.get("reason", ""))
    rule = POINTS_RULES.get(reason, "")
    target = namer(e.get("target")) if e.get("target") else ""
    what = {
        "damage": f"damage to {target}", "kill": f"the kill of {target}",
        "zeppelin first hit": f"the first hit on {target}",
        "zeppelin destroyed": f"destroying {target}",
    }.get(reason, f"{reason} {target}".strip())
    return f"{namer(e.get('pilot'))} +{e.get('points')} VP for {what}" + (
        f" ({rule})" if rule else "")


def _destroyed(e: Event, namer: Namer) -> str:
    target = namer(e.get("target"))
    if str(e.get("target")) in namer.zeppelins:
        by = (f" by {namer(e.get('credited_to'))}'s gunfire" if e.get("credited_to")
              else f" by {e.get('reason', 'gunfire')}")
        return f"*** {target} is destroyed{by} (Z5)"
    if e.get("credited_to"):
        return f"*** {target} is shot down: a kill for {namer(e.get('credited_to'))} (V2)"
    return f"*** {target} is destroyed by {e.get('reason', 'gunfire')}: nobody's kill (V2)"


def _explosion(e: Event, namer: Namer) -> str:
    parts = [f"{namer(p)} {dmg} (at {dist})" for p, dist, dmg in (e.get("damage") or [])]
    return (f"*** Zeppelin {e.get('zeppelin')} EXPLODES at {_hexes(e.get('hexes'))} (Z12): "
            + (", ".join(parts) if parts else "nobody near"))


def _bomb(e: Event, namer: Namer) -> str:
    outcome = str(e.get("outcome", ""))
    votes = count_word(int(e.get("votes", 0)), "vote")
    zep = f"Zeppelin {e.get('zeppelin')}"
    text = {
        "aircraft hit": f"{zep} bombs airfield {e.get('airfield')} ({votes}): hits "
                        + ", ".join(namer(t) for t in e.get("targets") or []) + " (Z15)",
        "airfield disabled": f"{zep} bombs airfield {e.get('airfield')}: airfield disabled "
                             "(Z16)",
        "no airfield": f"{zep}: bomb vote won but it is over no airfield, no bomb (Z14)",
        "not ready": f"{zep}: bomb vote won but no bomb is ready (Z14, Z17)",
    }.get(outcome, f"{zep} bomb: {outcome}")
    if e.get("ready_turn") and outcome in ("aircraft hit", "airfield disabled"):
        text += f"; next bomb ready in turn {e.get('ready_turn')} (Z17)"
    return text


def _die(e: Event, namer: Namer) -> str:
    sides = e.get("sides", 6)
    die = f"{e.get('value')}" + ("" if sides == 6 else f" on a d{sides}")
    if e.get("purpose") == "wind change":
        return f"Wind: die {die}, the wind holds (W3)"
    who = namer(e.get("who")) if e.get("who") else ""
    about = f" about {namer(e.get('target'))}" if e.get("target") else ""
    return f"Die for {e.get('purpose')}{about}: {who + ' ' if who else ''}rolls {die} (V5)"


def _game_over(e: Event, namer: Namer) -> str:
    winners = ", ".join(namer(w) for w in e.get("winners") or []) or "nobody"
    many = "s" if len(e.get("winners") or []) == 1 else ""
    return f"GAME OVER ({e.get('reason')}, V6): {winners} win{many}"


EVENT_WORDS: dict[str, Callable[[Event, Namer], str]] = {
    "zeppelin_move": _zeppelin_move,
    "takeoff": lambda e, n: f"{n(e.get('pilot'))} takes off on runway "
                            f"{str(e.get('runway')).title()} (L3)",
    "landed": lambda e, n: f"{n(e.get('pilot'))} lands on runway "
                           f"{str(e.get('runway')).title()} of airfield {e.get('airfield')} (L4)",
    "damage": _damage,
    "points": _points,
    "destroyed": _destroyed,
    "explosion": _explosion,
    "bomb": _bomb,
    "airfield_disabled": lambda e, n: f"Airfield {e.get('airfield')} cannot refill or repair "
                                      f"for {e.get('turns')} more turns (Z16, L7)",
    "drift": lambda e, n: f"Cloud {int(e.get('cloud', 0)) + 1} drifts "
                          f"{_hexes(e.get('from_hexes'))} -> {_hexes(e.get('to_hexes'))} (W2)",
    "repaired": lambda e, n: f"{n(e.get('pilot'))} repairs {e.get('amount')}, now "
                             f"{e.get('damage')} damage points (L6)",
    "refilled": lambda e, n: f"{n(e.get('pilot'))} refills to {e.get('ammo')} rounds (L5)",
    "nmr": lambda e, n: f"{n(e.get('pilot'))}: no orders received, NMR {e.get('count')} "
                        "in a row (N1)",
    "removed": lambda e, n: f"{n(e.get('pilot'))} is removed from the game "
                            f"({e.get('reason')}, N2)",
    "ace": lambda e, n: f"{n(e.get('pilot'))} becomes an ACE, {e.get('dealt')} damage "
                        "dealt (V4)",
    "wind": lambda e, n: f"Wind: die {e.get('roll')}, wind now blows to {e.get('after')} "
                         f"(was {e.get('before')}) (W3)",
    "game_over": _game_over,
    "die": _die,
}


def _event_block(e: Event, namer: Namer, wind_changed: bool = False) -> list[Block]:
    """Any event other than manoeuvres, votes, bursts and hits."""
    kind = str(e.get("kind"))
    if kind == "die" and e.get("purpose") == "wind change" and wind_changed:
        return []  # the wind event says it
    words = EVENT_WORDS.get(kind)
    if words is None:  # an event this renderer does not know: its data, not lost
        rest = ", ".join(f"{key} {val}" for key, val in e.items() if key not in ("kind", "move"))
        return [Para(f"{kind}: {rest}")]
    text = words(e, namer)
    big = text.startswith("***")
    return [Para(text, 2, 6 if big else 4, strong=big)]


MOVING = ("manoeuvre", "zeppelin_move", "takeoff")


def _move_blocks(title: str, events: list[Event], namer: Namer) -> list[Block]:
    blocks: list[Block] = [Sub(title)]
    for e in (e for e in events if e.get("kind") == "vote"):
        blocks += _vote_blocks(e, namer)
    moving = [e for e in events if e.get("kind") in MOVING]
    if moving and len(blocks) > 1:
        blocks.append(Gap())
    for e in moving:
        blocks += ([_manoeuvre_block(e, namer)] if e.get("kind") == "manoeuvre"
                   else _event_block(e, namer))
    fire = _Fire(events)
    if fire.bursts:
        blocks += [Gap(), Para("Fire:", 2, 2)]
        for i, burst in enumerate(fire.bursts):
            blocks += _burst_blocks(burst, fire.hits[i], namer)
    rest = [e for e in events if e.get("kind") not in ("vote", *MOVING, "burst", "hit")]
    wind_changed = any(e.get("kind") == "wind" for e in rest)
    if rest and len(blocks) > 1:
        blocks.append(Gap())
    for e in rest:
        blocks += _event_block(e, namer, wind_changed)
    if len(blocks) == 1:
        blocks.append(Para("nothing happened"))
    return blocks


def _moves_section(report: TurnReport, namer: Namer) -> Section:
    before_first: list[Event] = []
    by_move: dict[int, list[Event]] = {}
    end: list[Event] = []
    for e in report.events:
        m = int(e.get("move", 0))
        if m:
            by_move.setdefault(m, []).append(e)
        else:
            (end if by_move else before_first).append(e)
    blocks: list[Block] = []
    if before_first:
        blocks += _move_blocks("Before move 1", before_first, namer)
    for m in sorted(by_move):
        blocks += _move_blocks(f"Move {m}", by_move[m], namer)
    if end:
        blocks += _move_blocks("End of turn (T3)", end, namer)
    if not report.events:
        blocks.append(Para("No events were recorded for this turn."))
    return Section("MOVE BY MOVE", blocks, "moves")


# ---------------------------------------------------------------- the tables


def _ace_cell(a: Mapping[str, Any], threshold: int) -> str:
    return "ACE" if a.get("ace") else f"{a.get('dealt', 0)}/{threshold}"


def _aircraft_rows(planes: Mapping[str, Mapping[str, Any]], names: Mapping[str, str],
                   letters: Mapping[str, str], threshold: int) -> list[str]:
    rows = ["  Pilot            Hex  Hdg State       DP Ammo  VP Kill Ace   NMR",
            "  " + "-" * 66]
    for pilot, a in planes.items():
        shown = f"{letters.get(pilot, '?')} {names.get(pilot) or pilot}"[:16]
        state = STATE_WORDS.get(str(a["state"]), str(a["state"]))
        on_map = a["state"] in IN_FIGHT
        hex_ = str(a.get("hex", "-")) if on_map else "-"
        hdg = str(a.get("heading", "-")) if on_map else "-"
        rows.append(
            f"  {shown:<16} {hex_:<4} {hdg:<3} {state:<10} {a['damage']:>3} {a['ammo']:>4}"
            f" {a['vp']:>3} {a['kills']:>4} {_ace_cell(a, threshold):<5} {a['nmr']:>3}")
    return rows


def _zeppelin_blocks(name: str, z: Mapping[str, Any], settings: Mapping[str, Any],
                     turn: int) -> list[Block]:
    blocks: list[Block] = [Sub(f"ZEPPELIN {name}")]
    hexes = list(z["hexes"])
    two = len(hexes) > 1
    pool = int(settings.get("zeppelin_damage_points_2" if two else
                            "zeppelin_damage_points_1", 20 if two else 12))
    if z["destroyed"]:
        return [*blocks, Para("Destroyed: it exploded (Z12).")]
    where = (f"nose {hexes[0]}, tail {hexes[1]}" if two
             else f"hex {hexes[0] if hexes else '-'}")
    blocks.append(Para(f"{where}, heading {z['heading']}, {z.get('damage', pool)} of {pool} "
                       "damage points (Z2)", 2, 2))
    how = "steered by the players' votes (Z6-Z11)" if z.get("controlled") else (
        "drifting with the wind (Z3)")
    ready = int(z.get("bomb_ready_turn", 1))
    bomb = ("bomb ready" if ready <= turn else
            f"bomb ready in turn {ready}, {count_word(ready - turn, 'turn')} from now (Z17)")
    first = "already hit" if z.get("first_hit") else "not yet hit: first hit scores 2 (Z5)"
    blocks.append(Para(f"{how}; {bomb}; {first}", 2, 2))
    return blocks


def _weather_blocks(position: Mapping[str, Any]) -> list[Block]:
    blocks: list[Block] = [Sub("WIND, CLOUDS AND AIRFIELDS")]
    wind = position.get("wind") or {}
    strength = int(wind.get("strength", 0))
    text = (f"Wind blows to {wind.get('to', 'N')}, {count_word(strength, 'hex', 'hexes')} a turn"
            " (W1)" if strength else "No wind (W1)")
    text += ("; it may change each turn (W3)." if wind.get("changes") else "; steady.")
    blocks.append(Para(text, 2, 2))
    clouds = clouds_of(position)
    if not clouds:
        blocks.append(Para("No clouds."))
    for i, c in enumerate(clouds, 1):
        kind = "Storm" if c.get("kind") == "storm" else "Cloud"
        blocks.append(Para(f"{kind} {i}: {_hexes(c.get('hexes') or [])}"))
    fields = position.get("airfields") or {}
    bombed = [f"{k} ({v.get('disabled_turns')} turns)" for k, v in sorted(fields.items())
              if (v or {}).get("disabled_turns")]
    blocks.append(Para("Airfields disabled by bombing (Z16, L7): " + ", ".join(bombed))
                  if bombed else Para("All six airfields in service (B5)."))
    return blocks


def state_blocks(position: Mapping[str, Any], names: Mapping[str, str] | None = None,
                 letters: Mapping[str, str] | None = None) -> list[Block]:
    """The aircraft table, the zeppelin, wind, clouds and airfields."""
    names = names or {}
    planes = aircraft_of(position)
    zeps = zeppelins_of(position)
    if letters is None:
        letters = pilot_letters(planes, zeps)
    settings = position.get("settings") or {}
    threshold = int(settings.get("ace_threshold", 15))
    full_dp = int(settings.get("damage_points", 12))
    blocks: list[Block] = [
        Fixed(_aircraft_rows(planes, names, letters, threshold)),
        Para(f"(DP: damage points left of {full_dp}; Ace: damage dealt of {threshold}, V4)",
             2, 2)]
    turn = int(position.get("turn", 1))
    for name, z in zeps.items():
        blocks += _zeppelin_blocks(name, z, settings, turn)
    return blocks + _weather_blocks(position)


def render_state_tables(position: Mapping[str, Any], names: Mapping[str, str] | None = None,
                        letters: Mapping[str, str] | None = None) -> list[str]:
    """``state_blocks`` as text lines (the MAP reply)."""
    return Section("AIRCRAFT", state_blocks(position, names, letters)).lines()


def _orders_section(report: TurnReport, namer: Namer) -> Section:
    before_pilots = [p for p, a in aircraft_of(report.position_before).items()
                     if a["state"] in IN_FIGHT]
    pilots = before_pilots + sorted(p for p in report.orders if p not in before_pilots)
    blocks = orders_blocks(report.orders, pilots, namer)
    if report.dice:
        blocks += [Gap(), Para("Dice rolled this turn (V5): "
                               + " ".join(str(d) for d in report.dice), 0, 2)]
    return Section(f"ORDERS GIVEN FOR TURN {report.turn} (secret until now)", blocks, "orders")


# ---------------------------------------------------------------- the report


def report_document(report: TurnReport, readers: Sequence[str] = ()) -> Document:
    """The tweedekker report as a document: personal blocks for ``readers`` (the
    pilots the recipient flies), the turn at a glance when there are none."""
    namer = Namer(report)
    winners = ", ".join(namer(w) for w in report.winners) or "nobody"
    many = "s" if len(report.winners) > 1 else ""
    mine = [p for p in readers if p in namer.pilots]
    sections = [head_section(report, report.ruleset.title(),
                             f"GAME OVER. Winner{many}: {winners}")]
    sections += ([pilot_section(report, p, namer) for p in mine] if mine
                 else [glance_section(report, namer)])
    postal = _postal_section(report, namer)
    sections += [postal] if postal else []
    sections += [_moves_section(report, namer),
                 Section("AIRCRAFT", state_blocks(report.position_after, namer.names,
                                                  namer.letters), "tables"),
                 _orders_section(report, namer), _map_section(report, namer),
                 foot_section(report)]
    return Document(sections)


def render_report(report: TurnReport, readers: Sequence[str] = ()) -> str:
    """The whole tweedekker turn report as text, every line at most 70 characters.
    (Fast Play and Diplomacy reports have renderers of their own.)"""
    return report_document(report, readers).text()


def render_map_reply(position: Mapping[str, Any], names: Mapping[str, str] | None = None,
                     title: str = "") -> str:
    """The answer to MAP in tweedekker: the board now, its key and the state of play."""
    names = dict(names or {})
    letters = pilot_letters(aircraft_of(position), zeppelins_of(position))
    turn = position.get("turn", "?")
    head = f"{title + ': ' if title else ''}the sky at the start of turn {turn}"
    lines = wrap(head, "", "  ") + [""]
    lines += render_map(position, letters)
    lines += map_legend(position, letters, names)
    lines += render_state_tables(position, names, letters)
    return "\n".join(line[:WIDTH].rstrip() for line in lines) + "\n"
