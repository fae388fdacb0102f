"""``serve --http`` as a real process: heavy searches run, and everyone else is still answered.

Four callers each send a 5,000-character query over a dataset of long work packages, at once.
Meanwhile ``/healthz`` and a cheap tool call are asked again and again. What is checked is the
order things happen in, not how fast: health checks and cheap calls are answered while every
heavy search is still running (nothing waits behind them), and every search ends, answered or
stopped at its deadline. How late the loop gets is measured in ``benchmarks/`` instead.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import subprocess
import sys
import time
from pathlib import Path

import anyio
import httpx2

from tests.support.datasets import many_work_packages
from tests.unit.adapters.mcp_http.serving import free_port, post, tool_call, until_healthy

HEAVY_SEARCHES = 4
DEADLINE = 5.0
WORK_PACKAGES = 900  # enough that each search outlasts several rounds of cheap calls


def long_texts_dataset(path: Path) -> str:
    """Work packages with long descriptions and comments; returns a 5,000-character query over their words."""
    chooser = random.Random(7)
    alphabet = "abcdefghijklmnopqrstuvwxyz"
    words = ["".join(chooser.choice(alphabet) for _ in range(chooser.randint(3, 10))) for _ in range(3000)]
    document = many_work_packages(WORK_PACKAGES)
    for work_package in document["work_packages"]:
        work_package["description"] = " ".join(chooser.choices(words, k=2600))[:19_000]
        work_package["activities"][0]["comment"] = " ".join(chooser.choices(words, k=600))
    path.write_text(json.dumps(document), encoding="utf-8")
    return " ".join(chooser.choices(words, k=900))[:5000]


async def test_heavy_searches_neither_starve_health_nor_other_callers_and_end_by_their_deadline(
    tmp_path: Path,
) -> None:
    dataset = tmp_path / "long.json"
    query = long_texts_dataset(dataset)
    assert len(query) == 5000
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    env = {k: v for k, v in os.environ.items() if not k.startswith("OPENPROJECT_")}
    env.update(OPENPROJECT_HTTP_REQUEST_TIMEOUT=str(DEADLINE), OPENPROJECT_LOG_LEVEL="WARNING")
    process = await asyncio.create_subprocess_exec(
        *(sys.executable, "-m", "openproject_mcp", "serve", "--http", "--dataset", str(dataset), "--port", str(port)),
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env=env,
    )
    events: list[str] = []
    heavy_ends: list[float] = []
    try:
        async with httpx2.AsyncClient(timeout=30) as http:
            await until_healthy(http, url, seconds=30, pause=0.1)
            search = tool_call("openproject_search_work_packages", {"query": query})

            async def heavy(began: float) -> int:
                response = await post(http, f"{url}/mcp", search)
                heavy_ends.append(time.monotonic() - began)
                events.append("heavy")
                return response.status_code

            began = time.monotonic()
            heavies = [asyncio.create_task(heavy(began)) for _ in range(HEAVY_SEARCHES)]
            with anyio.fail_after(60):
                while not all(task.done() for task in heavies):
                    health = await http.get(f"{url}/healthz")
                    assert health.status_code == 200
                    events.append("health")
                    cheap = await post(http, f"{url}/mcp", tool_call("openproject_list_statuses"))
                    assert cheap.status_code == 200 and cheap.json()["result"]["isError"] is False
                    events.append("cheap")
                    await asyncio.sleep(0)
            statuses = [task.result() for task in heavies]
    finally:
        process.terminate()
        try:
            with anyio.fail_after(20):
                await process.wait()
        except TimeoutError:
            process.kill()
            await process.wait()
    assert set(statuses) <= {200, 504}, statuses
    # Answered while all four searches were still running: had the loop waited behind them, every
    # health check and cheap call would come after the first search's answer.
    while_searching = events[: events.index("heavy")]
    assert while_searching.count("health") >= 2 and while_searching.count("cheap") >= 2, events
    # A search past its deadline is stopped there: compared with a bound several times the
    # deadline, far above scheduling noise (a search left running would hold its answer longer).
    assert max(heavy_ends) < 3 * DEADLINE, f"the heavy searches ended after {max(heavy_ends):.1f} s"
