"""Default passwords (issue 15): five words of the project's list, at least 60 bits."""

from __future__ import annotations

import doctest
import math
import re
from collections import defaultdict
from pathlib import Path

import pytest

from pbmref.store import passwords
from pbmref.store.passwords import (
    PASSWORD_BITS,
    WORDS,
    WORDS_PER_PASSWORD,
    new_password,
    read_words,
)

WORD_LIST = Path(passwords.__file__).resolve().parents[1] / "data" / "words.txt"
LIST_SIZE = 6369  # scripts/build_wordlist.py on Debian's wamerican-small 2020.12.07-2


def test_the_list_size_and_the_bits() -> None:
    assert len(WORDS) == LIST_SIZE
    assert f"# {LIST_SIZE} words." in WORD_LIST.read_text(encoding="utf-8")
    assert WORDS_PER_PASSWORD == 5
    assert PASSWORD_BITS == 5 * math.log2(LIST_SIZE)
    assert round(PASSWORD_BITS, 2) == 63.18  # README: "a password 63.2 bits"
    assert round(math.log2(LIST_SIZE), 1) == 12.6  # README: "each word 12.6 bits"
    assert PASSWORD_BITS >= 60


def test_the_readme_states_the_list_size_and_the_bits() -> None:
    readme = " ".join((Path(__file__).resolve().parents[2] / "README.md")
                      .read_text(encoding="utf-8").split())
    assert f"({LIST_SIZE:,} words," in readme
    assert f"each word {math.log2(LIST_SIZE):.1f} bits, a password {PASSWORD_BITS:.1f} bits" in readme


# Words pupils tease each other with (issue 43, item 9: a class got "buffoon"
# and "booby" read aloud): none may be part of a password.
TEASING = """buffoon booby liar coward smelly stinky idiot moron stupid dumb fool foolish
ugly fat fatty chubby skinny loser dunce clown crybaby nerd freak weirdo creep slob
pig piggy donkey rat swine cow monkey baboon maggot worm toad brat bully sissy wimp
snitch tattle cheat thief liar fraud nasty cruel filthy dirty greasy sweaty spotty
hideous crazy nutty loony dense thick daft weird creepy troll monster beast
fatso blubber flabby pudgy scrawny lanky dork dweeb jerk dummy dimwit nitwit twit dope
dolt oaf lout boor clot yokel hick bumpkin snob snooty brat pest nuisance scab slob
slobber drool belch snot booger fart stink smell messy scruffy shabby grubby cranky
grumpy moan whine babyish sissy snake viper rodent rat weasel skunk hyena zombie ghoul
failure reject misfit outcast nobody minion crank deaf blind lisp stammer poor""".split()


def test_no_word_of_the_list_is_one_pupils_tease_each_other_with() -> None:
    assert sorted(set(TEASING) & set(WORDS)) == []


def test_the_list_is_sorted_lower_case_words_of_three_to_eight_letters() -> None:
    assert list(WORDS) == sorted(set(WORDS))
    assert all(re.fullmatch(r"[a-z]{3,8}", w) for w in WORDS)


def test_no_word_is_one_letter_away_from_another() -> None:
    present = set(WORDS)
    by_pattern: dict[str, list[str]] = defaultdict(list)
    for w in WORDS:
        for i in range(len(w)):
            by_pattern[w[:i] + "*" + w[i + 1:]].append(w)  # one letter changed
            assert w[:i] + w[i + 1:] not in present, f"{w} less one letter is a word"
    clashes = [group for group in by_pattern.values() if len(group) > 1]
    assert not clashes, clashes[:5]


def test_words_a_class_should_not_get_are_not_there() -> None:
    for word in ("corpse", "suicide", "drunken", "sexy", "bigot", "idiotic", "its", "aisle"):
        assert word not in WORDS


def test_passwords_are_five_listed_words_joined_by_hyphens() -> None:
    shape = re.compile(r"[a-z]{3,8}(-[a-z]{3,8}){4}")
    for _ in range(200):
        password = new_password()
        assert shape.fullmatch(password), password
        assert all(w in WORDS for w in password.split("-"))


def test_passwords_differ() -> None:
    made = {new_password() for _ in range(2000)}
    assert len(made) == 2000
    used = {w for p in made for w in p.split("-")}
    assert len(used) > LIST_SIZE // 2  # 10,000 draws reach most of the list


def test_the_words_come_from_the_secrets_generator(monkeypatch: pytest.MonkeyPatch) -> None:
    drawn: list[tuple[str, ...]] = []

    def choice(seq: tuple[str, ...]) -> str:
        drawn.append(seq)
        return seq[len(drawn)]

    monkeypatch.setattr(passwords.secrets, "choice", choice)
    assert new_password() == "-".join(WORDS[1:6])
    assert drawn == [WORDS] * 5


def test_a_broken_word_list_is_refused() -> None:
    assert read_words("# comment\n\nabc\nzeppelin\n") == ("abc", "zeppelin")
    for text, problem in (("ab\n", "'ab'"), ("toolongword\n", "'toolongword'"),
                          ("café\n", "'café'"), ("abc\nabc\n", "twice")):
        with pytest.raises(ValueError, match=problem):
            read_words(text)


def test_the_docstring_examples() -> None:
    result = doctest.testmod(passwords, optionflags=doctest.ELLIPSIS)
    assert result.attempted >= 5 and result.failed == 0
