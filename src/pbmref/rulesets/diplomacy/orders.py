"""Reading Diplomacy / Dirigible Diplomacy order lines (grammar/diplomacy.lark).

Two steps, both raising only ``pbmref.orders.errors`` exceptions:

- ``parse_line(text)`` reads one line into a :class:`ParsedOrder` (syntax and
  province names);
- ``to_order(parsed, power, position)`` makes the engine's typed order,
  filling in what the position makes plain (the unit type, a fleet's coast,
  the one coast a fleet can reach), and with ``strict=True`` checks it
  against the position (the unit is there, an army does not go to sea, a
  supporter can reach the place, builds go in free owned home centres within
  the supply points...).

``parse_body(lines, power, position)`` does both for a whole mail body and
raises every error at once (a mail is accepted or rejected whole).
Rule numbers refer to shared/rules/dirigible-diplomacy.md.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import lru_cache

from lark import Lark, Token, Tree
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from pbmref.orders.errors import IllegalOrderError, OrderMailError, OrderSyntaxError, raise_all
from pbmref.orders.lines import clean_line, grammar_text, keyword_led
from pbmref.orders.nearest import ENVELOPE_WORDS, nearest
from pbmref.rules.diplomacy import orders as typed
from pbmref.rules.diplomacy.adjust import balance, build_problem
from pbmref.rules.diplomacy.dirigible import UPKEEP
from pbmref.rules.diplomacy.legal import movement_problem, retreat_problem
from pbmref.rules.diplomacy.map import GameMap, Loc, display, standard_map
from pbmref.rules.diplomacy.retreat import options_for
from pbmref.rules.diplomacy.state import Position, UnitType
from pbmref.rules.diplomacy.variant import map_of

__all__ = [
    "ParsedOrder",
    "as_written_plain",
    "order_line",
    "Place",
    "parse_body",
    "parse_line",
    "parse_orders",
    "to_order",
]

_KINDS = {"a": UnitType.ARMY, "army": UnitType.ARMY, "f": UnitType.FLEET, "fleet": UnitType.FLEET,
          "d": UnitType.DIRIGIBLE, "dirigible": UnitType.DIRIGIBLE, "air": UnitType.DIRIGIBLE}


@dataclass(frozen=True)
class Place:
    prov: str
    coast: str
    column: int  # 1-based column of the name in the line
    width: int
    text: str

    @property
    def loc(self) -> Loc:
        return Loc(self.prov, self.coast)


@dataclass(frozen=True)
class ParsedOrder:
    """One line as written: ``action`` is hold | move | retreat | support_hold |
    support_move | convoy | devastate | build | disband | waive."""

    action: str
    kind: UnitType | None = None
    place: Place | None = None
    target_kind: UnitType | None = None
    target: Place | None = None
    dest: Place | None = None
    via_convoy: bool = False
    line_no: int | None = None
    line: str = ""


@lru_cache(maxsize=1)
def _parser() -> Lark:
    return Lark(grammar_text("diplomacy.lark"), parser="lalr", lexer="contextual",
                propagate_positions=True)


_HYPHENATED = re.compile(r"(?i)\b(mid)-(atlantic)")
# A list number in front of an order: "1. A Par - Bur", "2) F Lon H", "(3) ...", "#4".
_NUMBERED = re.compile(r"^\s*(?:\(\d{1,3}\)|#?\d{1,3}[.):]?)\s+(?=[A-Za-z])")
# A coast as words after a province: "Spa nc", "Spain north coast", "StP (south coast)".
_COAST_WORDS = re.compile(
    r"(?i)(?<=[A-Za-z.'])\s*(?:\(\s*)?(?:(north|south|east|west)(?:ern)?\s+coast"
    r"|(?<=\s)([nsew])c)(?:\s*\))?(?![A-Za-z.'])")


@lru_cache(maxsize=1)
def _other_language_names() -> dict[str, str]:
    """Province names in other languages (data/diplomacy/other_names.yaml):
    the name as written, and without its accents, folded -> the English name."""
    import unicodedata
    from importlib import resources

    import yaml

    text = resources.files("pbmref").joinpath("data", "diplomacy", "other_names.yaml")
    table: dict[str, dict[str, str]] = yaml.safe_load(text.read_text(encoding="utf-8"))
    out: dict[str, str] = {}
    for names in table.values():
        for written, english in names.items():
            plain = "".join(c for c in unicodedata.normalize("NFKD", written)
                            if not unicodedata.combining(c))
            for form in (written, plain):
                words = " ".join(form.replace("-", " ").split())
                out[words.casefold()] = out[words.lower()] = english  # "Preußen", "preussen"
    return out


@lru_cache(maxsize=16)
def _other_names_pattern(m: GameMap) -> tuple[re.Pattern[str], dict[str, str]] | None:
    """A pattern finding the other-language names of the map's provinces (those
    whose English name the map has, and that are no name of the map itself)."""
    names = {k: v for k, v in _other_language_names().items()
             if m.lookup(v) is not None and m.lookup(k) is None}
    if not names:
        return None
    words = sorted(names, key=len, reverse=True)
    alts = "|".join(r"[\s-]+".join(re.escape(w) for w in name.split()) for name in words)
    return re.compile(rf"(?<!\w)(?:{alts})(?!\w)", re.I), names


def _other_language(clean: str, text: str, line_no: int | None,
                    m: GameMap) -> OrderSyntaxError | None:
    """"did you mean Munich?" for a province named in another language (München,
    Nápoles, Mer du Nord), which the map does not know."""
    found = _other_names_pattern(m)
    if found is None:
        return None
    pattern, names = found
    hit = pattern.search(clean)
    if hit is None:
        return None
    english = names[" ".join(hit.group().replace("-", " ").split()).casefold()]
    abbr = m.lookup(english)
    return OrderSyntaxError(
        f"'{hit.group()}' is not a province of the map: did you mean {english}?",
        line_no=line_no, line=text, column=hit.start() + 1, width=len(hit.group()),
        hint=f"write {english}" + (f" (or {display(abbr)})" if abbr else ""),
        suggestion=english)


def as_written_plain(clean: str) -> str:
    """A cleaned order line with what people write around an order made plain,
    column for column (spaces fill what is taken out, so a caret still points
    at what the player wrote): a list number in front, a coast in words.

    >>> as_written_plain("1. A Par - Bur")
    '   A Par - Bur'
    >>> as_written_plain("F Mao - Spain north coast S")
    'F Mao - Spain/nc          S'
    >>> as_written_plain("F Mao - Spa nc")
    'F Mao - Spa/nc'
    """
    number = _NUMBERED.match(clean)
    if number:
        clean = " " * number.end() + clean[number.end():]

    def coast(m: re.Match[str]) -> str:
        letter = (m.group(1) or m.group(2))[0].lower()
        return f"/{letter}c".ljust(len(m.group(0)))

    return _COAST_WORDS.sub(coast, clean)

_EXPECTED_WORDS = {
    "ARROW": "'-' and a destination",
    "SUPPORT": "S (support)",
    "CONVOY": "C (convoy)",
    "HOLD": "H (hold)",
    "WORD": "a province",
    "ARMY": "a unit type (A, F or D)",
    "FLEET": "a unit type (A, F or D)",
    "DIRIGIBLE": "a unit type (A, F or D)",
    "$END": "the end of the order",
    "VIA": "'via convoy'",
    "COAST": "a coast (nc, sc or ec)",
    "DEVASTATE": "devastate",
    "DISBAND": "disband",
    "BUILD": "Build",
    "WAIVE": "Waive",
    "RETREAT": "R (retreat)",
    "SLASH": "a coast such as /sc",
    "LPAR": "a coast such as (sc)",
    "RPAR": "')'",
    "CONVOY_WORD": "'convoy'",
}


# What a line may hold next, most telling first; a few are named, not all.
_EXPECTED_ORDER = ("ARROW", "SUPPORT", "CONVOY", "HOLD", "DEVASTATE", "DISBAND", "RETREAT",
                   "WORD", "ARMY", "SLASH", "LPAR", "COAST", "RPAR", "VIA", "CONVOY_WORD",
                   "$END")
_MAX_EXPECTED = 4
_MAX_FIX = 70  # characters of a fix, so it fits a phone's line

# The shape of an order, in the words of the phase (for "How to fix").
_LOOKS_LIKE = {
    "M": "orders look like A Par - Bur, F Lon S F Nth - Eng, D Mun devastate",
    "R": "a retreat looks like A Mun - Boh; or write Disband A Mun",
    "A": "one a line: Build A Par, Disband A War or Waive",
    "": "orders look like A Par - Bur, F Lon S F Nth - Eng or Build A Ber",
}
_UNIT_TOKENS = ("ARMY", "FLEET", "DIRIGIBLE")
# Words an order line starts with, for "did you mean".
_ORDER_WORDS = ("Build", "Disband", "Waive", "Remove", "Army", "Fleet", "Dirigible")


def _expected_text(expected: Iterable[str]) -> str:
    names = set(expected)
    words: list[str] = []
    for name in _EXPECTED_ORDER:
        w = _EXPECTED_WORDS.get(name)
        if name in names and w and w not in words:
            words.append(w)
    if not words:
        return "an order such as 'A Par - Bur'"
    words = words[:_MAX_EXPECTED]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]


def _looks_like(phase: str) -> str:
    return _LOOKS_LIKE.get(phase, _LOOKS_LIKE[""])


def _next_orders(text: str, start: int) -> list[str]:
    """The orders written on after ``start`` (0-based), each from its unit type:
    ``"F Edi  A Lvp"`` -> ``["F Edi", "A Lvp"]``."""
    pieces = re.split(r"(?i)(?:^|\s)(?=(?:a|f|d|army|fleet|dirigible)\s+[A-Za-z])",
                      text[start:])
    return [" ".join(p.split()) for p in pieces if p.strip()]


def _syntax_error(e: UnexpectedInput, text: str, line_no: int | None,
                  phase: str = "") -> OrderSyntaxError:
    column = getattr(e, "column", None)
    clean = clean_line(text)
    if isinstance(e, UnexpectedEOF) or (isinstance(e, UnexpectedToken) and e.token.type == "$END"):
        expected = _expected_text(getattr(e, "expected", ()) or ())
        return OrderSyntaxError(
            "the order stops too soon", line_no=line_no, line=text,
            column=len(text.rstrip()) + 1, expected=expected, hint=_looks_like(phase))
    if isinstance(e, UnexpectedToken):
        return _token_error(e, text, clean, line_no, phase)
    assert isinstance(e, UnexpectedCharacters)
    pos = e.pos_in_stream or 0
    ch = text[pos] if pos < len(text) else "?"
    return OrderSyntaxError(
        f"'{ch}' cannot be read here",
        line_no=line_no, line=text, column=column,
        expected=_expected_text(e.allowed or ()),
        hint="use letters for provinces, '-' for moves and '/sc' or '(sc)' for coasts",
    )


def _token_error(e: UnexpectedToken, text: str, clean: str, line_no: int | None,
                 phase: str) -> OrderSyntaxError:
    """A word the grammar does not expect: a misspelt first word, a second order
    on the line, or a word out of place."""
    tok = e.token
    col = tok.column or 1
    at = {"line_no": line_no, "line": text, "column": col, "width": max(1, len(str(tok)))}
    first = clean.split()[0] if clean.split() else ""
    meant = nearest(first, (*_ORDER_WORDS, *ENVELOPE_WORDS)) if col > 1 else None
    if meant is not None:
        return OrderSyntaxError(
            f"I cannot read {first} here: did you mean {meant}?", line_no=line_no,
            line=text, column=len(clean) - len(clean.lstrip()) + 1, width=len(first),
            hint=f"write {meant}", suggestion=meant)
    if tok.type in _UNIT_TOKENS + ("BUILD", "DISBAND", "WAIVE") and col > 1:
        return _second_order_error(clean, col, first, str(tok), at)
    return OrderSyntaxError(f"'{tok}' is not expected here", **at,
                            expected=_expected_text(e.expected), hint=_looks_like(phase))


def _second_order_error(clean: str, col: int, first: str, tok: str,
                        at: dict[str, object]) -> OrderSyntaxError:
    """A second order on the line: "Build F Lon, F Edi", "A Par - Bur A Mar - Spa"."""
    building = first.lower() in ("build", "builds")
    prefix = "Build " if building else ""
    rest = [prefix + r if building and not r.lower().startswith("build") else r
            for r in _next_orders(clean, col - 1)] or [tok]
    every = [" ".join(clean[:col - 1].split()), *rest]
    lines = "one a line: " + " / ".join(every)
    return OrderSyntaxError(
        f"one {'build' if building else 'order'} a line: {rest[0]} goes on a line "
        "of its own", **at,
        hint=lines if len(lines) <= _MAX_FIX else "put each on a line of its own")


def _kind(tree: Tree[Token]) -> UnitType:
    tok = tree.children[0]
    assert isinstance(tok, Token)
    return _KINDS[str(tok).lower()]


def _place(tree: Tree[Token], text: str, line_no: int | None, m: GameMap) -> Place:
    name_tree = tree.children[0]
    assert isinstance(name_tree, Tree)
    words = [t for t in name_tree.children if isinstance(t, Token)]
    start = words[0].column or 1
    end_tok = words[-1]
    end = (end_tok.end_column or (start + len(str(end_tok))))
    written = " ".join(str(w) for w in words)
    coast = ""
    if len(tree.children) > 1:
        ctree = tree.children[1]
        assert isinstance(ctree, Tree)
        for t in ctree.children:
            if isinstance(t, Token) and t.type == "COAST":
                coast = str(t).lower()
    prov = m.lookup(written)
    if prov is None:
        raise _unknown_place(words, text, line_no, m, start, end)
    return Place(prov, coast, start, max(1, end - start), written)


def _unknown_place(words: list[Token], text: str, line_no: int | None, m: GameMap,
                   start: int, end: int) -> OrderSyntaxError:
    """No province by the name written: a misspelt order word before it, the
    province it is nearest to, or a '-' left out between two names."""
    written = " ".join(str(w) for w in words)
    hint = None
    first = m.lookup(str(words[0]))
    if len(words) > 1 and first is not None:
        rest = " ".join(str(w) for w in words[1:])
        hint = f"is a '-' missing? e.g. '{words[0]} - {rest}'"
    leading = start == len(text) - len(text.lstrip()) + 1  # no unit type before it
    keyword = nearest(str(words[0]), (*_ORDER_WORDS, *ENVELOPE_WORDS)) if leading else None
    if keyword is not None and len(words) > 1:  # "PASWORD swordfish", "Biuld Lon"
        return OrderSyntaxError(
            f"I cannot read {words[0]} here: did you mean {keyword}?", line_no=line_no,
            line=text, column=start, width=len(str(words[0])), hint=f"write {keyword}",
            suggestion=keyword)
    meant = nearest(written, _province_names(m) + (ENVELOPE_WORDS if leading else ()))
    if meant is not None:
        abbr = m.lookup(meant)
        return OrderSyntaxError(
            f"'{written}' is not a province of the map: did you mean {meant}?",
            line_no=line_no, line=text, column=start, width=max(1, end - start),
            hint=f"write {meant}" + (f" (or {display(abbr)})" if abbr else ""),
            suggestion=meant)
    return OrderSyntaxError(
        f"'{written}' is not a province of the map",
        line_no=line_no, line=text, column=start, width=max(1, end - start),
        expected="a province name or its three-letter abbreviation (Par, Nth, StP)",
        hint=hint,
    )


@lru_cache(maxsize=16)
def _province_names(m: GameMap) -> tuple[str, ...]:
    """Every province's full name ("Yorkshire", "North Sea"), for "did you mean"."""
    return tuple(p.name for p in m.provinces.values())


