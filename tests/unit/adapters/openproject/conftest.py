"""Fixtures for the OpenProject adapter tests: aioresponses (with its aiohttp 3.14 shim) and clients.

aioresponses 0.7.9 builds ``ClientResponse`` without the ``stream_writer`` argument aiohttp 3.14
requires (pnuckowski/aioresponses#289); the shim below supplies a stand-in.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import AsyncIterator, Iterator
from contextlib import AsyncExitStack, asynccontextmanager
from types import SimpleNamespace
from typing import Any
from urllib.parse import parse_qs

import aiohttp
import aioresponses.core as _aioresponses_core
import pytest
from aioresponses import aioresponses
from yarl import URL

from openproject_mcp.adapters.openproject.client import ClientSettings, OpenProjectClient, open_session
from openproject_mcp.adapters.openproject.endpoints import endpoint_for


class _CompatClientResponse(aiohttp.ClientResponse):
    def __init__(self, method: str, url: Any, **kwargs: Any) -> None:
        # aioresponses passes writer=None, so aiohttp only reads stream_writer.output_size.
        kwargs.setdefault("stream_writer", SimpleNamespace(output_size=0))
        super().__init__(method, url, **kwargs)


if "stream_writer" in aiohttp.ClientResponse.__init__.__code__.co_varnames:
    _aioresponses_core.ClientResponse = _CompatClientResponse  # type: ignore[attr-defined]


BASE = "https://op.example.com/"
TOKEN = "sentinel-token-7f3a9c"


def url_for(path: str, base: str = BASE) -> re.Pattern[str]:
    """A pattern for ``GET base+path`` with any query string."""
    return re.compile(rf"^{re.escape(base)}{re.escape(path)}(\?.*)?$")


def issued(mocked: aioresponses) -> list[tuple[str, URL]]:
    """Every (method, URL) sent through the mock, one entry per call."""
    return [key for key, calls in mocked.requests.items() for _ in calls]


def queries_to(mocked: aioresponses, path: str, base: str = BASE) -> list[dict[str, str]]:
    """The query parameters of every call to ``base+path`` (values decoded), in no special order."""
    found = []
    for _, url in issued(mocked):
        if str(url.with_query(None)) == f"{base}{path}":
            found.append({k: v[0] for k, v in parse_qs(url.raw_query_string, keep_blank_values=True).items()})
    return found


class Sleeps(list[float]):
    """A stand-in for ``asyncio.sleep`` that records the delays instead of waiting."""

    async def __call__(self, delay: float) -> None:
        self.append(delay)
        await asyncio.sleep(0)


class ClientMaker:
    def __init__(self, stack: AsyncExitStack, sleeps: Sleeps) -> None:
        self._stack = stack
        self.sleeps = sleeps

    async def __call__(
        self,
        base_url: str = BASE,
        api_key: str = TOKEN,
        limiter: asyncio.Semaphore | None = None,
        **settings: Any,
    ) -> OpenProjectClient:
        config = ClientSettings(base_url, **settings)
        session = await self._stack.enter_async_context(asynccontextmanager(open_session)(config, api_key))
        return OpenProjectClient(
            session,
            config,
            api_key,
            limiter or asyncio.Semaphore(config.max_concurrency),
            sleep=self.sleeps,
            jitter=lambda: 0.5,
        )


@pytest.fixture
def sleeps() -> Sleeps:
    return Sleeps()


@pytest.fixture
async def make_client(sleeps: Sleeps) -> AsyncIterator[ClientMaker]:
    async with AsyncExitStack() as stack:
        yield ClientMaker(stack, sleeps)


@pytest.fixture
async def client(make_client: ClientMaker) -> OpenProjectClient:
    return await make_client()


@pytest.fixture
def mocked() -> Iterator[aioresponses]:
    with aioresponses() as mock:
        yield mock


@pytest.fixture
def api(mocked: aioresponses) -> Iterator[aioresponses]:
    """``mocked``, checking afterwards that every request was a GET on a declared endpoint.

    Together with the spec test of the declared endpoints, this ties every request the
    repositories send to the 17.3 OpenAPI document (or to the list of newer endpoints).
    """
    yield mocked
    for method, url in issued(mocked):
        assert method == "GET", f"{method} {url}"
        path = url.raw_path[url.raw_path.index("api/v3") :]
        endpoint = endpoint_for(path)
        assert endpoint is not None, f"undeclared endpoint: {path}"
        sent = set(parse_qs(url.raw_query_string, keep_blank_values=True))
        assert sent <= endpoint.params, f"{path}: parameters {sorted(sent - endpoint.params)} not declared"
