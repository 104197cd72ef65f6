"""The one plug-in point of the house: what a game kind must say about itself.

A ``Ruleset`` object holds everything that differs between tweedekker, Fast
Play, Diplomacy and Dirigible Diplomacy (in the manner of godip's
``Variant``): the opening position of a new game, the position codec, how
order lines are read and checked, who owes orders, the adjudication (with
recorded dice replayed), the words of the replies, the computer player, the
renderers of its reports and maps, and its scenario files. The store, the
mail pipeline, the game master's tools and the command line hold a ruleset
object and ask it; none of them names a game kind.

Positions and orders are kept in the store as plain data (the scenario
schema of ``docs/scenario-format.md``); a ruleset turns them into the rules'
typed values with ``decode`` and ``decode_orders`` once per use (``OpenTurn``
in the store keeps the decoded state of the open turn for one mail, an
``OrdersFile`` the typed orders of its entry), and back with ``encode`` and
``encode_orders``. A turn's events are the rules' typed events from the
adjudication to the renderers: the store writes them as plain data
(``encode_events``) and a report of a stored turn reads them back once
(``decode_events``).
"""

from __future__ import annotations

import hashlib
import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import timedelta
from typing import TYPE_CHECKING, Any, ClassVar, Generic, TypeVar

from pbmref.rules.dice import Replay, Roll
from pbmref.rules.plaindata import PositionError

if TYPE_CHECKING:  # the report's types: a game kind's renderers are loaded with it
    from pbmref.orders.check import BodyReader
    from pbmref.reports.document import Document
    from pbmref.reports.model import Focus, Picture, TurnReport
    from pbmref.rulesets.classes import Classroom

__all__ = [
    "DemoGame",
    "PRESS_LEVELS",
    "Alias",
    "Correspondent",
    "NewGameOptions",
    "Opening",
    "OrdersEntry",
    "Outcome",
    "PlayerOrders",
    "PlayerSpec",
    "PositionError",
    "Ruleset",
    "ScenarioError",
    "ScenarioResult",
    "Votes",
    "Words",
]

OrdersEntry = dict[str, object]
# The rules' state of a decoded position: what ``Ruleset.decode`` gives (a
# tweedekker ``GameState``, a Diplomacy ``Board``) and every method that reads
# the open turn takes.
S = TypeVar("S")
# One player's orders of a turn, typed: what ``decode_orders`` gives, every
# method that reads a player's orders takes, and ``encode_orders`` writes back.
O = TypeVar("O")  # noqa: E741 -- the orders of Ruleset[S, O, E], a one-letter type name
T = TypeVar("T")
# The rules' events of one turn (a tweedekker ``Manoeuvred``, a Diplomacy
# ``Event``): what ``adjudicate`` gives and a ``TurnReport`` carries.
E = TypeVar("E")
Lines = list[tuple[int, str]]

# How much press a game relays (game.yaml's ``press``): none; white (the sender
# is named); grey (``PRESS GREY TO ...`` may hide the sender); broadcast (to
# all only, the sender named).
PRESS_LEVELS = ("none", "white", "grey", "broadcast")


@dataclass(frozen=True)
class Correspondent:
    """A player press may be sent to: the player id, how press names them
    (``France``, ``Red Baron``) and the words a ``PRESS TO`` line may use for
    them (upper-case: ``FRA``, ``FRANCE``). ``side`` is the power played, in
    game kinds that have sides (``player`` is "" for a side nobody plays)."""

    player: str
    label: str
    words: tuple[str, ...]
    side: str = ""


@dataclass(frozen=True)
class Alias:
    """How an anonymous game shows one player to everyone else (issue 40): ``id``
    stands in for the player id in all that players and observers get (map
    letters, the pictures' element ids), ``label`` names the player in the
    game's own words (``Pilot N``, ``France``) and ``words`` are what a ``PRESS
    TO`` line may call them (upper-case: ``N``, ``FRA``, ``FRANCE``)."""

    id: str
    label: str
    words: tuple[str, ...]


def shuffled(players: Sequence[str], salt: str) -> list[str]:
    """``players`` in an order nobody can tell from their ids or names without
    ``salt`` (the game's seed), the same each time: how aliases are numbered.

    >>> shuffled(["anna", "bert", "cora"], "7") == shuffled(["cora", "anna", "bert"], "7")
    True
    """
    return sorted(players, key=lambda p: hashlib.sha256(f"{salt}:{p}".encode()).digest())


