"""Diplomacy and Dirigible Diplomacy in one folder: the ruleset object
(``ruleset``), order lines (``orders``), the turn report (``report``), what one
power reads first (``reader``) and the board picture (``board``). The engine
is ``pbmref.rules.diplomacy``; the grammar is ``grammar/diplomacy.lark``."""
