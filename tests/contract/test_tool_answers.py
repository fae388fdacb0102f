"""Tool answers through the MCP server (a real in-process client, the server the composition root
builds) against the fake OpenProject: the API description by short paths, saved query filters by
name, and paging of the saved queries of one project."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from importlib import resources
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from mcp import Client
from mcp.types import CallToolResult

from openproject_mcp.adapters.fixture import Dataset, load_dataset, load_demo_dataset
from openproject_mcp.adapters.mcp.server import build_server
from openproject_mcp.composition import Application
from tests.conftest import shared_path
from tests.contract.conftest import PROFILES, TOKEN, http_settings
from tests.support.fake_openproject import FakeOpenProject

SPEC_FILE = ("openproject-spec", "openproject-apiv3-17.3-stable.bundled.json")


def text_of(result: CallToolResult) -> str:
    return "\n".join(getattr(c, "text", "") for c in result.content)


def data_of(result: CallToolResult) -> dict[str, Any]:
    assert not result.is_error, text_of(result)
    assert isinstance(result.structured_content, dict)
    return result.structured_content


@asynccontextmanager
async def mcp_client(dataset: Dataset, **fake_options: Any) -> AsyncIterator[tuple[Client, FakeOpenProject]]:
    async with FakeOpenProject({TOKEN: dataset}, **fake_options) as fake:
        app = Application(http_settings(fake.base_url))
        try:
            async with Client(build_server(app.scope)) as client:
                yield client, fake
        finally:
            await app.aclose()


# The API description by short paths ------------------------------------------------------------


@pytest.fixture(scope="module")
def spec() -> dict[str, Any]:
    document: dict[str, Any] = json.loads(shared_path(*SPEC_FILE).read_text())
    return document


@pytest.mark.parametrize(
    ("asked", "found"),
    [
        ("work_packages", "/api/v3/work_packages"),
        ("/work_packages", "/api/v3/work_packages"),
        ("/work_packages/", "/api/v3/work_packages"),
        ("api/v3/work_packages", "/api/v3/work_packages"),
        ("/API/V3/Work_Packages", "/api/v3/work_packages"),
        ("https://op.example.com/openproject/api/v3/work_packages?pageSize=5", "/api/v3/work_packages"),
        ("/work_packages/42", "/api/v3/work_packages/{id}"),
        ("work_packages/schemas", "/api/v3/work_packages/schemas"),
        ("/meetings/{meetingId}", "/api/v3/meetings/{id}"),
        ("wiki_pages/7/attachments", "/api/v3/wiki_pages/{id}/attachments"),
    ],
)
async def test_an_api_path_is_found_without_its_api_v3_prefix(spec: dict[str, Any], asked: str, found: str) -> None:
    assert found in spec["paths"]
    async with mcp_client(load_demo_dataset(), spec=spec) as (client, _):
        shown = data_of(await client.call_tool("openproject_get_openapi_spec", {"path": asked}))
    assert shown["path"] == found
    assert shown["operations"]["get"] == spec["paths"][found]["get"]


async def test_an_unknown_api_path_lists_the_close_ones(spec: dict[str, Any]) -> None:
    async with mcp_client(load_demo_dataset(), spec=spec) as (client, fake):
        result = await client.call_tool("openproject_get_openapi_spec", {"path": "/work_pakages"})
        nothing = await client.call_tool("openproject_get_openapi_spec", {"path": "zzqx"})
    assert result.is_error
    text = text_of(result)
    assert text.startswith("Error [OPENPROJECT_NOT_FOUND]:")
    assert "'/work_pakages'" in text and "Did you mean: /api/v3/work_packages," in text
    suggested = text.split("Did you mean: ", 1)[1].split("?", 1)[0].split(", ")
    assert 1 < len(suggested) <= 8 and all(path in spec["paths"] for path in suggested)
    assert nothing.is_error and "No path is close to it." in text_of(nothing)
    assert sum(1 for r in fake.requests if r.path.endswith("/spec.json")) == 1, "the document is read once"


# Saved query filters by name -------------------------------------------------------------------


@pytest.mark.parametrize("profile", PROFILES)
async def test_a_saved_query_shows_each_filter_by_its_api_name(profile: str) -> None:
    dataset = load_demo_dataset()
    async with mcp_client(dataset, profile=profile) as (client, fake):
        for query in dataset.queries.values():
            shown = data_of(await client.call_tool("openproject_get_query", {"queryId": query.id}))
            filters = shown["query"]["filters"]
            assert [(f["field"], f["operator"], f["values"]) for f in filters] == [
                (f.field, f.operator, list(f.values)) for f in query.filters
            ]
            # The fake names the filter the way OpenProject does: in _links.filter, with a label as name.
            fake.clear()
            async with fake_api(fake) as get:
                rendered = await get(f"api/v3/queries/{query.id}")
            for rendered_filter, expected in zip(rendered["filters"], query.filters, strict=True):
                assert rendered_filter["_links"]["filter"]["href"] == f"/api/v3/queries/filters/{expected.field}"
                assert rendered_filter["_type"].endswith("QueryFilter") and rendered_filter["name"]


@asynccontextmanager
async def fake_api(fake: FakeOpenProject) -> AsyncIterator[Any]:
    async with aiohttp.ClientSession(headers={"Authorization": f"Bearer {TOKEN}"}) as session:

        async def get(path: str) -> Any:
            async with session.get(fake.base_url + path) as response:
                assert response.status == 200
                return await response.json(content_type=None)

        yield get


# Saved queries of one project, paged -----------------------------------------------------------


def with_project_queries(tmp_path: Path, count: int) -> Dataset:
    """The demo dataset with ``count`` more saved queries in project 2 (and one more global one)."""
    document = json.loads(resources.files("openproject_mcp.adapters.fixture").joinpath("demo_dataset.json").read_text())
    first = max(q["id"] for q in document["queries"]) + 1
    for offset in range(count + 1):
        document["queries"].append(
            {
                "id": first + offset,
                "name": f"Checkout view {offset + 1}",
                "project": 2 if offset < count else None,
                "public": True,
                "starred": False,
                "filters": [{"status": {"operator": "o", "values": []}}],
                "sortBy": [["id", "asc"]],
                "columns": ["id", "subject"],
            }
        )
    path = tmp_path / "queries.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    return load_dataset(path)


@pytest.mark.parametrize("profile", PROFILES)
async def test_the_saved_queries_of_a_project_keep_page_size_and_offset(tmp_path: Path, profile: str) -> None:
    dataset = with_project_queries(tmp_path, 4)
    in_project = sorted(q.id for q in dataset.queries.values() if q.project is not None and q.project.id == 2)
    assert len(in_project) == 5
    async with mcp_client(dataset, profile=profile) as (client, _):
        pages = [
            data_of(
                await client.call_tool(
                    "openproject_list_queries", {"projectId": project, "pageSize": 2, "offset": offset}
                )
            )
            for project in (2, "checkout")
            for offset in (1, 2, 3)
        ]
        everywhere = data_of(await client.call_tool("openproject_list_queries", {"pageSize": 2, "offset": 2}))
    for by_id, by_identifier in zip(pages[:3], pages[3:], strict=True):
        assert by_id == by_identifier
    assert [(p["pageSize"], p["offset"], p["count"], p["total"], p["hasMore"]) for p in pages[:3]] == [
        (2, 1, 2, 5, True),
        (2, 2, 2, 5, True),
        (2, 3, 1, 5, False),
    ]
    assert [q["id"] for p in pages[:3] for q in p["queries"]] == in_project
    assert all(q["project"]["id"] == 2 for p in pages for q in p["queries"])
    assert (everywhere["pageSize"], everywhere["offset"], everywhere["count"]) == (2, 2, 2)
    assert everywhere["total"] == len(dataset.queries)
