"""Resources, resource templates, prompts and completions through the MCP SDK's ``ClientSession``.

The real console command is started over stdio and over streamable HTTP, against the embedded
demo data and against the fake OpenProject playing 17.3 and 18.0; each is driven as a third-party
client would: ``resources/list``, ``resources/templates/list``, ``resources/read``,
``prompts/list``, ``prompts/get`` and ``completion/complete``.
"""

from __future__ import annotations

import base64
import json
import sys
from collections.abc import AsyncIterator, Iterator
from contextlib import AsyncExitStack, asynccontextmanager
from pathlib import Path
from typing import Any

import httpx2
import pytest
from mcp import ClientSession, MCPError, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.client.streamable_http import streamable_http_client
from mcp.types import BlobResourceContents, PromptReference, ResourceTemplateReference, TextResourceContents

from openproject_mcp.adapters.fixture import Dataset, load_demo_dataset
from openproject_mcp.adapters.mcp.untrusted import unfenced
from tests.e2e.test_http_serve import console_server, server_env
from tests.support.fake_openproject import FakeOpenProject
from tests.support.fake_openproject.attachments import Storage
from tests.unit.adapters.mcp_http.serving import quiet_client_loggers

TOKEN = "resources-e2e-TOKEN-5f1c0b7a"
OTHER = "resources-e2e-other-token-91ad"
TEMPLATES = {
    "openproject://projects/{project}",
    "openproject://work-packages/{workPackage}",
    "openproject://meetings/{meeting}",
    "openproject://wiki-pages/{wikiPage}",
    "openproject://work-packages/{workPackage}/attachments/{attachment}",
    "openproject://wiki-pages/{wikiPage}/attachments/{attachment}",
}
PROMPTS = {"project_status", "what_did_we_decide", "prepare_meeting"}


@pytest.fixture(autouse=True)
def quiet_http_client() -> Iterator[None]:
    yield from quiet_client_loggers()


def demo_attachment(dataset: Dataset, attachment_id: int) -> bytes:
    content = dataset.attachments[attachment_id].content
    assert content is not None
    return content


def record_of(contents: TextResourceContents | BlobResourceContents) -> dict[str, Any]:
    assert isinstance(contents, TextResourceContents)
    notice, _, mirror = contents.text.partition("\n")
    assert "[[untrusted" in notice
    data: dict[str, Any] = unfenced(mirror)
    return data


@asynccontextmanager
async def stdio_session(*args: str, env: dict[str, str] | None = None) -> AsyncIterator[ClientSession]:
    params = StdioServerParameters(command=sys.executable, args=["-m", "openproject_mcp", "serve", *args], env=env)
    async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        yield session


@asynccontextmanager
async def http_session(url: str, token: str) -> AsyncIterator[ClientSession]:
    async with AsyncExitStack() as stack:
        http = await stack.enter_async_context(httpx2.AsyncClient(headers={"Authorization": f"Bearer {token}"}))
        streams = await stack.enter_async_context(streamable_http_client(url, http_client=http))
        session = await stack.enter_async_context(ClientSession(streams[0], streams[1]))
        await session.initialize()
        yield session


