"""Resources, prompts and completions on the demo data, through the SDK's in-process client."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import pytest
from mcp import Client, MCPError
from mcp.types import PromptReference, ResourceTemplateReference, TextResourceContents

from openproject_mcp.adapters.mcp.resources import resolve
from openproject_mcp.adapters.mcp.server import build_server
from openproject_mcp.adapters.mcp.untrusted import unfenced
from openproject_mcp.composition import Application
from openproject_mcp.config import Settings
from openproject_mcp.domain.errors import InvalidArgumentError

DEMO = Settings(backend="demo")
PROJECT_TEMPLATE = ResourceTemplateReference(uri="openproject://projects/{project}")


pytestmark = pytest.mark.parametrize("read_only", [False, True], ids=["read-write", "read-only"])


@asynccontextmanager
async def connected(read_only: bool) -> AsyncIterator[Client]:
    """A client of the server; read-only mode changes nothing here, since everything here reads."""
    app = Application(DEMO)
    async with Client(build_server(app.scope, read_only=read_only)) as client:
        yield client


async def test_the_server_declares_resources_prompts_and_completions(read_only: bool) -> None:
    async with connected(read_only) as client:
        capabilities = client.session.server_capabilities
        assert capabilities is not None
        assert capabilities.resources is not None
        assert capabilities.prompts is not None
        assert capabilities.completions is not None


async def test_resources_list_pages_with_a_cursor_it_gave_out(read_only: bool) -> None:
    async with connected(read_only) as client:
        first = await client.list_resources()
        assert len(first.resources) == 3 and first.next_cursor is None
        assert all(r.mime_type == "text/plain" and r.title for r in first.resources)
        with pytest.raises(MCPError) as bad:
            await client.list_resources(cursor="page-two")
        assert bad.value.error.code == -32602
        assert "not one this server gave out" in bad.value.error.message


async def test_uris_are_percent_decoded_and_their_arguments_checked(read_only: bool) -> None:
    async with connected(read_only) as client:
        read = await client.read_resource("openproject://projects/check%6Fut")
        [contents] = read.contents
        assert isinstance(contents, TextResourceContents)
        assert unfenced(contents.text.partition("\n")[2])["identifier"] == "checkout"
        for uri, words in [
            ("openproject://meetings/abc", "{meeting} must be a meeting id"),
            ("openproject://meetings/0", "{meeting} must be a meeting id"),
            ("openproject://work-packages/101/attachments/x", "{attachment} must be an attachment id"),
            ("openproject://work-packages/101/comments", "No resource has the URI"),
            (
                "https://openproject.example.com/api/v3/projects/1",
                "Resource URIs are: openproject://projects/{project}",
            ),
        ]:
            with pytest.raises(MCPError) as caught:
                await client.read_resource(uri)
            assert caught.value.error.message.startswith("Error [INVALID_ARGUMENT]: ")
            assert words in caught.value.error.message


def test_an_attachment_uri_is_not_taken_for_its_container(read_only: bool) -> None:
    spec, arguments = resolve("openproject://work-packages/SHOP-1/attachments/702")
    assert spec.name == "work-package-attachment"
    assert arguments == {"workPackage": "SHOP-1", "attachment": "702"}
    with pytest.raises(InvalidArgumentError):
        resolve("openproject://work-packages/SHOP-1/attachments/702/extra")


async def test_completion_errors_name_the_valid_choices(read_only: bool) -> None:
    async with connected(read_only) as client:
        cases: list[tuple[ResourceTemplateReference | PromptReference, str, str]] = [
            (PROJECT_TEMPLATE, "projects", "its arguments are project"),
            (ResourceTemplateReference(uri="openproject://issues/{id}"), "id", "the templates are openproject://"),
            (PromptReference(name="standup"), "project", "the prompts are project_status, what_did_we_decide"),
            (PromptReference(name="what_did_we_decide"), "query", "its arguments are topic, project"),
        ]
        for ref, argument, words in cases:
            with pytest.raises(MCPError) as caught:
                await client.complete(ref, {"name": argument, "value": ""})
            assert caught.value.error.code == -32602
            assert words in caught.value.error.message


async def test_completions_are_bounded_and_say_when_more_exist(read_only: bool) -> None:
    async with connected(read_only) as client:
        everything = await client.complete(
            ResourceTemplateReference(uri="openproject://work-packages/{workPackage}"),
            {"name": "workPackage", "value": ""},
        )
        assert len(everything.completion.values) == 20
        assert everything.completion.has_more is True and everything.completion.total == 30
        nothing = await client.complete(PROJECT_TEMPLATE, {"name": "project", "value": "zzz"})
        assert nothing.completion.values == [] and nothing.completion.has_more is False
        no_container = await client.complete(
            ResourceTemplateReference(uri="openproject://wiki-pages/{wikiPage}/attachments/{attachment}"),
            {"name": "attachment", "value": ""},
        )
        assert no_container.completion.values == []
        topic = await client.complete(PromptReference(name="what_did_we_decide"), {"name": "topic", "value": "bud"})
        assert topic.completion.values == []


async def test_prompt_arguments_are_checked_before_anything_is_read(read_only: bool) -> None:
    async with connected(read_only) as client:
        cases = [
            ("project_status", {"projectId": "checkout"}, "has no argument 'projectId'; its arguments are project"),
            ("what_did_we_decide", {"topic": "x" * 201}, "topic must be at most 200 characters"),
            ("prepare_meeting", {"meeting": "next"}, "meeting must be a meeting id"),
            ("project_status", {"project": "   "}, "needs the argument 'project'"),
        ]
        for name, arguments, words in cases:
            with pytest.raises(MCPError) as caught:
                await client.get_prompt(name, arguments)
            assert caught.value.error.data["code"] == "INVALID_ARGUMENT"
            assert words in caught.value.error.message
        with pytest.raises(MCPError) as missing:
            await client.get_prompt("project_status", {"project": "nowhere"})
        assert missing.value.error.data["code"] == "OPENPROJECT_NOT_FOUND"


async def test_a_decision_prompt_says_where_nothing_was_decided(read_only: bool) -> None:
    async with connected(read_only) as client:
        found = await client.get_prompt(
            "what_did_we_decide", {"topic": "quantum teleportation", "project": "warehouse"}
        )
        [message] = found.messages
        assert message.role == "user"
        text = getattr(message.content, "text", "")
        assert "say that plainly" in text
        assert "in project 'warehouse'" in text
        assert '"total":0' in text, "the searches found nothing, and the data says so"


async def test_a_content_only_deployment_renders_records_and_prompts_compactly(read_only: bool) -> None:
    app = Application(DEMO)
    server = build_server(app.scope, read_only=read_only, result_format="content")
    async with Client(server) as client:
        [contents] = (await client.read_resource("openproject://meetings/203")).contents
        prompt = await client.get_prompt("prepare_meeting", {"meeting": "203"})
    assert isinstance(contents, TextResourceContents)
    notice, _, body = contents.text.partition("\n")
    assert "were written by OpenProject users" in notice
    assert not body.startswith("{") and "id: 203" in body
    assert "Q4 budget approval" in body and "[[/" in body, "user text is fenced with the short marks"
    text = getattr(prompt.messages[0].content, "text", "")
    assert text.count("were written by OpenProject users") == 1, "one notice for every section"
    assert "## The meeting (openproject_get_meeting id=203)\nid: 203" in text
