"""Fast Play, the classroom dice rules, in one folder: the ruleset object
(``ruleset``), order lines (``orders``), the turn report (``report``), what one
pilot reads first (``personal``), the board picture (``picture``) and the
lenient position reading they share (``common``). The engine is
``pbmref.rules.fastplay``; the grammar is ``grammar/fastplay.lark``."""
