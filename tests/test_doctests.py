"""The examples in the docstrings of src/pbmref run as tests (one per module)."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import pbmref

MODULES = sorted(
    m.name for m in pkgutil.walk_packages(pbmref.__path__, "pbmref.")
    if m.name != "pbmref.__main__"
)


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0, f"{result.failed} docstring example(s) failed in {name}"
