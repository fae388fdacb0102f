"""Names and JSON values for arguments, through the MCP server on every backend.

A status, type or priority given by name reaches OpenProject as its id; a name that names
nothing is refused before any request. Filters sent as a JSON array answer as their text does.
"""

from __future__ import annotations

from typing import Any

from mcp import Client

from openproject_mcp.adapters.mcp.server import build_server
from tests.contract.conftest import Backend


async def _ok(client: Client, tool: str, arguments: dict[str, Any]) -> dict[str, Any]:
    result = await client.call_tool(tool, arguments)
    assert not result.is_error, getattr(result.content[0], "text", "")
    assert isinstance(result.structured_content, dict)
    return result.structured_content


async def test_names_and_json_values_answer_as_ids_and_json_text_do(backend: Backend) -> None:
    async with Client(build_server(backend.app.scope)) as client:
        statuses = (await _ok(client, "openproject_list_statuses", {}))["statuses"]
        priorities = (await _ok(client, "openproject_list_priorities", {}))["priorities"]
        priority = priorities[-1]
        for status in (s for s in statuses if not s["isClosed"]):
            by_id = await _ok(
                client,
                "openproject_list_work_packages",
                {
                    "status": status["id"],
                    "filters": f'[{{"priority":{{"operator":"!","values":["{priority["id"]}"]}}}}]',
                },
            )
            if by_id["workPackages"]:
                break
        assert by_id["workPackages"], "no open status has work packages to compare"
        by_name = await _ok(
            client,
            "openproject_list_work_packages",
            {
                "status": status["name"].upper(),
                "filters": [{"priority": {"operator": "!", "values": [priority["name"].lower()]}}],
            },
        )
        assert by_name == by_id
        assert all(w["status"] == status["name"] for w in by_name["workPackages"])
        assert all(w.get("priority") != priority["name"] for w in by_name["workPackages"])
        searched = await _ok(
            client, "openproject_search_work_packages", {"query": "checkout", "status": status["name"].lower()}
        )
        assert all(e["workPackage"]["status"] == status["name"] for e in searched["elements"])

        if backend.fake is not None:
            backend.fake.clear()
        refused = await client.call_tool("openproject_list_work_packages", {"status": "No such status"})
        assert refused.is_error
        text = getattr(refused.content[0], "text", "")
        assert text.startswith("Error [INVALID_ARGUMENT]") and status["name"] in text
        if backend.fake is not None:
            sent = [r for r in backend.fake.requests if "work_packages" in r.path]
            assert not sent, "a status that names nothing must be refused before the list is requested"
