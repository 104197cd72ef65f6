"""Reading order mails: envelope, ruleset bodies, checks, and the error reply.

The pieces (``shared/spec/orders.md`` is the contract):

- ``pbmref.orders.envelope``: ``read_order_mail(subject, text) -> OrderMail``
  (game, password, turn/phase, pilot, commands, body lines with their line
  numbers); ``check_turn``, ``check_password``, ``identify_player``,
  ``check_game``.
- ``pbmref.orders.check``: ``check_order_mail(subject, text, read_body=...,
  ...) -> CheckedMail``, the whole mail for one game (the body read by the
  reader the caller passes: a ruleset's ``read_orders``); ``order_mail``
  writes the mail that gives an orders entry. ``read_mail_body`` is the one
  reader of every game's body lines: it asks the game's ``BodyReader`` which
  lines look like its orders, and leaves the prose around them out
  (``CheckedMail.ignored`` says which lines).
- ``pbmref.orders.nearest``: "did you mean" (edit distance), greeting words,
  an order line's mistakes told once each.
- ``pbmref.orders.errors``: every error (``OrderMailError`` and its kinds);
  ``pbmref.orders.render.render_errors`` writes the reply a player reads
  (``render_error_list`` the same without "Nothing was changed", for a reply
  that says so itself; ``ignored_note`` the line about what was left out).

Each game kind reads its own body lines with its grammar
(``grammar/<game>.lark``) in its folder: ``pbmref.rulesets.<game>.orders``
(``parse_body(state, player, lines) -> entry``), on the errors and line
helpers of this layer.

This layer sits on the rules and below the
rulesets; nothing here imports the rulesets, the store, the mail layer or
the referee, and nothing lets a Lark exception out.
"""
