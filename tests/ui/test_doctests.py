"""The docstring examples of the Kivy app's modules, run inside the shared headless app.

``--doctest-modules`` (pyproject.toml) runs every other package's examples; ``companion/ui`` is
left out of that collection because its modules must not import Kivy before the app has
prepared Kivy's environment, and some examples need the app's fonts. Every module of the
package is found here, so a new module's examples run without being listed.
"""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import companion.ui

MODULES = sorted(info.name for info in pkgutil.walk_packages(companion.ui.__path__, "companion.ui.")
                 if not info.ispkg or info.name.endswith(".pictures"))


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(driver, name):
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
