"""The house's own figures (issue 14): what one accepted order mail costs in
position decodes and YAML reads, and how the seams between the layers look.

Run: ``.venv/bin/python bench/house.py``. It plays one order mail through the
Maildir pipeline (a second mail of the same player, after a first that pays
for the password check) and counts, while that mail is handled:

- position decodes (the ruleset's ``decode``) and YAML files read;
- ruleset checks of stored orders (``check_orders``).

It also counts, in ``src/pbmref``: places outside ``rules/`` and
``rulesets/`` that branch on a ruleset's name, ``import_module`` of our own
code, and (when radon is installed) functions of cyclomatic complexity
above 25. These are counts, not timings; the figures of the closing note
come from here.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tempfile
from collections import Counter
from datetime import timedelta
from email.message import EmailMessage
from email.utils import format_datetime, make_msgid
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "src" / "pbmref"
sys.path.insert(0, str(ROOT / "src"))

from pbmref import gm  # noqa: E402
from pbmref.base import yamlfile  # noqa: E402
from pbmref.config import Config  # noqa: E402
from pbmref.mail.maildir_in import MaildirIntake  # noqa: E402
from pbmref.mail.outbox import read_maildir  # noqa: E402
from pbmref.referee.pipeline import Referee  # noqa: E402
from pbmref.rulesets.tweedekker import TweedekkerRuleset  # noqa: E402
from pbmref.store import GameStore  # noqa: E402


def one_mail() -> Counter[str]:
    """Counts while one accepted order mail is handled end to end."""
    tmp = Path(tempfile.mkdtemp(prefix="pbmref-house-"))
    from datetime import UTC, datetime

    t0 = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)
    config = Config.local(tmp, "referee@test.invalid")
    store = GameStore(config.games_dir)
    created = gm.new_game(store, "zep1", [
        gm.PlayerSpec("anna", ("anna@example.org",), "Anna", airfield="N"),
        gm.PlayerSpec("bert", ("bert@example.org",), "Bert", airfield="SE")],
        seed=11, deadline=t0 + timedelta(hours=48), early_adjudication=False, now=t0)
    referee = Referee(config, store=store, clock=lambda: t0)
    intake = MaildirIntake(config.mail.maildir.inbox)

    def send(last: str) -> None:
        msg = EmailMessage()
        msg["From"], msg["To"], msg["Subject"] = "anna@example.org", "referee@x", "orders"
        msg["Date"], msg["Message-ID"] = format_datetime(t0), make_msgid(domain="example.org")
        msg.set_content(f"GAME zep1\nPASSWORD {created.passwords['anna']}\n"
                        f"TAKEOFF ALPHA\nPLANE\n1: A\n2: A\n3: {last}\nEND\n")
        key = intake.deliver(msg.as_bytes())
        os.utime(intake.root / "new" / key, (t0.timestamp(), t0.timestamp()))  # arrival time
        referee.take_in(intake)
        referee.deliver(force=True)
        reply = read_maildir(tmp / "outbox")[-1].get_body(("plain",))
        assert reply is not None and "accepted" in str(reply.get_content()), reply

    send("A")  # the first mail pays for the password check
    counts: Counter[str] = Counter()
    read_yaml, decode, check = (yamlfile.read_yaml, TweedekkerRuleset.decode,
                                TweedekkerRuleset.check_orders)

    def counting(name: str, fn):  # type: ignore[no-untyped-def]
        def wrapper(*args, **kwargs):  # type: ignore[no-untyped-def]
            counts[name] += 1
            return fn(*args, **kwargs)
        return wrapper

    modules = [m for m in sys.modules.values()
               if getattr(m, "__name__", "").startswith("pbmref.")
               and getattr(m, "read_yaml", None) is read_yaml]
    for m in modules:
        m.read_yaml = counting("YAML files read", read_yaml)  # type: ignore[attr-defined]
    TweedekkerRuleset.decode = counting("position decodes", decode)  # type: ignore[method-assign]
    TweedekkerRuleset.check_orders = counting(  # type: ignore[method-assign]
        "stored orders checked", check)
    try:
        send("L")
    finally:
        for m in modules:
            m.read_yaml = read_yaml  # type: ignore[attr-defined]
        TweedekkerRuleset.decode = decode  # type: ignore[method-assign]
        TweedekkerRuleset.check_orders = check  # type: ignore[method-assign]
    return counts


def seams() -> dict[str, int]:
    branch = re.compile(r"ruleset *(==|!=| in )")
    hidden = re.compile(r"import_module\(f?[\"']pbmref")
    out = {"ruleset-name branches outside rules/ and rulesets/": 0,
           "import_module of our own code": 0}
    for path in SRC.rglob("*.py"):
        rel = path.relative_to(SRC).as_posix()
        text = path.read_text(encoding="utf-8")
        if not rel.startswith(("rules/", "rulesets/")):
            out["ruleset-name branches outside rules/ and rulesets/"] += len(
                branch.findall(text))
        out["import_module of our own code"] += len(hidden.findall(text))
    try:
        radon = subprocess.run([sys.executable, "-m", "radon", "cc", "-s", str(SRC)],
                               capture_output=True, text=True, check=True).stdout
        out["functions of cyclomatic complexity above 25 (radon)"] = sum(
            1 for m in re.finditer(r"\((\d+)\)$", radon, re.M) if int(m.group(1)) > 25)
    except (subprocess.CalledProcessError, FileNotFoundError):
        pass  # radon is not installed: that count is left out
    return out


def main() -> int:
    for name, n in sorted(one_mail().items()):
        print(f"one accepted order mail: {name}: {n}")
    for name, n in seams().items():
        print(f"{name}: {n}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
