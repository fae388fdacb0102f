"""openproject_get_instance against the fake OpenProject in every profile, as an admin and not.

What the root and ``/users/me`` show depends on who asks (S140–S142): the instance name to
everyone, the version and the ``admin`` flag to administrators only.
"""

from __future__ import annotations

import pytest
from mcp import Client

from openproject_mcp.adapters.fixture import load_demo_dataset
from openproject_mcp.adapters.mcp.server import build_server
from openproject_mcp.composition import Application
from tests.contract.conftest import DEMO, PROFILES, TOKEN, http_settings
from tests.support.fake_openproject import FakeOpenProject
from tests.support.fake_openproject.tenant import current_user_of


@pytest.mark.parametrize("admin", [True, False], ids=["admin", "non-admin"])
@pytest.mark.parametrize("profile", PROFILES)
async def test_the_instance_tool_names_the_instance_the_user_and_what_was_detected(profile: str, admin: bool) -> None:
    dataset = load_demo_dataset()
    me = current_user_of(dataset)
    assert me is not None
    async with FakeOpenProject({TOKEN: dataset}, profile=profile, non_admin_tokens=() if admin else (TOKEN,)) as fake:
        app = Application(http_settings(fake.base_url))
        try:
            async with Client(build_server(app.scope)) as client:
                result = await client.call_tool("openproject_get_instance", {})
        finally:
            await app.aclose()
        requested = {r.path for r in fake.requests}
    assert not result.is_error, result.content
    facts = result.structured_content
    assert facts is not None
    assert facts["name"] == dataset.instance_name
    assert facts["url"] == fake.base_url
    assert facts["currentUser"]["id"] == me.id and facts["currentUser"]["name"] == me.name
    assert {"/api/v3", "/api/v3/users/me"} <= requested
    capabilities = {c["feature"]: c["available"] for c in facts["capabilities"]}
    assert capabilities["agenda_items"] is fake.profile.agenda_items
    assert capabilities["wiki_page_links"] is fake.profile.wiki_page_links
    assert capabilities["display_ids"] is fake.profile.display_ids
    assert all(c["meaning"] for c in facts["capabilities"])
    if admin:
        assert facts["version"] == fake.profile.core_version
        assert facts["admin"] is True
        assert "notes" not in facts
    else:
        assert "version" not in facts and "admin" not in facts
        assert any("administrators only" in note for note in facts["notes"])


async def test_the_demo_names_its_dataset_and_version() -> None:
    app = Application(DEMO)
    async with Client(build_server(app.scope)) as client:
        result = await client.call_tool("openproject_get_instance", {})
    facts = result.structured_content
    dataset = load_demo_dataset()
    assert facts is not None and not result.is_error
    assert facts["name"] == dataset.instance_name and facts["version"] == dataset.instance_version
    assert "url" not in facts
    assert facts["currentUser"]["status"] == "active"


async def test_a_rejected_token_is_an_auth_error_not_an_anonymous_instance() -> None:
    async with FakeOpenProject({TOKEN: load_demo_dataset()}) as fake:
        app = Application(http_settings(fake.base_url, token="not-the-token"))
        try:
            async with Client(build_server(app.scope)) as client:
                result = await client.call_tool("openproject_get_instance", {})
        finally:
            await app.aclose()
    assert result.is_error
    text = "\n".join(getattr(c, "text", "") for c in result.content)
    assert text.startswith("Error [OPENPROJECT_AUTH_ERROR]") and "not-the-token" not in text
