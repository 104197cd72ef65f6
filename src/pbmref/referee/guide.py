"""What HELP answers: how to write orders for the player's own game, a rule of
the rulebook, and the note for a stranger.

- ``help_text(game, player)``: an example mail for the player's own game and
  open turn (the orders the ruleset would give them now, ``example_orders``:
  ``TAKEOFF`` for a landed aircraft, holds for a Diplomacy power), with the
  line ``PASSWORD <your password>`` -- never the password itself -- then the
  order words of the game kind. A copied example, the password put in, is
  accepted as it stands (the tests check it).
- ``rule_reply(number)``: ``HELP M3``, the rule from the project's rulebook
  (``pbmref.rulebook``).
- ``stranger_help()``: for a bare HELP from an address no game knows, what
  an order mail looks like, whatever the game.

In an anonymous game HELP also tells the player how the others know them
(``pbmref.archive.shown``), and so does the welcome, which holds HELP.

HELP, ``HELP <rule>`` and STATUS show nothing secret: the pipeline answers
them from any registered address, with or without the password.
"""

from __future__ import annotations

from pbmref.archive import shown_players
from pbmref.orders.check import mail_lines
from pbmref.rulebook import rule_text
from pbmref.store import Game

__all__ = ["PASSWORD_LINE", "example_mail", "help_text", "rule_reply", "stranger_help"]

PASSWORD_LINE = "PASSWORD <your password>"


def example_mail(game: Game, player: str | None, *, ready: bool = False) -> list[str]:
    """The lines of an order mail ``player`` could send now: the envelope, the
    orders the ruleset suggests (``ORDERS`` when there are none), END.
    ``ready``: the orders of the ready-to-edit block of a report or a reminder
    (``Ruleset.order_template``), not HELP's example."""
    known = game.settings.players.get(player) if player is not None else None
    lines = [f"GAME {game.id}"]
    if known is None or known.password_hash is not None:
        lines.append(PASSWORD_LINE)
    lines.append(f"{game.ruleset.words.keyword} {game.turn_label}")
    entry = None
    if known is not None and player is not None:
        state = game.open.state
        orders = (game.ruleset.order_template(state, player) if ready
                  else game.ruleset.example_orders(state, player))
        entry = None if orders is None else game.ruleset.encode_orders(orders)
    lines += mail_lines(entry) if entry else ["ORDERS"]
    return [*lines, "END"]


def help_text(game: Game, player: str | None) -> str:
    """The answer to HELP in ``game`` for ``player`` (None: not known)."""
    words = game.ruleset.words
    example = example_mail(game, player)
    lines = [f"How to send orders (pbmref, {game.ruleset.title}, game {game.id})", "",
             f"Write a plain-text mail to the referee, for example for "
             f"{words.turn(game.turn_label)}:", "", *("  " + line for line in example)]
    if PASSWORD_LINE in example:
        lines += ["", "Put your own password where it says <your password>."]
    if "ORDERS" in example:
        lines += ["", "You have nothing to order now; ORDERS shows what is in force."]
    anonymous = game.settings.anonymous
    lines += ["", _PRESS[game.press_level].format(
        you="the name below" if anonymous else "your name")]
    if anonymous:
        lines += ["", *_anonymous(game, player)]
    return "\n".join(lines) + "\n\n" + words.help


def _anonymous(game: Game, player: str | None) -> list[str]:
    """What an anonymous game's HELP says: how the others know the player."""
    shown = shown_players(game)
    alias = shown.aliases.get(player) if shown.aliases and player is not None else None
    if alias is None:
        return ["This game is anonymous: players know each other only as the reports",
                "name them, never by name or address."]
    return [f"This game is anonymous: the others know you only as {alias.label}",
            f"(PRESS TO {alias.words[0]} reaches you), never by your name or address."]


# What this game's press setting means, for its HELP (issue 18).
_PRESS = {
    "none": "Press: this game relays no press between players.",
    "white": "Press: relayed with {you} (PRESS TO ..., or PRESS TO ALL).",
    "grey": "Press: relayed with {you}, or without it as PRESS GREY TO ...",
    "broadcast": "Press: to everyone only (PRESS TO ALL), with {you}.",
}


def rule_reply(number: str) -> str:
    """The answer to ``HELP <rule>``: the rule in the project's own words."""
    text = rule_text(number)
    if text is not None:
        return text.rstrip()
    return "\n".join([
        f"There is no rule {number} in the rulebooks here. Rules are numbered",
        "like M3 or L2a (tweedekker and its zeppelins), FP12 (Fast Play) and",
        "DD8 (Diplomacy and Dirigible Diplomacy); every reply names the rules",
        "it uses."])


def stranger_help() -> str:
    """How an order mail looks, for someone not (yet) in a game here."""
    return "\n".join([
        "How to send orders (pbmref)",
        "",
        "Once you have a place in a game (JOIN it, or the game master",
        "registered your address), mail the referee plain text like this:",
        "your game, your password, then your orders.",
        "",
        "  GAME <your game>",
        f"  {PASSWORD_LINE}",
        "  TURN <the open turn>  (PHASE S1901M in Diplomacy)",
        "  ...your orders, one a line...",
        "  END",
        "",
        "Send HELP from your registered address for the orders of your own",
        "game, with an example for your own aircraft, plane or power, and",
        "HELP M3 (any rule number) for a rule of the rulebook.",
    ])
