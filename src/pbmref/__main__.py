"""``python -m pbmref`` runs the command line."""

from pbmref.cli import main

raise SystemExit(main())