def parse_line(text: str, line_no: int | None = None, game_map: GameMap | None = None
               ) -> ParsedOrder:
    """Read one order line (syntax and province names of ``game_map``, by
    default the standard map's, only)."""
    return _parse_line(text, line_no, "", game_map or standard_map())


def _parse_line(text: str, line_no: int | None, phase: str, m: GameMap) -> ParsedOrder:
    clean = as_written_plain(_HYPHENATED.sub(r"\1 \2", clean_line(text)))
    if not clean.strip():
        raise OrderSyntaxError("the line is empty", line_no=line_no, line=text)
    other = _other_language(clean, text, line_no, m)
    if other is not None:
        raise other
    try:
        tree = _parser().parse(clean)
    except UnexpectedInput as e:
        raise _syntax_error(e, text, line_no, phase) from None
    action = str(tree.data)
    kind: UnitType | None = None
    place: Place | None = None
    target_kind: UnitType | None = None
    target: Place | None = None
    via = False
    places: list[Place] = []
    for child in tree.children:
        if not isinstance(child, Tree):
            continue
        if child.data in ("unit", "target", "unit_nokind"):
            k = None
            ptree = child.children[-1]
            if child.data != "unit_nokind":
                ktree = child.children[0]
                assert isinstance(ktree, Tree)
                k = _kind(ktree)
            assert isinstance(ptree, Tree)
            p = _place(ptree, text, line_no, m)
            if place is None and action not in ("build", "build_nokind"):
                kind, place = k, p
            else:
                target_kind, target = k, p
        elif child.data == "kind":
            kind = _kind(child)
        elif child.data == "place":
            places.append(_place(child, text, line_no, m))
        elif child.data == "via":
            via = True
    action, place, dest, via = _action_and_dest(action, kind, place, places, via, text, line_no)
    return ParsedOrder(action, kind, place, target_kind, target, dest, via, line_no, text)


