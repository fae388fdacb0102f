"""The domain is pure: standard library imports only, and no mutable state at module level."""

from __future__ import annotations

import ast
import importlib
import pkgutil
import sys
from pathlib import Path

import pytest

import openproject_mcp.domain as domain

DOMAIN_DIR = Path(domain.__file__).resolve().parent
MODULES = sorted(str(p.relative_to(DOMAIN_DIR)) for p in DOMAIN_DIR.rglob("*.py"))


def imported_roots(source: str) -> set[str]:
    roots: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            roots.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            roots.add(node.module.split(".")[0])
    return roots


@pytest.mark.parametrize("module", MODULES)
def test_domain_modules_import_only_the_standard_library_and_ourselves(module: str) -> None:
    roots = imported_roots((DOMAIN_DIR / module).read_text(encoding="utf-8"))
    foreign = sorted(r for r in roots if r not in sys.stdlib_module_names and r != "openproject_mcp")
    assert not foreign, f"{module} imports {foreign}"


def test_domain_modules_import_only_domain_modules_of_ours() -> None:
    for module in MODULES:
        tree = ast.parse((DOMAIN_DIR / module).read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("openproject_mcp"):
                assert node.module.startswith("openproject_mcp.domain"), f"{module} imports {node.module}"


def test_no_mutable_state_at_module_level() -> None:
    names = [m.name for m in pkgutil.walk_packages(domain.__path__, "openproject_mcp.domain.")]
    for name in names:
        module = importlib.import_module(name)
        for attribute, value in vars(module).items():
            if attribute.startswith("__"):
                continue
            assert not isinstance(value, list | dict | set | bytearray), f"{name}.{attribute} is mutable"
