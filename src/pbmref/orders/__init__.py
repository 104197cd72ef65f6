"""Reading order mails: envelope, ruleset bodies, checks, and the error reply.

The pieces (``shared/spec/orders.md`` is the contract):

- ``pbmref.orders.envelope``: ``read_order_mail(subject, text) -> OrderMail``
  (game, password, turn/phase, pilot, commands, body lines with their line
  numbers); ``check_turn``, ``check_password``, ``identify_player``,
  ``check_game``.
- ``pbmref.rulesets.tweedekker.orders``: the tweedekker body (``grammar/tweedekker.lark``):
  ``parse_body(state, player, lines) -> entry`` and
  ``entry_to_orders(state, player, entry) -> (PlaneOrders | None, votes)``.
  Fast Play and Diplomacy bodies live beside it (``fastplay``, ``diplomacy``).
- ``pbmref.orders.check``: ``check_order_mail(subject, text, read_body=...,
  ...) -> CheckedMail``, the whole mail for one game (the body read by the
  reader the caller passes: a ruleset's ``read_orders``); ``order_mail``
  writes the mail that gives an orders entry. ``read_mail_body`` leaves
  greetings and signatures out of a body (``CheckedMail.ignored`` says which
  lines).
- ``pbmref.orders.nearest``: "did you mean" (edit distance), greeting words,
  and which unreadable lines are prose rather than orders.
- ``pbmref.orders.errors``: every error (``OrderMailError`` and its kinds);
  ``pbmref.orders.render.render_errors`` writes the reply a player reads
  (``render_error_list`` the same without "Nothing was changed", for a reply
  that says so itself; ``ignored_note`` the line about what was left out).
- ``pbmref.rulesets.tweedekker.catalogue``: common mistakes, told apart with Lark's
  ``match_examples``.

This layer sits on the rules (it makes their typed orders) and below the
rulesets; nothing here imports the rulesets, the store, the mail layer or
the referee, and nothing lets a Lark exception out.
"""
