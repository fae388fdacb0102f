"""Questions as assistants ask them, through the MCP tools on every search surface.

One small organisation is written for the purpose: per surface, a record answering each
question, and records holding only some of its words. Every case runs through the real MCP
client against the server, over the in-memory dataset backend (fixture mode) and over HTTP
against the fake OpenProject in the 17.3 and 18.0 profiles. On 17.3 meetings have no agenda
items or participants and wiki pages no bodies, so the answers there sit in titles; a case
that needs a deeper field says which profiles have it. Wiki pages have low ids because
instances without a page list are probed from id 1.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from mcp import Client

from openproject_mcp.adapters.fixture import load_dataset
from openproject_mcp.adapters.mcp.server import build_server
from openproject_mcp.composition import Application
from openproject_mcp.config import Settings
from tests.contract.conftest import TOKEN, http_settings
from tests.support.datasets import base_document, iso, work_package_row, write
from tests.support.fake_openproject import FakeOpenProject

WP, MEET, WIKI = "openproject_search_work_packages", "openproject_search_meetings", "openproject_search_wiki_pages"
MODES = ("fixture", "http-17.3", "http-18.0")
START = datetime(2026, 3, 2, 9, tzinfo=UTC)


def _work_package(wp_id: int, subject: str, description: str = "", comment: str = "") -> dict[str, Any]:
    return work_package_row(wp_id, subject, description, comment, START + timedelta(hours=wp_id))


def _meeting(
    meeting_id: int, title: str, *, author: int = 2, participants: tuple[int, ...] = (2,), outcome: str = ""
) -> dict[str, Any]:
    moment = START + timedelta(days=meeting_id - 200)
    return {
        "id": meeting_id,
        "project": 1,
        "title": title,
        "location": "Room A",
        "startTime": iso(moment),
        "endTime": iso(moment + timedelta(hours=1)),
        "state": "closed",
        "author": author,
        "participants": list(participants),
        "createdAt": iso(moment),
        "updatedAt": iso(moment),
        "agendaItems": [
            {
                "id": 5000 + meeting_id,
                "title": "Status round",
                "notes": "",
                "position": 1,
                "durationInMinutes": 10,
                "workPackage": None,
                "outcomes": [outcome] if outcome else [],
            }
        ],
    }


def _wiki(page_id: int, title: str, text: str = "") -> dict[str, Any]:
    return {"id": page_id, "project": 1, "title": title, "updatedAt": iso(START), "text": text or f"# {title}"}


def document() -> dict[str, Any]:
    doc = base_document()
    doc["users"] += [
        {"id": 3, "name": "Dana Design", "login": "ddesign", "email": "dana@example.com", "status": "active"},
        {"id": 4, "name": "Tom Team", "login": "tteam", "email": "tom@example.com", "status": "active"},
    ]
    doc["work_packages"] = [
        _work_package(1, "Hiring freeze for the backend team", comment="We reached a decision on the hiring freeze."),
        _work_package(2, "Hiring plan for Q1", "Open roles and interview slots."),
        _work_package(3, "Travel budget cut", "The board decided to cut the travel budget by ten percent."),
        _work_package(4, "Budget template", "Spreadsheet layout for the yearly budget."),
        _work_package(5, "Approval of Q3 budget", "Sign-off by finance."),
        _work_package(6, "Fees of the provider for payment", "Compare the old contract."),
        _work_package(7, "Payment provider fees review", "Quarterly check."),
        _work_package(8, "Raise maxConnections on the database pool", "The pool runs dry at peak."),
        _work_package(9, "E-mail bounces after the relay change", "Bounce handling for transactional mail."),
        _work_package(10, "Upgrade the client to v2.1.3", "Older line."),
        _work_package(11, "Upgrade the client to v2.3.1", "Current line."),
        _work_package(12, "Migrate the search index", "Reindex after the analyser change."),
    ]
    doc["meetings"] = [
        _meeting(201, "We reached a decision on the hiring freeze", outcome="The freeze holds until March."),
        _meeting(202, "Hiring committee"),
        _meeting(203, "Travel budget decided", outcome="The board decided to cut the travel budget."),
        _meeting(204, "Budget template walkthrough"),
        _meeting(205, "Approval of Q3 budget", author=1),
        _meeting(206, "Weekly sync", participants=(3, 4)),
        _meeting(207, "Payment provider fees review"),
        _meeting(208, "Fees of the provider for payment"),
    ]
    doc["wiki_pages"] = [
        _wiki(1, "Decision on the hiring freeze", "We reached a decision on the hiring freeze."),
        _wiki(2, "Hiring handbook", "How interviews run."),
        _wiki(3, "Budget decided for travel", "The board decided to cut the travel budget."),
        _wiki(4, "Budget template", "Spreadsheet layout."),
        _wiki(5, "Approval of Q3 budget", "Sign-off by finance."),
        _wiki(6, "Fees of the provider for payment", "Old contract."),
        _wiki(7, "Payment provider fees review", "Quarterly check."),
    ]
    return doc


@dataclass(frozen=True)
class Case:
    tool: str
    query: str
    first: int | None  # None: nothing may come back
    modes: tuple[str, ...] = MODES


CASES: tuple[Case, ...] = (
    # The seed's recall table, on every surface that holds its record.
    *(Case(tool, "budget aproval", first) for tool, first in ((WP, 5), (MEET, 205), (WIKI, 5))),
    *(Case(tool, "approval of the budget", first) for tool, first in ((WP, 5), (MEET, 205), (WIKI, 5))),
    # (Each surface also holds a record with "hiring" but no decision: 2, 202, wiki 2.)
    *(Case(tool, "what did we decide about hiring", first) for tool, first in ((WP, 1), (MEET, 201), (WIKI, 1))),
    Case(MEET, "meeting with the design team", 206, modes=("fixture", "http-18.0")),  # participants: 18.0
    Case(MEET, "muller", 205),
    # The README's examples: a question, and its words in either order.
    # (Each surface also holds a budget record without a decision: 4, 204, wiki 4.)
    *(
        Case(tool, query, first)
        for query in ("what did we decide about the budget?", "budget decision", "decide budget")
        for tool, first in ((WP, 3), (MEET, 203), (WIKI, 3))
    ),
    # A verbatim phrase above the same words reordered, though both hold every word exactly.
    # (6, 208 and wiki 6 hold the same words reordered, and have the lower ids.)
    *(Case(tool, "payment provider fees", first) for tool, first in ((WP, 7), (MEET, 207), (WIKI, 7))),
    # Technical spellings, both ways.
    Case(WP, "max connections", 8),
    Case(WP, "max_connections", 8),
    Case(WP, "email bounces", 9),
    Case(WP, "v2.3.1", 11),
    Case(WP, "2.1.3", 10),
    Case(WP, "migration of the search index", 12),
    Case(WP, "#9 relay change", 9),
    Case(WP, "#11 upgrade the client", 11),  # 10 holds the same words and the lower id
    # Nothing the organisation ever wrote.
    *(Case(tool, "blorptang quasimodal", None) for tool in (WP, MEET, WIKI)),
)


def _ids(tool: str, page: dict[str, Any]) -> list[int]:
    if tool == WP:
        return [element["workPackage"]["id"] for element in page["elements"]]
    if tool == MEET:
        return [element["meeting"]["id"] for element in page["elements"]]
    return [element["id"] for element in page["elements"]]


@asynccontextmanager
async def mcp_client(mode: str, dataset_path: Path) -> AsyncIterator[Client]:
    if mode == "fixture":
        app = Application(Settings(backend="dataset", dataset_path=dataset_path))
        try:
            async with Client(build_server(app.scope)) as client:
                yield client
        finally:
            await app.aclose()
        return
    async with FakeOpenProject({TOKEN: load_dataset(dataset_path)}, profile=mode.removeprefix("http-")) as fake:
        app = Application(http_settings(fake.base_url))
        try:
            async with Client(build_server(app.scope)) as client:
                yield client
        finally:
            await app.aclose()


async def _search(client: Client, tool: str, query: str) -> dict[str, Any]:
    arguments: dict[str, Any] = {"query": query}
    arguments["limit" if tool == WIKI else "pageSize"] = 50
    result = await client.call_tool(tool, arguments)
    assert not result.is_error, result.content
    assert isinstance(result.structured_content, dict)
    return result.structured_content


@pytest.mark.parametrize("mode", MODES)
async def test_questions_find_their_answer_first_on_every_surface(mode: str, tmp_path: Path) -> None:
    failures: list[str] = []
    async with mcp_client(mode, write(tmp_path, document())) as client:
        for case in CASES:
            if mode not in case.modes:
                continue
            ids = _ids(case.tool, await _search(client, case.tool, case.query))
            if case.first is None:
                if ids:
                    failures.append(f"{case.tool} {case.query!r}: expected nothing, got {ids}")
                continue
            if ids[:1] != [case.first]:
                failures.append(f"{case.tool} {case.query!r}: expected {case.first} first, got {ids[:5]}")
    assert failures == []


@pytest.mark.parametrize("mode", MODES)
async def test_a_word_no_record_holds_is_reported_and_does_not_sink_the_answer(mode: str, tmp_path: Path) -> None:
    async with mcp_client(mode, write(tmp_path, document())) as client:
        for tool, first in ((WP, 3), (MEET, 203), (WIKI, 3)):
            page = await _search(client, tool, "what did we decide about the zeppelin budget")
            assert _ids(tool, page)[:1] == [first], tool
            assert page["unmatchedTerms"] == ["zeppelin"], tool
            assert "unmatchedTerms" not in await _search(client, tool, "budget decision")


@pytest.mark.parametrize("mode", MODES)
async def test_a_stopword_query_matches_whole_words_only(mode: str, tmp_path: Path) -> None:
    async with mcp_client(mode, write(tmp_path, document())) as client:
        page = await _search(client, WP, "the")
        subjects = {wp["id"]: wp for wp in document()["work_packages"]}
        found = _ids(WP, page)
        assert found, "records holding the word 'the' are found"
        for wp_id in found:
            record = subjects[wp_id]
            words = " ".join([record["subject"], record["description"], record["activities"][0]["comment"]]).lower()
            assert "the" in words.replace(".", " ").replace(",", " ").split(), wp_id
