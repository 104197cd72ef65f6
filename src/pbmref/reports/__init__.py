"""What players read: turn reports as text, maps as SVG, the pages of the archive.

Pure renderers: they take a turn's data (a ``TurnReport``: positions as the
store keeps them, the game's typed events) and return text; they read nothing from
disk but the package's own map data, and never recompute rules. What every
game kind uses lives here: the report ``Document`` (``document``) and its
HTML (``html``, also the archive's pages, which ``pbmref.archive`` writes),
the data a report is drawn from (``model``), wrapping, names and deadlines
(``common``), the words of a preview (``plan``), the STATUS reply
(``status``), notices and the final report. Each game kind's own report,
preview and pictures live in its folder, ``pbmref.rulesets.<game>``.

This layer sits beside the orders layer, on the rules, below the rulesets.
"""
