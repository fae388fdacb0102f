"""Wiki tools through the MCP server (a real ``mcp.Client``) against the fake OpenProject, per profile.

Released versions have no wiki page list and no page text; links arrived in 17.6. What each call
costs is counted on the fake's request log (the number of requests, never a time).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from mcp import Client
from mcp.types import CallToolResult

from openproject_mcp.adapters.fixture import Dataset, load_demo_dataset
from openproject_mcp.adapters.fixture.dataset import load_dataset
from openproject_mcp.adapters.mcp.server import build_server
from openproject_mcp.application.search_wiki_pages import DiscoverySettings
from openproject_mcp.composition import Application
from tests.contract.conftest import PROFILES, TOKEN, http_settings
from tests.support.datasets import base_document, write
from tests.support.fake_openproject import FakeOpenProject, Fault

# A cold call's probes, plus its few other requests (the project, the page links on 17.6+).
COLD = DiscoverySettings().cold_probes + 6
WARM = 2


def at_least(profile: str, version: str) -> bool:
    return tuple(map(int, profile.split("."))) >= tuple(map(int, version.split(".")))


@dataclass
class Session:
    client: Client
    fake: FakeOpenProject

    async def call(self, tool: str, arguments: dict[str, Any]) -> tuple[CallToolResult, int]:
        """The result, and how many requests OpenProject saw for it."""
        self.fake.clear()
        result = await self.client.call_tool(tool, arguments)
        return result, len(self.fake.requests)

    async def ok(self, tool: str, arguments: dict[str, Any]) -> tuple[dict[str, Any], int]:
        result, requests = await self.call(tool, arguments)
        assert not result.is_error, getattr(result.content[0], "text", "")
        assert isinstance(result.structured_content, dict)
        return result.structured_content, requests


@asynccontextmanager
async def session(dataset: Dataset, profile: str) -> AsyncIterator[Session]:
    async with FakeOpenProject({TOKEN: dataset}, profile=profile) as fake:
        app = Application(http_settings(fake.base_url))
        try:
            async with Client(build_server(app.scope)) as client:
                yield Session(client, fake)
        finally:
            await app.aclose()


def text_of(result: CallToolResult) -> str:
    return "\n".join(getattr(c, "text", "") for c in result.content)


@pytest.mark.parametrize("profile", PROFILES)
async def test_wiki_page_links_name_provider_type_and_page_or_the_version_needed(profile: str) -> None:
    demo = load_demo_dataset()
    async with session(demo, profile) as s:
        result, _ = await s.call("openproject_list_wiki_page_links", {"workPackageId": 116})
        if not at_least(profile, "17.6"):
            assert result.is_error and text_of(result).startswith("Error [OPENPROJECT_UNSUPPORTED]:")
            assert "17.6" in text_of(result)
            return
        assert not result.is_error, text_of(result)
        page = result.structured_content
        assert page is not None and page["total"] == 1
        [link] = page["links"]
        assert link["wikiPage"] == {"id": 304, "title": demo.wiki_pages[304].title}
        assert (link["provider"], link["providerId"], link["linkType"], link["identifier"]) == (
            "internal",
            "internal",
            "relation",
            "304",
        )
        assert link["workPackage"] == {"id": 116, "subject": demo.work_packages[116].subject}
        assert "url" not in link and "notes" not in page


def links_document() -> dict[str, Any]:
    document = base_document()
    document["wiki_pages"] = [{"id": 12, "project": 1, "title": "Release checklist"}]
    document["work_packages"] = [
        {
            "id": 1,
            "project": 1,
            "subject": "Release 3.0",
            "type": 1,
            "status": 1,
            "createdAt": "2026-01-01T00:00:00Z",
            "updatedAt": "2026-01-01T00:00:00Z",
        }
    ]
    document["wiki_page_links"] = [
        {"id": 1, "workPackage": 1, "wikiPage": 12, "provider": "Internal wiki", "providerId": "a1-uid"},
        {"id": 2, "workPackage": 1, "identifier": "Main.WebHome", "provider": "XWiki", "providerId": "x9-uid"},
        {"id": 3, "workPackage": 1, "identifier": "12", "provider": "XWiki", "providerId": "x9-uid"},
        {"id": 4, "workPackage": 1, "identifier": "99", "provider": "Internal wiki", "linkType": "inline"},
    ]
    return document


@pytest.mark.parametrize("profile", [p for p in PROFILES if at_least(p, "17.6")])
async def test_only_pages_of_openproject_own_wiki_are_resolved(profile: str, tmp_path: Path) -> None:
    dataset = load_dataset(write(tmp_path, links_document()))
    async with session(dataset, profile) as s:
        page, requests = await s.ok("openproject_list_wiki_page_links", {"workPackageId": 1})
    by_id = {link["id"]: link for link in page["links"]}
    assert by_id[1]["wikiPage"] == {"id": 12, "title": "Release checklist"}
    assert "wikiPage" not in by_id[2] and by_id[2]["identifier"] == "Main.WebHome"
    # XWiki showed a non-numeric identifier, so its numeric one is not taken for a page id.
    assert "wikiPage" not in by_id[3] and by_id[3]["provider"] == "XWiki"
    assert "wikiPage" not in by_id[4] and by_id[4]["linkType"] == "inline"  # page 99 does not exist
    assert page["notes"] and "1 links name a page" in page["notes"][0]
    assert requests == 1 + 2, "the list, then pages 12 and 99"


@pytest.mark.parametrize("profile", PROFILES)
async def test_a_wiki_page_whose_attachments_answer_404_is_returned_with_a_note(profile: str) -> None:
    async with session(load_demo_dataset(), profile) as s:
        s.fake.inject(Fault(404, r"/wiki_pages/301/attachments$"))
        result = await s.client.call_tool("openproject_get_wiki_page", {"id": 301})
        assert not result.is_error, text_of(result)
        page = result.structured_content
        assert page is not None and page["title"] == "Onboarding checklist" and page["attachments"] == []
        assert any("attachments could not be read" in n for n in page["notes"])
        assert "text" not in page and "wiki page text" in page["notes"][0]
        missing = await s.client.call_tool("openproject_get_wiki_page", {"id": 999})
        assert missing.is_error and text_of(missing).startswith("Error [OPENPROJECT_NOT_FOUND]:")


@pytest.mark.parametrize("profile", PROFILES)
async def test_wiki_search_with_pages_only_above_id_300(profile: str) -> None:
    demo = load_demo_dataset()  # pages 301-308
    async with session(demo, profile) as s:
        costs: list[int] = []
        for _ in range(10):
            page, requests = await s.ok("openproject_search_wiki_pages", {"query": "refund policy"})
            costs.append(requests)
            coverage = page["coverage"]
            if page["elements"]:
                break
            assert not coverage["complete"] and coverage["pagesFound"] == 0
            assert page["notes"][0].startswith("No wiki pages were found")
        assert page["elements"][0]["id"] == 305 and page["elements"][0]["matchedFields"] == ["title"]
        assert max(costs) <= COLD, costs
        if at_least(profile, "17.6"):
            assert len(costs) == 1, "the instance's wiki page links lead to the pages"
        assert any("only page titles were searched" in n for n in page["notes"])
        assert coverage["idsProbed"] >= coverage["pagesFound"] >= 1 and coverage["enriched"] == 0
        call = 0
        while not coverage["complete"]:
            call += 1
            page, requests = await s.ok("openproject_search_wiki_pages", {"query": f"topic {call}"})
            assert requests <= COLD and call < 12
            coverage = page["coverage"]
        assert coverage["pagesFound"] == len(demo.wiki_pages)
        listing, warm = await s.ok("openproject_search_wiki_pages", {})
        assert warm <= WARM and listing["total"] == len(demo.wiki_pages)
        _, warm = await s.ok("openproject_search_wiki_pages", {"query": "refund policy"})
        assert warm <= WARM
        scoped, warm = await s.ok("openproject_search_wiki_pages", {"query": "checklist", "projectId": "webshop"})
        assert warm <= WARM and [e["id"] for e in scoped["elements"]] == [301]


def wiki_of(tmp_path: Path, count: int) -> Dataset:
    """A wiki of ``count`` pages with ids 1..count."""
    document = base_document()
    document["wiki_pages"] = [{"id": i, "project": 1, "title": f"Runbook {i}"} for i in range(1, count + 1)]
    return load_dataset(write(tmp_path, document))


@pytest.mark.parametrize("profile", PROFILES)
@pytest.mark.parametrize("pages", [30, 300])
async def test_wiki_search_cost_cold_warm_and_growing(profile: str, pages: int, tmp_path: Path) -> None:
    async with session(wiki_of(tmp_path, pages), profile) as s:
        page, cold = await s.ok("openproject_search_wiki_pages", {"query": "runbook 7"})
        assert cold <= COLD
        _, repeat = await s.ok("openproject_search_wiki_pages", {"query": "runbook 7"})
        assert repeat <= WARM, "a repeated search is warm whatever the wiki's size"
        calls = 1
        while not page["coverage"]["complete"]:
            found = page["coverage"]["pagesFound"]
            page, requests = await s.ok("openproject_search_wiki_pages", {"query": f"runbook {calls}"})
            assert requests <= COLD and page["coverage"]["pagesFound"] >= found
            calls += 1
            assert calls <= pages // 40 + 2
        assert page["coverage"]["pagesFound"] == pages
        for _ in range(3):
            again, warm = await s.ok("openproject_search_wiki_pages", {"query": "runbook 7"})
            assert warm <= WARM and again["total"] == page["total"]
        if pages == 30:
            assert calls == 1, "a small wiki is covered by the first call"


async def test_a_large_wiki_costs_the_same_per_call(tmp_path: Path) -> None:
    async with session(wiki_of(tmp_path, 3000), PROFILES[-1]) as s:
        for call in range(3):
            page, requests = await s.ok("openproject_search_wiki_pages", {"query": f"runbook {call}"})
            assert requests <= COLD
            _, repeat = await s.ok("openproject_search_wiki_pages", {"query": f"runbook {call}"})
            assert repeat <= WARM
        coverage = page["coverage"]
        assert not coverage["complete"] and coverage["candidateLimitReached"]
        assert coverage["probedFrom"] == 1 and coverage["probedTo"] >= coverage["pagesFound"] - 3 * WARM >= 3 * 50
        assert any("another search goes on from there" in n for n in page["notes"])
