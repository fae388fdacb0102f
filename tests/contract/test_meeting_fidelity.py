"""Meetings and users through the MCP server against the fake OpenProject, on every version profile.

Each profile plays what that OpenProject version does, including what it refuses (a time filter in
the other form, an unregistered sort key, a status name where numbers are expected): the tools must
answer correctly anyway, and honestly where a part could not be read.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from mcp import Client
from mcp.types import CallToolResult

from openproject_mcp.adapters.fixture import Dataset, load_demo_dataset
from openproject_mcp.adapters.fixture.dataset import load_dataset
from openproject_mcp.adapters.mcp.server import build_server
from openproject_mcp.composition import Application
from openproject_mcp.config import Settings
from tests.contract.conftest import PROFILES as PROFILE_NAMES
from tests.support.datasets import many_meetings, write
from tests.support.fake_openproject import PROFILES, FakeOpenProject, Fault, Profile

TOKEN = "meeting-fidelity-token-3c1f"
NOW = datetime(2026, 10, 1, tzinfo=UTC)
DECISION = "what did we decide about the printed catalogue"


def text_of(result: CallToolResult) -> str:
    return "\n".join(getattr(c, "text", "") for c in result.content)


class Session:
    """One application (one capability cache) and one MCP client over it."""

    def __init__(self, client: Client, fake: FakeOpenProject) -> None:
        self.client = client
        self.fake = fake

    async def call(self, tool: str, arguments: dict[str, Any]) -> CallToolResult:
        return await self.client.call_tool(tool, arguments)

    async def ok(self, tool: str, arguments: dict[str, Any]) -> dict[str, Any]:
        result = await self.call(tool, arguments)
        assert not result.is_error, text_of(result)
        content: dict[str, Any] | None = result.structured_content
        assert content is not None
        return content

    def requests_to(self, suffix: str) -> list[dict[str, str]]:
        return [r.query for r in self.fake.requests if r.path.endswith(suffix)]


@asynccontextmanager
async def session(
    profile: str | Profile, *, admin: bool = True, dataset: Dataset | None = None
) -> AsyncIterator[Session]:
    tenants = {TOKEN: dataset or load_demo_dataset()}
    non_admin = () if admin else (TOKEN,)
    async with FakeOpenProject(tenants, profile=profile, now=lambda: NOW, non_admin_tokens=non_admin) as fake:
        app = Application(Settings(backend="openproject", base_url=fake.base_url, api_key=TOKEN, max_retries=0))
        try:
            async with Client(build_server(app.scope)) as client:
                yield Session(client, fake)
        finally:
            await app.aclose()


def upcoming_and_past(dataset: Dataset) -> Iterator[tuple[str, list[int]]]:
    meetings = list(dataset.meetings.values())
    upcoming = sorted((m for m in meetings if m.start_time > NOW), key=lambda m: (m.start_time, m.id))
    past = sorted((m for m in meetings if m.start_time <= NOW), key=lambda m: (-m.start_time.timestamp(), m.id))
    yield "upcoming", [m.id for m in upcoming]
    yield "past", [m.id for m in past]


@pytest.mark.parametrize("profile", PROFILE_NAMES)
async def test_meeting_list_upcoming_and_past(profile: str) -> None:
    dataset = load_demo_dataset()
    async with session(profile, dataset=dataset) as s:
        for time, expected in upcoming_and_past(dataset):
            listed = await s.ok("openproject_list_meetings", {"time": time, "pageSize": 100})
            assert [m["id"] for m in listed["meetings"]] == expected, time
            assert listed["total"] == len(expected)
        # What the instance accepted is remembered: a later list costs one request.
        s.fake.clear()
        page = await s.ok("openproject_list_meetings", {"time": "upcoming", "pageSize": 2, "offset": 2})
        assert [m["id"] for m in page["meetings"]] == next(upcoming_and_past(dataset))[1][2:4]
        sent = s.requests_to("/api/v3/meetings")
        assert len(sent) == (1 if PROFILES[profile].meeting_sort_keys else len(sent))
        assert all("sortBy" not in q or '"id"' not in q["sortBy"] for q in sent)  # never an unregistered key


@pytest.mark.parametrize("profile", PROFILE_NAMES)
async def test_meeting_search(profile: str) -> None:
    played = PROFILES[profile]
    async with session(profile) as s:
        found = await s.ok("openproject_search_meetings", {"query": DECISION})
        titles = await s.ok("openproject_search_meetings", {"query": "quartely roadmap reveiw"})
    assert found["degraded"] is False and found.get("enrichmentFailures", 0) == 0
    assert [e["meeting"]["id"] for e in titles["elements"]][:2] == [201, 211]
    notes = " ".join(found.get("notes", []))
    if not played.agenda_items:
        assert "no agenda item API" in notes
    elif played.outcomes_embedded or played.meeting_outcomes_endpoint:
        assert found["elements"][0]["meeting"]["id"] == 203
        assert found["elements"][0]["matchType"] == "agenda_item"
        assert "outcomes" not in notes
    else:  # agenda items without outcomes: the search says what it could not read
        assert "decisions recorded as outcomes were not searched" in notes
    # The meetings `search` filter is in no release: the instance is never asked for it.
    assert "no agenda item API" not in notes or not played.agenda_items


@pytest.mark.parametrize("profile", PROFILE_NAMES)
async def test_an_old_meeting_is_found_by_a_participant_the_list_names(profile: str, tmp_path: Path) -> None:
    document = many_meetings(300)
    document["users"].append(
        {"id": 3, "name": "Søren Kvist", "login": "skvist", "email": "soren@example.com", "status": "active"}
    )
    document["meetings"][0]["participants"] = [1, 3]  # the oldest: its agenda is beyond the 25 reads
    async with session(profile, dataset=load_dataset(write(tmp_path, document))) as s:
        found = await s.ok("openproject_search_meetings", {"query": "Søren Kvist"})
    ids = [e["meeting"]["id"] for e in found["elements"]]
    if PROFILES[profile].meeting_participants:
        assert ids[:1] == [1]
        assert found["elements"][0]["matchType"] == "participant"
    else:  # the version has no participants: nothing else holds the name
        assert ids == []


@pytest.mark.parametrize("profile", PROFILE_NAMES)
async def test_an_acronym_no_meeting_holds_is_read_as_the_title_that_spells_it_out(
    profile: str, tmp_path: Path
) -> None:
    document = many_meetings(60)
    document["meetings"][1]["title"] = "KTL volumes"  # older: a tie puts it first
    document["meetings"][39]["title"] = "Quarterly business review with KTL"
    async with session(profile, dataset=load_dataset(write(tmp_path, document))) as s:
        found = await s.ok("openproject_search_meetings", {"query": "QBR with KTL"})
        plain = await s.ok("openproject_search_meetings", {"query": "qbr with KTL"})
    assert [e["meeting"]["id"] for e in found["elements"]][:1] == [40]
    assert any("'qbr' was also read as 'quarterly business review'" in n for n in found["notes"])
    # Not typed as an acronym: not read as one; both hold KTL alone and the older comes first.
    assert [e["meeting"]["id"] for e in plain["elements"]][:1] == [2]
    assert not any("also read as" in n for n in plain.get("notes") or [])


@pytest.mark.parametrize("profile", PROFILE_NAMES)
async def test_words_no_meeting_holds_are_read_as_the_acronym_a_title_writes(profile: str, tmp_path: Path) -> None:
    document = many_meetings(60)
    document["meetings"][1]["title"] = "VPN gateway review"  # older: a tie puts it first
    document["meetings"][39]["title"] = "MFA rollout for the VPN"
    async with session(profile, dataset=load_dataset(write(tmp_path, document))) as s:
        found = await s.ok("openproject_search_meetings", {"query": "multi-factor authentication for the vpn"})
    assert [e["meeting"]["id"] for e in found["elements"]][:1] == [40]
    assert any("'multi factor authentication' was also read as 'MFA'" in n for n in found["notes"])


@pytest.mark.parametrize("profile", PROFILE_NAMES)
async def test_user_list_as_a_non_admin_with_a_status(profile: str) -> None:
    dataset = load_demo_dataset()
    locked = sorted(u.id for u in dataset.users.values() if u.status == "locked")
    assert locked, "the demo dataset needs a locked user"
    async with session(profile, admin=False, dataset=dataset) as s:
        listed = await s.ok("openproject_list_users", {"status": "locked", "pageSize": 100})
        sent = s.requests_to("/api/v3/principals")
    assert sorted(u["id"] for u in listed["users"]) == locked
    assert any("principals" in n for n in listed["notes"])
    assert all('"status"' not in q["filters"] or '"3"' in q["filters"] for q in sent)


async def test_a_500_on_agenda_items_during_a_search_degrades_it() -> None:
    async with session("17.8") as s:
        s.fake.inject(Fault(500, r"/agenda_items$"))
        found = await s.ok("openproject_search_meetings", {"query": DECISION})
    assert found["degraded"] is True and found["enrichmentFailures"] > 0
    assert not any("no agenda item API" in n for n in found.get("notes", []))
    assert any("agenda items" in n for n in found["notes"])


@pytest.mark.parametrize(("status", "code"), [(401, "OPENPROJECT_AUTH_ERROR"), (403, "OPENPROJECT_FORBIDDEN")])
async def test_a_401_or_403_on_agenda_items_fails_the_search(status: int, code: str) -> None:
    async with session("17.8") as s:
        s.fake.inject(Fault(status, r"/agenda_items$"))
        result = await s.call("openproject_search_meetings", {"query": DECISION})
    assert result.is_error
    assert text_of(result).startswith(f"Error [{code}]")


async def test_a_failed_probe_is_neither_reported_nor_remembered_as_a_missing_feature() -> None:
    async with session("17.8") as s:
        s.fake.inject(Fault(500, r"/agenda_items$", times=3))
        first = await s.ok("openproject_search_meetings", {"query": DECISION})
        assert not any("no agenda item API" in n for n in first.get("notes", []))
        s.fake.clear()
        second = await s.ok("openproject_search_meetings", {"query": "printed catalogue decision"})
        meeting = await s.ok("openproject_get_meeting", {"id": 203})
    assert second["degraded"] is False
    assert second["elements"][0]["meeting"]["id"] == 203 and second["elements"][0]["matchType"] == "agenda_item"
    assert meeting["agendaItems"] and not any("not available" in n for n in meeting.get("notes", []))


@pytest.mark.parametrize("profile", ["17.3", "17.8"])
async def test_get_meeting_without_agenda_items_does_not_ask_for_them(profile: str) -> None:
    async with session(profile) as s:
        meeting = await s.ok("openproject_get_meeting", {"id": 203, "includeAgendaItems": False})
        asked = [r.path for r in s.fake.requests]
    assert meeting["id"] == 203 and "agendaItems" not in meeting
    assert not any("agenda_items" in path for path in asked)
    if PROFILES[profile].meeting_participants:
        assert [p["id"] for p in meeting["participants"]] == [8, 9, 3, 5]


@pytest.mark.parametrize("profile", ["17.5", "17.8", "18.0"])
async def test_backlog_items_are_not_shown_as_on_the_agenda(profile: str) -> None:
    async with session(profile) as s:
        meeting = await s.ok("openproject_get_meeting", {"id": 206})
    assert [i["id"] for i in meeting["agendaItems"]] == [914, 915, 916]
    assert [i["title"] for i in meeting["backlogItems"]] == ["Saved payment methods"]
    assert any("backlog" in n for n in meeting["notes"])


async def test_outcomes_are_followed_through_the_flat_endpoint_where_not_embedded() -> None:
    linked_only = replace(PROFILES["17.8"], name="17.8-outcomes-linked-only", outcomes_embedded=False)
    async with session(linked_only) as s:
        meeting = await s.ok("openproject_get_meeting", {"id": 203})
        followed = [r.path for r in s.fake.requests if "/meeting_outcomes/" in r.path]
    assert "48,000 EUR" in meeting["agendaItems"][0]["outcomes"][0]
    dataset = load_demo_dataset()
    expected = sum(len(i.outcomes) for i in dataset.meeting_details[203].agenda_items or ())
    assert len(followed) == expected  # one request per linked outcome, no more


async def test_outcomes_a_version_cannot_show_are_said_to_be_unknown() -> None:
    async with session("17.5") as s:
        meeting = await s.ok("openproject_get_meeting", {"id": 203})
    assert meeting["agendaItems"] and all(i["outcomes"] == [] for i in meeting["agendaItems"])
    assert any("outcomes" in n and "17.6" in n for n in meeting["notes"])
