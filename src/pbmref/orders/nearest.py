"""Near misses and the words around orders: "did you mean", greetings, sign-offs.

Two questions the body readers ask about a line they cannot read:

- ``nearest(word, words)``: which order word (keyword, section, card, code,
  province) the player probably meant, within a small edit distance that
  grows with the word's length (none for words of three letters or fewer,
  where every slip is another word);
- ``greeting_word(word)``: is it one of the words people put around their
  orders ("Hi", "Thanks", "Viele Grüße", "Bises", "Groetjes", "Saludos")?

``line_mistakes`` tells the mistakes the air games' parsers met in one order
line (each labelled as ``pbmref.rulesets.tweedekker.catalogue`` labels them), each once.
Which lines are orders at all, and which are greetings, signatures and other
prose, is the one question ``pbmref.orders.check`` asks each game.

>>> nearest("zeplin", ["PLANE", "ZEPPELIN", "TAKEOFF", "LAND"])
'ZEPPELIN'
>>> nearest("staus", ENVELOPE_WORDS)
'STATUS'
>>> nearest("Max", ENVELOPE_WORDS) is None   # three letters: no guessing
True
>>> greeting_word("Grüße,"), greeting_word("zeplin")
(True, False)
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Sequence
from functools import lru_cache

from pbmref.orders.errors import OrderSyntaxError

__all__ = [
    "BETWEEN_ORDERS",
    "ENVELOPE_WORDS",
    "distance",
    "greeting_word",
    "line_mistakes",
    "near_limit",
    "nearest",
    "words_of",
]

# The words an envelope line starts with (pbmref.orders.envelope), and END.
ENVELOPE_WORDS = ("GAME", "PASSWORD", "TURN", "PHASE", "PILOT", "HELP", "ORDERS", "STATUS",
                  "MAP", "HISTORY", "CLEAR", "END", "SIGNOFF")

# Words of greetings, thanks and sign-offs in English, German, French, Dutch
# and Spanish (folded: lower case, no accents). A line is never "near" an
# order word because of one of these: "Best," is not a misspelt Brest.
_GREETINGS = frozenset("""
hi hello hey hiya dear morning evening afternoon greetings all ref referee
thanks thank thx cheers best regards kind warm wishes yours sincerely love
luck good bye see soon later sorry please
hallo lieber liebe lieben servus moin gruss grusse grussen gruß grüße viele
beste besten freundliche freundlichen mit danke dank vielen schoenen schonen tschuss
ciao salut bonjour bonsoir cher chere merci beaucoup bises bisous amities amicalement
cordialement bien bientot
hoi beste groet groeten groetjes dag doei bedankt hartelijk vriendelijke tot ziens
hola buenos buenas dias tardes querido querida gracias saludos abrazo abrazos besos
muchas atentamente hasta luego pronto
""".split())


def _fold(word: str) -> str:
    """Lower case without accents: ``Grüße`` -> ``grusse``, ``bientôt`` -> ``bientot``."""
    text = word.casefold().replace("ß", "ss")
    text = unicodedata.normalize("NFKD", text)
    return "".join(c for c in text if not unicodedata.combining(c))


_WORD = re.compile(r"[^\W_][\w'.-]*", re.UNICODE)


def words_of(text: str) -> list[str]:
    """The words of a line, without the punctuation around them.

    >>> words_of("Viele Grüße, Hans!")
    ['Viele', 'Grüße', 'Hans']
    """
    return [w.rstrip(".'-") for w in _WORD.findall(text)]


def greeting_word(word: str) -> bool:
    """Is ``word`` one of the words people write around orders (any of five languages)?"""
    folded = _fold(word.strip(".,;:!?'\"()"))
    return folded in _GREETINGS or folded.replace("ss", "ß") in _GREETINGS


def distance(a: str, b: str) -> int:
    """Edit distance of two words, ignoring case: insertions, deletions,
    substitutions and swaps of two neighbours each count one.

    >>> distance("staus", "STATUS"), distance("PLNAE", "plane"), distance("A", "A")
    (1, 1, 0)
    """
    a, b = a.casefold(), b.casefold()
    if a == b:
        return 0
    prev2: list[int] = []
    prev = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        row = [i] + [0] * len(b)
        for j, cb in enumerate(b, 1):
            cost = 0 if ca == cb else 1
            row[j] = min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + cost)
            if i > 1 and j > 1 and ca == b[j - 2] and a[i - 2] == cb:
                row[j] = min(row[j], prev2[j - 2] + 1)
        prev2, prev = prev, row
    return prev[-1]


def near_limit(word: str) -> int:
    """How many slips a word of this length may hold and still be "meant" as another."""
    n = len(word)
    return 0 if n <= 3 else 1 if n <= 5 else 2


def nearest(word: str, words: Iterable[str]) -> str | None:
    """The one word of ``words`` that ``word`` is a slip of, or None.

    None when ``word`` is one of them already, is a greeting word, or two
    candidates are equally near (no guessing between them).
    """
    return _nearest(word, tuple(words))


@lru_cache(maxsize=4096)
def _nearest(word: str, words: tuple[str, ...]) -> str | None:
    limit = near_limit(word)
    if limit == 0 or greeting_word(word):
        return None
    best: list[str] = []
    best_d = limit + 1
    for candidate in words:
        if abs(len(candidate) - len(word)) > limit:
            continue
        d = distance(word, candidate)
        if d == 0:
            return None
        if d > limit:
            continue
        if d < best_d:
            best, best_d = [candidate], d
        elif d == best_d and candidate.casefold() not in {b.casefold() for b in best}:
            best.append(candidate)
    return best[0] if len(best) == 1 else None


# The hint for a greeting that stands between orders, where it is not left out.
BETWEEN_ORDERS = "move it above or below the orders, take it out, or start it with #"

# Labels of mistakes a word of a sentence makes too (a name, "Thanks").
_WORD_LABELS = frozenset({"unknown-word", None})


def _one_mistake(words: Sequence[OrderSyntaxError], line: str) -> OrderSyntaxError:
    """Unreadable words of one line told as one mistake, from the first to the last."""
    if len(words) == 1:
        return words[0]
    first, last = words[0], words[-1]
    start = (first.column or 1) - 1
    span = line[start:(last.column or 1) - 1 + last.width].rstrip()
    shown = " ".join(span.split())
    shown = shown if len(shown) <= 30 else shown[:27] + "..."
    return OrderSyntaxError(
        f'I cannot read "{shown}" here', rule=first.rule, column=first.column,
        width=len(span) or 1, expected=first.expected, hint=first.hint)


def _own_mistakes(explained: Sequence[tuple[str | None, OrderSyntaxError]],
                  lead: int) -> list[tuple[str | None, OrderSyntaxError]]:
    """The mistakes that are the line's own: not a stop too soon after a skipped
    word, nothing after a misspelt first word (at column ``lead``)."""
    found = list(explained)
    if len(found) > 1 and found[-1][0] == "stops-early":
        found.pop()
    if found and found[0][1].suggestion and found[0][1].column == lead:
        found = found[:1]
    return found


def line_mistakes(explained: Sequence[tuple[str | None, OrderSyntaxError]], line: str
                  ) -> list[OrderSyntaxError]:
    """Every mistake of one order line, each once.

    ``explained``: ``(label, error)`` for each mistake, in the order the
    parser met them (it skipped each bad word and read on). A line stopping
    too soon after a skipped word is no mistake of its own (label
    ``"stops-early"``), nor is what follows a misspelt first word ("PASWORD
    x"); several words no order has ("1: LS please Sir") are one mistake.
    (Whether a line is an order at all was asked before: ``pbmref.orders.check``.)
    """
    lead = len(line) - len(line.lstrip()) + 1
    found = _own_mistakes(explained, lead)
    out: list[OrderSyntaxError] = []
    words: list[OrderSyntaxError] = []
    for label, err in found:
        if label in _WORD_LABELS and err.suggestion is None and err.column is not None:
            words.append(err)
        else:
            out.append(err)
    if words:
        out.append(_one_mistake(words, line))
    out.sort(key=lambda e: e.column or 0)
    return out
