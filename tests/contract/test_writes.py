"""The write tools through a real MCP client, on every backend: the in-memory demo and the fake
OpenProject in each version's profile (whose requests, bodies included, are then checked against
the 17.3 document and the version's rules by the ``backend`` fixture).

Each test starts from the demo dataset as loaded: writes stay in that backend's process (the
fixture) or in the fake's tenant, and never leak into another test.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import pytest
from mcp import Client
from mcp.types import CallToolResult

from openproject_mcp.adapters.mcp.server import build_server
from tests.contract.conftest import Backend

WRITE_METHODS = ("POST", "PATCH")


def text_of(result: CallToolResult) -> str:
    return "\n".join(getattr(c, "text", "") for c in result.content)


def data_of(result: CallToolResult) -> dict[str, Any]:
    assert not result.is_error, text_of(result)
    assert isinstance(result.structured_content, dict)
    return result.structured_content


def error_of(result: CallToolResult, code: str) -> str:
    text = text_of(result)
    assert result.is_error and text.startswith(f"Error [{code}]: "), text
    return text


@asynccontextmanager
async def session(backend: Backend) -> AsyncIterator[Client]:
    if backend.dataset is None:
        pytest.skip("the write checks change data: never against a live instance")
    async with Client(build_server(backend.app.scope)) as client:
        yield client


def writes_sent(backend: Backend) -> list[str]:
    """The write requests the fake received (none for the in-memory backend)."""
    if backend.fake is None:
        return []
    return [f"{r.method} {r.path}" for r in backend.fake.requests if r.method in WRITE_METHODS]


def saves_sent(backend: Backend) -> list[str]:
    """Write requests that are not forms: what could have changed something."""
    return [w for w in writes_sent(backend) if not w.endswith("/form")]


async def test_a_created_work_package_is_there_for_the_next_read(backend: Backend) -> None:
    async with session(backend) as client:
        created = data_of(
            await client.call_tool(
                "openproject_create_work_package",
                {
                    "projectId": "webshop",
                    "subject": "Basket badge shows a stale count",
                    "type": "bug",
                    "priority": "HIGH",
                    "assignee": "Jose Alvarez",
                    "description": "Seen after **removing** an item.",
                    "startDate": "2026-12-01",
                    "dueDate": "2026-12-04",
                },
            )
        )
        assert created["saved"] and created["accepted"] and not created["dryRun"]
        new = created["workPackage"]
        read = data_of(await client.call_tool("openproject_get_work_package", {"workPackageId": new["id"]}))
        assert read["subject"] == "Basket badge shows a stale count"
        assert (read["type"], read["status"], read["priority"]) == ("Bug", "New", "High")
        assert read["assignee"]["name"] == "José Álvarez"
        assert read["description"] == "Seen after **removing** an item."
        assert (read["startDate"], read["dueDate"]) == ("2026-12-01", "2026-12-04")
        assert {c["field"] for c in created["changes"]} >= {"subject", "type", "priority", "assignee"}
        if backend.fake is not None:  # validated by the form first, then created once
            assert writes_sent(backend) == [
                "POST /api/v3/projects/1/work_packages/form",
                "POST /api/v3/projects/1/work_packages",
            ]


async def test_status_and_assignee_by_name_then_a_stale_lock_version_is_a_conflict(backend: Backend) -> None:
    async with session(backend) as client:
        before = data_of(await client.call_tool("openproject_get_work_package", {"workPackageId": 104}))
        updated = data_of(
            await client.call_tool(
                "openproject_update_work_package",
                {"workPackageId": 104, "status": "in PROGRESS", "assignee": "jalvarez", "percentageDone": 30},
            )
        )
        assert updated["saved"]
        assert updated["workPackage"]["status"] == "In progress"
        assert updated["workPackage"]["assignee"]["name"] == "José Álvarez"
        assert {"field": "status", "before": before["status"], "after": "In progress"} in updated["changes"]
        stale = updated["lockVersion"] - 1
        conflict = error_of(
            await client.call_tool(
                "openproject_update_work_package",
                {"workPackageId": 104, "lockVersion": stale, "subject": "Overwritten"},
            ),
            "OPENPROJECT_CONFLICT",
        )
        assert "Status changed from New to In progress" in conflict, conflict  # who changed what since
        assert "Lena Müller" in conflict and "not saved" in conflict
        after = data_of(await client.call_tool("openproject_get_work_package", {"workPackageId": 104}))
        assert after["subject"] == before["subject"] and after["status"] == "In progress"
        if backend.fake is not None:  # the conflict was not retried
            assert saves_sent(backend).count("PATCH /api/v3/work_packages/104") == 2


async def test_a_transition_the_workflow_forbids_is_refused_with_openprojects_message(backend: Backend) -> None:
    async with session(backend) as client:
        # Work package 103 is a Bug "In progress"; the demo's Bug workflow goes on to "In testing" only.
        refused = error_of(
            await client.call_tool("openproject_update_work_package", {"workPackageId": 103, "status": "Closed"}),
            "INVALID_ARGUMENT",
        )
        assert "status: Status is invalid because no valid transition exists from old to new status" in refused
        read = data_of(await client.call_tool("openproject_get_work_package", {"workPackageId": 103}))
        assert read["status"] == "In progress"
        assert saves_sent(backend) == []  # the form refused it: no PATCH was sent
        allowed = data_of(
            await client.call_tool("openproject_update_work_package", {"workPackageId": 103, "status": "In testing"})
        )
        assert allowed["workPackage"]["status"] == "In testing"


async def test_a_dry_run_shows_the_change_and_changes_nothing(backend: Backend) -> None:
    async with session(backend) as client:
        before = data_of(await client.call_tool("openproject_get_work_package", {"workPackageId": 104}))
        preview = data_of(
            await client.call_tool(
                "openproject_update_work_package",
                {
                    "workPackageId": 104,
                    "status": "Confirmed",
                    "assignee": "me",
                    "dueDate": "2027-02-01",
                    "dryRun": True,
                },
            )
        )
        assert preview["dryRun"] and preview["accepted"] and not preview["saved"]
        assert {"field": "status", "before": "New", "after": "Confirmed"} in preview["changes"]
        assert {"field": "assignee", "before": before["assignee"]["name"], "after": "Lena Müller"} in preview["changes"]
        refused = data_of(
            await client.call_tool(
                "openproject_update_work_package",
                {"workPackageId": 103, "status": "Closed", "dryRun": True},
            )
        )
        assert not refused["accepted"] and refused["validationErrors"][0]["field"] == "status"
        after = data_of(await client.call_tool("openproject_get_work_package", {"workPackageId": 104}))
        assert after == before
        assert saves_sent(backend) == []


async def test_an_unknown_or_ambiguous_name_lists_valid_values_before_anything_is_sent(backend: Backend) -> None:
    async with session(backend) as client:
        unknown = error_of(
            await client.call_tool("openproject_update_work_package", {"workPackageId": 104, "status": "Clsoed"}),
            "INVALID_ARGUMENT",
        )
        assert "Closed (12)" in unknown and "'Clsoed'" in unknown
        nobody = error_of(
            await client.call_tool(
                "openproject_update_work_package", {"workPackageId": 104, "assignee": "Lena Mueler"}
            ),
            "INVALID_ARGUMENT",
        )
        assert "Lena Müller (3)" in nobody
        activity = error_of(
            await client.call_tool("openproject_log_time", {"workPackageId": 104, "hours": 1, "activity": "Coding"}),
            "INVALID_ARGUMENT",
        )
        assert "Development (3)" in activity
        assert writes_sent(backend) == [] or all(w.endswith("/time_entries/form") for w in writes_sent(backend))
        assert saves_sent(backend) == []


async def test_logged_time_is_listed_with_the_total(backend: Backend) -> None:
    async with session(backend) as client:
        first = data_of(
            await client.call_tool(
                "openproject_log_time",
                {
                    "workPackageId": 104,
                    "hours": "PT1H30M",
                    "spentOn": "2026-11-30",
                    "activity": "testing",
                    "comment": "QA",
                },
            )
        )
        assert first["saved"] and first["timeEntry"]["hours"] == 1.5 and first["activity"] == "Testing"
        data_of(
            await client.call_tool(
                "openproject_log_time", {"workPackageId": "SHOP-4" if backend.has("17.5") else 104, "hours": 0.75}
            )
        )
        preview = data_of(
            await client.call_tool("openproject_log_time", {"workPackageId": 104, "hours": 8, "dryRun": True})
        )
        assert preview["dryRun"] and preview["accepted"] and not preview["saved"]
        listed = data_of(await client.call_tool("openproject_list_time_entries", {"workPackageId": 104}))
        assert listed["total"] == 2 and listed["totalHours"] == 2.25
        assert [e["hours"] for e in listed["timeEntries"]] == [1.5, 0.75]
        assert listed["timeEntries"][0]["activity"] == "Testing" and listed["timeEntries"][0]["comment"] == "QA"
        assert listed["timeEntries"][0]["workPackage"]["id"] == 104
        paged = data_of(await client.call_tool("openproject_list_time_entries", {"workPackageId": 104, "pageSize": 1}))
        assert paged["count"] == 1 and paged["hasMore"] and paged["totalHours"] == 2.25
        ranged = data_of(
            await client.call_tool(
                "openproject_list_time_entries", {"projectId": "webshop", "from": "2026-09-01", "to": "2026-09-30"}
            )
        )
        assert {e["id"] for e in ranged["timeEntries"]} == {901, 902} and ranged["totalHours"] == 4.0
        mine = data_of(await client.call_tool("openproject_list_time_entries", {"workPackageId": 104, "user": "me"}))
        assert mine["total"] == 2


async def test_a_comment_is_found_by_the_next_search(backend: Backend) -> None:
    async with session(backend) as client:
        # A first search fills the cache of comments; the comment must still be found right after.
        before = data_of(await client.call_tool("openproject_search_work_packages", {"query": "quokkaberry"}))
        assert before["total"] == 0
        warm = data_of(await client.call_tool("openproject_search_work_packages", {"query": "wishlist"}))
        assert warm["elements"]
        added = data_of(
            await client.call_tool(
                "openproject_add_work_package_comment",
                {"workPackageId": 104, "comment": "We agreed on the **quokkaberry** rollout for the wishlist."},
            )
        )
        assert added["workPackageId"] == 104 and added["activity"]["isComment"]
        assert added["activity"]["user"]["name"] == "Lena Müller" and added["internal"] is False
        found = data_of(await client.call_tool("openproject_search_work_packages", {"query": "quokkaberry"}))
        assert [e["workPackage"]["id"] for e in found["elements"]][:1] == [104]
        timeline = data_of(await client.call_tool("openproject_list_work_package_activities", {"workPackageId": 104}))
        assert timeline["activities"][-1]["comment"] == "We agreed on the **quokkaberry** rollout for the wishlist."
        internal = data_of(
            await client.call_tool(
                "openproject_add_work_package_comment",
                {"workPackageId": "SHOP-4" if backend.has("17.5") else 104, "comment": "Budget note", "internal": True},
            )
        )
        assert internal["internal"] is True


def requests_sent(backend: Backend) -> int:
    """How many requests the fake has received so far (none for the in-memory backend)."""
    return 0 if backend.fake is None else len(backend.fake.requests)


async def test_an_update_based_on_an_older_read_is_a_conflict_not_a_lost_update(backend: Backend) -> None:
    """Two people read work package 104; one saves; the other's update, carrying the lockVersion
    of the read it was based on, is refused and the first change is kept."""
    async with session(backend) as client:
        read = data_of(await client.call_tool("openproject_get_work_package", {"workPackageId": 104}))
        assert isinstance(read["lockVersion"], int)
        resource = await client.read_resource("openproject://work-packages/104")
        assert f'"lockVersion":{read["lockVersion"]}' in getattr(resource.contents[0], "text", "").replace(" ", "")
        first = data_of(
            await client.call_tool(
                "openproject_update_work_package", {"workPackageId": 104, "description": "Steps, by the first one."}
            )
        )
        assert first["lockVersion"] == first["workPackage"]["lockVersion"] == read["lockVersion"] + 1
        late = error_of(
            await client.call_tool(
                "openproject_update_work_package",
                {"workPackageId": 104, "lockVersion": read["lockVersion"], "description": "Steps, by the second."},
            ),
            "OPENPROJECT_CONFLICT",
        )
        assert "not saved" in late
        after = data_of(await client.call_tool("openproject_get_work_package", {"workPackageId": 104}))
        assert after["description"] == "Steps, by the first one."


async def test_a_lock_version_no_read_gave_is_refused_before_anything_is_sent(backend: Backend) -> None:
    async with session(backend) as client:
        current = data_of(await client.call_tool("openproject_get_work_package", {"workPackageId": 104}))
        ahead = error_of(
            await client.call_tool(
                "openproject_update_work_package",
                {"workPackageId": 104, "lockVersion": current["lockVersion"] + 5, "subject": "x"},
            ),
            "INVALID_ARGUMENT",
        )
        assert f"lockVersion {current['lockVersion'] + 5} is ahead" in ahead
        assert f"current one ({current['lockVersion']})" in ahead and "Nothing was sent" in ahead
        assert writes_sent(backend) == []


async def test_an_update_giving_the_values_it_has_sends_nothing(backend: Backend) -> None:
    async with session(backend) as client:
        current = data_of(await client.call_tool("openproject_get_work_package", {"workPackageId": 104}))
        same = data_of(
            await client.call_tool(
                "openproject_update_work_package",
                {"workPackageId": 104, "status": current["status"].upper(), "subject": current["subject"]},
            )
        )
        assert same["saved"] is False and same["accepted"] is True and same["changes"] == []
        assert same["lockVersion"] == current["lockVersion"]
        assert any("nothing was sent" in note for note in same["notes"]), same
        assert writes_sent(backend) == []
        again = data_of(await client.call_tool("openproject_get_work_package", {"workPackageId": 104}))
        assert again["lockVersion"] == current["lockVersion"]


@pytest.mark.parametrize(
    ("tool", "arguments", "argument"),
    [
        ("openproject_create_work_package", {"projectId": "webshop", "subject": "\u200b"}, "subject"),
        ("openproject_create_work_package", {"projectId": "webshop", "subject": " \u2060\ufeff "}, "subject"),
        ("openproject_update_work_package", {"workPackageId": 104, "subject": "\u200d\t"}, "subject"),
        ("openproject_add_work_package_comment", {"workPackageId": 104, "comment": "\u200b\u200e"}, "comment"),
        ("openproject_update_work_package", {"workPackageId": 104}, "Nothing to change"),
        ("openproject_update_work_package", {"workPackageId": 104, "dueDate": "2026-02-30"}, "dueDate"),
        ("openproject_log_time", {"workPackageId": 104, "hours": 0.0001}, "less than a second"),
    ],
)
async def test_what_needs_no_lookup_is_refused_before_any_request(
    backend: Backend, tool: str, arguments: dict[str, Any], argument: str
) -> None:
    async with session(backend) as client:
        before = requests_sent(backend)
        refused = error_of(await client.call_tool(tool, arguments), "INVALID_ARGUMENT")
        assert argument in refused
        assert requests_sent(backend) == before, "no request for an argument that can be judged as it is"


async def test_hours_are_kept_to_the_second_on_every_backend(backend: Backend) -> None:
    async with session(backend) as client:
        logged = data_of(
            await client.call_tool("openproject_log_time", {"workPackageId": 104, "hours": 0.123456, "dryRun": False})
        )
        assert logged["hours"] == pytest.approx(444 / 3600)  # 0.123456 h is 444.4 seconds


async def test_a_long_description_is_written_whole_and_shown_cut(backend: Backend) -> None:
    description = "A long report. " * 2_000  # 30,000 characters
    async with session(backend) as client:
        created = data_of(
            await client.call_tool(
                "openproject_create_work_package",
                {"projectId": "webshop", "subject": "A long report", "description": description},
            )
        )
        change = next(c for c in created["changes"] if c["field"] == "description")
        assert change["truncated"] is True and len(change["after"]) <= 20_001
        assert created["workPackage"]["truncated"] is True
        if backend.fake is not None:  # sent whole: the cut is only in what is shown
            sent = [r.body for r in backend.fake.requests if r.method == "POST" and r.path.endswith("/work_packages")]
            assert sent and sent[-1]["description"]["raw"] == description
