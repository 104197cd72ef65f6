"""Default passwords for players: five common words, easy to type and to read aloud.

A password is ``WORDS_PER_PASSWORD`` words drawn at random (``secrets``, the
operating system's generator) from the project's own list
``pbmref/data/words.txt``, joined by hyphens: all lower-case ASCII letters,
so a game master can read it out over the phone or a player copy it from a
letter without doubt. The list (built by ``scripts/build_wordlist.py``, see
the NOTICE beside it) holds only common words of 3 to 8 letters, none of them
sounding like another word, none one letter away from another word of the
list; so a misheard or mistyped word is never another valid one.

``PASSWORD_BITS`` is the exact entropy of a new password:
``WORDS_PER_PASSWORD * log2(len(WORDS))``.

>>> password = new_password()
>>> words = password.split("-")
>>> len(words) == WORDS_PER_PASSWORD and all(w in WORDS for w in words)
True
>>> password == password.lower() and password.isascii()
True
>>> PASSWORD_BITS >= 60
True
"""

from __future__ import annotations

import importlib.resources
import math
import re
import secrets

__all__ = [
    "PASSWORD_BITS",
    "WORDS",
    "WORDS_PER_PASSWORD",
    "is_new_password",
    "new_password",
    "read_words",
]

WORDS_PER_PASSWORD = 5
_WORD = re.compile(r"[a-z]{3,8}")


def read_words(text: str) -> tuple[str, ...]:
    """The words of a word-list file: one a line, ``#`` lines are comments.

    Raises ``ValueError`` for a line that is not a word of 3 to 8 lower-case
    letters, or a word given twice: a broken list must never give weaker
    passwords than ``PASSWORD_BITS`` says.

    >>> read_words("# two words\\nbiplane\\nzeppelin\\n")
    ('biplane', 'zeppelin')
    >>> read_words("biplane\\nBiplane\\n")
    Traceback (most recent call last):
    ...
    ValueError: word list line 2: 'Biplane' is not 3 to 8 lower-case letters
    """
    words: list[str] = []
    seen: set[str] = set()
    for number, line in enumerate(text.splitlines(), 1):
        word = line.strip()
        if not word or word.startswith("#"):
            continue
        if not _WORD.fullmatch(word):
            raise ValueError(f"word list line {number}: {word!r} is not 3 to 8 lower-case "
                             "letters")
        if word in seen:
            raise ValueError(f"word list line {number}: {word!r} is there twice")
        seen.add(word)
        words.append(word)
    return tuple(words)


WORDS: tuple[str, ...] = read_words(
    (importlib.resources.files("pbmref") / "data" / "words.txt").read_text(encoding="utf-8"))
PASSWORD_BITS: float = WORDS_PER_PASSWORD * math.log2(len(WORDS))


def new_password() -> str:
    """A new password: five words of ``WORDS`` joined by hyphens (``PASSWORD_BITS``)."""
    return "-".join(secrets.choice(WORDS) for _ in range(WORDS_PER_PASSWORD))


_WORD_SET = frozenset(WORDS)


def is_new_password(password: str) -> bool:
    """Whether ``password`` has the form of ``new_password()``'s: five words of the
    list, so ``PASSWORD_BITS`` strong whoever chose it.

    >>> is_new_password(new_password())
    True
    >>> is_new_password("swordfish") or is_new_password("zeppelin-biplane-17")
    False
    """
    words = password.split("-")
    return len(words) == WORDS_PER_PASSWORD and all(w in _WORD_SET for w in words)
