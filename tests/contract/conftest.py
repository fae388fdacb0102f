"""Backends for the contract suite: the same use cases against every adapter.

- ``fixture``: the in-memory backend over the demo dataset;
- ``http-<version>``: the aiohttp backend against the fake OpenProject server rendering the same
  dataset as HAL+JSON in that version's profile; afterwards, every request the test sent is
  checked against the 17.3 OpenAPI document and that version's rules (``tests.support.conformance``);
- ``live``: a real instance, only with ``--live`` and ``OPENPROJECT_BASE_URL``/``OPENPROJECT_API_KEY``.

Every backend is the real composition root (``Application`` and its ``AppContainer``). The
dataset a backend is checked against is the one its container serves (``container.dataset()``),
and the fake OpenProject renders that same object, so the fixture and HTTP backends cannot drift
apart; a test that swaps a part does it with ``.override()`` on the container's provider.
"""

from __future__ import annotations

import os
from collections.abc import AsyncIterator
from dataclasses import dataclass

import pytest

from openproject_mcp.adapters.fixture import Dataset
from openproject_mcp.composition import Application
from openproject_mcp.config import ConfigurationError, Settings, load_settings
from tests.support.conformance import request_problems
from tests.support.fake_openproject import FakeOpenProject

TOKEN = "contract-token-7f3a9c"
PROFILES = ("16.6", "17.3", "17.5", "17.8", "18.0")
BACKENDS = ("fixture", *(f"http-{p}" for p in PROFILES), "live")


@dataclass
class Backend:
    name: str
    app: Application
    dataset: Dataset | None  # None on a live instance: assert invariants only
    version: str  # the profile; "fixture" and "live" expose what they have
    fake: FakeOpenProject | None = None

    def plays(self, attribute: str) -> bool:
        """Whether the fake's profile has this behaviour (``Profile`` attribute); the fixture and a
        live instance count as having it."""
        if self.fake is None:
            return True
        return bool(getattr(self.fake.profile, attribute))

    def has(self, since: str) -> bool:
        """Whether this backend offers what OpenProject ``since`` introduced."""
        if self.version in ("fixture", "live"):
            return True
        return tuple(map(int, self.version.split("."))) >= tuple(map(int, since.split(".")))


def http_settings(base_url: str, token: str = TOKEN) -> Settings:
    return Settings(backend="openproject", base_url=base_url, api_key=token, max_retries=1)


DEMO = Settings(backend="demo")


def served_dataset(settings: Settings = DEMO) -> Dataset:
    """The dataset the in-memory backend serves for ``settings``, from its own container."""
    dataset: Dataset = Application(settings).container.dataset()
    return dataset


@pytest.fixture(params=BACKENDS)
async def backend(request: pytest.FixtureRequest) -> AsyncIterator[Backend]:
    name: str = request.param
    if name == "fixture":
        app = Application(DEMO)
        yield Backend(name, app, app.container.dataset(), "fixture")
        return
    if name == "live":
        if not request.config.getoption("--live"):
            pytest.skip("live contract tests need --live and OPENPROJECT_BASE_URL/OPENPROJECT_API_KEY")
        try:
            settings = load_settings(os.environ)
        except ConfigurationError as exc:
            pytest.skip(f"live contract tests need a configured instance: {exc}")
        app = Application(settings)
        try:
            yield Backend(name, app, None, "live")
        finally:
            await app.aclose()
        return
    profile = name.removeprefix("http-")
    dataset = served_dataset()
    async with FakeOpenProject({TOKEN: dataset}, profile=profile) as fake:
        app = Application(http_settings(fake.base_url))
        try:
            yield Backend(name, app, dataset, profile, fake)
        finally:
            await app.aclose()
    # Every request the use case sent is documented for OpenProject and accepted by this version.
    problems = request_problems(fake.requests, fake.profile, fake.prefix)
    assert not problems, "\n".join(problems)