async def exercise(session: ClientSession, *, profile: str) -> dict[str, Any]:
    """Every resource and prompt method once or more; what came back, for the assertions."""
    dataset = load_demo_dataset()
    listed = await session.list_resources()
    templates = await session.list_resource_templates()
    work_package = "SHOP-1" if profile != "17.3" else "101"  # display ids are 17.5+
    project = record_of((await session.read_resource("openproject://projects/checkout")).contents[0])
    wp = record_of((await session.read_resource(f"openproject://work-packages/{work_package}")).contents[0])
    meeting = record_of((await session.read_resource("openproject://meetings/203")).contents[0])
    wiki = record_of((await session.read_resource("openproject://wiki-pages/301")).contents[0])
    log_file = (await session.read_resource("openproject://work-packages/116/attachments/701")).contents[0]
    image = (await session.read_resource(f"openproject://work-packages/{work_package}/attachments/702")).contents[0]
    csv = (await session.read_resource("openproject://wiki-pages/301/attachments/704")).contents[0]
    with pytest.raises(MCPError) as too_large:
        await session.read_resource("openproject://wiki-pages/301/attachments/705")
    with pytest.raises(MCPError) as elsewhere:
        await session.read_resource("openproject://wiki-pages/302/attachments/704")
    with pytest.raises(MCPError) as missing:
        await session.read_resource("openproject://meetings/999999")
    prompts = await session.list_prompts()
    status = await session.get_prompt("project_status", {"project": "checkout"})
    decided = await session.get_prompt("what_did_we_decide", {"topic": "budget approval"})
    prepare = await session.get_prompt("prepare_meeting", {"meeting": "209"})
    with pytest.raises(MCPError) as no_argument:
        await session.get_prompt("prepare_meeting", {})
    projects = await session.complete(
        ResourceTemplateReference(uri="openproject://projects/{project}"), {"name": "project", "value": "chec"}
    )
    packages = await session.complete(
        ResourceTemplateReference(uri="openproject://work-packages/{workPackage}"),
        {"name": "workPackage", "value": "refund"},
    )
    attachments = await session.complete(
        ResourceTemplateReference(uri="openproject://wiki-pages/{wikiPage}/attachments/{attachment}"),
        {"name": "attachment", "value": "first"},
        {"wikiPage": "301"},
    )
    meetings = await session.complete(PromptReference(name="prepare_meeting"), {"name": "meeting", "value": "sprint"})
    assert isinstance(log_file, TextResourceContents)
    assert isinstance(image, BlobResourceContents)
    assert isinstance(csv, TextResourceContents)
    assert log_file.text.encode() == demo_attachment(dataset, 701)
    assert base64.b64decode(image.blob) == demo_attachment(dataset, 702)
    assert csv.text.encode() == demo_attachment(dataset, 704)
    return {
        "listed": [r.uri for r in listed.resources],
        "templates": {t.uri_template for t in templates.resource_templates},
        "project": project["identifier"],
        "wp_id": wp["id"],
        "wp_attachments": [a["uri"] for a in wp["attachments"]],
        "meeting_outcomes": [o for item in meeting.get("agendaItems", []) for o in item["outcomes"]],
        "wiki_attachments": [a["uri"] for a in wiki["attachments"]],
        "types": (log_file.mime_type, image.mime_type, csv.mime_type),
        "too_large": too_large.value.error,
        "elsewhere": elsewhere.value.error,
        "missing": missing.value.error,
        "prompts": {p.name for p in prompts.prompts},
        "texts": [m.content.text for p in (status, decided, prepare) for m in p.messages if m.content.type == "text"],
        "no_argument": no_argument.value.error,
        "completions": (
            projects.completion.values,
            packages.completion.values,
            attachments.completion.values,
            meetings.completion.values,
        ),
    }


def check(seen: dict[str, Any], *, profile: str) -> None:
    assert seen["listed"] == [
        "openproject://projects/checkout",
        "openproject://projects/warehouse",
        "openproject://projects/webshop",
    ]
    assert seen["templates"] == TEMPLATES
    assert seen["project"] == "checkout"
    assert seen["wp_id"] == 101
    assert seen["wp_attachments"] == ["openproject://work-packages/101/attachments/702"]
    if profile == "17.3":
        assert seen["meeting_outcomes"] == []  # no agenda items before 17.4
    else:
        assert seen["meeting_outcomes"], "the meeting resource carries the agenda's outcomes"
    assert seen["wiki_attachments"] == [
        "openproject://wiki-pages/301/attachments/704",
        "openproject://wiki-pages/301/attachments/705",
    ]
    assert seen["types"] == ("text/plain", "image/png", "text/csv")
    too_large = seen["too_large"]
    assert too_large.data["code"] == "OPENPROJECT_UNSUPPORTED"
    assert "OPENPROJECT_MAX_ATTACHMENT_BYTES" in too_large.message and "welcome-video.mp4" in too_large.message
    assert seen["elsewhere"].data["code"] == "OPENPROJECT_NOT_FOUND"
    assert "Wiki page 302 has no attachments" in seen["elsewhere"].message
    assert seen["missing"].code == -32602 and seen["missing"].message.startswith("Error [OPENPROJECT_NOT_FOUND]")
    assert seen["prompts"] == PROMPTS
    status, decided, prepare = seen["texts"]
    assert "status summary" in status and "Refund workflow for partial returns" in status
    assert "What did we decide about 'budget approval'" in decided and "Q4 budget approval" in decided
    assert "Prepare me for meeting 209" in prepare and "previous meeting of the same title, 206" in prepare
    for text in seen["texts"]:
        assert "[[untrusted " in text, "the data in a prompt is fenced as in a tool result"
    assert seen["no_argument"].data["code"] == "INVALID_ARGUMENT" and "'meeting'" in seen["no_argument"].message
    projects, packages, attachments, meetings = seen["completions"]
    assert projects == ["checkout"]
    assert packages == (["120"] if profile == "17.3" else ["PAY-7"])
    assert attachments == ["704"]
    assert meetings == ["206", "209"]


