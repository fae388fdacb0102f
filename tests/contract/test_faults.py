"""Faults on a fake OpenProject, seen through the MCP server: errors are honest and leak nothing."""

from __future__ import annotations

import base64
import json
import logging
from collections.abc import AsyncIterator
from typing import Any

import pytest
from mcp import Client
from mcp.types import CallToolResult

from openproject_mcp.adapters.mcp.server import build_server
from openproject_mcp.composition import Application
from openproject_mcp.config import Settings
from tests.conftest import shared_path
from tests.contract.conftest import served_dataset
from tests.support.fake_openproject import FakeOpenProject, Fault

SENTINEL = "sentinel-token-5be1d2c4"
SECRET_FORMS = (SENTINEL, base64.b64encode(f"apikey:{SENTINEL}".encode()).decode())


def text_of(result: CallToolResult) -> str:
    return "\n".join(getattr(c, "text", "") for c in result.content)


@pytest.fixture
async def fake() -> AsyncIterator[FakeOpenProject]:
    async with FakeOpenProject({SENTINEL: served_dataset()}, profile="18.0") as server:
        yield server


def settings_for(fake: FakeOpenProject, token: str = SENTINEL, **overrides: Any) -> Settings:
    values: dict[str, Any] = {"backend": "openproject", "base_url": fake.base_url, "api_key": token}
    values.update(overrides)
    return Settings(**values)


async def call(settings: Settings, tool: str, arguments: dict[str, Any]) -> CallToolResult:
    app = Application(settings)
    try:
        async with Client(build_server(app.scope)) as client:
            return await client.call_tool(tool, arguments)
    finally:
        await app.aclose()


def assert_no_secret(*texts: str) -> None:
    for text in texts:
        for secret in SECRET_FORMS:
            assert secret not in text


