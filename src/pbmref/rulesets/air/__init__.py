"""What the two air games, tweedekker and Fast Play, share: the ruleset base
(``ruleset``), the pieces their maps are drawn with (``svgkit``) and the
strict reading of an order line (``lines``)."""
