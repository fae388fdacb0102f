"""Every tool against a mock that serves OpenProject's 17.3 OpenAPI document mechanically.

The mock (``tests.support.spec_mock``) knows only what the document says, so this shows what the
adapter asks of an instance beyond it. No tool may crash (a clean tool error is acceptable: the
document's examples are abbreviated and are not one consistent instance), the 19 calls together
stay under the request budget, and no request leaves the document, with two kinds of exception,
both declared in the endpoint registry and both bounded:

- a probe of an endpoint newer than 17.3 (the registry names the version that introduced it),
  which the mock answers 404 as a 17.3 instance does;
- a parameter OpenProject reads though the document does not list it (the registry gives the
  reason), refused with 400: it may be tried in the call that first meets the refusal, and no
  later call may send it to that endpoint again.
"""

from __future__ import annotations

from collections import Counter

from mcp import Client

from openproject_mcp.adapters.mcp.server import build_server
from openproject_mcp.adapters.openproject.endpoints import endpoint_for
from openproject_mcp.application.search_wiki_pages import DiscoverySettings
from openproject_mcp.composition import Application
from tests.contract.conftest import http_settings
from tests.support.conformance import call_of, spec_17_3
from tests.support.spec_mock import MockRequest, SpecMock
from tests.support.tool_calls import ONE_CALL_PER_TOOL, crash_of

REQUEST_BUDGET = DiscoverySettings().cold_probes + 66
"""Fewer than this many upstream requests for one call of each tool, caches cold: the wiki
search's probes, and 66 for the other eighteen tools and the wiki search's other requests."""


def excused(request: MockRequest, call: int, refused: dict[tuple[str, str], int]) -> bool:
    """Whether an off-document request (sent by tool call number ``call``) is a declared, bounded exception.

    ``refused`` holds, per endpoint and parameter, the call that first met its refusal.
    """
    endpoint = endpoint_for(request.path.lstrip("/"))
    if endpoint is None:
        return False
    if endpoint.since is not None:
        return request.status == 404
    if request.status != 400 or not set(request.query) & set(endpoint.undocumented_params):
        return False
    unlisted = sorted(set(request.query) & set(endpoint.undocumented_params))
    return all(refused.setdefault((endpoint.template, name), call) == call for name in unlisted)


async def test_all_19_tools_stay_on_the_17_3_document_without_crashing_and_within_budget() -> None:
    per_tool: Counter[str] = Counter()
    crashes: list[str] = []
    call_starts: list[int] = []
    async with SpecMock(spec_17_3()) as mock:
        app = Application(http_settings(mock.base_url))
        try:
            async with Client(build_server(app.scope)) as client:
                for tool, arguments in ONE_CALL_PER_TOOL:
                    before = len(mock.requests)
                    call_starts.append(before)
                    crash = crash_of(tool, await client.call_tool(tool, arguments))
                    if crash:
                        crashes.append(crash)
                    per_tool[tool.removeprefix("openproject_")] = len(mock.requests) - before
        finally:
            await app.aclose()
    refused: dict[tuple[str, str], int] = {}
    off_document = [
        f"{r.method} {r.path}?{'&'.join(sorted(r.query))}: {r.why}"
        for index, r in enumerate(mock.requests)
        if r.off_spec and not excused(r, call_of(index, call_starts), refused)
    ]
    counts = ", ".join(f"{tool}={n}" for tool, n in per_tool.items())
    assert not crashes, "\n".join(crashes)
    assert not off_document, "\n".join(off_document)
    assert sum(per_tool.values()) < REQUEST_BUDGET, f"{sum(per_tool.values())} requests: {counts}"


WRITE_CALLS: tuple[tuple[str, dict[str, object]], ...] = (
    (
        "openproject_create_work_package",
        {"projectId": 1, "subject": "Checked first", "description": "*x*", "startDate": "2026-12-01", "dryRun": True},
    ),
    (
        "openproject_create_work_package",
        {"projectId": 1, "subject": "Created", "type": 1, "status": 1, "priority": 1, "assignee": 1, "parent": 2},
    ),
    (
        "openproject_update_work_package",
        {"workPackageId": 1, "lockVersion": 3, "subject": "Changed", "status": 1, "estimatedTime": "PT2H"},
    ),
    ("openproject_update_work_package", {"workPackageId": 1, "dueDate": "2027-01-31", "dryRun": True}),
    ("openproject_add_work_package_comment", {"workPackageId": 1, "comment": "A **note**", "internal": True}),
    ("openproject_log_time", {"workPackageId": 1, "hours": 1.5, "spentOn": "2026-12-01", "comment": "c"}),
    ("openproject_list_time_entries", {"workPackageId": 1, "from": "2026-01-01", "to": "2026-12-31"}),
    ("openproject_list_time_entries", {"projectId": 1, "user": "me"}),
)
"""Every write the adapter can send (and the time entry list), with ids the 17.3 document's examples have."""

UPDATED = 1528
"""The id of the work package the 17.3 document's example of ``GET /work_packages/{id}`` shows."""


async def test_every_write_request_matches_the_17_3_documents_path_method_and_body_schema() -> None:
    """The document's answers to writes are thin (an empty 201 to a comment, an empty 200 to the time
    entry form): those tools end in a clean error saying so, never a crash."""
    crashes: list[str] = []
    async with SpecMock(spec_17_3()) as mock:
        app = Application(http_settings(mock.base_url))
        try:
            async with Client(build_server(app.scope)) as client:
                for tool, arguments in WRITE_CALLS:
                    crash = crash_of(tool, await client.call_tool(tool, arguments))
                    if crash:
                        crashes.append(crash)
        finally:
            await app.aclose()
    writes = [r for r in mock.requests if r.method in ("POST", "PATCH")]
    assert not crashes, "\n".join(crashes)
    assert not [f"{r.method} {r.path}: {r.why}" for r in mock.requests if r.off_spec]
    sent = {(r.method, r.path) for r in writes}
    assert {
        ("POST", "/api/v3/projects/1/work_packages/form"),
        ("POST", "/api/v3/projects/1/work_packages"),
        ("POST", f"/api/v3/work_packages/{UPDATED}/form"),
        ("PATCH", f"/api/v3/work_packages/{UPDATED}"),
        ("POST", f"/api/v3/work_packages/{UPDATED}/activities"),
        ("POST", "/api/v3/time_entries/form"),
    } <= sent, sorted(sent)
    assert all(r.body is not None for r in writes)
    assert len(writes) == len(sent) + 2  # each sent once, the two work package forms twice (dry run, write)