def numbered(players: Sequence[str], salt: str, noun: str, start: int = 1) -> dict[str, Alias]:
    """``Player 1``, ``Player 2`` ... (``noun``) for ``players``, in ``shuffled`` order.

    >>> sorted(a.label for a in numbered(["anna", "bert"], "7", "Player").values())
    ['Player 1', 'Player 2']
    """
    out = {}
    for n, pid in enumerate(shuffled(players, salt), start):
        word = f"{noun}{n}".replace(" ", "").upper()
        out[pid] = Alias(word.lower(), f"{noun} {n}", (word,))
    return out


@dataclass(frozen=True)
class Votes:
    """The standing votes of a game at an adjudication, per player id: who has
    DRAW standing (and for which draw, J13), and whom each player concedes to
    (a power, or a player). ``secret``: the game's votes are secret, so a
    draw that does not pass is never reported (J13)."""

    draw: frozenset[str] = frozenset()
    concede: Mapping[str, str] = field(default_factory=dict)  # player -> side
    voters: frozenset[str] = frozenset()  # who may vote: active players who mail
    # player -> the sides of a named draw (DRAW AUS ENG FRA); a DRAW without
    # one is the draw of every survivor
    draw_sets: Mapping[str, frozenset[str]] = field(default_factory=dict)
    secret: bool = True

    def draw_of(self, player: str, survivors: frozenset[str]) -> frozenset[str] | None:
        """The sides of the draw ``player`` votes for (None: no draw vote); a plain
        DRAW is the draw of ``survivors`` (J13).

        >>> v = Votes(draw=frozenset({"a", "b"}), draw_sets={"b": frozenset({"FRA"})})
        >>> sorted(v.draw_of("a", frozenset({"FRA", "ENG"}))), sorted(v.draw_of("b", frozenset()))
        (['ENG', 'FRA'], ['FRA'])
        """
        if player not in self.draw:
            return None
        return self.draw_sets.get(player) or survivors


@dataclass(frozen=True)
class Outcome(Generic[E]):
    """One adjudicated turn: the next position as plain data, the events typed."""

    position: dict[str, object]  # the position at the start of the next turn
    events: tuple[E, ...] = ()  # every event, in order
    game_over: bool = False
    winners: list[str] = field(default_factory=list)
    # every die rolled, in order, with what it was rolled for (V5)
    rolls: tuple[Roll, ...] = ()
    # recorded dice a replay no longer asked for (handed to nobody)
    unused: tuple[Roll, ...] = ()

    @property
    def dice(self) -> list[int]:
        """The value of every die rolled, in order."""
        return [r.value for r in self.rolls]


@dataclass(frozen=True)
class PlayerSpec:
    """A player of a new game."""

    id: str
    addresses: tuple[str, ...] = ()
    name: str = ""
    computer: bool = False
    airfield: str | None = None  # tweedekker: own airfield (B5); default spread out
    power: str | None = None  # diplomacy/dirigible: the power played (AUS ... TUR)


@dataclass(frozen=True)
class NewGameOptions:
    """What ``new-game`` may say about the board (the rulesets that draw one use it)."""

    board_side: int = 10
    wind: Mapping[str, object] | None = None
    clouds: Sequence[Mapping[str, object]] = ()
    zeppelin: str | None = "controlled"
    zeppelin_length: int = 2
    zeppelin_hexes: Sequence[str] | None = None
    zeppelin_heading: str | None = None
    rule_settings: Mapping[str, object] | None = None
    variant: str | None = None  # diplomacy/dirigible: the variant's folder (new-game --variant)


@dataclass(frozen=True)
class Opening:
    """The position of turn 1 of a new game, and what to write about it."""

    position: dict[str, object]
    placement: str  # how it was set up, in words (the GM sees it once)
    scenario: dict[str, object] = field(default_factory=dict)  # game.yaml's ``scenario`` key


def _never(position: Mapping[str, object]) -> bool:
    del position
    return False


@dataclass(frozen=True)
class DemoGame:
    """The game ``pbmref demo`` plays for a game kind: its computer players
    (each mails its orders through the pipeline), the ``new-game`` settings,
    how many turns it plays unless told, and when it stops early (``over``:
    the open position says so, besides a game won)."""

    title: str
    players: tuple[PlayerSpec, ...]
    players_noun: str  # "pilots", "powers"
    turns: int
    settings: Mapping[str, Any] = field(default_factory=dict)  # new_game's keywords
    over: Callable[[Mapping[str, object]], bool] = _never
    length: str = ""  # how long it plays, in words, when not "N turns"