def _action_and_dest(action: str, kind: UnitType | None, place: Place | None,
                     places: list[Place], via: bool, text: str, line_no: int | None,
                     ) -> tuple[str, Place | None, Place | None, bool]:
    """The order's action, its unit's place, its destination and whether by
    convoy, from what the grammar read: a build names its place alone; a route
    (``A Lvp-Nth-Nwy``) is a convoyed move to its last place."""
    dest: Place | None = None
    if action in ("build", "build_nokind"):
        place = places[0]
        if action == "build_nokind":
            raise OrderSyntaxError(
                "say what to build: A (army), F (fleet) or D (dirigible)",
                line_no=line_no, line=text, column=place.column, expected="A, F or D",
            )
        action = "build"
    elif action == "route":  # "A Lvp-Nth-Nwy": the army goes by the fleets on its way
        if kind in (UnitType.FLEET, UnitType.DIRIGIBLE):
            first = places[0]
            raise OrderSyntaxError(
                f"a {kind.name.lower()} moves one step: a route is for a convoyed army",
                line_no=line_no, line=text, column=first.column,
                width=places[-1].column + places[-1].width - first.column,
                hint=f"write one step, e.g. {kind.value} {place.text if place else ''} "
                     f"- {first.text}")
        action, via, dest = "move", True, places[-1]
    elif places:
        dest = places[-1]
    return action, place, dest, via


