"""The examples in the docstrings of the public verbs run as tests (``scripts/test``)."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = [
    "bridgefiles.api",
    "bridgefiles.jobs.conversion",
    "bridgefiles.jobs.report",
    "bridgefiles.formats.registry",
    "bridgefiles.views.table",
    "bridgefiles.batch.inputs",
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(name)
    flags = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE
    result = doctest.testmod(module, optionflags=flags, verbose=False)
    assert result.failed == 0, f"{result.failed} docstring example(s) of {name} failed"
    assert result.attempted > 0 or name in ("bridgefiles.views.table", "bridgefiles.batch.inputs")
