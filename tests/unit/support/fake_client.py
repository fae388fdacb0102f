"""A small HTTP client for the fake OpenProject server."""

from __future__ import annotations

import base64
import json
from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from dataclasses import dataclass
from typing import Any

import aiohttp
from multidict import CIMultiDictProxy

from openproject_mcp.domain.queries import Filter
from tests.support.fake_openproject import FakeOpenProject

TOKEN = "demo-token-5d1c"
OTHER_TOKEN = "other-token-93be"


def basic(token: str, user: str = "apikey") -> str:
    return "Basic " + base64.b64encode(f"{user}:{token}".encode()).decode()


def bearer(token: str) -> str:
    return f"Bearer {token}"


def filters(*entries: tuple[str, str, list[str]]) -> str:
    """The ``filters`` parameter for ``(name, operator, values)`` entries."""
    return json.dumps([{name: {"operator": op, "values": values}} for name, op, values in entries])


def filters_of(wanted: Sequence[Filter]) -> str:
    """The ``filters`` parameter for the core's :class:`Filter` values."""
    return filters(*((f.name, f.operator, list(f.values)) for f in wanted))


@dataclass(frozen=True)
class Answer:
    status: int
    headers: CIMultiDictProxy[str]
    body: bytes

    def json(self) -> Any:
        return json.loads(self.body)

    @property
    def error(self) -> str:
        """The error name of a HAL error body (``NotFound``...)."""
        payload = self.json()
        assert payload["_type"] == "Error", payload
        identifier: str = payload["errorIdentifier"]
        return identifier.removeprefix("urn:openproject-org:api:v3:errors:")


class Api:
    """GET requests relative to the fake's base URL, with one Authorization header (or none)."""

    def __init__(self, session: aiohttp.ClientSession) -> None:
        self.session = session

    async def get(self, path: str, params: Mapping[str, str | int] | None = None) -> Answer:
        async with self.session.get(path, params=params, allow_redirects=False) as response:
            return Answer(response.status, response.headers, await response.read())

    async def json(self, path: str, params: Mapping[str, str | int] | None = None) -> Any:
        answer = await self.get(path, params)
        assert answer.status == 200, (path, answer.status, answer.body[:300])
        assert answer.headers["Content-Type"].startswith("application/hal+json")
        return answer.json()


@asynccontextmanager
async def api_for(fake: FakeOpenProject, authorization: str | None = bearer(TOKEN)) -> AsyncIterator[Api]:
    headers = {"Authorization": authorization} if authorization is not None else {}
    async with aiohttp.ClientSession(base_url=fake.base_url, headers=headers) as session:
        yield Api(session)


def ids(collection: Mapping[str, Any]) -> list[int]:
    return [element["id"] for element in collection["_embedded"]["elements"]]


ServeDemo = Callable[..., AbstractAsyncContextManager[tuple[FakeOpenProject, Api]]]
"""The ``serve_demo`` fixture: ``async with serve_demo(**FakeOpenProject options) as (fake, api)``."""