# ---------------------------------------------------------------------------
# From a parsed line to the engine's order


def _illegal(p: ParsedOrder, message: str, rule: str, at: Place | None = None,
             hint: str | None = None) -> IllegalOrderError:
    # The rule is named once, by the reply: "... (rule DD7)", not "(DD7) (rule DD7)".
    message = re.sub(rf"\s*\({re.escape(rule)}\)", "", message) if rule else message
    return IllegalOrderError(
        message, rule=rule, line_no=p.line_no, line=p.line,
        column=at.column if at else None, width=at.width if at else 1, hint=hint,
    )


def _support_fix(p: ParsedOrder, o: typed.Order, pos: Position) -> str | None:
    """How to write the support a dirigible or an army meant (DD7, DD8)."""
    if not isinstance(o, (typed.SupportHold, typed.SupportMove)) or p.place is None:
        return None
    here = p.place.text
    unit = o.unit_text().split()[0]
    if o.kind is UnitType.DIRIGIBLE and isinstance(o, typed.SupportMove) and p.target is not None:
        if not map_of(pos).adjacent(o.target.prov, o.loc.prov):
            return f"from above it supports only a move into {here}"
        k = f"{o.target_kind.value} " if o.target_kind else ""
        return f"from above it supports a move into {here}: {unit} {here} S {k}{p.target.text} - {here}"
    if o.kind is UnitType.DIRIGIBLE and isinstance(o, typed.SupportHold):
        below = [u for u in pos.units if u.prov == o.loc.prov and u.kind is not UnitType.DIRIGIBLE]
        if below:
            return f"it supports the unit below it: {unit} {here} S {below[0].kind.value} {here}"
        return f"it supports only a unit in {here}, or a move into {here}"
    if o.target_kind is UnitType.DIRIGIBLE or any(
            u.prov == o.target.prov and u.kind is UnitType.DIRIGIBLE for u in pos.units):
        return f"give {unit} {here} another order, e.g. {unit} {here} H"
    return None