async def test_a_bad_token_is_an_auth_error_never_an_empty_result(
    fake: FakeOpenProject, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    bad = "wrong-" + SENTINEL
    for tool, arguments in [
        ("openproject_search_work_packages", {"query": "checkout"}),
        ("openproject_search_meetings", {"query": "budget"}),
        ("openproject_search_wiki_pages", {"query": "onboarding"}),
        ("openproject_list_projects", {}),
    ]:
        result = await call(settings_for(fake, bad), tool, arguments)
        assert result.is_error, tool
        assert text_of(result).startswith("Error [OPENPROJECT_AUTH_ERROR]: ")
        assert bad not in text_of(result)
    assert bad not in caplog.text


async def test_429_is_retried_then_answered(fake: FakeOpenProject) -> None:
    fake.inject(Fault(429, r"/api/v3/projects$", times=1, retry_after="0"))
    result = await call(settings_for(fake, max_retries=2), "openproject_list_projects", {})
    assert not result.is_error
    assert sum(1 for r in fake.requests if r.path.endswith("/api/v3/projects")) == 2


async def test_429_after_the_retries_is_reported_with_the_wait(fake: FakeOpenProject) -> None:
    fake.inject(Fault(429, r"/api/v3/projects$", retry_after="0"))
    result = await call(settings_for(fake, max_retries=2), "openproject_list_projects", {})
    assert result.is_error and text_of(result).startswith("Error [OPENPROJECT_RATE_LIMIT]: ")
    assert sum(1 for r in fake.requests if r.path.endswith("/api/v3/projects")) == 3


async def test_a_long_retry_after_is_reported_at_once_with_the_wait(fake: FakeOpenProject) -> None:
    fake.inject(Fault(429, r"/api/v3/work_packages$", retry_after="3600"))
    result = await call(settings_for(fake), "openproject_search_work_packages", {"query": "checkout"})
    assert result.is_error and text_of(result).startswith("Error [OPENPROJECT_RATE_LIMIT]: ")
    assert "3600" in text_of(result)


async def test_a_500_on_one_enrichment_degrades_the_search_but_answers(fake: FakeOpenProject) -> None:
    fake.inject(Fault(500, r"/work_packages/110/activities$"))
    result = await call(settings_for(fake, max_retries=0), "openproject_search_work_packages", {"query": "newsletter"})
    assert not result.is_error, text_of(result)
    page = result.structured_content
    assert page is not None
    assert page["degraded"] is True and page["enrichmentFailures"] == 1
    assert any("could not be read in full" in note for note in page["notes"])
    assert page["elements"][0]["workPackage"]["id"] == 110  # still found, on its subject


async def test_a_403_during_enrichment_fails_the_whole_search(fake: FakeOpenProject) -> None:
    fake.inject(Fault(403, r"/activities$"))
    result = await call(settings_for(fake), "openproject_search_work_packages", {"query": "checkout"})
    assert result.is_error and text_of(result).startswith("Error [OPENPROJECT_FORBIDDEN]: ")


async def test_a_truncated_body_is_a_clear_error(fake: FakeOpenProject) -> None:
    fake.inject(Fault(200, r"/api/v3/projects$", body=b'{"_type": "Collection", "total": 3, "_embedd'))
    result = await call(settings_for(fake), "openproject_list_projects", {})
    assert result.is_error and text_of(result).startswith("Error [OPENPROJECT_SERVER_ERROR]: ")
    assert "could not be read" in text_of(result)


async def test_an_unreachable_instance_is_a_network_error(fake: FakeOpenProject) -> None:
    fake.inject(Fault(0, r"/api/v3/projects$"))
    result = await call(settings_for(fake, max_retries=0), "openproject_list_projects", {})
    assert result.is_error and text_of(result).startswith("Error [OPENPROJECT_NETWORK_ERROR]: ")


async def test_no_token_in_any_error_text_or_log_line(fake: FakeOpenProject, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    texts: list[str] = []
    for fault in (
        Fault(500, r"/api/v3/projects$"),
        Fault(404, r"/api/v3/projects$"),
        Fault(400, r"/api/v3/projects$"),
        Fault(0, r"/api/v3/projects$"),
        Fault(200, r"/api/v3/projects$", body=b"not json"),
    ):
        fake.clear()
        fake.inject(fault)
        result = await call(settings_for(fake, max_retries=0), "openproject_list_projects", {})
        assert result.is_error
        texts.append(text_of(result))
        texts.append(str(result.structured_content))
    assert_no_secret(*texts, caplog.text)


async def test_a_sub_path_install_works() -> None:
    async with FakeOpenProject({SENTINEL: served_dataset()}, prefix="/openproject") as fake:
        assert fake.base_url.endswith("/openproject/")
        result = await call(settings_for(fake), "openproject_get_project", {"projectId": "webshop"})
        assert not result.is_error, text_of(result)
        assert all(r.path.startswith("/openproject/api/v3/") for r in fake.requests)


async def test_one_search_never_floods_the_instance(fake: FakeOpenProject) -> None:
    slow = FakeOpenProject({SENTINEL: served_dataset()}, latency=0.02)
    async with slow:
        result = await call(settings_for(slow), "openproject_search_work_packages", {"query": "payment"})
        assert not result.is_error
        assert slow.max_in_flight <= 16  # OPENPROJECT_MAX_CONCURRENCY's default


async def test_the_instance_api_description_is_read_and_cached() -> None:
    spec = json.loads(shared_path("openproject-spec", "openproject-apiv3-17.3-stable.bundled.json").read_text())
    async with FakeOpenProject({SENTINEL: served_dataset()}, spec=spec) as fake:
        app = Application(settings_for(fake))
        try:
            async with Client(build_server(app.scope)) as client:
                summary = await client.call_tool("openproject_get_openapi_spec", {})
                path = await client.call_tool("openproject_get_openapi_spec", {"path": "/api/v3/meetings/{id}"})
        finally:
            await app.aclose()
    assert summary.structured_content is not None and path.structured_content is not None
    assert summary.structured_content["totalPaths"] == len(spec["paths"])
    assert "get" in path.structured_content["operations"]
    assert sum(1 for r in fake.requests if r.path.endswith("/api/v3/spec.json")) == 1


async def test_without_admin_rights_users_come_from_principals_with_a_note() -> None:
    async with FakeOpenProject({SENTINEL: served_dataset()}, non_admin_tokens={SENTINEL}) as fake:
        result = await call(settings_for(fake), "openproject_list_users", {"pageSize": 100})
    assert not result.is_error, text_of(result)
    data = result.structured_content
    assert data is not None and data["users"]
    assert any("principals" in note for note in data["notes"])