async def test_over_stdio_against_the_demo_data() -> None:
    async with stdio_session("--demo") as session:
        seen = await exercise(session, profile="18.0")
    check(seen, profile="18.0")


@pytest.mark.parametrize("profile", ["17.3", "18.0"])
async def test_over_stdio_against_the_fake_openproject(profile: str) -> None:
    async with FakeOpenProject({TOKEN: load_demo_dataset()}, profile=profile) as fake:
        env = server_env(fake.base_url, OPENPROJECT_API_KEY=TOKEN, OPENPROJECT_LOG_LEVEL="INFO")
        async with stdio_session(env=env) as session:
            seen = await exercise(session, profile=profile)
    check(seen, profile=profile)
    assert {request.token for request in fake.requests} == {TOKEN}


@pytest.mark.parametrize(("profile", "storage"), [("17.3", "local"), ("18.0", "external")])
async def test_over_streamable_http_against_the_fake_openproject_with_each_callers_token(
    tmp_path: Path, profile: str, storage: Storage
) -> None:
    tenants = {TOKEN: load_demo_dataset(), OTHER: load_demo_dataset()}
    async with (
        FakeOpenProject(tenants, profile=profile, attachment_storage=storage) as fake,
        console_server(tmp_path, server_env(fake.base_url)) as server,
    ):
        async with http_session(server.mcp_url, TOKEN) as session:
            seen = await exercise(session, profile=profile)
        async with http_session(server.mcp_url, OTHER) as session:
            await session.read_resource("openproject://projects/webshop")
        async with http_session(server.mcp_url, "not-a-token-anyone-has") as session:
            with pytest.raises(MCPError) as rejected:
                await session.read_resource("openproject://projects/webshop")
            with pytest.raises(MCPError) as rejected_prompt:
                await session.get_prompt("project_status", {"project": "webshop"})
        await server.terminate()
    check(seen, profile=profile)
    assert rejected.value.error.data["code"] == "OPENPROJECT_AUTH_ERROR"
    assert "OPENPROJECT_API_KEY" not in rejected.value.error.message, "remote mode's hint speaks of the header"
    assert rejected_prompt.value.error.data["code"] == "OPENPROJECT_AUTH_ERROR"
    instance = [r for r in fake.requests if not r.path.startswith("/external-storage/")]
    assert {r.token for r in instance} == {TOKEN, OTHER, "not-a-token-anyone-has"}
    external = [r for r in fake.requests if r.path.startswith("/external-storage/")]
    if storage == "external":
        assert len(external) == 3, "each attachment read went to the external storage"
        assert {r.token for r in external} == {None}, "the token never left the instance's address"
    else:
        assert not external
    output = server.output()
    for secret in (TOKEN, OTHER):
        assert secret not in output
        assert secret not in json.dumps(seen, default=str)
    access = server.access_lines()
    assert {"resources/read", "prompts/get", "completion/complete", "resources/list"} <= {
        line.get("rpc_method") for line in access
    }