def _rule_of(message: str) -> str:
    m = re.search(r"\((DD\d+a?)", message)
    if m:
        return m.group(1)
    if "dirigible" in message:
        return "DD7"
    return "DD2"


def _own_unit(p: ParsedOrder, power: str, pos: Position, place: Place, kind: UnitType | None,
              dislodged: bool = False) -> tuple[UnitType, Loc]:
    """The unit the order names, with type and coast filled from the position."""
    pool = [d.unit for d in pos.dislodged] if dislodged else list(pos.units)
    here = [u for u in pool if u.prov == place.prov and u.power == power]
    if kind is not None:
        here = [u for u in here if u.kind is kind]
    if len(here) == 1:
        u = here[0]
        if not place.coast or place.coast == u.loc.coast:
            return u.kind, u.loc
        return u.kind, place.loc
    if kind is None:
        if len(here) > 1:
            raise _illegal(p, f"{power} has more than one unit in {display(place.prov)}: "
                              "say A, F or D", "DD6", place)
        raise _illegal(p, f"{power} has no unit in {display(place.prov)}", "DD1", place)
    return kind, place.loc


def _target_loc(pos: Position, place: Place, kind: UnitType | None) -> tuple[UnitType | None, Loc]:
    for u in pos.units:
        if u.prov == place.prov and (kind is None or u.kind is kind):
            if kind is None and any(
                v.prov == place.prov and v is not u and v.airborne != u.airborne for v in pos.units
            ):
                return kind, place.loc
            return kind, u.loc if not place.coast else place.loc
    return kind, place.loc


