"""One Fast Play turn: ``adjudicate_turn(state, orders, dice) -> (state, events)``.

The order of a turn (FP3, with the rulings of ``shared/rules/fastplay.md``):

0. NMR counts (FP17); burning planes roll (FP12); returning planes enter
   (FP14); duels begin (FP15).
1. Moves 1-3, each: all planes move at once (FP5, FP13), then all shoot at
   once (FP7, FP8, FP12); damage is applied together and planes with
   ``hits_to_down`` damage points are shot down (FP9), the victory credited
   (FP10).
2. End of turn: aces promoted (FP11), NMR removals (FP17), the end check (FP19).

Every die comes from ``dice`` (a recording ``pbmref.rules.dice.Dice``) and is
written as a ``DieRolled`` event at the point it was rolled.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from typing import Protocol

from pbmref.rules.fastplay.cards import FULL_DECK, Card, fly
from pbmref.rules.fastplay.events import (
    AcePromoted,
    BurnChecked,
    CardLost,
    CriticalHit,
    Damaged,
    DieRolled,
    DuelBegan,
    DuelEnded,
    Entered,
    Event,
    Fired,
    GameEnded,
    HeldFire,
    Manoeuvred,
    MissedOrders,
    Removed,
    ShotDown,
    Victory,
)
from pbmref.rules.fastplay.legality import (
    default_card,
    default_entry,
    entering,
    may_leave,
    nearest_enemy,
)
from pbmref.rules.fastplay.orders import Burn, CardPlay, TurnOrders
from pbmref.rules.fastplay.state import GameState, Plane, PlaneState, Team

__all__ = ["DiceLike", "GameOverError", "adjudicate_turn"]


class DiceLike(Protocol):
    def roll(self, purpose: str, who: str = "", sides: int = 6, *, move: int = 0) -> int: ...


class GameOverError(ValueError):
    """A turn asked of a game that has ended (FP19)."""


_CRITICAL = {1: "pilot wounded", 2: "pilot hit", 3: "gun hit", 4: "engine hit",
             5: "fire", 6: "explosion"}


class _Turn:
    def __init__(self, state: GameState, orders: TurnOrders, dice: DiceLike) -> None:
        self.start = state
        self.settings = state.settings
        self.board = state.board
        self.orders = orders
        self.dice = dice
        self.planes: dict[str, Plane] = {p.pilot: p for p in state.planes}
        self.events: list[Event] = []
        self.move = 0
        self.score: Counter[Team] = Counter(dict(state.score))
        # Damage done this turn: target -> shooter -> points (FP10).
        self.dealt: dict[str, Counter[str]] = defaultdict(Counter)
        self.turn_deck: dict[str, Counter[Card]] = {}

    # -- helpers ---------------------------------------------------------
    def roll(self, purpose: str, who: str, sides: int = 6) -> int:
        value = self.dice.roll(purpose, who, sides, move=self.move)
        self.events.append(DieRolled(self.move, purpose, who, value, sides))
        return value

    def emit(self, event: Event) -> None:
        self.events.append(event)

    def pilots(self) -> list[str]:
        return sorted(self.planes)

    def on_board(self) -> list[Plane]:
        return [self.planes[k] for k in self.pilots() if self.planes[k].on_board]

    def play(self, pilot: str, n: int) -> CardPlay | None:
        po = self.orders.plane.get(pilot)
        return po.move(n) if po is not None else None

    def lose_random_card(self, pilot: str, cause: str) -> None:
        plane = self.planes[pilot]
        if not plane.deck:
            return
        index = self.roll("card", pilot, len(plane.deck)) - 1
        card = plane.deck[index]
        deck = plane.deck[:index] + plane.deck[index + 1:]
        self.planes[pilot] = plane.but(deck=deck)
        self.emit(CardLost(self.move, pilot, card.value, cause))

    def lose_card(self, pilot: str, card: Card, cause: str) -> None:
        plane = self.planes[pilot]
        deck = list(plane.deck)
        deck.remove(card)
        self.planes[pilot] = plane.but(deck=tuple(deck))
        self.emit(CardLost(self.move, pilot, card.value, cause))

    def end_duel(self, pilot: str, winner: str | None, reason: str) -> None:
        plane = self.planes[pilot]
        partner = plane.duel
        if partner is None:
            return
        self.planes[pilot] = plane.but(duel=None)
        other = self.planes[partner]
        self.planes[partner] = other.but(duel=None, withdrawing=winner == partner)
        self.emit(DuelEnded(self.move, tuple(sorted((pilot, partner))), winner, reason))

    # -- start of the turn -----------------------------------------------
    def count_nmr(self) -> None:
        for pilot in self.pilots():
            plane = self.planes[pilot]
            if plane.state is PlaneState.REMOVED:
                continue
            if pilot in self.orders.plane:
                self.planes[pilot] = plane.but(nmr=0)
            else:
                self.planes[pilot] = plane.but(nmr=plane.nmr + 1)
                self.emit(MissedOrders(0, pilot, plane.nmr + 1))

    def burn(self) -> None:
        """FP12 fire: at the start of each later turn, 1 out, 2-4 burns on, 5-6 burns
        on and the defender loses one card or one damage point. **Ruling**: the
        pilot chooses with ``BURN CARD`` or ``BURN DAMAGE``; without it (or with
        no card left to lose) the plane takes the damage point, even its last."""
        for plane in self.on_board():
            if not plane.burning:
                continue
            roll = self.roll("burn", plane.pilot)
            po = self.orders.plane.get(plane.pilot)
            wants_card = po is not None and po.burn is Burn.CARD
            if roll == 1:
                self.planes[plane.pilot] = plane.but(burning=False)
                self.emit(BurnChecked(0, plane.pilot, roll, "out"))
            elif roll <= 4:
                self.emit(BurnChecked(0, plane.pilot, roll, "burns"))
            elif wants_card and plane.deck:
                self.emit(BurnChecked(0, plane.pilot, roll, "burns, card"))
                self.lose_random_card(plane.pilot, "fire")
            else:
                self.emit(BurnChecked(0, plane.pilot, roll, "burns, damage"))
                self.apply_damage({plane.pilot: 1}, cause="fire")
        self.shoot_down_all()

    def enter(self) -> None:
        """FP14: returning planes enter, all at once, measured against the
        planes on the board at the start of the turn. A plane its fire shot
        down at the start of this turn (FP12) returns next turn, not now."""
        before = GameState(self.start.turn, self.settings, tuple(self.planes.values()))
        for pilot in self.pilots():
            plane = self.planes[pilot]
            if not (plane.state.returning and self.start.plane(pilot).state.returning):
                continue
            po = self.orders.plane.get(pilot)
            if po is not None and po.enter is not None:
                hex_, heading = po.enter.hex, po.enter.heading
                d = nearest_enemy(before, plane.team, hex_) or 0
                chosen = "orders"
            else:
                hex_, heading, d = default_entry(before, plane)
                chosen = "referee"
            new_pilot = plane.state is PlaneState.OUT
            changes: dict[str, object] = {}
            if new_pilot:
                changes = {"kills": 0, "ace": False, "double_ace": False}
            self.planes[pilot] = plane.but(
                state=PlaneState.FLYING, hex=hex_, heading=heading, hits=0, deck=FULL_DECK,
                duel=None, withdrawing=False, gun_hits=0, burning=False, **changes)
            self.emit(Entered(0, pilot, hex_, heading, chosen, d, new_pilot))

    def begin_duels(self) -> None:
        """FP15: both pilots entering this turn and each naming the other."""
        for pilot in self.pilots():
            po = self.orders.plane.get(pilot)
            if po is None or po.duel is None or po.duel not in self.planes:
                continue
            partner = po.duel
            other_po = self.orders.plane.get(partner)
            if pilot > partner or other_po is None or other_po.duel != pilot:
                continue
            a, b = self.planes[pilot], self.planes[partner]
            if not (entering(self.start, self.start.plane(pilot))
                    and entering(self.start, self.start.plane(partner))):
                continue
            if a.team is b.team or not (a.on_board and b.on_board) or a.duel or b.duel:
                continue
            self.planes[pilot] = a.but(duel=partner)
            self.planes[partner] = b.but(duel=pilot)
            self.emit(DuelBegan(0, (pilot, partner)))

    # -- one move -----------------------------------------------------------
    def manoeuvre(self) -> None:
        for stale in self.on_board():
            plane = self.planes[stale.pilot]  # a partner's move may have ended a duel
            if not plane.on_board or plane.hex is None:
                continue
            pilot = plane.pilot
            left = self.turn_deck[pilot]
            play = self.play(pilot, self.move)
            reason = ""
            if play is not None:
                card: Card | None = play.card
            else:
                card = default_card(self.start, left, plane.hex, plane.heading)
                reason = (f"no card given: {card} (FP17)" if card is not None
                          else "no card given and none keeps it on the board: stays (FP17)")
            if card is None:
                self.emit(Manoeuvred(self.move, pilot, "", plane.hex, plane.hex,
                                     plane.heading, "stayed", reason))
                continue
            left[card] -= 1
            path, heading = fly(card, plane.hex, plane.heading)
            if not all(self.board.contains(h) for h in path):
                if may_leave(self.start, plane):
                    self.planes[pilot] = plane.but(state=PlaneState.LEFT, hex=None,
                                                   heading=heading, withdrawing=False,
                                                   burning=False)
                    self.emit(Manoeuvred(self.move, pilot, card.value, plane.hex, None,
                                         heading, "left", reason))
                    if plane.duel is not None:
                        self.end_duel(pilot, None, "left the board")
                else:  # cannot happen with checked orders; stay rather than leave
                    self.emit(Manoeuvred(self.move, pilot, card.value, plane.hex, plane.hex,
                                         plane.heading, "stayed",
                                         "may not leave the board (FP13)"))
                continue
            to = path[-1] if path else plane.hex
            self.planes[pilot] = plane.but(hex=to, heading=heading)
            self.emit(Manoeuvred(self.move, pilot, card.value, plane.hex, to, heading,
                                 "flew" if path else "stayed", reason))

    def can_shoot(self, shooter: Plane, target: Plane) -> bool:
        if target.team is shooter.team or not target.on_board:
            return False
        if shooter.duel is not None:
            return target.pilot == shooter.duel
        return target.duel is None and not target.withdrawing

    def shoot(self) -> None:
        damage: Counter[str] = Counter()
        gun: Counter[str] = Counter()
        for shooter in self.on_board():
            if self.holds_fire(shooter):
                continue
            target, distance = self.first_target(shooter)
            if target is None:
                continue
            amount = self.fire(shooter, target, distance, gun)
            damage[target.pilot] += amount
            if amount:
                self.dealt[target.pilot][shooter.pilot] += amount
        for pilot, n in gun.items():
            p = self.planes[pilot]
            self.planes[pilot] = p.but(gun_hits=p.gun_hits + n)
        self.apply_damage(damage, "gunfire")
        self.shoot_down_all()

    def holds_fire(self, shooter: Plane) -> bool:
        """A pilot who chose to hold fire, or who is withdrawing after a won duel
        (FP15), does not shoot this move (said in an event)."""
        play = self.play(shooter.pilot, self.move)
        if play is not None and play.hold_fire:
            self.emit(HeldFire(self.move, shooter.pilot, "f-0"))
            return True
        if shooter.withdrawing:
            self.emit(HeldFire(self.move, shooter.pilot, "duel won (FP15)"))
            return True
        return False

    def first_target(self, shooter: Plane) -> tuple[Plane | None, int]:
        """The nearest plane the shooter may shoot along its line of fire, and
        how far; two or more in one hex: a die picks (ruling FP7)."""
        assert shooter.hex is not None
        for d, hex_ in enumerate(
                self.board.line(shooter.hex, shooter.heading, self.settings.range), 1):
            found = [p for p in self.on_board() if p.hex == hex_ and self.can_shoot(shooter, p)]
            if len(found) > 1:
                return found[self.roll("target", shooter.pilot, len(found)) - 1], d
            if found:
                return found[0], d
        return None, 0

    def fire(self, shooter: Plane, target: Plane, distance: int, gun: Counter[str]) -> int:
        """Roll the shooter's dice at the target; the damage done (hits, and with
        critical hits what the hit dice add, FP12)."""
        n = self.settings.dice_at(distance) + (1 if shooter.ace else 0) - shooter.gun_hits
        n = max(0, n)
        rolls = tuple(self.roll("fire", shooter.pilot) for _ in range(n))
        hits = sum(1 for r in rolls if r >= 4)
        self.emit(Fired(self.move, shooter.pilot, target.pilot, distance, n, rolls, hits))
        amount = hits
        if self.settings.critical_hits:
            for r in rolls:
                amount += self.read_hit_die(r, shooter.pilot, target.pilot, gun)
        return amount

    def read_hit_die(self, roll: int, shooter: str, target: str, gun: Counter[str]) -> int:
        """FP12: extra damage beyond the one point of a hit die, with card losses."""
        if roll == 5:
            self.lose_random_card(target, "hit")
            return 0
        if roll != 6:
            return 0
        crit = self.roll("critical", target)
        effect = _CRITICAL[crit]
        extra = 0
        if crit in (1, 6):
            extra = self.roll("extra damage", target)
        self.emit(CriticalHit(self.move, shooter, target, crit, effect, extra))
        if crit == 2:
            self.lose_random_card(target, "pilot hit")
        elif crit == 3:
            gun[target] += 1
        elif crit == 4:
            # Ruling: AF and I go; for each already gone, a random card of those
            # left afterwards (so with one of them left: that card, then one random).
            power = [c for c in (Card.AF, Card.I) if c in self.planes[target].deck]
            for card in power:
                self.lose_card(target, card, "engine hit")
            for _ in range(2 - len(power)):
                self.lose_random_card(target, "engine hit")
        elif crit == 5:
            self.planes[target] = self.planes[target].but(burning=True)
        return extra

    def apply_damage(self, damage: Counter[str] | dict[str, int], cause: str) -> None:
        for pilot in sorted(damage):
            amount = damage[pilot]
            if amount <= 0:
                continue
            p = self.planes[pilot]
            self.planes[pilot] = p.but(hits=p.hits + amount)
            self.emit(Damaged(self.move, pilot, amount, p.hits + amount, cause))

    def shoot_down_all(self) -> None:
        downed = [p.pilot for p in self.on_board() if p.hits >= self.settings.hits_to_down]
        for pilot in downed:
            credited = self.credit(pilot)
            crash = self.roll("crash", pilot)
            outcome = PlaneState.DOWN if crash <= 4 else PlaneState.OUT
            victim = self.planes[pilot]
            self.planes[pilot] = victim.but(state=outcome, hex=None, burning=False,
                                            withdrawing=False)
            self.emit(ShotDown(self.move, pilot, credited, crash, outcome.value))
            if credited is not None:
                victor = self.planes[credited]
                self.planes[credited] = victor.but(kills=victor.kills + 1,
                                                   score=victor.score + 1)
                self.score[victor.team] += 1
                self.emit(Victory(self.move, credited, pilot, self.dealt[pilot][credited],
                                  victor.kills + 1))
        for pilot in downed:
            partner = self.planes[pilot].duel
            if partner is None:
                continue
            winner = None if partner in downed else partner
            self.end_duel(pilot, winner, "shot down")

    def credit(self, victim: str) -> str | None:
        """FP10: most damage this turn; equal damage rolls off until one is highest."""
        dealt = self.dealt.get(victim)
        if not dealt:
            return None
        top = max(dealt.values())
        tied = sorted(p for p, v in dealt.items() if v == top)
        while len(tied) > 1:
            rolls = {p: self.roll("roll-off", p) for p in tied}
            best = max(rolls.values())
            tied = [p for p in tied if rolls[p] == best]
        return tied[0]

    # -- end of the turn -----------------------------------------------------
    def finish(self) -> GameState:
        self.move = 0
        self.promote_aces()
        self.remove_absent()
        score = tuple((t, self.score[t]) for t in Team)
        planes = tuple(self.planes[k] for k in self.pilots())
        reason = self.end_reason(planes)
        winners: tuple[str, ...] = ()
        if reason:
            g, a = self.score[Team.GERMANS], self.score[Team.ALLIES]
            # FP19; ruling: equal scores are a draw, and both sides are named.
            winners = (("Germans",) if g > a else ("Allies",) if a > g
                       else ("Germans", "Allies"))
            self.emit(GameEnded(0, winners, reason, tuple((t.value, n) for t, n in score)))
        return GameState(self.start.turn + 1, self.settings, planes, score, bool(reason),
                         winners)

    def promote_aces(self) -> None:
        """Pilots in play with enough victories become aces, then double aces."""
        s = self.settings
        for pilot in self.pilots():
            p = self.planes[pilot]
            if p.state in (PlaneState.OUT, PlaneState.REMOVED):
                continue
            if not p.ace and p.kills >= s.ace_victories:
                p = p.but(ace=True)
                self.emit(AcePromoted(0, pilot, p.kills, "ace"))
            if not p.double_ace and p.kills >= s.double_ace_victories:
                p = p.but(double_ace=True)
                self.emit(AcePromoted(0, pilot, p.kills, "double ace"))
            self.planes[pilot] = p

    def remove_absent(self) -> None:
        """A pilot who missed orders ``nmr_limit`` turns is removed (a duel ends)."""
        for pilot in self.pilots():
            p = self.planes[pilot]
            if p.state is not PlaneState.REMOVED and p.nmr >= self.settings.nmr_limit:
                if p.duel is not None:
                    self.end_duel(pilot, None, "removed")
                    p = self.planes[pilot]
                self.planes[pilot] = p.but(state=PlaneState.REMOVED, hex=None,
                                           withdrawing=False, burning=False)
                self.emit(Removed(0, pilot, "NMR"))

    def end_reason(self, planes: tuple[Plane, ...]) -> str:
        """Why the game ends after this turn (the turn limit, a side with no
        planes left; the last reason found wins); empty if it goes on."""
        reason = ""
        if self.settings.turns and self.start.turn >= self.settings.turns:
            reason = "turn limit"
        for team in Team:
            if not any(p.team is team and p.state is not PlaneState.REMOVED for p in planes):
                reason = f"no {team.value} planes left"
        return reason

    def run(self) -> tuple[GameState, tuple[Event, ...]]:
        if self.start.game_over:
            raise GameOverError("the game is over; there is no turn to adjudicate")
        self.count_nmr()
        self.burn()
        self.enter()
        self.begin_duels()
        for pilot, plane in self.planes.items():
            self.turn_deck[pilot] = Counter(plane.deck)
        for n in (1, 2, 3):
            self.move = n
            self.manoeuvre()
            self.shoot()
        return self.finish(), tuple(self.events)


def adjudicate_turn(
    state: GameState, orders: TurnOrders, dice: DiceLike
) -> tuple[GameState, tuple[Event, ...]]:
    """Resolve one whole turn (FP3); returns the next position and the events."""
    return _Turn(state, orders, dice).run()

