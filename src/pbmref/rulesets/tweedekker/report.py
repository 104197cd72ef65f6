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
    WIDTH,
    count_word,
    format_deadline,
    wrap,
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
from pbmref.rules.eventdata import Event, UnknownEvent
from pbmref.rules.hexgrid import Heading, HexBoard
from pbmref.rules.tweedekker import events as ev
from pbmref.rules.tweedekker.state import CloudKind, GameState, Zeppelin
from pbmref.rulesets.air.names import Namer
from pbmref.rulesets.air.report import (
    Teller,
    foot_section,
    head_section,
    orders_blocks,
)
from pbmref.rulesets.tweedekker.asciimap import letters_of, map_legend, render_map
from pbmref.rulesets.tweedekker.personal import glance_section, pilot_section
from pbmref.rulesets.tweedekker.turn import Turn

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

class _Teller(Teller):
    """A ``Teller`` that names the turn's pilots and zeppelins by its ``Namer``
    (and knows their map letters)."""

    def __init__(self, namer: Namer, board: HexBoard) -> None:
        super().__init__(namer, board)
        self.namer = namer


# ---------------------------------------------------------------- the head


def _map_section(turn: Turn, namer: Namer) -> Section:
    after = turn.after
    when = "at the end of the game" if turn.report.game_over else (
        f"at the start of turn {after.turn}")
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
        move = e.move
        if isinstance(e, ev.Manoeuvred):
            code = e.manoeuvre or "-"
            if e.outcome in ("stayed", "skipped"):
                code = "-"
            moves.setdefault(e.pilot, {})[move] = code
        elif isinstance(e, ev.Burst):
            fired.setdefault((e.shooter, move), []).append(e.direction)
        elif isinstance(e, ev.Hit):
            scored.add((e.shooter, move))
        elif isinstance(e, ev.Damaged):
            was_hit.add((e.target, move))
    return moves, fired, scored, was_hit


def _postal_section(events: Sequence[Event], namer: Namer) -> Section | None:
    """One line per pilot: the three moves flown, with * and [ ] marks."""
    moves, fired, scored, was_hit = _postal_marks(events)
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

    def __init__(self, events: Sequence[Event]) -> None:
        self.bursts = [e for e in events if isinstance(e, ev.Burst)]
        self.hits: dict[int, list[ev.Hit]] = {i: [] for i in range(len(self.bursts))}
        by_shooter: dict[str, list[tuple[int, ev.Burst]]] = {}  # each shooter's bursts, in order
        for i, b in enumerate(self.bursts):
            by_shooter.setdefault(b.shooter, []).append((i, b))
        for hit in (e for e in events if isinstance(e, ev.Hit)):
            for i, b in by_shooter.get(hit.shooter, ()):
                if (hit.target in b.targets
                        and all(h.target != hit.target for h in self.hits[i])):
                    self.hits[i].append(hit)
                    break


STOPS = {"range": "", "cloud": ", cloud blocks (F4)", "zeppelin": ", zeppelin blocks (F5)",
         "edge": ", to the edge"}


def _burst_blocks(burst: ev.Burst, hits: list[ev.Hit], tell: _Teller) -> list[Block]:
    stop = burst.stopped_by
    hit_distances = {h.distance for h in hits}
    shown = " ".join(f"{hx}*" if i + 1 in hit_distances else hx
                     for i, hx in enumerate(tell.names(burst.line))) or "(nowhere)"
    why = STOPS.get(stop, f", stopped by {stop}")
    out: list[Block] = [Para(f"{tell(burst.shooter)} fires {burst.direction} "
                             f"from {tell.hex(burst.from_hex)}: {shown}{why}", 4, 6)]
    if hits:
        parts = [f"{tell(h.target)} {h.damage} (at {h.distance})" for h in hits]
        out.append(Para("hits " + ", ".join(parts), 6, 8))
    else:
        out.append(Para("no hit", 6, 8))
    return out


MANOEUVRE_WORDS: dict[str, Callable[[str, str, str, Heading], str]] = {
    "stayed": lambda code, src, dst, hd: f"   stays landed at {dst}",
    "skipped": lambda code, src, dst, hd: f"{code:<3} ignored: already landed (L4)",
    "held": lambda code, src, dst, hd: f"{code:<3} {src} holds, facing {hd}",
    "left": lambda code, src, dst, hd: f"{code:<3} {src} -> off the board: out of the fight (M4)",
    "landed": lambda code, src, dst, hd: f"{code:<3} {src} -> {dst} LANDED (L4)",
    "taxied": lambda code, src, dst, hd: f"{code:<3} {src} -> {dst} {hd}, taxiing (L3)",
}


