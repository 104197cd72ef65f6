"""In an anonymous game nobody learns another player's name or address (issue 40, item 9).

A short game of each ruleset is played through the referee on the local
Maildir, with everything a player may send: the welcome, orders, STATUS, MAP,
HELP, HISTORY, press to everyone and to one player, a receiver nobody has, a
reminder for the late, the deadline's reports (Diplomacy and Fast Play to the
game's end: a draw, the last turn), and the game's archive. Every text part,
HTML part, SVG picture and header of every mail to a player or an observer,
and every archive page, is searched for the other players' names, addresses
and player ids; the same game played with ``anonymous: false`` shows them (so
the search has teeth). The game master's own commands still show them.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage
from pathlib import Path

import pytest
import yaml
from hardkit import Clock

from pbmref import gm
from pbmref.archive import write_archive
from pbmref.cli import main
from pbmref.orders.check import order_mail
from pbmref.referee.turns import adjudicate_due
from pbmref.referee.welcome import queue_welcome
from pbmref.rulesets.fastplay.classroom import load_template, new_class
from pbmref.store import Game, GameStore
from refereekit import RefereeTable, maildir_config

OBSERVER = "watcher@news.example"
T0 = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)
TURN = timedelta(hours=48)
# player id -> (name, side): a tweedekker airfield, a Diplomacy power, a Fast Play team
GAMES: dict[str, dict[str, tuple[str, str]]] = {
    "tweedekker": {"anna": ("Anna Achterberg", "N"), "bert": ("Bert Bakhuis", "SE"),
                   "cora": ("Cora Claessens", "SW")},
    "diplomacy": {"anton": ("Anton Aarts", "AUS"), "edith": ("Edith Evers", "ENG"),
                  "fleur": ("Fleur Fokker", "FRA"), "gustav": ("Gustav Geel", "GER"),
                  "ilaria": ("Ilaria Ippel", "ITA"), "raisa": ("Raisa Rood", "RUS"),
                  "tarik": ("Tarik Terpstra", "TUR")},
    "fastplay": {"hanna": ("Hanna Hoekstra", "Germans"), "jelle": ("Jelle Jansma", "Germans"),
                 "kees": ("Kees Kuipers", "Allies"), "lotte": ("Lotte Lammers", "Allies")},
}


def address(pid: str) -> str:
    return f"{pid}@players.example"


@dataclass
class Site(RefereeTable):
    """One referee on a Maildir, one game, the players' passwords, every mail sent."""

    game_id: str = ""
    passwords: dict[str, str] = field(default_factory=dict)
    mails: list[EmailMessage] = field(default_factory=list)

    def game(self, gid: str | None = None) -> Game:
        return self.store.open(gid or self.game_id)

    def collect(self) -> list[EmailMessage]:
        fresh = self.new_outbox()
        self.mails += fresh
        return fresh

    def send(self, pid: str, *lines: str) -> list[EmailMessage]:
        self.deliver(self.mail("\n".join([f"GAME {self.game_id}",
                                          f"PASSWORD {self.passwords[pid]}", *lines, "END",
                                          ""]), sender=address(pid)))
        self.take_in()
        self.clock.now += timedelta(minutes=3)
        return self.collect()

    def reply(self, pid: str, *lines: str) -> str:
        mine = [m for m in self.send(pid, *lines) if m["To"] == address(pid)]
        assert len(mine) == 1, [m["Subject"] for m in mine]
        return text_of(mine[0])

    def orders(self, pid: str, *extra: str) -> str:
        """``pid`` mails the orders the computer would give it now (and ``extra``)."""
        game = self.game()
        rng = random.Random(f"{self.game_id}-{pid}-{game.turn}")
        orders = game.ruleset.computer_orders(game.open.state, pid, rng)
        entry = {} if orders is None else game.ruleset.encode_orders(orders)
        keyword = f"{game.ruleset.words.keyword} {game.turn_label}"
        body = order_mail(self.game_id, self.passwords[pid], keyword, entry, extra)
        return self.reply(pid, *body.splitlines()[2:-1])

    def deadline(self) -> None:
        deadline = self.game().settings.deadline
        assert deadline is not None
        self.clock.now = max(self.clock.now, deadline + timedelta(minutes=1))
        report = adjudicate_due(self.referee, self.intake)
        assert report.adjudicated and not report.broken
        self.collect()


def text_of(msg: EmailMessage) -> str:
    """Every header, text part (plain, HTML) and SVG picture of a mail."""
    out = [f"{k}: {v}" for k, v in msg.items()]
    for part in msg.walk():
        kind = part.get_content_type()
        if part.get_content_maintype() == "text" or kind == "image/svg+xml":
            content = part.get_content()
            out.append(content.decode() if isinstance(content, bytes) else str(content))
    return "\n".join(out)


def make_site(tmp_path: Path, ruleset: str, anonymous: bool) -> Site:
    config = maildir_config(tmp_path)
    store = GameStore(config.games_dir)
    players = GAMES[ruleset]
    specs = [gm.PlayerSpec(pid, (address(pid),), name,
                           airfield=side if ruleset == "tweedekker" else None,
                           power=side if ruleset == "diplomacy" else None)
             for pid, (name, side) in players.items()]
    options: dict[str, object] = {}
    if ruleset == "fastplay":  # a one-board class of one turn (FP19: then the game ends)
        path = tmp_path / "class.yaml"
        path.write_text(yaml.safe_dump({
            "class": "c1", "title": "Class", "per_board": 4, "turns": 1, "seed": 3,
            "pilots": {pid: {"name": name, "team": team, "address": address(pid)}
                       for pid, (name, team) in players.items()}}), encoding="utf-8")
        board, = new_class(load_template(path))
        options = {"position": board.position}
    game_id = {"tweedekker": "zep1", "diplomacy": "dip1", "fastplay": "fp1"}[ruleset]
    created = gm.new_game(
        store, game_id, specs, title="Secret Society", ruleset=ruleset, seed=7,
        deadline=T0 + TURN, turn_length=TURN, reminder_hours=12, early_adjudication=False,
        anonymous=anonymous, press="grey" if ruleset != "fastplay" else "white",
        observers=[OBSERVER], now=T0, **options)  # type: ignore[arg-type]
    return Site.start(tmp_path, config, store, Clock(T0), game_id=game_id,
                      passwords=dict(created.passwords))


