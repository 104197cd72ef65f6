"""Province names in other languages (data/diplomacy/other_names.yaml, issue 42,
item 8): each is answered "did you mean" with the map's name, with and
without its accents, and none is a name the map knows."""

from __future__ import annotations

import unicodedata
from importlib import resources

import pytest
import yaml

from pbmref.orders.errors import OrderMailError
from pbmref.rules.diplomacy.map import standard_map
from pbmref.rulesets.diplomacy.orders import parse_line

TABLE: dict[str, dict[str, str]] = yaml.safe_load(
    resources.files("pbmref").joinpath("data", "diplomacy", "other_names.yaml")
    .read_text(encoding="utf-8"))
NAMES = [(lang, written, english) for lang, names in TABLE.items()
         for written, english in names.items()]


def _plain(text: str) -> str:
    return "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))


def test_the_table_has_three_languages_and_english_names_of_the_map() -> None:
    assert set(TABLE) == {"german", "french", "spanish"}
    m = standard_map()
    for lang, written, english in NAMES:
        assert m.lookup(english) is not None, (lang, english)
        assert m.lookup(written) is None, (lang, written)


@pytest.mark.parametrize(("lang", "written", "english"), NAMES,
                         ids=[f"{lang}-{w}" for lang, w, _ in NAMES])
def test_an_other_language_name_gets_did_you_mean(lang: str, written: str, english: str) -> None:
    m = standard_map()
    for form in {f for f in (written, _plain(written)) if m.lookup(f) is None}:
        with pytest.raises(OrderMailError) as info:
            parse_line(f"A Par - {form}", 1)
        err = info.value.errors[0]
        assert err.suggestion == english and f"did you mean {english}?" in err.message
        assert err.column == len("A Par - ") + 1 and err.width == len(form)