def _flew(code: str, src: str, dst: str, hd: Heading) -> str:
    return f"{code:<3} {src} -> {dst} {hd}"


def _manoeuvre_block(e: ev.Manoeuvred, tell: _Teller) -> Para:
    who = f"{tell.namer.tagged(e.pilot)[:16]:<16}"
    code = e.manoeuvre or "-"
    words = MANOEUVRE_WORDS.get(e.outcome, _flew)
    text = f"{who} " + words(code, tell.hex(e.from_hex), tell.hex(e.to_hex), e.heading)
    if e.reason and not (e.outcome == "taxied" and "L3" in e.reason):
        text += f"  ({e.reason})"
    return Para(text, 2, 23)


def _vote_blocks(e: ev.VoteTally, tell: _Teller) -> list[Block]:
    half = "movement" if e.half == "move" else "fire"
    counts = ", ".join(f"{c} {n}" for c, n in e.counts)
    if not e.votes:
        what = "it holds" if half == "movement" else "it holds fire"
        return [Para(f"Zeppelin {e.zeppelin} {half} vote: none cast, {what} (Z7)")]
    if e.tie:
        result = ("(Z7: tie, the zeppelin holds)" if half == "movement"
                  else "(Z7: tie, no fire)")
    else:
        result = f"-> {e.winner} (Z7)"
    out: list[Block] = [Para(f"Zeppelin {e.zeppelin} {half} vote: {counts or '-'} "
                             f"{result}")]
    votes = ", ".join(f"{tell(p)} {c}" for p, c in e.votes)
    if votes:
        out.append(Para(f"votes: {votes}", 4, 6))
    return out


def _zeppelin_move(e: ev.ZeppelinMoved, tell: _Teller) -> str:
    how = "drifts" if e.order == "drift" else f"flies {e.order}:"
    text = (f"Zeppelin {e.zeppelin} {how} {tell.hexes(e.from_hexes)} -> "
            f"{tell.hexes(e.to_hexes)}, heading {e.heading}")
    return text + (", re-entering across the board (Z4)" if e.reentered else "")


def _damage(e: ev.Damaged, tell: _Teller) -> str:
    rule = {"storm": " (C2)", "bomb": " (Z15)", "explosion": " (Z12)"}.get(e.cause, "")
    rem = e.remaining
    left = f"{rem} left" if rem > 0 else f"{rem} left: DESTROYED"
    return f"{tell(e.target)} takes {e.amount} from {e.cause}{rule}, {left}"


POINTS_RULES = {"damage": "V1", "kill": "V2", "zeppelin first hit": "Z5",
                "zeppelin destroyed": "Z5"}


def _points(e: ev.PointsScored, tell: _Teller) -> str:
    reason = e.reason
    rule = POINTS_RULES.get(reason, "")
    target = tell(e.target) if e.target else ""
    what = {
        "damage": f"damage to {target}", "kill": f"the kill of {target}",
        "zeppelin first hit": f"the first hit on {target}",
        "zeppelin destroyed": f"destroying {target}",
    }.get(reason, f"{reason} {target}".strip())
    return f"{tell(e.pilot)} +{e.points} VP for {what}" + (
        f" ({rule})" if rule else "")


def _destroyed(e: ev.ShotDown, tell: _Teller) -> str:
    target = tell(e.target)
    if e.target in tell.namer.zeppelins:
        by = (f" by {tell(e.credited_to)}'s gunfire" if e.credited_to
              else f" by {e.reason}")
        return f"*** {target} is destroyed{by} (Z5)"
    if e.credited_to:
        return f"*** {target} is shot down: a kill for {tell(e.credited_to)} (V2)"
    return f"*** {target} is destroyed by {e.reason}: nobody's kill (V2)"


def _explosion(e: ev.Exploded, tell: _Teller) -> str:
    parts = [f"{tell(p)} {dmg} (at {dist})" for p, dist, dmg in e.damage]
    return (f"*** Zeppelin {e.zeppelin} EXPLODES at {tell.hexes(e.hexes)} (Z12): "
            + (", ".join(parts) if parts else "nobody near"))


