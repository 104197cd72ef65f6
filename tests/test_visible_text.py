"""``pbmref.base.text.visible``: no character a terminal acts on or a screen hides
is left, whatever this Python's Unicode knows (issue 40)."""

from __future__ import annotations

import sys
import unicodedata

from pbmref.base.text import visible


def test_every_control_and_format_character_is_taken_out() -> None:
    hidden = [chr(c) for c in range(sys.maxunicode + 1)
              if unicodedata.category(chr(c)) in ("Cc", "Cf") and chr(c) not in "\n\t"]
    assert len(hidden) > 200  # C0, DEL, C1 and the format characters
    assert visible("a" + "".join(hidden) + "b") == "ab"
    assert visible("".join(c for c in hidden if c.isascii())) == ""


def test_what_is_read_stays() -> None:
    text = "Dear Edith,\n\tA Par - Bur. Ça va? Привет, 東京, مرحبا 🙂 — «¡ok!»"
    assert visible(text) == text
