"""Press, draws, concessions and waiting by mail: the referee's desk (issue 18).

One ``PressDesk`` serves one identified player's mail (a pipeline ``Letter``)
while the game is locked. It checks what the mail asks beyond orders, all at
once, before anything is stored:

- each press block (``pbmref.orders.press``) against the game's ``press``
  setting (none, white, grey, broadcast; after the game has ended,
  broadcast only), its receivers against who the ruleset says press may
  reach (``Ruleset.correspondents``: powers in Diplomacy, pilots by name in
  the air games), and the limits against abuse (``limits.press_chars`` per
  message, ``limits.press_per_day`` per sender and game);
- the votes: ``DRAW``, ``NODRAW``, ``CONCEDE TO X``, ``NOCONCEDE`` (only in
  game kinds with sides to share a draw, ``Ruleset.vote_sides``) and
  ``WAIT``/``NOWAIT`` (no early adjudication while any WAIT stands).

A mistake in any of it refuses the mail whole, like an order error (the
pipeline answers these ``problems`` together with the order errors). Only a mail that is not refused is relayed: each
message goes at once, from the referee's address, to every registered
address of each receiver, one mail per address, so nobody sees another's
address ("Press from France to England, Germany"; grey press: "Anonymous
press to England", with nothing of the sender in it); in an anonymous game
everyone is named, and addressed, as the game shows them
(``pbmref.archive.shown``: ``Pilot N``, ``France``). A password the mail
holds is hidden in each message before it goes anywhere (``secrecy``: as in
every other quote of a mail), and no control, bidi or zero-width character
is left in it (``pbmref.orders.press``). Every message is kept
in the game folder (``game.press``) with its real sender. The sender's
reply holds a copy with the receivers; a refused mail's reply says that its
press was not sent.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import timedelta
from typing import TYPE_CHECKING, Any

from pbmref.archive import shown_players
from pbmref.config import LimitsConfig
from pbmref.orders.envelope import Command
from pbmref.orders.errors import OrderMailError
from pbmref.orders.press import PressBlock, PressError
from pbmref.referee import replies
from pbmref.referee.seat import SEAT_COMMANDS, SeatDesk
from pbmref.referee.secrecy import hide_in_press, mail_passwords
from pbmref.reports.common import wrap
from pbmref.rulesets import Correspondent

if TYPE_CHECKING:
    from pbmref.referee.letter import Letter
    from pbmref.referee.pipeline import Referee

__all__ = ["VOTE_COMMANDS", "PressDesk", "Relay", "not_sent"]

VOTE_COMMANDS = ("DRAW", "NODRAW", "CONCEDE", "NOCONCEDE", "WAIT", "NOWAIT")
_SIDE_VOTES = ("DRAW", "NODRAW", "CONCEDE", "NOCONCEDE")
RATE_WINDOW = timedelta(hours=24)
# How each vote command changes the standing votes (CONCEDE names its side).
_CHANGES: dict[str, dict[str, object]] = {
    "DRAW": {"draw": True}, "NODRAW": {"draw": False}, "NOCONCEDE": {"noconcede": True},
    "WAIT": {"wait": True}, "NOWAIT": {"wait": False}}
_VOTE_WORDS = {
    "DRAW": "DRAW: your vote for a draw stands until you send NODRAW.",
    "NODRAW": "NODRAW: you do not vote for a draw.",
    "NOCONCEDE": "NOCONCEDE: you concede to nobody.",
    "NOWAIT": "NOWAIT: you do not ask the referee to wait.",
}


@dataclass(frozen=True)
class Relay:
    """One press message checked and ready to go: its block, its receivers
    (player ids, in the order written), and the words naming sender and
    receivers."""

    block: PressBlock
    number: int  # its place among the mail's blocks (1 = first)
    receivers: tuple[Correspondent, ...]
    sender: Correspondent
    observers: tuple[str, ...] = ()  # observer addresses (broadcasts)

    @property
    def headline(self) -> str:
        """``Press from France to England, Germany`` / ``Anonymous press to all``."""
        to = "all" if self.block.broadcast else ", ".join(r.label for r in self.receivers)
        if self.block.grey:
            return f"Anonymous press to {to}"
        return f"Press from {self.sender.label} to {to}"


def not_sent(count: int) -> str:
    """The line a refused mail's reply carries when it held press."""
    what = "press message was" if count == 1 else f"{count} press messages were"
    return f"Your {what} not sent: a refused mail delivers no press."


