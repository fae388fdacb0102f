"""Prompts read their independent sections at once: the rounds a prompt waits for, counted by the
fake OpenProject in lockstep mode (each round answered once the client goes quiet), so the count
does not depend on timing."""

from __future__ import annotations

import pytest
from mcp import Client

from openproject_mcp.adapters.fixture import load_demo_dataset
from openproject_mcp.adapters.mcp.server import build_server
from openproject_mcp.composition import Application
from tests.contract.conftest import TOKEN, http_settings
from tests.support.fake_openproject import FakeOpenProject, round_trips

QUIET = 0.05


@pytest.mark.parametrize(
    ("name", "arguments", "most"),
    [
        # The project, then its four lists together.
        ("project_status", {"project": "checkout"}, 2),
        # Both searches together (each: its lists, then the records read in depth), then the meetings found.
        ("what_did_we_decide", {"topic": "budget approval"}, 4),
        # The meeting, then its linked work packages with the series' past meetings, then the previous one.
        ("prepare_meeting", {"meeting": "209"}, 3),
    ],
)
async def test_a_prompt_reads_its_independent_sections_at_once(name: str, arguments: dict[str, str], most: int) -> None:
    dataset = load_demo_dataset()
    async with FakeOpenProject({TOKEN: dataset}, profile="18.0", lockstep=QUIET) as fake:
        app = Application(http_settings(fake.base_url))
        try:
            async with Client(build_server(app.scope)) as client:
                # What an instance accepts (capabilities, the meeting time filter's form) is learned
                # once per instance: done before counting.
                for time in ("upcoming", "past"):
                    await client.call_tool("openproject_list_meetings", {"pageSize": 1, "time": time})
                fake.clear()
                result = await client.get_prompt(name, arguments)
        finally:
            await app.aclose()
        requests = tuple(fake.requests)
    text = result.messages[0].content.text  # type: ignore[union-attr]
    assert "notRead" not in text, text[:2000]
    assert round_trips(requests) == fake.rounds
    assert fake.rounds <= most, sorted(r.path for r in requests)
