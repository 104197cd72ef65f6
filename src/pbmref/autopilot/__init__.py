"""Computer pilots: players played by the referee (the demo, replaced players)."""