def _dest(m: GameMap, kind: UnitType, loc: Loc, place: Place) -> Loc:
    if kind is not UnitType.FLEET:
        return Loc(place.prov)  # armies and dirigibles ignore coasts
    if place.coast or not m.coasts(place.prov):
        return place.loc
    options = m.fleet_dests(loc, place.prov)
    if len(options) == 1:
        return options[0]
    return place.loc


def to_order(p: ParsedOrder, power: str, pos: Position, *, strict: bool = False) -> typed.Order:
    """The typed order for a parsed line; ``strict`` checks it like an order mail."""
    phase = pos.phase.kind
    if p.action == "waive":
        return typed.Waive(power)
    assert p.place is not None
    if p.action == "build":
        assert p.kind is not None
        return typed.Build(power, p.kind, p.place.loc)
    if p.action == "disband" and phase == "A":
        kind, loc = _own_unit(p, power, pos, p.place, p.kind)
        return typed.Disband(power, kind, loc)
    if phase == "R":
        return _retreat_order(p, power, pos, strict=strict)
    kind, loc = _own_unit(p, power, pos, p.place, p.kind)
    if p.action == "hold":
        return typed.Hold(power, kind, loc)
    if p.action == "devastate":
        return typed.Devastate(power, kind, loc)
    if p.action in ("move", "retreat"):
        assert p.dest is not None
        return typed.Move(power, kind, loc, _dest(map_of(pos), kind, loc, p.dest), p.via_convoy)
    if p.action == "disband":
        if strict:
            raise _illegal(p, "units are disbanded only in retreat and adjustment phases", "DD1")
        return typed.Hold(power, kind, loc)
    return _helping_order(p, power, pos, kind, loc)


def _retreat_order(p: ParsedOrder, power: str, pos: Position, *, strict: bool) -> typed.Order:
    """A retreat phase's order: a retreat or a disband of a dislodged unit (DD1)."""
    assert p.place is not None
    kind, loc = _own_unit(p, power, pos, p.place, p.kind, dislodged=True)
    if p.action == "disband":
        return typed.Disband(power, kind, loc)
    if p.action in ("move", "retreat") and p.dest is not None:
        return typed.Retreat(power, kind, loc, _dest(map_of(pos), kind, loc, p.dest))
    if strict:
        raise _illegal(p, "in a retreat phase a dislodged unit retreats ('A Mun - Boh') or "
                          "disbands ('Disband A Mun')", "DD1")
    return typed.Hold(power, kind, loc)


