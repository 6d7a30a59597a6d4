"""The examples in the table view's docstrings run and give what they show."""

import doctest
import importlib

import pytest


@pytest.mark.parametrize("name", ["vision.table", "vision.table_capture", "vision.table_render",
                                  "companion.tags.kit"])
def test_docstring_examples(name):
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
    assert result.attempted > 0
