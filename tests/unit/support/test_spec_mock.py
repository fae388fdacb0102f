"""The mock built from the 17.3 document answers as the document says, and logs every verdict."""

from __future__ import annotations

import json
from typing import Any

import aiohttp
import pytest

from tests.support.conformance import spec_17_3
from tests.support.spec_mock import SpecMock, filter_forms

AUTH = {"Authorization": "Bearer some-token"}


async def get(mock: SpecMock, path: str, headers: dict[str, str] = AUTH, **query: str) -> tuple[int, Any]:
    async with (
        aiohttp.ClientSession(headers=headers) as session,
        session.get(mock.base_url + path.lstrip("/"), params=query) as response,
    ):
        return response.status, await response.json(content_type=None)


def example_of(path: str) -> Any:
    document = spec_17_3()
    media = document["paths"][path]["get"]["responses"]["200"]["content"]["application/hal+json"]
    ref = next(iter(media["examples"].values()))["$ref"].rsplit("/", 1)[-1]
    return document["components"]["examples"][ref]["value"]


@pytest.fixture
async def mock() -> Any:
    async with SpecMock(spec_17_3()) as served:
        yield served


async def test_documented_paths_answer_their_example(mock: SpecMock) -> None:
    status, body = await get(mock, "/api/v3/meetings/17")
    assert (status, body) == (200, example_of("/api/v3/meetings/{id}"))
    status, body = await get(mock, "/api/v3/statuses/2")
    assert status == 200 and body == example_of("/api/v3/statuses/{id}")
    status, _ = await get(mock, "/api/v3/work_packages/schemas/1-2")
    assert status == 200, "documented without a body: answered with nothing more than that"
    assert not mock.off_spec()


async def test_without_an_example_the_answer_is_the_schema_example_or_its_required_parts(mock: SpecMock) -> None:
    status, body = await get(
        mock, "/api/v3/users", filters=json.dumps([{"status": {"operator": "=", "values": ["active"]}}])
    )
    assert status == 200 and body["_type"] == "Collection" and "elements" in body["_embedded"]
    status, body = await get(mock, "/api/v3/spec.json")
    assert status == 200 and body["openapi"] == spec_17_3()["openapi"]


async def test_off_document_requests_are_refused_and_logged(mock: SpecMock) -> None:
    status, body = await get(mock, "/api/v3/meetings/3/agenda_items")
    assert status == 404 and body["errorIdentifier"].endswith(":NotFound")
    status, body = await get(mock, "/api/v3/statuses", pageSize="5")
    assert status == 400 and body["errorIdentifier"].endswith(":InvalidQuery")
    status, _ = await get(mock, "/api/v3/queries", filters=json.dumps([{"bogus": {"operator": "=", "values": ["1"]}}]))
    assert status == 400
    status, _ = await get(mock, "/api/v3/projects", headers={})
    assert status == 401
    assert [(r.status, r.off_spec) for r in mock.requests] == [(404, True), (400, True), (400, True), (401, False)]
    assert "pageSize" in (mock.requests[1].why or "") and "bogus" in (mock.requests[2].why or "")


async def test_paging_shown_in_the_documents_own_example_links_counts_as_documented(mock: SpecMock) -> None:
    status, _ = await get(mock, "/api/v3/projects", offset="2", pageSize="5")
    assert status == 200
    status, _ = await get(mock, "/api/v3/principals", pageSize="5")
    assert status == 400, "the document neither lists nor shows paging for principals"


async def test_filter_names_are_read_the_way_openproject_reads_them(mock: SpecMock) -> None:
    assert {"updatedAt", "updated_at"} <= filter_forms("updatedAt")
    assert "assigned_to" in filter_forms("assignee")
    listed = [{"status": {"operator": "o", "values": []}}, {"assignee": {"operator": "=", "values": ["me"]}}]
    status, _ = await get(mock, "/api/v3/work_packages", filters=json.dumps(listed))
    assert status == 200
    status, _ = await get(
        mock, "/api/v3/work_packages", filters=json.dumps([{"noSuchFilter": {"operator": "=", "values": []}}])
    )
    assert status == 400
