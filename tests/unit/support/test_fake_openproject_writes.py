"""The fake OpenProject's writes, as OpenProject answers them: forms, 409, 422 bodies, state per tenant."""

from __future__ import annotations

from typing import Any

import aiohttp

from openproject_mcp.adapters.fixture import Dataset
from tests.support.fake_openproject import FakeOpenProject, Fault
from tests.unit.support.fake_client import OTHER_TOKEN, TOKEN, ServeDemo, api_for, bearer

PREFIX = "urn:openproject-org:api:v3:errors:"


async def send(session: aiohttp.ClientSession, method: str, path: str, body: Any) -> tuple[int, Any]:
    async with session.request(method, path, json=body) as response:
        return response.status, await response.json(content_type=None)


async def test_the_update_form_validates_saves_nothing_and_never_conflicts(serve_demo: ServeDemo) -> None:
    async with serve_demo(profile="18.0") as (fake, api):
        body = {"lockVersion": 99, "subject": " ", "_links": {"status": {"href": "/api/v3/statuses/12"}}}
        status, form = await send(api.session, "POST", "api/v3/work_packages/103/form", body)
        read = await api.json("api/v3/work_packages/103")
    assert status == 200 and form["_type"] == "Form"
    assert form["_embedded"]["payload"] == body
    errors = form["_embedded"]["validationErrors"]
    assert set(errors) == {"subject", "status"}
    assert errors["subject"]["errorIdentifier"] == PREFIX + "PropertyConstraintViolation"
    assert errors["subject"]["_embedded"]["details"]["attribute"] == "subject"
    assert errors["status"]["message"].startswith("Status is invalid because no valid transition exists")
    assert read["_links"]["status"]["title"] == "In progress"
    assert fake.requests[0].body == body  # recorded as sent


async def test_a_stale_lock_version_is_a_409_with_openprojects_body_and_nothing_changes(serve_demo: ServeDemo) -> None:
    async with serve_demo(profile="17.3") as (_, api):
        status, error = await send(api.session, "PATCH", "api/v3/work_packages/104", {"lockVersion": 5, "subject": "x"})
        missing, _ = await send(api.session, "PATCH", "api/v3/work_packages/104", {"subject": "x"})
        ok, saved = await send(api.session, "PATCH", "api/v3/work_packages/104", {"lockVersion": 0, "subject": "New"})
        again, _ = await send(api.session, "PATCH", "api/v3/work_packages/104", {"lockVersion": 0, "subject": "Old"})
    assert (status, missing, ok, again) == (409, 409, 200, 409)
    assert error == {
        "_type": "Error",
        "errorIdentifier": PREFIX + "UpdateConflict",
        "message": "Your changes could not be saved, because the work package was changed since you've seen it "
        "the last time.",
    }
    assert saved["subject"] == "New" and saved["lockVersion"] == 1


async def test_a_refused_write_is_a_422_one_error_or_multiple_errors_embedded(serve_demo: ServeDemo) -> None:
    async with serve_demo(profile="18.0") as (_, api):
        one_status, one = await send(api.session, "POST", "api/v3/projects/1/work_packages", {"subject": ""})
        many_status, many = await send(
            api.session,
            "POST",
            "api/v3/projects/1/work_packages",
            {"subject": "", "startDate": "2026-12-05", "dueDate": "2026-12-01"},
        )
        listed = await api.json("api/v3/work_packages", {"filters": "[]", "pageSize": 1000})
    assert one_status == 422 and one["errorIdentifier"] == PREFIX + "PropertyConstraintViolation"
    assert one["message"] == "Subject can't be blank." and one["_embedded"]["details"] == {"attribute": "subject"}
    assert many_status == 422 and many["errorIdentifier"] == PREFIX + "MultipleErrors"
    attributes = [e["_embedded"]["details"]["attribute"] for e in many["_embedded"]["errors"]]
    assert attributes == ["subject", "dueDate"]
    assert listed["total"] == 30  # nothing was created


async def test_writes_change_the_tenants_own_data_only(demo: Dataset) -> None:
    async with FakeOpenProject({TOKEN: demo, OTHER_TOKEN: demo}, profile="18.0") as fake:
        async with api_for(fake) as api:
            status, _ = await send(
                api.session, "POST", "api/v3/work_packages/104/activities", {"comment": {"raw": "Hi"}}
            )
            mine = await api.json("api/v3/work_packages/104/activities")
        async with api_for(fake, bearer(OTHER_TOKEN)) as other:
            theirs = await other.json("api/v3/work_packages/104/activities")
    assert status == 201
    assert mine["total"] == theirs["total"] + 1
    assert all(not (a.comment or "").startswith("Hi") for a in demo.activities[104])  # the dataset itself is intact


async def test_a_fault_after_apply_loses_the_answer_but_the_write_happened(serve_demo: ServeDemo) -> None:
    async with serve_demo(profile="18.0") as (fake, api):
        fake.inject(Fault(502, r"/time_entries$", method="POST", after_apply=True))
        body = {"hours": "PT2H", "spentOn": "2026-12-01", "_links": {"entity": {"href": "/api/v3/work_packages/104"}}}
        status, _ = await send(api.session, "POST", "api/v3/time_entries", body)
        listed = await api.json("api/v3/time_entries", {"filters": '[{"entity_id":{"operator":"=","values":["104"]}}]'})
    assert status == 502
    assert listed["total"] == 1 and listed["_embedded"]["elements"][0]["hours"] == "PT2H"


async def test_before_the_entity_link_time_entries_are_filtered_by_work_package(serve_demo: ServeDemo) -> None:
    async with serve_demo(profile="16.6") as (_, api):
        refused = await api.get("api/v3/time_entries", {"filters": '[{"entity_id":{"operator":"=","values":["103"]}}]'})
        listed = await api.json(
            "api/v3/time_entries", {"filters": '[{"work_package":{"operator":"=","values":["103"]}}]'}
        )
    assert refused.status == 400 and refused.error == "InvalidQuery"
    element = listed["_embedded"]["elements"][0]
    assert "workPackage" in element["_links"] and "entity" not in element["_links"]
