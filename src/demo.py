"""``make demo``: a short scripted session against the embedded demo data.

It starts the real server (``openproject-mcp serve --demo``) as a subprocess and talks to it
with the real MCP client over stdio, exactly as Claude Desktop or Cursor would.
"""

from __future__ import annotations

import shutil
import sys
import time
from pathlib import Path
from typing import Any

import anyio
from mcp import Client, StdioServerParameters

Step = tuple[str, str, dict[str, Any]]

STEPS: tuple[Step, ...] = (
    (
        "A meeting search with three typos",
        "openproject_search_meetings",
        {"query": "quartely roadmap reveiw"},
    ),
    (
        "A question answered from a meeting outcome (the search, then the meeting it found)",
        "openproject_search_meetings",
        {"query": "what did we decide about the printed catalogue"},
    ),
    (
        "A closed work package whose only mention of the word is in a comment",
        "openproject_search_work_packages",
        {"query": "honeypot"},
    ),
    (
        "A wiki page found by its body text, with accents and word order not mattering",
        "openproject_search_wiki_pages",
        {"query": "cache varnish"},
    ),
    (
        "Exact mode is the literal escape hatch: a typo finds nothing",
        "openproject_search_work_packages",
        {"query": "idempotancy key", "matchMode": "exact"},
    ),
)


def _title(element: dict[str, Any]) -> str:
    if "meeting" in element:
        meeting = element["meeting"]
        return f"{meeting['title']} ({meeting['startTime'][:10]}) — matched {element['matchType']}"
    if "workPackage" in element:
        wp = element["workPackage"]
        return f"#{wp['id']} {wp['subject']} [{wp['status']}] — matched {', '.join(element['matchedFields'])}"
    return f"{element['title']} — matched {', '.join(element['matchedFields'])}"


def _print_page(page: dict[str, Any]) -> None:
    elements = page.get("elements", [])
    if not elements:
        print("     (no results)")
    for element in elements[:3]:
        print(f"     {element['score']:.2f}  {_title(element)}")
        for item in element.get("matchedAgendaItems", [])[:1]:
            print(f"           agenda item “{item['title']}”: {item.get('snippet', '')}")
        shown = element.get("title") or element.get("meeting", {}).get("title")
        if element.get("snippet") and "matchedAgendaItems" not in element and element["snippet"] != shown:
            print(f"           “{element['snippet']}”")
    coverage = page.get("coverage")
    if coverage:
        print(
            f"     searched {coverage['candidates']} candidates, read {coverage['enriched']} in depth"
            f"{'; window cut' if coverage['candidateLimitReached'] else ''}"
        )


async def _print_outcomes(client: Client, page: dict[str, Any]) -> None:
    """The outcomes (decisions) of the agenda items the best hit matched, read with openproject_get_meeting."""
    elements = page.get("elements", [])
    if not elements or "meeting" not in elements[0]:
        return
    best = elements[0]
    matched = {item["id"] for item in best.get("matchedAgendaItems", [])}
    arguments = {"id": best["meeting"]["id"]}
    result = await client.call_tool("openproject_get_meeting", arguments)
    meeting = result.structured_content or {}
    print(f"   openproject_get_meeting {arguments}")
    for item in meeting.get("agendaItems", []):
        if item["id"] in matched:
            for outcome in item.get("outcomes", []):
                print(f"     decided on “{item['title']}”: {outcome}")


async def run() -> None:
    params = StdioServerParameters(command=sys.executable, args=["-m", "openproject_mcp", "serve", "--demo"])
    print("openproject-mcp demo: the embedded 'Nordwind Outfitters' OpenProject data, over a real MCP stdio session\n")
    async with Client(params) as client:
        tools = (await client.list_tools()).tools
        writers = [t.name for t in tools if t.annotations is not None and t.annotations.read_only_hint is False]
        print(f"Connected. The server offers {len(tools)} tools, {len(writers)} of which write.\n")
        for number, (caption, tool, arguments) in enumerate(STEPS, start=1):
            started = time.perf_counter()
            result = await client.call_tool(tool, arguments)
            elapsed = (time.perf_counter() - started) * 1000
            print(f"{number}) {caption}")
            print(f"   {tool} {arguments}   ({elapsed:.0f} ms)")
            if result.is_error:
                print("     " + " ".join(getattr(c, "text", "") for c in result.content))
            else:
                _print_page(result.structured_content or {})
                if "meeting outcome" in caption:
                    await _print_outcomes(client, result.structured_content or {})
            print()
        await _writes(client, len(STEPS))
    print(f'Try it yourself:  {_command()} call openproject_search_meetings \'{{"query": "budget"}}\' --demo')
    print("Connect a client: see README.md (Claude Desktop, Claude Code, Cursor, VS Code, Zed).")


WRITE_STEPS: tuple[Step, ...] = (
    (
        "A dry run: OpenProject's rules check the change first, and nothing is saved",
        "openproject_update_work_package",
        {"workPackageId": "SHOP-4", "status": "in progress", "assignee": "Jose Alvarez", "dryRun": True},
    ),
    (
        "The same update, for real (status and assignee by name, the lock version just read)",
        "openproject_update_work_package",
        {"workPackageId": "SHOP-4", "status": "in progress", "assignee": "Jose Alvarez"},
    ),
    (
        "A stale lock version is a conflict that says who changed what, never an overwrite",
        "openproject_update_work_package",
        {"workPackageId": "SHOP-4", "lockVersion": 0, "subject": "Wishlist (renamed)"},
    ),
    (
        "A transition the workflow forbids is refused with OpenProject's own message",
        "openproject_update_work_package",
        {"workPackageId": "SHOP-3", "status": "Closed"},
    ),
)


async def _writes(client: Client, done: int) -> None:
    """The write path on the demo data (changes last as long as this server process)."""
    for number, (caption, tool, arguments) in enumerate(WRITE_STEPS, start=done + 1):
        result = await client.call_tool(tool, arguments)
        print(f"{number}) {caption}")
        print(f"   {tool} {arguments}")
        if result.is_error:
            text = " ".join(getattr(c, "text", "") for c in result.content)
            print("     " + text.splitlines()[0])
        else:
            data = result.structured_content or {}
            for change in data.get("changes", []):
                print(f"     {change['field']}: {change.get('before')} -> {change.get('after')}")
            verdict = "accepted" if data.get("accepted") else "refused"
            print(
                f"     OpenProject {verdict}; {'saved' if data.get('saved') else 'nothing saved'}"
                f" (lockVersion {data.get('lockVersion')})"
            )
        print()


def _command() -> str:
    """How to run the command from here: by name when it is on PATH, else beside this Python (a venv)."""
    if shutil.which("openproject-mcp"):
        return "openproject-mcp"
    beside = Path(sys.executable).with_name("openproject-mcp")
    return str(beside) if beside.exists() else f"{sys.executable} -m openproject_mcp"


def main() -> None:
    anyio.run(run)


if __name__ == "__main__":
    main()
