"""What the two air games, tweedekker and Fast Play, share: the ruleset base
(``ruleset``) and the pieces their maps are drawn with (``svgkit``)."""
