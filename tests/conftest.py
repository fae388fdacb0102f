"""Shared test configuration: paths to the material in ../shared, skipped when absent."""

from __future__ import annotations

from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parent.parent
SHARED = REPO_ROOT.parent / "shared"


def shared_path(*parts: str) -> Path:
    """A path inside ../shared; the calling test is skipped with a reason when it is absent."""
    path = SHARED.joinpath(*parts)
    if not path.exists():
        pytest.skip(f"{path} is not present beside the checkout")
    return path


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--live",
        action="store_true",
        default=False,
        help="also run the contract suite against the real OpenProject in OPENPROJECT_BASE_URL/OPENPROJECT_API_KEY",
    )