def _helping_order(p: ParsedOrder, power: str, pos: Position, kind: UnitType,
                   loc: Loc) -> typed.Order:
    """A support (of a hold or of a move) or a convoy of the unit at ``loc``."""
    assert p.target is not None
    tkind, tloc = _target_loc(pos, p.target, p.target_kind)
    if p.action == "support_hold":
        return typed.SupportHold(power, kind, loc, tkind, tloc)
    assert p.dest is not None
    if p.action == "support_move":
        return typed.SupportMove(power, kind, loc, tkind, tloc, p.dest.loc)
    return typed.Convoy(power, kind, loc, tloc, Loc(p.dest.prov))


@dataclass
class _Builds:
    """Builds checked so far in one mail (budget left, provinces used)."""

    budget: int | None = None
    surface: set[str] = field(default_factory=set)
    air: set[str] = field(default_factory=set)


def _check(p: ParsedOrder, o: typed.Order, power: str, pos: Position, state: _Builds) -> None:
    """Strict checks of one order against the position (raises IllegalOrderError)."""
    m = map_of(pos)
    phase = pos.phase.kind
    where = p.place
    if phase == "M":
        _check_movement(p, o, pos)
        return
    if phase == "R":
        problem = retreat_problem(pos, o, options_for(pos, m))
        if problem is not None:
            raise _illegal(p, problem, "DD1", p.dest or where)
        return
    if isinstance(o, typed.Build):
        _check_build(p, o, power, pos, state)
        return
    if isinstance(o, typed.Disband):
        if not any(u.power == power and u.kind is o.kind and u.loc == o.loc for u in pos.units):
            raise _illegal(p, f"{power} has no {o.unit_text()}", "DD1", where)
        if balance(pos, power) >= 0:
            raise _illegal(p, f"{power} has no unit to remove this Winter", "DD1", where)
        return
    if isinstance(o, typed.Waive):
        return
    raise _illegal(p, "in an adjustment phase only 'Build', 'Disband' and 'Waive' are given", "DD1")


def _check_movement(p: ParsedOrder, o: typed.Order, pos: Position) -> None:
    """A movement-phase order (DD2-DD10), the mistake marked where it is."""
    problem = movement_problem(pos, map_of(pos), o)
    if problem is None:
        return
    at = p.place
    if " has no " not in problem:
        if isinstance(o, typed.Move):
            at = p.dest
        elif isinstance(o, (typed.SupportHold, typed.SupportMove)):
            at = p.dest or p.target
    rule = _rule_of(problem)
    fix = _support_fix(p, o, pos) if rule in ("DD7", "DD8") else None
    raise _illegal(p, problem, rule, at, hint=fix)


def _check_build(p: ParsedOrder, o: typed.Build, power: str, pos: Position, state: _Builds) -> None:
    """A Winter build: a free home centre, one unit a province, within the
    power's allowance (DD1) or supply points (DD11, DD13)."""
    where = p.place
    if state.budget is None:
        state.budget = balance(pos, power)
    budget = state.budget
    problem = build_problem(pos, map_of(pos), o, list(pos.units))
    if problem is None:
        if o.kind is UnitType.DIRIGIBLE and o.loc.prov in state.air:
            problem = f"a second dirigible built in {display(o.loc.prov)} (DD13)"
        elif o.kind is not UnitType.DIRIGIBLE and o.loc.prov in state.surface:
            problem = f"a second army or fleet built in {display(o.loc.prov)}"
    if problem is not None:
        raise _illegal(p, problem, _rule_of(problem) if "DD" in problem else "DD13", where)
    need = UPKEEP[o.kind] if pos.dirigible else 1
    if need > budget:
        if pos.dirigible:
            raise _illegal(p, f"not enough supply points: this build costs {need}, "
                              f"{max(budget, 0)} left (DD11)", "DD11", where)
        raise _illegal(p, "no more builds: the power has as many units as centres",
                       "DD1", where)
    state.budget = budget - need
    (state.air if o.kind is UnitType.DIRIGIBLE else state.surface).add(o.loc.prov)


