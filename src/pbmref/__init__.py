"""pbmref: a play-by-mail referee for WWI air combat and Diplomacy.

Layers, each importing only those below it:
``rules`` (pure engines) < ``orders`` (order mail reading) < ``store`` (YAML
game folders) < ``mail`` (transport) < ``referee``/``reports`` < ``cli``.
"""

__version__ = "0.2.0"
