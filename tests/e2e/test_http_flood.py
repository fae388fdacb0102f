"""``serve --http`` as a real process under a flood of idle connections, with few file descriptors.

Idle connections are only closed by the header timeout (60 s here) or to make room for a new
one. Every health check must be answered within the client's 5 s timeout, far below that
timeout: a health check that waited for idle connections to time out could not be answered at
all. How fast it is answered is not asserted (speed is measured in ``benchmarks/``).
"""

from __future__ import annotations

import asyncio
import os
import resource
import subprocess
import sys
from pathlib import Path

import anyio
import httpx2

from tests.unit.adapters.mcp_http.serving import free_port, until_healthy

IDLE_CONNECTIONS = 1_100
DESCRIPTORS = 400  # the server's whole descriptor budget, far below the number of connections


def few_descriptors() -> None:
    resource.setrlimit(resource.RLIMIT_NOFILE, (DESCRIPTORS, DESCRIPTORS))


async def test_a_flood_of_idle_connections_neither_stops_health_nor_floods_the_log(tmp_path: Path) -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = IDLE_CONNECTIONS + 200
    if soft < wanted:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(wanted, hard), hard))
    port = free_port()
    stderr = tmp_path / "stderr.txt"
    env = {k: v for k, v in os.environ.items() if not k.startswith("OPENPROJECT_")}
    with stderr.open("wb") as err:
        process = await asyncio.create_subprocess_exec(
            *(sys.executable, "-m", "openproject_mcp", "serve", "--http", "--demo", "--port", str(port)),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=err,
            env={**env, "OPENPROJECT_HTTP_HEADER_TIMEOUT": "60"},
            preexec_fn=few_descriptors,
        )
    url = f"http://127.0.0.1:{port}"
    idle: list[asyncio.StreamWriter] = []
    try:
        async with httpx2.AsyncClient(timeout=5) as http:
            await until_healthy(http, url, seconds=20, pause=0.05)
            with anyio.fail_after(60):
                for index in range(IDLE_CONNECTIONS):
                    _, writer = await asyncio.open_connection("127.0.0.1", port)
                    idle.append(writer)
                    if index % 100 == 99:
                        async with httpx2.AsyncClient(timeout=5) as fresh:
                            health = await fresh.get(f"{url}/healthz")
                        assert health.status_code == 200, f"after {index + 1} idle connections"
            async with httpx2.AsyncClient(timeout=5) as fresh:
                final = await fresh.get(f"{url}/healthz")
    finally:
        for writer in idle:
            writer.close()
        process.terminate()
        try:
            with anyio.fail_after(20):
                await process.wait()
        except TimeoutError:
            process.kill()
            await process.wait()
    assert final.status_code == 200
    log_size = stderr.stat().st_size
    assert log_size < 1_000_000, f"{log_size} bytes of log"
    assert "Traceback" not in stderr.read_text(encoding="utf-8", errors="replace")