def parse_orders(
    lines: Iterable[tuple[int, str]] | Iterable[str] | str,
    power: str,
    position: Position,
    *,
    strict: bool = True,
) -> list[tuple[ParsedOrder, typed.Order]]:
    """Parse (and with ``strict`` check) a body; every error raised at once."""
    if isinstance(lines, str):
        items: list[tuple[int, str]] = list(enumerate(lines.splitlines(), 1))
    else:
        items = []
        for i, item in enumerate(lines, 1):
            items.append(item if isinstance(item, tuple) else (i, item))
    out: list[tuple[ParsedOrder, typed.Order]] = []
    errors: list[OrderMailError] = []
    seen: dict[tuple[str, bool], int] = {}
    state = _Builds()
    phase = position.phase.kind
    m = map_of(position)
    for line_no, text in items:
        body = text.split("#", 1)[0]
        if not body.strip():
            continue
        try:
            parsed = _parse_line(body, line_no, phase, m)
        except OrderMailError as e:
            if e.line_no is None:
                e.at(line_no, text)
            errors.append(e)
            continue
        try:
            parsed = ParsedOrder(**{**parsed.__dict__, "line": text})
            order = to_order(parsed, power, position, strict=strict)
            if strict:
                # A second order for one unit is found whatever is wrong with the first.
                if not isinstance(order, (typed.Build, typed.Waive)):
                    key = (order.loc.prov, order.kind is UnitType.DIRIGIBLE)
                    if key in seen:
                        raise _illegal(parsed, f"a second order for {order.unit_text()} "
                                               f"(first on line {seen[key]})", "DD1", parsed.place,
                                       hint="keep one order for each unit")
                    seen[key] = line_no
                _check(parsed, order, power, position, state)
            out.append((parsed, order))
        except OrderMailError as e:
            if e.line_no is None:
                e.at(line_no, text)
            errors.append(e)
    raise_all(errors)
    return out


_UNIT_WORD = re.compile(r"^\s*(?:a|f|d|army|fleet|dirigible|air)\s+(.+)$", re.I)
_KEYWORD = re.compile(r"^\s*(?:builds?|disbands?|waives?|removes?|holds?)\b", re.I)


def order_line(cleaned: str, m: GameMap) -> bool:
    """Does a (cleaned) mail line look like a Diplomacy order, not like a
    greeting or a name? After an order number ("1.", "(4)"), it starts with
    Build/Disband/Waive/Remove/Hold (or a slip of an order word: "Biuld"), with
    a province, or with a unit type and a province or a slip of one (DD2-DD10).

    >>> m = standard_map()
    >>> [order_line(t, m) for t in ("A Yorkshir - Lon", "2) A Gas - Spa", "Hold A Par",
    ...                             "Biuld A Par", "Nth - Nwy", "A Lvp-Nth-Nwy")]
    [True, True, True, True, True, True]
    >>> [order_line(t, m) for t in ("A bientôt", "Silvia", "Hi all ", "Best regards")]
    [False, False, False, False]
    """
    clean = as_written_plain(cleaned)
    if _KEYWORD.match(clean) or keyword_led(clean, _ORDER_WORDS):
        return True
    unit = _UNIT_WORD.match(clean)
    words = re.findall(r"[A-Za-z\u00c0-\u024f.']+", unit.group(1) if unit else clean)
    alone = unit is None and len(clean.split()) == 1
    for n in (1, 2, 3):
        name = " ".join(words[:n])
        if name and m.lookup(name) is not None:
            return True
        if name and not alone and nearest(name, _province_names(m)):
            return True
    return False


def parse_body(
    lines: Iterable[tuple[int, str]] | Iterable[str] | str,
    power: str,
    position: Position,
    *,
    strict: bool = True,
) -> list[typed.Order]:
    """The typed orders of a mail body for ``power`` (raises OrderErrors)."""
    return [o for _, o in parse_orders(lines, power, position, strict=strict)]