@dataclass
class PressDesk:
    """What one mail asks beyond orders: press to relay and votes to record."""

    referee: Referee
    letter: Letter
    relays: list[Relay] = field(default_factory=list)
    _problems: list[OrderMailError] | None = None

    # ------------------------------------------------------------ reading

    @property
    def votes(self) -> list[str]:
        return [c.name for c in self.letter.envelope.commands if c.name in VOTE_COMMANDS]

    def only_press(self) -> bool:
        """Whether the mail changes nothing in the game but relays press (no orders,
        no CLEAR, no votes): such a mail is answered in a paused or ended game."""
        envelope = self.letter.envelope
        return bool(envelope.press) and not envelope.body and not self.votes and not any(
            c.name in ("CLEAR", *SEAT_COMMANDS) for c in envelope.commands)

    @property
    def seat(self) -> SeatDesk:
        """The mail's RESIGN and SET lines (``referee.seat``), checked and done with
        the press and the votes."""
        return SeatDesk(self.referee, self.letter)

    def problems(self) -> list[OrderMailError]:
        """Every mistake of the mail's press, votes, RESIGN and SET (checked once)."""
        if self._problems is None:
            self._problems = [*self._press_problems(), *self._vote_problems(),
                              *self.seat.problems()]
        return self._problems

    # ------------------------------------------------------------ press

    def _names(self) -> dict[str, str]:
        players = self.letter.game.settings.players
        return {pid: p.name for pid, p in players.items() if p.active and p.addresses}

    def _press_problems(self) -> list[OrderMailError]:
        letter = self.letter
        blocks = letter.envelope.press
        if not blocks:
            return []
        game = letter.game
        level = game.press_level
        if level == "none":
            return [blocks[0].error("this game relays no press between players "
                                    "(the game master set press: none)",
                                    hint="write to the other players yourself")]
        shown = shown_players(game)
        everyone = shown.correspondents(game.ruleset.correspondents(game.open.state,
                                                                    self._names()))
        me = next((c for c in everyone if c.player == letter.player), None)
        if me is None:
            me = Correspondent(letter.player, shown.name(letter.player), ())
        problems: list[OrderMailError] = []
        self.relays = []
        secrets = mail_passwords(letter.mail, letter.envelope)
        for n, block in enumerate(blocks, 1):
            found = self._block_problems(block, level, everyone, me)
            if isinstance(found, Relay):
                self.relays.append(Relay(hide_in_press(block, secrets), n, found.receivers,
                                         me, found.observers))
            else:
                problems += found
        problems += self._limit_problems(blocks)
        return problems

    def _block_problems(self, block: PressBlock, level: str, everyone: Sequence[Correspondent],
                        me: Correspondent) -> Relay | list[OrderMailError]:
        if block.problem is not None:
            return [block.problem]
        game = self.letter.game
        ended = game.settings.status == "finished"
        if block.grey and level != "grey":
            return [block.error(f"this game has {level} press: the sender is always named",
                                hint="leave out GREY")]
        if not block.broadcast and (ended or level == "broadcast"):
            why = "the game has ended" if ended else "this game has broadcast press only"
            return [block.error(f"{why}: press goes to everyone", hint="write PRESS TO ALL")]
        if block.broadcast:
            others = tuple(c for c in everyone if c.player != me.player)
            return Relay(block, 0, others, me, game.settings.observers)
        return _receivers(block, everyone, me)

    def _limit_problems(self, blocks: Sequence[PressBlock]) -> list[OrderMailError]:
        limits: LimitsConfig = self.referee.config.limits
        long = [b for b in blocks if len(b.text) > limits.press_chars]
        problems: list[OrderMailError] = [b.error(
            f"this press is {len(b.text)} characters long; one message may have "
            f"{limits.press_chars} at most", hint="shorten it, or send it in parts")
            for b in long]
        now = self.referee.clock()
        sent = self.letter.game.press.sent_since(self.letter.player, now - RATE_WINDOW)
        if sent + len(blocks) > limits.press_per_day:
            left = max(0, limits.press_per_day - sent)
            problems.append(blocks[0].error(
                f"you have sent {sent} press messages in this game in the last 24 hours; "
                f"the limit is {limits.press_per_day}, so {left} more can go now",
                hint="wait a while, or put several words into one message"))
        return problems

    # ------------------------------------------------------------ votes

    def _vote_problems(self) -> list[OrderMailError]:
        letter = self.letter
        commands = [c for c in letter.envelope.commands if c.name in _SIDE_VOTES]
        if not commands:
            return []
        game = letter.game
        sides = game.ruleset.vote_sides(game.open.state, self._names())
        first = commands[0]
        if sides is None:
            return [PressError(f"{game.ruleset.title} has no draws or concessions",
                               rule="VOTE", line_no=first.line_no,
                               hint="leave out " + ", ".join(c.name for c in commands))]
        mine = next((s for s in sides if s.player == letter.player), None)
        if mine is None:
            return [PressError("your side is out of the game, so it has no vote",
                               rule="VOTE", line_no=first.line_no)]
        problems: list[OrderMailError] = []
        for c in commands:
            if c.name == "DRAW":
                problems += self._draw_problems(c, sides)
            if c.name == "CONCEDE":
                problems += _concede_problems(c, sides, mine)
        return problems

    def _draw_problems(self, command: Command, sides: Sequence[Correspondent]
                       ) -> list[OrderMailError]:
        """A DRAW the game does not allow, or one naming a power that is not in
        the game (J13)."""
        allow = self.letter.game.settings.draws.allow
        named = bool(command.args)

        def refused(message: str, hint: str) -> list[OrderMailError]:
            return [PressError(message, rule="J13", line_no=command.line_no,
                               line=command.line, hint=hint)]

        if not allow:
            return refused("this game allows no draws", "leave out DRAW")
        if named and "named" not in allow:
            return refused("this game allows only the draw of every surviving power",
                           "write DRAW alone")
        if not named and "all" not in allow:
            example = " ".join(s.side for s in sides[:3])
            return refused("this game allows only draws among named powers",
                           f"name the powers of the draw, e.g. DRAW {example}")
        chosen: list[str] = []
        for word in command.args:
            side = next((s.side for s in sides if word in s.words), None)
            if side is None:
                return [PressError(
                    f"{word} is not a power still in the game", rule="J13",
                    line_no=command.line_no, line=command.line,
                    expected=", ".join(f"{s.label} ({s.side})" for s in sides))]
            if side not in chosen:
                chosen.append(side)
        if named and len(chosen) < 2:
            return refused("a draw is shared by two powers or more",
                           "name every power of the draw, or concede (CONCEDE TO ...)")
        return []

    # ------------------------------------------------------------ acting

    def deliver(self) -> list[str]:
        """Relay the press and record the votes (the mail is accepted); the
        sections of the sender's reply."""
        letter = self.letter
        sections = [self._relay(r) for r in self.relays]
        if letter.envelope.press:
            letter.press_done = True
        votes = self._record_votes()
        return [*sections, *votes, *self.seat.deliver()]

    def _relay(self, relay: Relay) -> str:
        letter, referee = self.letter, self.referee
        game = letter.game
        title = game.settings.title or game.id
        subject = f"[{game.id}] {relay.headline}"
        body = self._press_body(relay, title)
        addresses = [a for r in relay.receivers
                     for a in game.settings.players[r.player].addresses]
        addresses += [a for a in relay.observers if a not in addresses]
        key = letter.mail.message_id or f"{letter.player}-{letter.arrived.isoformat()}"
        for address in dict.fromkeys(addresses):
            referee.outgoing.enqueue(referee.mail_to(address, subject, body),
                                     key=f"press:{game.id}:{key}:{relay.number}:{address}")
        game.press.append(
            sender=letter.player, grey=relay.block.grey, broadcast=relay.block.broadcast,
            receivers=[r.player for r in relay.receivers], observers=len(relay.observers),
            text=relay.block.text, sent_at=referee.clock(), message_id=key,
            block=relay.number)
        grey = " (grey: they are not told it is from you)" if relay.block.grey else ""
        to = "everyone in the game" if relay.block.broadcast else \
            ", ".join(r.label for r in relay.receivers)
        return "\n".join([f"Your press was sent to {to}{grey}. Your copy:", "",
                          relay.headline, *("  " + line for line in relay.block.text.split("\n"))])

    def _press_body(self, relay: Relay, title: str) -> str:
        game = self.letter.game
        turn = replies.TurnName(game.turn_label, game.ruleset.words)
        answer = ("The sender is not named (grey press)." if relay.block.grey else
                  f"To answer, mail the referee: PRESS TO {relay.sender.words[0]}" if
                  relay.sender.words else "")
        return "\n".join([
            relay.headline, f"Game {game.id}{f' ({title})' if title != game.id else ''}, "
            f"{turn}", "", relay.block.text, "",
            replies.RULE, *([answer] if answer else []),
            "Press is relayed by the referee; it carries no orders."])

    def _record_votes(self) -> list[str]:
        letter = self.letter
        game = letter.game
        lines: list[str] = []
        for c in letter.envelope.commands:
            if c.name not in VOTE_COMMANDS:
                continue
            side = self._side_of(c.target or "") if c.name == "CONCEDE" else ""
            change: dict[str, Any] = {"concede": side} if side else dict(_CHANGES[c.name])
            named = [self._side_of(w) for w in c.args] if c.name == "DRAW" else []
            if named:
                change["draw_set"] = named
            game.votes.change(letter.player, **change)
            lines.append(self._draw_words(named) if c.name == "DRAW"
                         else self._vote_words(c.name, side))
        return ["\n".join(w for line in lines for w in wrap(line, "", "  "))] if lines else []

    def _draw_words(self, named: Sequence[str]) -> str:
        """What the reply says about a DRAW recorded (J13)."""
        game = self.letter.game
        if named:
            labels = game.ruleset.vote_sides(game.open.state, self._names()) or []
            names = {s.side: s.label for s in labels}
            what = (f"DRAW {' '.join(dict.fromkeys(named))}: your vote for a draw shared by "
                    f"{', '.join(names.get(p, p) for p in dict.fromkeys(named))}")
        else:
            what = "DRAW: your vote for a draw shared by every surviving power"
        secrecy = ("Votes are secret: nobody learns of a draw that does not pass."
                   if game.settings.draws.secret else
                   "Votes are open: each report lists who votes for which draw.")
        return (f"{what} stands until you send NODRAW or another DRAW. It passes when "
                "the player of every surviving power votes for this same draw at an "
                f"adjudication (rule J13). {secrecy}")

    def _vote_words(self, name: str, side: str) -> str:
        """What the reply says about one vote recorded."""
        game = self.letter.game
        if name == "CONCEDE":
            return (f"CONCEDE TO {side}: your concession stands until you send NOCONCEDE. "
                    "It is secret; it counts when every other surviving power concedes too.")
        if name == "WAIT":
            turn = replies.TurnName(game.turn_label, game.ruleset.words)
            early = "" if game.settings.early_adjudication else \
                " (this game is never played before its deadline anyway)"
            return (f"WAIT: {turn} will not be played before its deadline{early}. "
                    "Send NOWAIT to take it back.")
        return _VOTE_WORDS[name]

    def _side_of(self, word: str) -> str:
        game = self.letter.game
        sides = game.ruleset.vote_sides(game.open.state, self._names()) or []
        return next(s.side for s in sides if word in s.words)


