"""Every ruling of RULINGS-COMPLOT.md is cited by at least one test's name or docstring."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from tests.complot.contract import contract_text

_LISTED = """
C1 C2 C3 C4 C5 C5a C6 C7 C10 C11 C12 C13 C14 C15 C16 C17 C20 C21 C22 C23 C24 C25 C26 C27
C30 C31 C32 C33 C34 C35 C40 C41 C42 C43 C44 C44a C45 C46 C47 C50 C51 C52 C53 C54 C55 C56
C57 C60 C61 C62 C63 C64 C65 C66 C67 C68 C69 C80 C81 C82 C83 C84 C85 C86 C87 C90 C91 C92
C93 C94
"""
RULINGS = _LISTED.split()


def cited() -> set[str]:
    """The C-n named by test functions (name or docstring) of tests/complot."""
    found: set[str] = set()
    for path in Path(__file__).parent.glob("test_*.py"):
        if path.name == Path(__file__).name:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef) and node.name.startswith("test_"):
                text = f"{node.name.replace('_c', ' C')} {ast.get_docstring(node) or ''}"
                found.update(re.findall(r"\bC\d+a?\b", text))
    return found


def test_every_ruling_is_cited_by_a_test():
    assert sorted(set(RULINGS) - cited(), key=RULINGS.index) == []


def test_the_list_matches_the_contract_when_it_is_here():
    numbered = re.findall(r"^\*\*(C\d+a?)\.", contract_text(), re.M)
    assert numbered == RULINGS
