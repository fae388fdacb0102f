"""``serve --http`` as a real process: heavy searches run, and everyone else is still answered.

Four callers each send a 5,000-character query over a dataset of long work packages, at once.
Meanwhile ``/healthz`` and a cheap tool call are asked again and again. The bounds asserted are
generous: they check that nothing waits behind the searches, and that a search past its deadline
is stopped near that deadline, not that anything is fast.
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
WORK_PACKAGES = 300


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
    health_times: list[float] = []
    cheap_times: list[float] = []
    heavy_ends: list[float] = []
    try:
        async with httpx2.AsyncClient(timeout=30) as http:
            await until_healthy(http, url, seconds=30, pause=0.1)
            search = tool_call("openproject_search_work_packages", {"query": query})

            async def heavy(began: float) -> int:
                response = await post(http, f"{url}/mcp", search)
                heavy_ends.append(time.monotonic() - began)
                return response.status_code

            began = time.monotonic()
            heavies = [asyncio.create_task(heavy(began)) for _ in range(HEAVY_SEARCHES)]
            with anyio.fail_after(60):
                while not all(task.done() for task in heavies):
                    asked = time.monotonic()
                    health = await http.get(f"{url}/healthz")
                    health_times.append(time.monotonic() - asked)
                    assert health.status_code == 200
                    asked = time.monotonic()
                    cheap = await post(http, f"{url}/mcp", tool_call("openproject_list_statuses"))
                    cheap_times.append(time.monotonic() - asked)
                    assert cheap.status_code == 200 and cheap.json()["result"]["isError"] is False
                    await asyncio.sleep(0.1)
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
    assert max(heavy_ends) < DEADLINE + 2, f"the heavy searches ended after {max(heavy_ends):.1f} s"
    assert len(health_times) >= 2
    assert max(health_times) < 1.0, f"/healthz took up to {max(health_times):.2f} s"
    assert max(cheap_times) < 2.0, f"a cheap call took up to {max(cheap_times):.2f} s"
