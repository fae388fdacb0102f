"""Attachments and their content: the same answers on every backend, and the content endpoint's
redirects, refusals and sizes handled without the token ever leaving the instance."""

from __future__ import annotations

import dataclasses

import pytest

from openproject_mcp.adapters.fixture import InMemoryAttachmentRepository
from openproject_mcp.application.attachments import (
    AttachmentContainer,
    ListAttachments,
    ListAttachmentsRequest,
    ReadAttachment,
    ReadAttachmentRequest,
)
from openproject_mcp.composition import Application
from openproject_mcp.config import ResourceSettings
from openproject_mcp.domain.errors import NotFoundError, UnsupportedError, UpstreamServerError
from tests.contract.conftest import TOKEN, Backend, http_settings, served_dataset
from tests.support.fake_openproject import FakeOpenProject, Fault

WORK_PACKAGE = AttachmentContainer("work_package", 116)
WIKI_PAGE = AttachmentContainer("wiki_page", 301)


async def read(app: Application, container: AttachmentContainer, attachment_id: int) -> bytes:
    async with app.scope(None) as scope:
        found = await (await scope.resolve(ReadAttachment)).execute(ReadAttachmentRequest(container, attachment_id))
    return found.data


async def test_attachments_are_listed_and_read_alike_on_every_backend(backend: Backend) -> None:
    assert backend.dataset is not None
    async with backend.app.scope(None) as scope:
        listing = await (await scope.resolve(ListAttachments)).execute(ListAttachmentsRequest(WIKI_PAGE))
        reader = await scope.resolve(ReadAttachment)
        log_file = await reader.execute(ReadAttachmentRequest(WORK_PACKAGE, 701))
        image = await reader.execute(ReadAttachmentRequest(AttachmentContainer("work_package", 101), 702))
        with pytest.raises(UnsupportedError, match="larger than the 5,242,880 bytes"):
            await reader.execute(ReadAttachmentRequest(WIKI_PAGE, 705))
        with pytest.raises(NotFoundError, match="has no attachment 702; its attachments are 701"):
            await reader.execute(ReadAttachmentRequest(WORK_PACKAGE, 702))
        with pytest.raises(NotFoundError):
            await reader.execute(ReadAttachmentRequest(AttachmentContainer("work_package", 999_999), 701))
    assert [(a.id, a.file_name, a.content_type) for a in listing.attachments] == [
        (704, "first-week-plan.csv", "text/csv"),
        (705, "welcome-video.mp4", "video/mp4"),
    ]
    csv_size = len(backend.dataset.attachments[704].content or b"")
    assert [a.file_size for a in listing.attachments] == [csv_size, 48_000_000]
    assert log_file.data == backend.dataset.attachments[701].content
    assert log_file.text is not None and log_file.text.startswith("2026-09-14T10:02:11Z")
    assert image.data == backend.dataset.attachments[702].content and image.text is None
    assert image.media_type == "image/png"


async def test_external_storage_is_read_without_the_token_under_a_sub_path() -> None:
    async with FakeOpenProject(
        {TOKEN: served_dataset()}, profile="17.3", prefix="/openproject", attachment_storage="external"
    ) as fake:
        app = Application(http_settings(fake.base_url))
        try:
            data = await read(app, WORK_PACKAGE, 701)
        finally:
            await app.aclose()
    assert data == served_dataset().attachments[701].content
    content, stored = fake.requests[-2:]
    assert (content.path, content.status, content.token) == ("/openproject/api/v3/attachments/701/content", 302, TOKEN)
    assert stored.path.startswith("/external-storage/") and stored.status == 200
    assert stored.token is None, "the token is never sent to the storage a download is redirected to"


async def test_a_refusing_external_storage_is_named_without_its_signed_url() -> None:
    async with FakeOpenProject({TOKEN: served_dataset()}, attachment_storage="external") as fake:
        fake.inject(Fault(403, r"^/external-storage/"))
        app = Application(http_settings(fake.base_url))
        try:
            with pytest.raises(UpstreamServerError) as refused:
                await read(app, WORK_PACKAGE, 701)
        finally:
            await app.aclose()
    message = f"{refused.value.message} {refused.value.hint}"
    assert "storage at localhost" in message and "HTTP 403" in message
    assert "Signature" not in message and "external-storage" not in message


async def test_content_larger_than_the_cap_is_refused_while_it_arrives() -> None:
    """The list says 307 bytes; the instance sends 4 KiB: reading stops at the cap."""
    async with FakeOpenProject({TOKEN: served_dataset()}) as fake:
        fake.inject(Fault(200, r"/attachments/701/content$", body=b"x" * 4096))
        settings = http_settings(fake.base_url)
        app = Application(dataclasses.replace(settings, resources=ResourceSettings(max_attachment_bytes=1024)))
        try:
            with pytest.raises(UnsupportedError, match="larger than the 1,024 bytes") as too_large:
                await read(app, WORK_PACKAGE, 701)
        finally:
            await app.aclose()
    assert too_large.value.hint is not None and "OPENPROJECT_MAX_ATTACHMENT_BYTES" in too_large.value.hint


async def test_a_file_held_back_by_the_virus_scanner_is_not_an_expired_token() -> None:
    async with FakeOpenProject({TOKEN: served_dataset()}) as fake:
        fake.inject(Fault(401, r"/attachments/701/content$"))
        app = Application(http_settings(fake.base_url))
        try:
            with pytest.raises(UnsupportedError, match="virus scanner"):
                await read(app, WORK_PACKAGE, 701)
        finally:
            await app.aclose()


async def test_a_dataset_that_only_describes_a_file_says_so() -> None:
    dataset = served_dataset()
    row = dataset.attachments[704]
    without = {**dataset.attachments, 704: dataclasses.replace(row, content=None)}
    described = dataclasses.replace(dataset, attachments=without)
    async with FakeOpenProject({TOKEN: described}) as fake:
        app = Application(http_settings(fake.base_url))
        try:
            with pytest.raises(NotFoundError):
                await read(app, WIKI_PAGE, 704)  # OpenProject: 404 for a file that is gone
        finally:
            await app.aclose()
    with pytest.raises(UnsupportedError, match="does not hold its content"):
        await InMemoryAttachmentRepository(described).content(704, 1024)


async def test_a_signed_external_download_link_never_reaches_a_result() -> None:
    """With external storage OpenProject's ``downloadLocation`` is a pre-signed URL: a bearer
    credential. Tool results and resources carry the instance's own content path instead."""
    from mcp import Client

    from openproject_mcp.adapters.mcp.server import build_server

    async with FakeOpenProject({TOKEN: served_dataset()}, attachment_storage="external") as fake:
        app = Application(http_settings(fake.base_url))
        try:
            async with Client(build_server(app.scope)) as client:
                page = await client.call_tool("openproject_get_wiki_page", {"id": 301})
                wiki = await client.read_resource("openproject://wiki-pages/301")
                work_package = await client.read_resource("openproject://work-packages/116")
        finally:
            await app.aclose()
    assert not page.is_error
    answers = [str(page.structured_content), *(str(part) for part in page.content)]
    answers += [str(part) for part in (*wiki.contents, *work_package.contents)]
    for text in answers:
        assert "Signature" not in text and "external-storage" not in text, text
    assert isinstance(page.structured_content, dict)
    urls = [a["downloadUrl"] for a in page.structured_content["attachments"]]
    assert urls == [f"{fake.base_url.rstrip('/')}/api/v3/attachments/{n}/content" for n in (704, 705)]
