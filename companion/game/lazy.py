"""A package's interface, imported name by name on first use (PEP 562).

It lives in the lowest layer (the rules engine, standard library only) so that every layer above
may use it. ``companion.game`` and ``companion.session`` name their public classes in their
``__init__``; importing them all at once would make any import of one small module of theirs
(``errors``, ``narrate``) load the whole engine or session, and ``noah-companion --help`` slow.
Instead each package sets ``__getattr__ = exports(__name__, {"Game": ".engine", ...})``.

>>> getattr_ = exports("json", {"JSONDecodeError": ".decoder"})
>>> getattr_("JSONDecodeError").__name__
'JSONDecodeError'
>>> getattr_("nothing")
Traceback (most recent call last):
...
AttributeError: module 'json' has no attribute 'nothing'
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Mapping


def exports(package: str, where: Mapping[str, str]) -> Callable[[str], object]:
    """The ``__getattr__`` of ``package``: each name of ``where`` is taken from its module
    (relative to the package) when first asked for, then kept in the package."""

    def __getattr__(name: str) -> object:
        if name not in where:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(where[name], package), name)
        setattr(sys.modules[package], name, value)
        return value

    return __getattr__
