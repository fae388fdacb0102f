"""Shared test configuration: paths to the material in ../shared, skipped when absent."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.redis_server import MISSING, RedisServer, redis_server_binary, running_redis

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


@pytest.fixture
def redis_server() -> Iterator[RedisServer]:
    """A real ``redis-server`` of the test's own (free port, temporary directory), killed afterwards."""
    if redis_server_binary() is None:
        pytest.skip(MISSING)
    with running_redis() as server:
        yield server
