"""Near misses and the words around orders: "did you mean", greetings, sign-offs.

Two questions the body readers ask about a line they cannot read:

- ``nearest(word, words)``: which order word (keyword, section, card, code,
  province) the player probably meant, within a small edit distance that
  grows with the word's length (none for words of three letters or fewer,
  where every slip is another word);
- ``greeting_word(word)``: is it one of the words people put around their
  orders ("Hi", "Thanks", "Viele Grüße", "Bises", "Groetjes", "Saludos")?

A line the reader cannot read and that holds nothing order-like is *prose*
(``OrderMailError.prose``): standing above the first order or below the last
one it is a greeting or a signature, and ``pbmref.orders.check`` leaves it
out (and says so) instead of refusing the mail. ``line_mistakes`` decides
that for the air games' readers, from the mistakes their parser met in the
line (each labelled as ``pbmref.rulesets.tweedekker.catalogue`` labels them).

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
BETWEEN_ORDERS = ("greetings and signatures go above or below the orders: take this line "
                  "out, or start it with #")

# Labels of mistakes a word of a sentence makes too (a name, "Thanks").
_WORD_LABELS = frozenset({"unknown-word", None})


def _wordlike(label: str | None, err: OrderSyntaxError, line: str) -> bool:
    """Could this mistake be a word of a greeting, a signature or a phone number?"""
    if err.suggestion is not None:
        return False
    if label in _WORD_LABELS:
        return True
    col = (err.column or 1) - 1
    tok = line[col:col + err.width]
    if label in ("move-number-without-colon", "move-number-bracket"):
        digits = "".join(c for c in tok if c.isdigit())
        return not digits or not 1 <= int(digits[:6]) <= 9  # a phone number, a date
    if label == "joined-manoeuvres":
        return tok[:1].isupper() and tok[1:].islower()  # "All", "Ali", "Lara": a word
    if label == "hex-or-heading":
        return len(tok) > 3  # "North", "West": a word
    return False


_MOVE_NUMBER = re.compile(r"^\s*(?:move\s*)?[1-9]\s*[:).\]]", re.I)


def _mostly_words(found: Sequence[tuple[str | None, OrderSyntaxError]], line: str) -> bool:
    """Whether a line without a move number is mostly words that no order has,
    two at least ("Fire at will!"): a sentence, whatever order word it holds."""
    if _MOVE_NUMBER.match(line):
        return False
    plain = []
    for _, err in found:
        col = (err.column or 1) - 1
        tok = line[col:col + err.width].strip(" :;,.!?")
        if err.suggestion is None and len(tok) >= 2 and tok.isalpha():
            plain.append(tok)
    return len(plain) >= 2 and 2 * len(plain) >= len(line.split())


def _as_written(err: OrderSyntaxError, line: str) -> bool:
    """Whether the word a "did you mean" is about is that word as written, in a
    sentence's words ("here are my orders:"): no slip of it."""
    col = (err.column or 1) - 1
    word = line[col:col + err.width].strip(" :;,.!?")
    return bool(word) and word.casefold() == (err.suggestion or "").casefold()


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


def _sentence(found: Sequence[tuple[str | None, OrderSyntaxError]], like: Sequence[bool],
              lead: int, line: str) -> bool:
    """A sentence starts with a word no order has ("here are my orders for turn
    7."); what follows may look like order words, and is no slip of them."""
    return found[0][0] in _WORD_LABELS and like[0] and (
        found[0][1].column == lead) and not any(
            e.suggestion and not _as_written(e, line) for _, e in found)


def line_mistakes(explained: Sequence[tuple[str | None, OrderSyntaxError]], line: str,
                  order_read: bool) -> list[OrderSyntaxError]:
    """Every mistake of one line, each once, and whether the line is prose.

    ``explained``: ``(label, error)`` for each mistake, in the order the
    parser met them (it skipped each bad word and read on); ``order_read``:
    what it did read holds an order word (a move number, a section, a fire
    order, a two-letter manoeuvre). A line stopping too soon after a skipped
    word is no mistake of its own (label ``"stops-early"``), nor is what
    follows a misspelt first word ("PASWORD x"); several words no order has
    ("Hi ref, here you go") are one mistake; and a line of nothing but such
    words, or one that starts with such a word and holds no order, is
    ``prose``: maybe a greeting or a signature, told as one mistake.
    """
    lead = len(line) - len(line.lstrip()) + 1
    found = _own_mistakes(explained, lead)
    like = [_wordlike(label, err, line) for label, err in found]
    prose = bool(found) and (not order_read and (all(like) or _sentence(found, like, lead, line))
                             or _mostly_words(found, line))
    out: list[OrderSyntaxError] = []
    words: list[OrderSyntaxError] = []
    for (label, err), wordlike in zip(found, like, strict=True):
        if (label in _WORD_LABELS and wordlike or prose) and err.column is not None:
            words.append(err)
        else:
            out.append(err)
    if words:
        out.append(_one_mistake(words, line))
    out.sort(key=lambda e: e.column or 0)
    for err in out:
        err.prose = prose
        if prose:
            err.hint = BETWEEN_ORDERS
    return out
