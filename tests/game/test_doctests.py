"""The examples in the rules engine's docstrings stay true."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = ["actions", "deal", "deck", "engine", "errors", "ferry", "inputs", "legal", "messages",
           "options", "scoring", "simulate", "state", "verdict"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    module = importlib.import_module(f"companion.game.{name}")
    failures, _ = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert failures == 0
