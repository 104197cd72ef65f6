"""Reading order mails: envelope, ruleset bodies, checks, and the error reply.

The pieces (``shared/spec/orders.md`` is the contract):

- ``pbmref.orders.envelope``: ``read_order_mail(subject, text) -> OrderMail``
  (game, password, turn/phase, pilot, commands, body lines with their line
  numbers); ``check_turn``, ``check_password``, ``identify_player``,
  ``check_game``.
- ``pbmref.orders.tweedekker``: the tweedekker body (``grammar/tweedekker.lark``):
  ``parse_body(state, player, lines) -> entry`` and
  ``entry_to_orders(state, player, entry) -> (PlaneOrders | None, votes)``.
  Fast Play and Diplomacy bodies live beside it (``fastplay``, ``diplomacy``).
- ``pbmref.orders.check``: ``check_order_mail(subject, text, ruleset=...,
  position=..., ...) -> CheckedMail``, the whole mail for one game; body
  readers plug in with ``register_body_parser`` (default: the ruleset's
  ``parse_orders``).
- ``pbmref.orders.errors``: every error (``OrderMailError`` and its kinds);
  ``pbmref.orders.render.render_errors`` writes the reply a player reads.
- ``pbmref.orders.catalogue``: common mistakes, told apart with Lark's
  ``match_examples``.

Nothing here imports the store, the mail layer or the referee; nothing lets a
Lark exception out.
"""