def _bomb(e: ev.BombDropped, tell: _Teller) -> str:
    outcome = e.outcome
    votes = count_word(e.votes, "vote")
    zep = f"Zeppelin {e.zeppelin}"
    text = {
        "aircraft hit": f"{zep} bombs airfield {e.airfield} ({votes}): hits "
                        + ", ".join(tell(t) for t in e.targets) + " (Z15)",
        "airfield disabled": f"{zep} bombs airfield {e.airfield}: airfield disabled "
                             "(Z16)",
        "no airfield": f"{zep}: bomb vote won but it is over no airfield, no bomb (Z14)",
        "not ready": f"{zep}: bomb vote won but no bomb is ready (Z14, Z17)",
    }.get(outcome, f"{zep} bomb: {outcome}")
    if e.ready_turn and outcome in ("aircraft hit", "airfield disabled"):
        text += f"; next bomb ready in turn {e.ready_turn} (Z17)"
    return text


def _die(e: ev.DieRolled, tell: _Teller) -> str:
    die = f"{e.value}" + ("" if e.sides == 6 else f" on a d{e.sides}")
    if e.purpose == "wind change":
        return f"Wind: die {die}, the wind holds (W3)"
    who = tell(e.who) if e.who else ""
    about = f" about {tell(e.target)}" if e.target else ""
    return f"Die for {e.purpose}{about}: {who + ' ' if who else ''}rolls {die} (V5)"


def _game_over(e: ev.GameEnded, tell: _Teller) -> str:
    winners = ", ".join(tell(w) for w in e.winners) or "nobody"
    many = "s" if len(e.winners) == 1 else ""
    return f"GAME OVER ({e.reason}, V6): {winners} win{many}"


def _drift(e: ev.Drifted, tell: _Teller) -> str:
    return f"Cloud {e.cloud + 1} drifts {tell.hexes(e.from_hexes)} -> {tell.hexes(e.to_hexes)} (W2)"


# The events said in one line of their fields (``Teller.line``).
LINE_WORDS: dict[type[Event], str] = {
    ev.TookOff: "{who} takes off on runway {runway} (L3)",
    ev.AircraftLanded: "{who} lands on runway {runway} of airfield {e.airfield} (L4)",
    ev.AirfieldBombed: "Airfield {e.airfield} cannot refill or repair for {e.turns} more turns "
                       "(Z16, L7)",
    ev.Repaired: "{who} repairs {e.amount}, now {e.damage} damage points (L6)",
    ev.Refilled: "{who} refills to {e.ammo} rounds (L5)",
    ev.MissedOrders: "{who}: no orders received, NMR {e.count} in a row (N1)",
    ev.Removed: "{who} is removed from the game ({e.reason}, N2)",
    ev.AcePromoted: "{who} becomes an ACE, {e.dealt} damage dealt (V4)",
    ev.WindChanged: "Wind: die {e.roll}, wind now blows to {e.after} (was {e.before}) (W3)",
}


def _line(e: Event, tell: _Teller) -> str:
    return tell.line(LINE_WORDS, e)


# Every event but manoeuvres, votes, bursts and hits, in words, by its class
# (each function reads the fields of its own class).
EVENT_WORDS: dict[type[Event], Callable[[Any, _Teller], str]] = {
    ev.ZeppelinMoved: _zeppelin_move, ev.Damaged: _damage, ev.PointsScored: _points,
    ev.ShotDown: _destroyed, ev.Exploded: _explosion, ev.BombDropped: _bomb,
    ev.Drifted: _drift, ev.GameEnded: _game_over, ev.DieRolled: _die,
    **dict.fromkeys(LINE_WORDS, _line),
}


def _event_block(e: Event, tell: _Teller, wind_changed: bool = False) -> list[Block]:
    """Any event other than manoeuvres, votes, bursts and hits."""
    if isinstance(e, ev.DieRolled) and e.purpose == "wind change" and wind_changed:
        return []  # the wind event says it
    if isinstance(e, UnknownEvent):  # its data, not lost
        return [Para(e.words())]
    text = EVENT_WORDS[type(e)](e, tell)
    big = text.startswith("***")
    return [Para(text, 2, 6 if big else 4, strong=big)]


MOVING = (ev.Manoeuvred, ev.ZeppelinMoved, ev.TookOff)


