"""All 19 tools against a mock that serves OpenProject's 17.3 OpenAPI document mechanically.

The mock (``tests.support.spec_mock``) knows only what the document says, so this shows what the
adapter asks of an instance beyond it. No tool may crash (a clean tool error is acceptable: the
document's examples are abbreviated and are not one consistent instance), the 19 calls together
stay under the request budget, and no request leaves the document, with two kinds of exception,
both declared in the endpoint registry and both bounded:

- a probe of an endpoint newer than 17.3 (the registry names the version that introduced it),
  which the mock answers 404 as a 17.3 instance does;
- a parameter OpenProject reads though the document does not list it (the registry gives the
  reason), refused with 400: each form of such a request (its endpoint, parameters, filter names
  and operators, sort keys) may be tried, but never again once a refusal of it has arrived.
"""

from __future__ import annotations

from collections import Counter

from mcp import Client

from openproject_mcp.adapters.mcp.server import build_server
from openproject_mcp.adapters.openproject.endpoints import endpoint_for
from openproject_mcp.composition import Application
from tests.contract.conftest import http_settings
from tests.support.conformance import rule_signature, spec_17_3
from tests.support.spec_mock import MockRequest, SpecMock
from tests.support.tool_calls import ONE_CALL_PER_TOOL, crash_of

REQUEST_BUDGET = 120
"""Fewer than this many upstream requests for one call of each of the 19 tools, caches cold."""


def excused(request: MockRequest, refused: dict[tuple[str, ...], float]) -> bool:
    """Whether an off-document request is one of the declared, bounded exceptions.

    ``refused`` holds, per form of request, when its first refusal was answered.
    """
    endpoint = endpoint_for(request.path.lstrip("/"))
    if endpoint is None:
        return False
    if endpoint.since is not None:
        return request.status == 404
    if request.status != 400 or not set(request.query) & set(endpoint.undocumented_params):
        return False
    form = (*rule_signature(endpoint, request.query), ",".join(sorted(request.query)))
    first = refused.setdefault(form, request.finished)
    return request.started <= first  # sent before any refusal of this form had arrived


async def test_all_19_tools_stay_on_the_17_3_document_without_crashing_and_within_budget() -> None:
    per_tool: Counter[str] = Counter()
    crashes: list[str] = []
    async with SpecMock(spec_17_3()) as mock:
        app = Application(http_settings(mock.base_url))
        try:
            async with Client(build_server(app.scope)) as client:
                for tool, arguments in ONE_CALL_PER_TOOL:
                    before = len(mock.requests)
                    crash = crash_of(tool, await client.call_tool(tool, arguments))
                    if crash:
                        crashes.append(crash)
                    per_tool[tool.removeprefix("openproject_")] = len(mock.requests) - before
        finally:
            await app.aclose()
    refused: dict[tuple[str, ...], float] = {}
    in_order = sorted(mock.off_spec(), key=lambda r: r.finished)
    off_document = [
        f"{r.method} {r.path}?{'&'.join(sorted(r.query))}: {r.why}" for r in in_order if not excused(r, refused)
    ]
    counts = ", ".join(f"{tool}={n}" for tool, n in per_tool.items())
    assert not crashes, "\n".join(crashes)
    assert not off_document, "\n".join(off_document)
    assert sum(per_tool.values()) < REQUEST_BUDGET, f"{sum(per_tool.values())} requests: {counts}"