@dataclass(frozen=True)
class Words:
    """What the referee's replies say that differs from one game kind to another."""

    noun: str  # what a turn is called: "turn" or "phase"
    keyword: str  # the envelope line that names it: "TURN" or "PHASE"
    help: str  # the HELP text
    none_yet: str  # ORDERS with none in force: what happens without them
    accepted: tuple[str, ...]  # after the deadline, in an acceptance: how mails replace
    cleared: tuple[str, ...]  # after CLEAR: what happens without new orders
    reminder: tuple[str, ...]  # in a reminder: what happens without orders
    next_after: str = ""  # "the next phase" when turns have no number to count on

    def turn(self, label: int | str) -> str:
        """``turn 7`` or ``phase S1901M``."""
        return f"{self.noun} {label}"

    def after(self, label: int | str) -> str:
        """The turn that follows ``label``, as a late mail's reply names it."""
        if self.next_after or not isinstance(label, int):
            return self.next_after
        return f"{self.noun} {label + 1}"


class ScenarioError(ValueError):
    """A scenario that cannot run: its position or orders were refused (under
    ``rule`` when a rule refuses them), or the file says something unreadable.
    ``path`` is where in the file (for its line)."""

    def __init__(self, message: str, rule: str = "", path: tuple[str | int, ...] = ()) -> None:
        super().__init__(message)
        self.message = message
        self.rule = rule
        self.path = path

    def __str__(self) -> str:
        return f"{where(self.path)}: {self.message}" if self.path else self.message

    @classmethod
    def of_position(cls, exc: PositionError) -> ScenarioError:
        return cls(exc.message, exc.rule, exc.path)


def where(path: tuple[str | int, ...]) -> str:
    """A key path as a person reads it: ``orders.FRA[1]`` (list places count from 1).

    >>> where(("orders", "FRA", 0))
    'orders.FRA[1]'
    """
    out = ""
    for part in path:
        out += f"[{part + 1}]" if isinstance(part, int) else (f".{part}" if out else part)
    return out


@dataclass
class ScenarioResult:
    """One scenario run: the printed result (the next position and the events)
    and what differs from its ``expect`` block. ``refused``: the refusal an
    ``expect: {error: RULE}`` block asked for."""

    result: dict[str, object]
    differences: list[str] = field(default_factory=list)
    refused: ScenarioError | None = None

    @property
    def position(self) -> dict[str, object]:
        return {k: v for k, v in self.result.items() if k != "events"}

    @property
    def events(self) -> list[dict[str, object]]:
        events = self.result.get("events")
        return [e for e in events if isinstance(e, dict)] if isinstance(events, list) else []


def rule_words(rule: str) -> str:
    """`` (rule M3)`` for a rule number; nothing for words such as SYNTAX."""
    return f" (rule {rule})" if any(c.isdigit() for c in rule) else ""


@dataclass(frozen=True)
class PlayerOrders(Generic[T]):
    """One player's orders entry read against the open turn: ``typed``, what the
    rules make of it, and ``entry``, its sections as the store keeps them. The
    entry is written back as it was read (``encoded``), so that a file a game
    master wrote by hand is not reworded when a mail replaces one section.

    >>> o = PlayerOrders({"plane": ["A", "L f-A"], "takeoff": "ALPHA"}, "typed")
    >>> o.encoded() == {"plane": ["A", "L f-A"], "takeoff": "ALPHA"}
    True
    """

    entry: Mapping[str, object]
    typed: T

    @classmethod
    def of(cls, entry: Mapping[str, object], typed: T) -> PlayerOrders[T]:
        """``typed`` with a copy of ``entry`` (the caller may change theirs)."""
        return cls(_entry_copy(entry), typed)

    def encoded(self) -> OrdersEntry:
        """The entry as plain data (lists copied: the caller's own)."""
        return _entry_copy(self.entry)


def _entry_copy(entry: Mapping[str, object]) -> OrdersEntry:
    """An orders entry's copy: its keys hold scalars and lists of lines."""
    return {k: list(v) if isinstance(v, list) else v for k, v in entry.items()}