def _move_blocks(title: str, events: list[Event], tell: _Teller) -> list[Block]:
    blocks: list[Block] = [Sub(title)]
    for e in events:
        if isinstance(e, ev.VoteTally):
            blocks += _vote_blocks(e, tell)
    moving = [e for e in events if isinstance(e, MOVING)]
    if moving and len(blocks) > 1:
        blocks.append(Gap())
    for e in moving:
        blocks += ([_manoeuvre_block(e, tell)] if isinstance(e, ev.Manoeuvred)
                   else _event_block(e, tell))
    fire = _Fire(events)
    if fire.bursts:
        blocks += [Gap(), Para("Fire:", 2, 2)]
        for i, burst in enumerate(fire.bursts):
            blocks += _burst_blocks(burst, fire.hits[i], tell)
    rest = [e for e in events if not isinstance(e, (ev.VoteTally, *MOVING, ev.Burst, ev.Hit))]
    wind_changed = any(isinstance(e, ev.WindChanged) for e in rest)
    if rest and len(blocks) > 1:
        blocks.append(Gap())
    for e in rest:
        blocks += _event_block(e, tell, wind_changed)
    if len(blocks) == 1:
        blocks.append(Para("nothing happened"))
    return blocks


def _moves_section(events: Sequence[Event], tell: _Teller) -> Section:
    before_first: list[Event] = []
    by_move: dict[int, list[Event]] = {}
    end: list[Event] = []
    for e in events:
        m = e.move
        if m:
            by_move.setdefault(m, []).append(e)
        else:
            (end if by_move else before_first).append(e)
    blocks: list[Block] = []
    if before_first:
        blocks += _move_blocks("Before move 1", before_first, tell)
    for m in sorted(by_move):
        blocks += _move_blocks(f"Move {m}", by_move[m], tell)
    if end:
        blocks += _move_blocks("End of turn (T3)", end, tell)
    if not events:
        blocks.append(Para("No events were recorded for this turn."))
    return Section("MOVE BY MOVE", blocks, "moves")


# ---------------------------------------------------------------- the tables


def _aircraft_rows(state: GameState, names: Mapping[str, str],
                   letters: Mapping[str, str]) -> list[str]:
    rows = ["  Pilot            Hex  Hdg State       DP Ammo  VP Kill Ace   NMR",
            "  " + "-" * 66]
    threshold = state.settings.ace_threshold
    for a in state.aircraft:
        shown = f"{letters.get(a.pilot, '?')} {names.get(a.pilot) or a.pilot}"[:16]
        state_word = STATE_WORDS.get(a.state.value, a.state.value)
        hex_ = state.board.name(a.hex) if a.in_fight else "-"
        hdg = str(a.heading) if a.in_fight else "-"
        ace = "ACE" if a.ace else f"{a.dealt}/{threshold}"
        rows.append(
            f"  {shown:<16} {hex_:<4} {hdg:<3} {state_word:<10} {a.damage:>3} {a.ammo:>4}"
            f" {a.vp:>3} {a.kills:>4} {ace:<5} {a.nmr:>3}")
    return rows


def _zeppelin_blocks(z: Zeppelin, state: GameState) -> list[Block]:
    blocks: list[Block] = [Sub(f"ZEPPELIN {z.name}")]
    hexes = state.board.names(z.hexes)
    two = len(hexes) > 1
    settings = state.settings
    pool = settings.zeppelin_damage_points_2 if two else settings.zeppelin_damage_points_1
    if z.destroyed:
        return [*blocks, Para("Destroyed: it exploded (Z12).")]
    where = (f"nose {hexes[0]}, tail {hexes[1]}" if two
             else f"hex {hexes[0] if hexes else '-'}")
    blocks.append(Para(f"{where}, heading {z.heading}, {z.damage} of {pool} "
                       "damage points (Z2)", 2, 2))
    how = "steered by the players' votes (Z6-Z11)" if z.controlled else (
        "drifting with the wind (Z3)")
    ready, turn = z.bomb_ready_turn, state.turn
    bomb = ("bomb ready" if ready <= turn else
            f"bomb ready in turn {ready}, {count_word(ready - turn, 'turn')} from now (Z17)")
    first = "already hit" if z.first_hit else "not yet hit: first hit scores 2 (Z5)"
    blocks.append(Para(f"{how}; {bomb}; {first}", 2, 2))
    return blocks


