"""What fencing and neutralising a result's text costs, next to plain ``json.dumps`` of the same data.

Results of three demo calls (a search page, a page of 100 work packages, one work package with
its description), each turned into its text mirror many times; medians.
"""

from __future__ import annotations

import asyncio
import functools
import json
import statistics
import time
from collections.abc import Callable
from typing import Any

from openproject_mcp.adapters.mcp.server import build_server
from openproject_mcp.adapters.mcp.transports import call_in_process
from openproject_mcp.adapters.mcp.untrusted import text_mirror
from openproject_mcp.composition import Application
from openproject_mcp.config import Settings

RUNS = 200
CALLS: tuple[tuple[str, dict[str, Any]], ...] = (
    ("openproject_search_work_packages", {"query": "checkout"}),
    ("openproject_list_work_packages", {"pageSize": 100}),
    ("openproject_get_work_package", {"workPackageId": 101}),
)


async def results() -> list[tuple[str, Any]]:
    application = Application(Settings(backend="demo"))
    server = build_server(application.scope)
    found = []
    for name, arguments in CALLS:
        result = await call_in_process(server, name, arguments)
        found.append((name, result.structured_content))
    await application.aclose()
    return found


def median_ms(work: Callable[[], object]) -> float:
    times = []
    for _ in range(RUNS):
        began = time.perf_counter()
        work()
        times.append(time.perf_counter() - began)
    return statistics.median(times) * 1000


def main() -> None:
    print(f"{RUNS} runs each; median ms")
    for name, data in asyncio.run(results()):
        size = len(json.dumps(data))
        mirror = median_ms(functools.partial(text_mirror, data))
        plain = median_ms(functools.partial(json.dumps, data, separators=(",", ":"), ensure_ascii=False))
        print(f"  {name:<36} {size:>7,} bytes: mirror {mirror:6.3f} ms, json.dumps {plain:6.3f} ms")
