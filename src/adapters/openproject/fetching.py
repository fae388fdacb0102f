"""Reading one resource: fetch and decode, report unreadable payloads, follow hrefs safely."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import TypeVar

from openproject_mcp.adapters.openproject import hal
from openproject_mcp.adapters.openproject.client import ForeignHrefError, OpenProjectClient, QueryParams
from openproject_mcp.adapters.openproject.endpoints import Endpoint
from openproject_mcp.domain.errors import UpstreamServerError

T = TypeVar("T")


@contextmanager
def reading(client: OpenProjectClient, path: str) -> Iterator[None]:
    """Report a payload that does not have the expected shape as an unreadable answer."""
    try:
        yield
    except hal.PayloadError as exc:
        raise UpstreamServerError(
            client.redact(f"The response of OpenProject to GET /{path} could not be read: {exc}."),
            hint="The instance may run a version or a plugin this server does not know; try again later.",
        ) from exc


async def fetch(client: OpenProjectClient, path: str, tp: type[T], params: QueryParams | None = None) -> T:
    data = await client.get(path, params)
    with reading(client, path):
        return hal.decode(data, tp)


def follow(client: OpenProjectClient, href: str | None, endpoint: Endpoint) -> str | None:
    """The request path for an href from a payload, if it is on this instance and of the expected kind."""
    if not href:
        return None
    try:
        path = client.relative_path(href)
    except ForeignHrefError as exc:
        client.warn(f"not following {exc}")
        return None
    if not endpoint.matches(path.split("?", 1)[0]):
        client.warn(f"not following {href}: expected {endpoint.template}")
        return None
    return path
