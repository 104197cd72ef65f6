"""Hiding a mail's passwords costs a pass or two over the text, however many
the mail names (issue 40, item 5): a mail of 50,000 PASSWORD lines once cost
minutes, each value replaced through the whole text in turn. Every value is
still hidden wherever the referee quotes or keeps the mail."""

from __future__ import annotations

import subprocess
import sys

import pytest

from pbmref.referee.secrecy import HIDDEN, mask, mask_reply, password_candidates

MANY = "".join(f"PASSWORD wrong-{i}\nPW: {i % 997:x}\n" for i in range(50_000))


def test_many_passwords_are_each_hidden() -> None:
    secrets = password_candidates(MANY)
    assert len(secrets) > 50_000
    # each where it stands as a word: alone, after a keyword, in punctuation
    text = "PASSWORD wrong-17 and wrong-123. pw=3e, (wrong-9)\nPW zz"
    assert mask(text, secrets) == (
        f"PASSWORD {HIDDEN} and {HIDDEN}. pw={HIDDEN}, ({HIDDEN})\nPW zz")
    assert mask(text, secrets, "*") == (
        "PASSWORD ******** and *********. pw=**, (*******)\nPW zz")
    reply = "Your PASSWORD wrong-17 is wrong: PASSWORD wrong-17.\n  PW: 3e\nwrong-17"
    assert mask_reply(reply, secrets) == (
        f"Your PASSWORD {HIDDEN} is wrong: PASSWORD {HIDDEN}.\n  PW: {HIDDEN}\nwrong-17")


@pytest.mark.parametrize("few", [True, False])
def test_few_and_many_hide_alike(few: bool) -> None:
    """The same text masked with the few passwords it names, or with them among
    thousands: the same result wherever a password stands as a word."""
    secrets = ("swordfish.", "swordfish", "ab")
    if not few:
        secrets = (*secrets, *(f"other-{i}" for i in range(100)))
    text = "PASSWORD swordfish. is wrong; swordfish, (swordfish) PASSWORD ab, grab pw:ab"
    assert mask(text, secrets) == (
        f"PASSWORD {HIDDEN} is wrong; {HIDDEN}, ({HIDDEN}) PASSWORD {HIDDEN}, grab "
        f"pw:{HIDDEN}")


_CHILD = """
import resource
resource.setrlimit(resource.RLIMIT_CPU, (30, 30))
from pbmref.referee.secrecy import mask, mask_reply, password_candidates
text = "".join(f"PASSWORD wrong-{i}\\nPW: {i % 997:x}\\n" for i in range(50_000))
for _ in range(5):
    secrets = password_candidates(text)
masked = mask(text, secrets)
assert "wrong-49999" not in masked and "wrong-1\\n" not in masked
mask_reply(text[:40_000], secrets)
print("hidden")
"""


def test_a_megabyte_of_passwords_is_hidden_within_seconds_of_cpu() -> None:
    """A bound of resources, not a stopwatch: masking that replaced each value
    through the text in turn would run out of its 30 s of CPU and fail here."""
    done = subprocess.run([sys.executable, "-c", _CHILD], capture_output=True, text=True,
                          check=False)
    assert done.returncode == 0 and "hidden" in done.stdout, done.stderr[-2000:]
