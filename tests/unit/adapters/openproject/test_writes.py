"""The OpenProject write ports against the fake OpenProject: OpenProject's refusals become the core's
write errors, naming the field; sub-path installs get links under their path."""

from __future__ import annotations

from datetime import date

import pytest

from openproject_mcp.adapters.openproject.capabilities import CapabilityCache
from openproject_mcp.adapters.openproject.writes import (
    AiohttpTimeEntryRepository,
    AiohttpWorkPackageWriteRepository,
    work_package_body,
)
from openproject_mcp.application.writes import WritePolicy
from openproject_mcp.domain.errors import ConflictError, InvalidArgumentError, ReadOnlyError
from openproject_mcp.domain.writes import TimeEntryDraft, TimeEntryQuery, WorkPackageDraft
from tests.contract.conftest import served_dataset
from tests.support.fake_openproject import FakeOpenProject
from tests.unit.adapters.openproject.conftest import ClientMaker

TOKEN = "writes-unit-token-1"
ALLOW = WritePolicy(read_only=False)


async def test_a_422_without_the_form_names_each_field_and_a_409_is_a_conflict(make_client: ClientMaker) -> None:
    async with FakeOpenProject({TOKEN: served_dataset()}, profile="18.0") as fake:
        writes = AiohttpWorkPackageWriteRepository(await make_client(fake.base_url, TOKEN), ALLOW)
        with pytest.raises(InvalidArgumentError) as refused:
            await writes.create(
                1, WorkPackageDraft(subject="", start_date=date(2026, 12, 5), due_date=date(2026, 12, 1))
            )
        with pytest.raises(ConflictError) as conflict:
            await writes.update(104, 7, WorkPackageDraft(subject="x"))
    assert "Subject can't be blank." in refused.value.message
    assert "Finish date must be greater than or equal to the start date." in refused.value.message
    assert refused.value.status == 422 and "Nothing was saved" in (refused.value.hint or "")
    assert conflict.value.status == 409 and "changed since you've seen it" in conflict.value.message


async def test_the_form_reports_each_error_with_its_field(make_client: ClientMaker) -> None:
    async with FakeOpenProject({TOKEN: served_dataset()}, profile="17.3") as fake:
        writes = AiohttpWorkPackageWriteRepository(await make_client(fake.base_url, TOKEN), ALLOW)
        check = await writes.check_update(103, 0, WorkPackageDraft(subject=" ", status_id=12))
    assert [e.field for e in check.errors] == ["subject", "status"]
    assert not check.accepted


async def test_read_only_refuses_before_anything_is_sent(make_client: ClientMaker) -> None:
    async with FakeOpenProject({TOKEN: served_dataset()}, profile="18.0") as fake:
        client = await make_client(fake.base_url, TOKEN)
        writes = AiohttpWorkPackageWriteRepository(client, WritePolicy(read_only=True))
        entries = AiohttpTimeEntryRepository(client, WritePolicy(read_only=True), CapabilityCache())
        with pytest.raises(ReadOnlyError):
            await writes.add_comment(104, "x")
        with pytest.raises(ReadOnlyError):
            await entries.create(TimeEntryDraft(104, 1.0, date(2026, 12, 1)))
    assert fake.requests == []


async def test_the_time_entry_filter_form_is_learned_once_per_instance(make_client: ClientMaker) -> None:
    cache = CapabilityCache()
    async with FakeOpenProject({TOKEN: served_dataset()}, profile="16.6") as fake:
        for _ in range(2):
            entries = AiohttpTimeEntryRepository(await make_client(fake.base_url, TOKEN), ALLOW, cache)
            found = await entries.entries(TimeEntryQuery(work_package_id=103))
            assert [e.id for e in found] == [902] and found[0].work_package is not None
    refused = [r for r in fake.requests if r.status == 400]
    assert len(refused) == 1  # the entity form, tried once; the second call asked the older form directly


async def test_links_in_bodies_keep_a_sub_path(make_client: ClientMaker) -> None:
    client = await make_client("https://example.com/openproject/", TOKEN)
    body = work_package_body(client, WorkPackageDraft(status_id=7, assignee_id=3, estimated_hours=1.5), 2)
    assert body == {
        "lockVersion": 2,
        "estimatedTime": "PT1H30M",
        "_links": {
            "status": {"href": "/openproject/api/v3/statuses/7"},
            "assignee": {"href": "/openproject/api/v3/users/3"},
        },
    }
