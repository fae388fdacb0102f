"""``OpenProjectClient.download``: which redirects are followed with the token, and which are not."""

from __future__ import annotations

import pytest
from aioresponses import aioresponses

from openproject_mcp.adapters.openproject.client import FileTooLargeError
from openproject_mcp.adapters.openproject.repositories import AiohttpAttachmentRepository
from openproject_mcp.domain.errors import NotFoundError, UnsupportedError, UpstreamServerError
from tests.unit.adapters.openproject.conftest import TOKEN, ClientMaker, issued

BASE = "https://host/openproject/"
CONTENT = f"{BASE}api/v3/attachments/5/content"


async def test_a_redirect_within_the_instance_is_followed_on_the_same_session(
    make_client: ClientMaker, mocked: aioresponses
) -> None:
    client = await make_client(BASE)
    mocked.get(CONTENT, status=302, headers={"Location": "/openproject/api/v3/attachments/5/content?inline=1"})
    mocked.get(f"{CONTENT}?inline=1", body=b"hello", headers={"Content-Type": "text/plain; charset=utf-8"})
    found = await client.download("api/v3/attachments/5/content", 1024)
    assert (found.body, found.content_type, found.external) == (b"hello", "text/plain", False)
    assert client.requests_sent == 2


async def test_a_redirect_off_the_base_path_or_host_is_fetched_apart(
    make_client: ClientMaker, mocked: aioresponses
) -> None:
    client = await make_client(BASE)
    for location in ("https://host/elsewhere/file?sig=abc", "https://storage.example.net/b/5?X-Amz-Signature=s3cr3t"):
        mocked.get(CONTENT, status=302, headers={"Location": location})
        mocked.get(location, body=b"\x89PNG", headers={"Content-Type": "image/png"})
        found = await client.download("api/v3/attachments/5/content", 1024)
        assert (found.body, found.external) == (b"\x89PNG", True)
    assert [str(url) for _, url in issued(mocked)].count(CONTENT) == 2


async def test_a_refusing_storage_is_named_by_host_only(make_client: ClientMaker, mocked: aioresponses) -> None:
    client = await make_client(BASE)
    location = "https://storage.example.net/b/5?X-Amz-Signature=s3cr3t"
    mocked.get(CONTENT, status=302, headers={"Location": location})
    mocked.get(location, status=403, body=b"<Error>AccessDenied</Error>")
    with pytest.raises(UpstreamServerError) as refused:
        await client.download("api/v3/attachments/5/content", 1024)
    assert "storage.example.net" in refused.value.message and "HTTP 403" in refused.value.message
    assert "s3cr3t" not in refused.value.message and "s3cr3t" not in (refused.value.hint or "")


async def test_unusable_or_endless_redirects_are_not_followed(make_client: ClientMaker, mocked: aioresponses) -> None:
    client = await make_client(BASE)
    mocked.get(CONTENT, status=302, headers={"Location": "ftp://files.example.net/5"})
    with pytest.raises(UpstreamServerError, match="unusable location"):
        await client.download("api/v3/attachments/5/content", 1024)
    mocked.get(CONTENT, status=302, headers={"Location": "/openproject/api/v3/attachments/5/content"}, repeat=True)
    with pytest.raises(UpstreamServerError, match="more than 3 times"):
        await client.download("api/v3/attachments/5/content", 1024)


async def test_size_and_answers_of_the_content_endpoint(make_client: ClientMaker, mocked: aioresponses) -> None:
    client = await make_client(BASE)
    mocked.get(CONTENT, body=b"x" * 2048)
    with pytest.raises(FileTooLargeError):
        await client.download("api/v3/attachments/5/content", 1024)
    mocked.get(CONTENT, body=b"x" * 2048)
    with pytest.raises(UnsupportedError, match="larger than the 1,024 bytes"):
        await AiohttpAttachmentRepository(client).content(5, 1024)
    mocked.get(CONTENT, status=404, payload={"_type": "Error", "message": "The file could not be found."})
    with pytest.raises(NotFoundError):
        await AiohttpAttachmentRepository(client).content(5, 1024)


async def test_the_token_is_redacted_from_a_text_file(make_client: ClientMaker, mocked: aioresponses) -> None:
    client = await make_client(BASE)
    mocked.get(CONTENT, body=f"my token is {TOKEN}".encode(), headers={"Content-Type": "text/plain"})
    found = await AiohttpAttachmentRepository(client).content(5, 1024)
    assert TOKEN.encode() not in found.data and b"[redacted]" in found.data