def _receivers(block: PressBlock, everyone: Sequence[Correspondent],
               me: Correspondent) -> Relay | list[OrderMailError]:
    """The relay of a block to the receivers it names (each once), or what is
    wrong with the names: nobody by that name, or the sender."""
    by_word = {w: c for c in everyone for w in c.words}
    problems: list[OrderMailError] = []
    chosen: list[Correspondent] = []
    for word in block.receivers:
        c = by_word.get(word)
        if c is None:
            names = ", ".join(f"{o.label} ({o.words[0]})" for o in everyone
                              if o.player != me.player)
            problems.append(block.error(f"nobody called {word} can get press in this game",
                                        receiver=word, expected=names or "nobody",
                                        hint="name the receivers as the list above does"))
        elif c.player == me.player:
            problems.append(block.error(f"{word} is you: press goes to other players",
                                        receiver=word))
        elif c not in chosen:
            chosen.append(c)
    if problems:
        return problems
    return Relay(block, 0, tuple(chosen), me)


def _concede_problems(c: Command, sides: Sequence[Correspondent],
                      mine: Correspondent) -> list[OrderMailError]:
    """A CONCEDE to one's own side, or to a side not in the game."""
    target = next((s for s in sides if c.target in s.words), None)
    if target is not None and target.side != mine.side:
        return []
    what = "yourself" if target is not None else f"{c.target}, which is not in the game"
    return [PressError(
        f"you cannot concede to {what}", rule="VOTE", line_no=c.line_no,
        line=c.line, column=c.column, width=len(c.target or "") or 1,
        expected=", ".join(f"{s.label} ({s.side})" for s in sides if s != mine))]
