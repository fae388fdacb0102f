"""The OpenProject write ports against the fake OpenProject: OpenProject's refusals become the core's
write errors, naming the field; a form is repeated like a read and a failed one saved nothing; a
write answered with a 5xx has an unknown outcome and is not sent again; sub-path installs get links
under their path."""

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
from openproject_mcp.domain.errors import (
    ConflictError,
    InvalidArgumentError,
    NetworkError,
    OpenProjectMcpError,
    ReadOnlyError,
    UpstreamServerError,
)
from openproject_mcp.domain.writes import TimeEntryDraft, TimeEntryQuery, WorkPackageDraft
from tests.contract.conftest import served_dataset
from tests.support.fake_openproject import FakeOpenProject, Fault
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


def sent(fake: FakeOpenProject, method: str, path: str) -> int:
    return sum(1 for r in fake.requests if r.method == method and r.path == path)


async def test_a_form_is_repeated_like_a_read_and_a_failed_one_says_nothing_was_saved(
    make_client: ClientMaker,
) -> None:
    async with FakeOpenProject({TOKEN: served_dataset()}, profile="17.8") as fake:
        client = await make_client(fake.base_url, TOKEN, timeout_seconds=0.5)
        writes = AiohttpWorkPackageWriteRepository(client, ALLOW)
        entries = AiohttpTimeEntryRepository(client, ALLOW, CapabilityCache())
        fake.inject(Fault(503, r"/work_packages/104/form$", method="POST", times=1))
        fake.inject(Fault(0, r"/work_packages/104/form$", method="POST", times=1))
        check = await writes.check_update(104, 0, WorkPackageDraft(subject="Checked twice"))
        retried = sent(fake, "POST", "/api/v3/work_packages/104/form")
        fake.inject(Fault(502, r"/projects/1/work_packages/form$", method="POST"))
        fake.inject(Fault(200, r"/time_entries/form$", method="POST", delay=1.5))  # past the timeout
        failures: list[OpenProjectMcpError] = []
        with pytest.raises(UpstreamServerError) as gateway:
            await writes.check_create(1, WorkPackageDraft(subject="Never saved"))
        with pytest.raises(NetworkError) as late:
            await entries.check(TimeEntryDraft(104, 1.0, date(2026, 12, 1)))
        failures += [gateway.value, late.value]
        dataset = fake.tenant(TOKEN).dataset
    assert check.accepted and retried == 3  # a 503, a dropped connection, then the answer
    assert sent(fake, "POST", "/api/v3/projects/1/work_packages/form") == 4  # 1 + 3 retries, as for a read
    assert sent(fake, "POST", "/api/v3/time_entries/form") == 1  # a timeout is not repeated, as for a read
    for error in failures:
        assert "Nothing was saved: the change was only being checked" in error.message, error.message
        assert "outcome is unknown" not in error.message and TOKEN not in error.message
        assert (error.hint or "").startswith("Trying again is safe.")
    assert all(wp.subject != "Never saved" for wp in dataset.work_packages.values())
    assert not [r for r in fake.requests if r.method != "GET" and not r.path.endswith("/form")]


async def test_a_write_answered_with_a_500_after_it_was_applied_is_outcome_unknown_and_sent_once(
    make_client: ClientMaker,
) -> None:
    async with FakeOpenProject({TOKEN: served_dataset()}, profile="17.8") as fake:
        client = await make_client(fake.base_url, TOKEN)
        writes = AiohttpWorkPackageWriteRepository(client, ALLOW)
        entries = AiohttpTimeEntryRepository(client, ALLOW, CapabilityCache())
        for path in (r"/work_packages/104/activities$", r"/time_entries$", r"/projects/1/work_packages$"):
            fake.inject(Fault(500, path, method="POST", after_apply=True))
        fake.inject(Fault(500, r"/work_packages/103$", method="PATCH", after_apply=True))
        lock_version = fake.tenant(TOKEN).dataset.work_packages[103].lock_version or 0
        failures: list[OpenProjectMcpError] = []
        for write in (
            writes.add_comment(104, "Posted once"),
            entries.create(TimeEntryDraft(104, 2.0, date(2026, 12, 1), comment="Logged once")),
            writes.create(1, WorkPackageDraft(subject="Created once")),
            writes.update(103, lock_version, WorkPackageDraft(subject="Updated once")),
        ):
            with pytest.raises(UpstreamServerError) as caught:
                await write
            failures.append(caught.value)
        dataset = fake.tenant(TOKEN).dataset
    for error in failures:
        assert error.status == 500 and "outcome is unknown" in error.message and "not sent again" in error.message
        assert (error.hint or "").startswith("Check the current state in OpenProject before trying again")
        assert "later" not in (error.hint or "") and TOKEN not in error.message
    writes_sent = [(r.method, r.path) for r in fake.requests if r.method != "GET" and not r.path.endswith("/form")]
    assert sorted(writes_sent) == [
        ("PATCH", "/api/v3/work_packages/103"),
        ("POST", "/api/v3/projects/1/work_packages"),
        ("POST", "/api/v3/time_entries"),
        ("POST", "/api/v3/work_packages/104/activities"),
    ]  # each once, though each was applied: which is why none may be repeated blindly
    assert [a.comment for a in dataset.activities[104]].count("Posted once") == 1
    assert [e.comment for e in dataset.time_entries.values()].count("Logged once") == 1
    assert dataset.work_packages[103].subject == "Updated once"


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
