"""``/mcp/`` and its odd spellings are served as ``/mcp``, never redirected to a URL the process builds."""

from __future__ import annotations

import asyncio
import json

import pytest

from openproject_mcp.config import HttpSettings
from tests.unit.adapters.mcp_http.serving import ACCEPT, RecordingScopes, demo_app, serving, tool_call

STATUSES = json.dumps(tool_call("openproject_list_statuses")).encode()


async def raw_post(url: str, target: str, *, host: str = "127.0.0.1") -> tuple[str, dict[str, str], bytes]:
    """POST ``target`` exactly as written (no client normalises it); the status line, headers and body."""
    port = int(url.rsplit(":", 1)[1])
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    head = (
        f"POST {target} HTTP/1.1\r\nHost: {host}\r\nAuthorization: Bearer t\r\nContent-Type: application/json\r\n"
        f"Accept: {ACCEPT}\r\nContent-Length: {len(STATUSES)}\r\nConnection: close\r\n\r\n"
    )
    writer.write(head.encode() + STATUSES)
    await writer.drain()
    said = await asyncio.wait_for(reader.read(), 10)
    writer.close()
    top, _, body = said.partition(b"\r\n\r\n")
    status, *lines = top.decode("latin-1").split("\r\n")
    headers = {name.strip().lower(): value.strip() for name, _, value in (line.partition(":") for line in lines)}
    return status, headers, body


@pytest.mark.parametrize("target", ["/mcp/", "/mcp//", "/mcp%2f", "/mcp%2F"])
async def test_a_trailing_slash_is_served_like_mcp_itself(target: str) -> None:
    options = HttpSettings(allowed_hosts=("mcp.example.com",))  # a proxy's public name, as behind TLS
    scopes = RecordingScopes()
    async with serving(demo_app(scopes, options=options), options) as running:
        status, headers, body = await raw_post(running.url, target, host="mcp.example.com")
    assert status.startswith("HTTP/1.1 200"), (status, body[:200])
    assert "location" not in headers
    assert scopes.seen == ["t"], "the call was answered here, with the caller's token"
    assert b'"result"' in body