class Ruleset(ABC, Generic[S, O, E]):
    """One game kind, generic over ``S``, the state its ``decode`` gives, ``O``,
    one player's orders as ``decode_orders`` gives them, and ``E``, its
    events. Subclasses fill in the parts; the house calls only these (and, not
    knowing the game kind, holds a ``Ruleset[Any, Any, Any]``)."""

    name: ClassVar[str]  # as game.yaml names it: tweedekker, fastplay, diplomacy, dirigible
    title: ClassVar[str]  # as players read it: "Dirigible Diplomacy"
    words: ClassVar[Words]
    # Orders entry keys that travel together: a new mail's section replaces the
    # old one whole (orders.md, "Reading rules"). Empty: a new mail replaces all.
    sections: ClassVar[Mapping[str, frozenset[str]]] = {}
    # The position keys that name players (their ids must be the game's players).
    player_keys: ClassVar[tuple[str, ...]] = ()
    # Pilots' careers carry from game to game (``pbmref roster``, Fast Play FP16).
    careers: ClassVar[bool] = False
    # More players than ``places``: the places are shared, each player still
    # given one (tweedekker's six airfields, B5); otherwise a game has at most
    # as many players as places.
    places_shared: ClassVar[bool] = False
    # The ``NewGameOptions`` fields about the board that a new game of this kind
    # reads (``new-game --board-side ...``); a forming game keeps only these.
    board_options: ClassVar[frozenset[str]] = frozenset()
    # Early adjudication (issue 43, item 7): once every player's orders are in,
    # the turn is played this long after the last came in (a player who sent
    # provisional orders may still change them, anyone may send WAIT), unless
    # game.yaml's ``early_delay`` says otherwise. No delay: at once.
    early_delay: ClassVar[timedelta] = timedelta(0)
    # The colours of the pictures a mail shows (palette PNGs): as few as keep
    # every colour of the drawing apart (a report mail's weight, issue 43).
    picture_colours: ClassVar[int] = 64

    # ------------------------------------------------------------ a new game

    def classroom(self) -> Classroom[Any] | None:
        """The game kind's classes (many boards of one class made and played
        together by the game master's commands, ``pbmref new-class``); None
        for a game kind that has no classes."""
        return None

    @abstractmethod
    def opening(self, players: Sequence[PlayerSpec], options: NewGameOptions, seed: int,
                position: Mapping[str, object] | None = None) -> Opening:
        """The position of turn 1 (the GM's ``position``, checked, when given)."""

    def variant_names(self) -> tuple[str, ...]:
        """The variants ``new-game --variant`` may pick (none: the game has one form)."""
        return ()

    def variant_title(self, position: Mapping[str, object]) -> str:
        """The game kind with its variant, as a game list shows it."""
        del position
        return self.title

    def unplayed(self, position: Mapping[str, object]) -> list[str]:
        """Sides of the game nobody plays (a warning for the game master)."""
        del position
        return []

    def computer_player(self, side: str) -> PlayerSpec:
        """A computer player for an unplayed ``side`` (``new-game --computer-sides``)."""
        raise NotImplementedError(f"{self.title} has no sides to give to the computer")

    # ------------------------------------------------------------ places and clocks

    def places(self, variant: str | None = None) -> list[tuple[str, str]]:
        """The places a forming game offers its players (J2), as (code, label):
        Diplomacy's powers, tweedekker's airfields. None: the game kind has no
        places to choose (a Fast Play class deals its sides, FP1)."""
        del variant
        return []

    def seat(self, player: PlayerSpec, place: str) -> PlayerSpec:
        """``player`` given ``place`` (one of ``places``) for a new game (J4)."""
        del place
        return player

    def place_of(self, position: Mapping[str, object], player: str) -> str:
        """The place ``player`` holds in ``position`` ("" for none), as ``places``
        names it: what a game open for takeover offers (J7)."""
        del position, player
        return ""

    def clock_kind(self, position: Mapping[str, object]) -> str:
        """Which clock the turn that starts at ``position`` runs on (J8):
        ``moves``, ``retreats`` or ``adjustments``. Every turn here is a move."""
        del position
        return "moves"

    # ------------------------------------------------------------ positions

    @abstractmethod
    def decode(self, data: Mapping[str, object]) -> S:
        """The rules' state of a position; raises ``PositionError`` (with its path)."""

    @abstractmethod
    def encode(self, state: S) -> dict[str, object]:
        """The plain data of a state (``decode`` reads it back)."""

    @abstractmethod
    def encode_events(self, events: Sequence[E],
                      position: Mapping[str, object]) -> list[dict[str, object]]:
        """A turn's events as plain data (``events.yaml``), for a turn played from
        ``position`` (its board names the hexes)."""

    @abstractmethod
    def decode_events(self, data: Sequence[Mapping[str, object]],
                      position: Mapping[str, object]) -> tuple[E, ...]:
        """The events ``encode_events`` wrote as ``data``, read back (its mirror)."""

    def reads_positions_of(self, name: str) -> bool:
        """Whether a position written for ruleset ``name`` belongs to this game kind."""
        return name == self.name

    def remove_player(self, data: Mapping[str, object], player: str) -> dict[str, object] | None:
        """The position with ``player`` out of play (kick), or None if nothing changes."""
        del data, player
        return None

    def turn_label(self, position: Mapping[str, object], turn: int) -> int | str:
        """The open turn as players name it: its number (Diplomacy: the phase)."""
        del position
        return turn

    def year_of(self, position: Mapping[str, object]) -> int | None:
        """The game year a position is in (Diplomacy's), whose changes a report
        sums up; None: the game kind counts turns, not years."""
        del position
        return None

    # ------------------------------------------------------------ orders

    @abstractmethod
    def read_orders(self, state: S, player: str, lines: Lines) -> O:
        """One player's order lines read and checked into typed orders (their
        entry, ``encode_orders``, in canonical words); raises
        ``pbmref.orders.errors.OrderMailError`` (every error found, together)."""

    @abstractmethod
    def order_line(self, state: S, cleaned: str) -> bool:
        """Does a mail line (made plain by ``pbmref.orders.lines.clean_line``)
        look like an order of this game, right or wrong? The one reader of
        every game's mails (``pbmref.orders.check.read_mail_body``) reads such
        lines as orders, and any other as a greeting, a signature or prose."""

    def body_reader(self, state: S) -> BodyReader[O]:
        """The reader of order mails' body lines on ``state`` (``order_line``,
        then ``read_orders``)."""
        from pbmref.orders.check import BodyReader  # the grammars only when mail is read

        return BodyReader(read=lambda player, lines: self.read_orders(state, player, lines),
                          order_line=lambda cleaned: self.order_line(state, cleaned),
                          encode=self.encode_orders)

    @abstractmethod
    def decode_orders(self, state: S, player: str, entry: Mapping[str, object]) -> O:
        """A stored orders entry of ``player`` read into typed orders against the
        open turn's ``state``; raises ``OrderMailError`` for an entry the player
        could not have mailed."""

    @abstractmethod
    def encode_orders(self, orders: O) -> OrdersEntry:
        """The orders entry the store writes for ``orders`` (``decode_orders``
        reads it back)."""

    def decode_turn(self, state: S, entries: Mapping[str, Mapping[str, object] | None]
                    ) -> dict[str, O]:
        """Every player's entry of a turn decoded (``decode_orders``; None: ``{}``)."""
        return {str(p): self.decode_orders(state, str(p), entry or {})
                for p, entry in entries.items()}

    def merge_orders(self, old: O | None, new: O) -> O:
        """The orders in force after a valid mail: the new mail whole (a game kind
        whose mails may replace one section, ``sections``, merges them)."""
        del old
        return new

    def merged_entry(self, old: Mapping[str, object], new: Mapping[str, object]
                     ) -> tuple[OrdersEntry, frozenset[str]]:
        """The entry in force after ``new`` came on ``old``, section by section
        (``sections``; keys of no section kept unless ``new`` has them), and the
        sections ``new`` replaced."""
        replaced = frozenset(s for s, keys in self.sections.items() if any(k in new for k in keys))
        kept = {k: v for k, v in old.items()
                if not any(k in self.sections[s] for s in replaced)}
        return {**kept, **new}, replaced

    def counts_as_orders(self, state: S, player: str, entry: Mapping[str, object]) -> bool:
        """Whether ``entry`` spares the player a missed turn (early adjudication,
        reminders)."""
        del state, player, entry
        return True

    def needs_orders(self, state: S, player: str) -> bool:
        """Whether the player has anything to order in the open turn."""
        del state, player
        return True

    def preview(self, state: S, player: str, orders: O | None) -> list[str]:
        """The acceptance's preview of one player's orders in force (issue 22): what
        they do if nothing else happens, and warnings for orders that are legal
        but almost surely a mistake, as text lines of at most 70 columns. Made
        from the public ``state`` and this player's own ``orders`` only (None: no
        orders in force), never from another player's orders. None here."""
        del state, player, orders
        return []

    def computer_orders(self, state: S, player: str, rng: random.Random) -> O | None:
        """The orders a computer player writes, as ``read_orders`` would give them
        for its mail (``pbmref.orders.check.order_mail`` writes the mail of their
        entry); None: this game kind has no computer player."""
        del state, player, rng
        return None

    def example_orders(self, state: S, player: str) -> O | None:
        """Orders the player could mail as they stand, for HELP's example (the
        computer player's, from a fixed seed; None: no example to show)."""
        return self.computer_orders(state, player, random.Random(0))

    def order_template(self, state: S, player: str) -> O | None:
        """The orders of the ready-to-edit block that ends a report or a reminder
        (issue 43, item 4): valid orders for the player to change, made for
        every reader at every deadline (so cheap where it can be). By default
        HELP's example."""
        return self.example_orders(state, player)

    def words_for(self, state: S, player: str) -> Words:
        """The words of the replies to this player: what happens to their side
        without orders may depend on where it stands (a landed aircraft)."""
        del state, player
        return self.words

    def player_brief(self, state: S, player: str) -> str:
        """What the player plays and where it stands, in a line or two (the
        welcome mail)."""
        del state, player
        return ""

    def demo_game(self) -> DemoGame | None:
        """What ``pbmref demo --ruleset NAME`` plays (None: no demo of this kind)."""
        return None

    # ------------------------------------------------------------ adjudication

    @abstractmethod
    def adjudicate(self, position: Mapping[str, object], orders: Mapping[str, O],
                   seed: int, replay: Replay | None = None, *,
                   state: S | None = None) -> Outcome[E]:
        """One turn of every player's ``orders`` (``decode_orders`` read them
        against ``state``, or against ``position`` decoded); ``replay`` gives the dice recorded by an earlier run of it
        (each dealt to what it was rolled for; an older record's values in order).
        ``state``: the position decoded already (the store's ``TurnView`` has it),
        so that a turn decodes its position once."""

    # ------------------------------------------------------------ reports

    @abstractmethod
    def render_report(self, report: TurnReport[E]) -> str:
        """The whole turn report as text (at most 70 columns), as the store keeps it
        and observers read it."""

    def report_document(self, report: TurnReport[E], readers: Sequence[str] = ()) -> Document:
        """The report one recipient reads, as a document (its text is the mail's
        plain part, its HTML the other part): ``readers`` are the players the
        recipient plays, whose own block comes first; none for an observer or the
        game master. A game kind without personal blocks mails its text as it is."""
        from pbmref.reports.document import Document  # rendering: loaded when used

        del readers
        return Document.preformatted(self.render_report(report))

    def render_changes(self, before: TurnReport[E], after: TurnReport[E],
                       readers: Sequence[str] = ()) -> str:
        """One line: what a corrected turn (``rerun``) changed for ``readers``."""
        del before, after, readers
        return "The account of the turn changed; read it again below."

    def render_map_svg(self, report: TurnReport[E]) -> str | None:
        """The board after the turn as an SVG document (None: no picture)."""
        del report
        return None

    def render_pictures(self, report: TurnReport[E]) -> list[Picture]:
        """Every picture of a turn, in the order a player looks at them: the
        report mail attaches them, the archive's turn page shows them. By
        default the one map of ``render_map_svg``."""
        svg = self.render_map_svg(report)
        if svg is None:
            return []
        from pbmref.reports.model import Picture  # rendering: loaded when used

        return [Picture(svg, f"The board after {self.report_label(report)}")]

    def reader_focus(self, report: TurnReport[E], readers: Sequence[str]) -> Focus | None:
        """The part of the turn's pictures around the ``readers``' own pieces,
        which their report shows first (None: an observer, or this game kind
        draws none)."""
        del report, readers
        return None

    def render_move_svgs(self, report: TurnReport[E]) -> list[str]:
        """Small pictures of the board after each move of the turn, in order (the
        panels beside the map; none: this game kind draws no moves)."""
        del report
        return []

    def render_position_svg(self, position: Mapping[str, object],
                            names: Mapping[str, str]) -> str | None:
        """The board of a position as it stands (the archive's 'now')."""
        del position, names
        return None

    @abstractmethod
    def map_reply(self, position: Mapping[str, object], names: Mapping[str, str],
                  title: str) -> str:
        """The answer to MAP: the board now, in text (the reply attaches the
        picture of ``render_position_svg`` beside it)."""

    def centre_chart(self, positions: Sequence[Mapping[str, object]]
                     ) -> list[tuple[str, dict[str, int]]]:
        """The chart of the final report (J14) from the positions at the start
        of every turn, the one after the last turn last: what each side held at
        the end of each year. None here: the game kind has no supply centres."""
        del positions
        return []

    def ending(self, report: TurnReport[E]) -> str:
        """How the game ended, in a sentence (J14), from the report of its last
        turn; its players as the report names them."""
        names = report.names or {}
        winners = [names.get(w, w) for w in report.winners]
        if not winners:
            return "The game is over; nobody won."
        return f"The game is over: won by {', '.join(winners)}."

    def report_label(self, report: TurnReport[E]) -> str:
        """How a report names its turn: ``turn 7``, or the phase played."""
        return self.words.turn(report.turn)

    def file_label(self, report: TurnReport[E]) -> str:
        """How a file of the report (its map) names the turn: ``turn-007``."""
        return f"turn-{report.turn:03d}"

    # ------------------------------------------------------------ anonymous games

    def aliases(self, position: Mapping[str, object], players: Sequence[str],
                salt: str) -> dict[str, Alias]:
        """How an anonymous game shows each of ``players`` (player ids) to the
        others, from the game's first ``position``; numbered in an order only
        ``salt`` (the game's seed) tells. Here: ``Player 1``, ``Player 2`` ..."""
        del position
        return numbered(players, salt, "Player")

    # ------------------------------------------------------------ press and votes

    # The game.yaml ``press`` of a game that does not say (PRESS_LEVELS).
    default_press: ClassVar[str] = "none"
    # Whether the game kind has draws and concessions (``vote_sides``, J13).
    has_draws: ClassVar[bool] = False

    def correspondents(self, state: S, names: Mapping[str, str]) -> list[Correspondent]:
        """Who press may be addressed to: each player of ``names`` (the active
        players' ids and display names), named as players know them. Here: a
        pilot, by its id or its name written as one word."""
        del state
        out = []
        for pid, name in names.items():
            words = dict.fromkeys(w.upper() for w in (pid, "".join((name or "").split())) if w)
            out.append(Correspondent(pid, name or pid, tuple(words)))
        return out

    def vote_sides(self, state: S, names: Mapping[str, str]) -> list[Correspondent] | None:
        """The sides still in the game, who may share a draw or be conceded to,
        each with the player playing it (None: this game kind has no draws)."""
        del state, names
        return None

    def settle_votes(self, position: Mapping[str, object], outcome: Outcome[E],
                     votes: Votes) -> Outcome[E]:
        """The outcome of a turn played from ``position`` with the game's standing
        ``votes`` applied (a draw or a concession may end the game). Unchanged
        here: this game kind has no draws."""
        del position, votes
        return outcome

    def unplayed_note(self, sides: Sequence[str]) -> str:
        """What ``new-game`` tells the game master about sides nobody plays."""
        return f"nobody plays {', '.join(sides)}"

    # ------------------------------------------------------------ scenarios

    def run_scenario(self, data: Mapping[str, object]) -> ScenarioResult:
        """Run one scenario (position, orders, seed, expect). With ``expect: {error:
        RULE}`` the orders must be refused under RULE; any other refusal raises
        ``ScenarioError``."""
        given = data.get("expect")
        expect = dict(given) if isinstance(given, Mapping) else given
        expected_error = expect.pop("error", None) if isinstance(expect, dict) else None
        try:
            result = self.play_scenario(data, expect)
        except ScenarioError as exc:
            if expected_error is None:
                raise
            if str(expected_error).strip().upper() == exc.rule.upper():
                return ScenarioResult({"events": []}, [], refused=exc)
            return ScenarioResult({}, [f"error: expected a refusal under rule {expected_error}, "
                                       f"got: {exc.message}{rule_words(exc.rule)}"])
        if expected_error is not None:
            result.differences.insert(0, "error: expected the orders to be refused under rule "
                                         f"{expected_error}, but they were accepted")
        return result

    @abstractmethod
    def play_scenario(self, data: Mapping[str, object], expect: Any) -> ScenarioResult:
        """The turn of a scenario played, compared with ``expect`` (without its
        ``error`` key); raises ``ScenarioError`` when it cannot be played."""
