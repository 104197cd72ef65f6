"""What players read: turn reports as text, maps as SVG, the pages of the archive.

Pure renderers: they take plain data (a ``TurnReport``, a position and its
events, as the store keeps them) and return text; they read nothing from
disk but the package's own map data, and never recompute rules. Each game
kind's ruleset names the renderers it uses (``text`` and ``svg`` for
tweedekker, ``fastplay_text`` and ``fastplay_svg`` for Fast Play,
``diplomacy`` for Diplomacy); ``status`` answers MAP and STATUS; ``html``
lays out the archive's pages, which ``pbmref.archive`` writes.

This layer sits beside the orders layer, on the rules, below the rulesets.
"""
