"""Fixtures for the fake OpenProject server tests: the datasets it serves, and a demo server."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import pytest

from openproject_mcp.adapters.fixture import Dataset, load_dataset, load_demo_dataset, parse_dataset
from tests.conftest import shared_path
from tests.support.datasets import many_work_packages
from tests.support.fake_openproject import FakeOpenProject
from tests.unit.support.fake_client import TOKEN, Api, ServeDemo, api_for


@pytest.fixture(scope="session")
def demo() -> Dataset:
    return load_demo_dataset()


@pytest.fixture(scope="session")
def generated() -> Dataset:
    return parse_dataset(json.dumps(many_work_packages(3)).encode(), "generated")


@pytest.fixture
def acceptance() -> Dataset:
    return load_dataset(shared_path("acceptance", "dataset.json"))


@pytest.fixture
def serve_demo(demo: Dataset) -> ServeDemo:
    """``async with serve_demo(profile=..., ...) as (fake, api)``: the demo dataset under ``TOKEN``."""

    @asynccontextmanager
    async def serve(**options: Any) -> AsyncIterator[tuple[FakeOpenProject, Api]]:
        async with FakeOpenProject({TOKEN: demo}, **options) as fake, api_for(fake) as api:
            yield fake, api

    return serve
