"""What vulture (scripts/test, 80 % confidence) reports as unused but is not:
each name with its reason. Vulture reads this file beside src/pbmref; it is
never imported."""

# The context manager protocol: __exit__ takes these three whatever it uses.
tb  # base/inotify.py, base/locks.py, referee/courier.py
exc_type  # base/locks.py

# html.parser.HTMLParser calls handle_starttag(tag, attrs) with both.
attrs  # mail/message.py

# signal.signal calls a handler with (signum, frame); Daemon.stop is one.
signum  # referee/daemon.py
frame  # referee/daemon.py