def play_short_game(site: Site) -> None:
    """What players do in a short game: see the docstring of this module."""
    game = site.game()
    queue_welcome(site.referee, game, site.passwords)
    site.referee.deliver(force=True)
    site.collect()
    first, second, *rest = list(site.passwords)
    site.reply(first, "STATUS", "MAP", "HELP", "ORDERS")
    site.reply(first, "PRESS TO ALL", "Hello everyone.")
    refused = site.reply(first, "PRESS TO NOBODY", "Who are you?")
    named = re.findall(r"\(([A-Z0-9]+)\)", refused.split("Expected:", 1)[1])
    assert named, refused
    site.reply(first, f"PRESS TO {named[0]}", "Just between us.")
    if game.press_level == "grey":
        site.reply(second, "PRESS GREY TO ALL", "Guess who.")
    site.orders(first)
    site.clock.now = T0 + TURN - timedelta(hours=11)  # the reminders go to the late
    adjudicate_due(site.referee, site.intake)
    site.collect()
    draw = ("DRAW",) if game.ruleset.vote_sides(game.open.state, {}) is not None else ()
    for pid in [first, second, *rest]:
        site.orders(pid, *draw)
    site.reply(second, "STATUS")
    site.deadline()
    site.reply(first, "HISTORY 1", "MAP", "STATUS")
    write_archive(site.game(), site.root / "archive")


def leaks(site: Site) -> list[str]:
    """Every place a player or an observer is shown another player's name,
    address or player id."""
    players = site.game().settings.players
    found = []
    readers = [(m["To"], text_of(m)) for m in site.mails]
    readers += [(f"archive {p.name}", p.read_text(encoding="utf-8"))
                for p in sorted((site.root / "archive").iterdir())]
    for reader, text in readers:
        for pid, player in players.items():
            if reader == address(pid):
                continue  # their own name, address and id
            for needle in (player.name, *player.addresses, pid):
                if re.search(rf"(?i)(?<![\w-]){re.escape(needle)}(?![\w-])", text):
                    found.append(f"{reader} is shown {needle!r}")
    return sorted(set(found))


@pytest.mark.parametrize("ruleset", sorted(GAMES))
def test_an_anonymous_game_names_nobody_to_anybody(tmp_path: Path, ruleset: str) -> None:
    site = make_site(tmp_path, ruleset, anonymous=True)
    play_short_game(site)
    reports = [m for m in site.mails if "report" in str(m["Subject"])]
    assert {m["To"] for m in reports} == {*map(address, site.passwords), OBSERVER}
    assert any(m["To"] == OBSERVER for m in site.mails if "Press" in str(m["Subject"]))
    assert leaks(site) == []
    welcomes = [text_of(m) for m in site.mails if "welcome" in str(m["Subject"])]
    assert len(welcomes) == len(site.passwords)
    assert all("the others know you only as" in w for w in welcomes)


@pytest.mark.parametrize("ruleset", sorted(GAMES))
def test_the_same_game_not_anonymous_names_the_players(tmp_path: Path, ruleset: str) -> None:
    """The search above finds names where a game shows them."""
    site = make_site(tmp_path, ruleset, anonymous=False)
    play_short_game(site)
    shown = leaks(site)
    name = next(iter(GAMES[ruleset].values()))[0]
    assert any(f"{OBSERVER} is shown {name!r}" == s for s in shown), shown[:10]


def test_the_game_master_still_sees_the_names(tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    site = make_site(tmp_path, "diplomacy", anonymous=True)
    site.reply("fleur", "PRESS TO ENG", "Between us.")
    site.reply("edith", "F Lon H")
    games = str(site.game().dir.parent)
    assert main(["status", "--games", games, "dip1"]) == 0
    status = capsys.readouterr().out
    assert "Fleur Fokker" in status and "Edith Evers" in status and "orders in" in status
    assert main(["press", "--games", games, "dip1"]) == 0
    assert "fleur to edith" in capsys.readouterr().out


def test_pilots_sharing_an_airfield_are_numbered_and_a_stranger_is_a_player() -> None:
    """Eight pilots on six airfields (B5: shared in turn), and a player the first
    position does not know: every alias is its own, and the same each time."""
    from pbmref.rulesets import get_ruleset

    tweedekker = get_ruleset("tweedekker")
    fields = ["N", "SE", "SW", "NE", "S", "NW", "N", "SE"]
    position = {"aircraft": {f"p{i}": {"airfield": f} for i, f in enumerate(fields)}}
    players = [*position["aircraft"], "late"]
    aliases = tweedekker.aliases(position, players, "7")
    labels = sorted(a.label for a in aliases.values())
    assert labels == ["Pilot N 1", "Pilot N 2", "Pilot NE", "Pilot NW", "Pilot S",
                      "Pilot SE 1", "Pilot SE 2", "Pilot SW", "Player 1"]
    assert len({a.id for a in aliases.values()}) == len({a.words[0] for a in aliases.values()}) \
        == len(players)
    assert aliases == tweedekker.aliases(position, list(reversed(players)), "7")
    assert aliases["late"].words == ("PLAYER1",)
