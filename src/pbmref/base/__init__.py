"""The bottom layer: what every other layer writes and reads the same way.

- ``files``: crash-safe writes (a new file appears whole or not at all, a
  changing file is replaced atomically, old files are set aside, never
  overwritten), and the folder flushes they need;
- ``locks``: one file lock (``fcntl.flock``) for games, spools and the
  referee's bookkeeping, with a timeout or without waiting;
- ``yamlfile``: YAML read with a safe loader, duplicate keys refused, errors
  with file and line, and the line of any value on demand; YAML written in
  one house style;
- ``times``: date-times and lengths of time as the game files and the
  command line write them;
- ``formats``: the data-format version a game folder or a spool names, an
  older one brought up to date and a newer one refused when it is opened;
- ``inotify``: change notification from the Linux kernel (watches on
  folders, their events read without blocking), for the long-running referee;
- ``text``: text from outside made safe to show (``visible``: no control,
  bidi or zero-width characters), for press and the command line;
- ``errors``: the errors these raise.

Nothing here knows about games, mail or rules.
"""