def _weather_blocks(state: GameState) -> list[Block]:
    blocks: list[Block] = [Sub("WIND, CLOUDS AND AIRFIELDS")]
    wind = state.wind
    text = (f"Wind blows to {wind.to}, {count_word(wind.strength, 'hex', 'hexes')} a turn"
            " (W1)" if wind.strength else "No wind (W1)")
    text += ("; it may change each turn (W3)." if wind.changes else "; steady.")
    blocks.append(Para(text, 2, 2))
    if not state.clouds:
        blocks.append(Para("No clouds."))
    for i, c in enumerate(state.clouds, 1):
        kind = "Storm" if c.kind is CloudKind.STORM else "Cloud"
        blocks.append(Para(f"{kind} {i}: {' '.join(state.board.names(c.hexes)) or '-'}"))
    bombed = [f"{f.corner} ({f.disabled_turns} turns)"
              for f in sorted(state.airfields, key=lambda f: f.corner.value) if f.disabled_turns]
    blocks.append(Para("Airfields disabled by bombing (Z16, L7): " + ", ".join(bombed))
                  if bombed else Para("All six airfields in service (B5)."))
    return blocks


def state_blocks(state: GameState, names: Mapping[str, str] | None = None,
                 letters: Mapping[str, str] | None = None) -> list[Block]:
    """The aircraft table, the zeppelin, wind, clouds and airfields."""
    names = names or {}
    if letters is None:
        letters = letters_of(state)
    settings = state.settings
    blocks: list[Block] = [
        Fixed(_aircraft_rows(state, names, letters)),
        Para(f"(DP: damage points left of {settings.damage_points}; Ace: damage dealt of "
             f"{settings.ace_threshold}, V4)", 2, 2)]
    for z in sorted(state.zeppelins, key=lambda z: z.name):
        blocks += _zeppelin_blocks(z, state)
    return blocks + _weather_blocks(state)


def render_state_tables(state: GameState, names: Mapping[str, str] | None = None,
                        letters: Mapping[str, str] | None = None) -> list[str]:
    """``state_blocks`` as text lines (the MAP reply)."""
    return Section("AIRCRAFT", state_blocks(state, names, letters)).lines()


def _orders_section(turn: Turn, namer: Namer) -> Section:
    report = turn.report
    before_pilots = [a.pilot for a in turn.before.aircraft if a.in_fight]
    pilots = before_pilots + sorted(p for p in report.orders if p not in before_pilots)
    blocks = orders_blocks(report.orders, pilots, namer)
    if report.dice:
        blocks += [Gap(), Para("Dice rolled this turn (V5): "
                               + " ".join(str(d) for d in report.dice), 0, 2)]
    return Section(f"ORDERS GIVEN FOR TURN {report.turn} (secret until now)", blocks, "orders")


# ---------------------------------------------------------------- the report


def report_document(report: TurnReport[Event], readers: Sequence[str] = ()) -> Document:
    """The tweedekker report as a document: personal blocks for ``readers`` (the
    pilots the recipient flies), the turn at a glance when there are none."""
    turn = Turn.of(report)
    namer = turn.namer
    winners = ", ".join(namer(w) for w in report.winners) or "nobody"
    many = "s" if len(report.winners) > 1 else ""
    mine = [p for p in readers if p in namer.pilots]
    sections = [head_section(report, report.ruleset.title(),
                             f"GAME OVER. Winner{many}: {winners}")]
    sections += ([pilot_section(turn, p) for p in mine] if mine
                 else [glance_section(turn)])
    postal = _postal_section(turn.events, namer)
    sections += [postal] if postal else []
    sections += [_moves_section(turn.events, _Teller(namer, turn.board)),
                 Section("AIRCRAFT", state_blocks(turn.after, namer.names, namer.letters),
                         "tables"),
                 _orders_section(turn, namer), _map_section(turn, namer),
                 foot_section(report)]
    return Document(sections)


def render_report(report: TurnReport[Event], readers: Sequence[str] = ()) -> str:
    """The whole tweedekker turn report as text, every line at most 70 characters.
    (Fast Play and Diplomacy reports have renderers of their own.)"""
    return report_document(report, readers).text()


def render_map_reply(state: GameState, names: Mapping[str, str] | None = None,
                     title: str = "") -> str:
    """The answer to MAP in tweedekker: the board now, its key and the state of play."""
    names = dict(names or {})
    letters = letters_of(state)
    head = f"{title + ': ' if title else ''}the sky at the start of turn {state.turn}"
    lines = wrap(head, "", "  ") + [""]
    lines += render_map(state, letters)
    lines += map_legend(state, letters, names)
    lines += render_state_tables(state, names, letters)
    return "\n".join(line[:WIDTH].rstrip() for line in lines) + "\n"
