"""Tweedekker, the WWI air game with its zeppelin scenario, in one folder: the
ruleset object (``ruleset``), order lines (``orders``) and their catalogue of
common mistakes (``catalogue``), the turn report (``report``), what one pilot
reads first (``personal``), the sky in characters (``asciimap``) and as a
picture (``picture``). The engine is ``pbmref.rules.tweedekker``; the grammar
is ``grammar/tweedekker.lark``."""
