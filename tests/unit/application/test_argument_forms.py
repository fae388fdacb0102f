"""Argument forms at the use cases, over the in-memory adapters: a display id wherever a work
package is named, and a blank optional text that means what leaving it out means."""

from __future__ import annotations

from typing import Any

import pytest

from openproject_mcp.adapters.fixture.api_spec_repository import InMemoryApiSpecRepository
from openproject_mcp.adapters.fixture.dataset import Dataset, load_demo_dataset
from openproject_mcp.adapters.fixture.wiki_repositories import (
    InMemoryWikiPageLinkRepository,
    InMemoryWikiPageRepository,
)
from openproject_mcp.adapters.fixture.work_package_repository import InMemoryWorkPackageRepository
from openproject_mcp.application.api_spec import GetApiSpec, GetApiSpecRequest
from openproject_mcp.application.caching import TenantCaches, tenant_key
from openproject_mcp.application.wiki_knowledge import WikiReferences
from openproject_mcp.application.wiki_pages import ListWikiPageLinks, ListWikiPageLinksRequest
from openproject_mcp.domain.errors import InvalidArgumentError, NotFoundError


def wiki_page_links(dataset: Dataset) -> ListWikiPageLinks:
    return ListWikiPageLinks(
        InMemoryWikiPageLinkRepository(dataset),
        InMemoryWikiPageRepository(dataset),
        WikiReferences(TenantCaches(), "demo"),
        InMemoryWorkPackageRepository(dataset),
    )


async def test_wiki_page_links_take_a_display_id_as_get_work_package_does() -> None:
    dataset = load_demo_dataset()
    linked = next(iter(dataset.wiki_page_links.values())).work_package_id
    display_id = dataset.work_packages[linked].display_id
    assert display_id is not None
    use_case = wiki_page_links(dataset)
    by_id = await use_case.execute(ListWikiPageLinksRequest(linked))
    assert by_id.links
    for spelling in (display_id, display_id.lower(), f" {display_id} ", f"#{linked}", f" {linked} "):
        assert await use_case.execute(ListWikiPageLinksRequest(spelling)) == by_id, spelling
    with pytest.raises(NotFoundError):
        await use_case.execute(ListWikiPageLinksRequest("NOPE-1"))
    with pytest.raises(InvalidArgumentError, match=r"such as 101.*such as DEMO-38"):
        await use_case.execute(ListWikiPageLinksRequest("page 3"))


SPEC: dict[str, Any] = {
    "openapi": "3.1.0",
    "info": {"title": "OpenProject API V3 (Stable)", "version": "3"},
    "paths": {
        "/api/v3": {"get": {"tags": ["Root"], "summary": "View root"}},
        "/api/v3/projects": {"get": {"tags": ["Projects"], "summary": "List projects"}},
    },
    "components": {"schemas": {"ProjectModel": {"type": "object"}}},
}


@pytest.mark.parametrize(
    "arguments",
    [
        {"path": "   "},
        {"tag": " "},
        {"schema": "\t"},
        {"path": " ", "tag": "", "schema": "  "},
    ],
    ids=repr,
)
async def test_a_blank_path_tag_or_schema_asks_for_the_summary_as_none_does(arguments: dict[str, str]) -> None:
    use_case = GetApiSpec(InMemoryApiSpecRepository(SPEC), TenantCaches(), tenant_key("i", "t"))
    summary = await use_case.execute(GetApiSpecRequest())
    assert summary.available_paths
    blank = GetApiSpecRequest(path=arguments.get("path"), tag=arguments.get("tag"), schema=arguments.get("schema"))
    assert await use_case.execute(blank) == summary


async def test_a_blank_choice_does_not_count_against_the_one_that_is_given() -> None:
    use_case = GetApiSpec(InMemoryApiSpecRepository(SPEC), TenantCaches(), tenant_key("i", "t"))
    projects = await use_case.execute(GetApiSpecRequest(path="projects"))
    assert projects.path == "/api/v3/projects"
    assert await use_case.execute(GetApiSpecRequest(path=" projects ", tag="  ")) == projects
    tagged = await use_case.execute(GetApiSpecRequest(tag="Projects"))
    assert await use_case.execute(GetApiSpecRequest(path="   ", tag="Projects")) == tagged
