"""Memory of the HTTP server over many calls from many tokens: it must stay flat.

``openproject-mcp serve --http`` runs as its own process against the fake OpenProject on
loopback (in this process), which knows 1,000 tokens. Calls cycle through the tokens, a few
workers at a time, so after the first 1,000 calls every tenant has been seen and its bounded
caches exist; what grows after that is what calls leave behind. The server's resident set size
(``VmRSS``) is read after 1,000 and after 10,000 calls; the second must be within 10 % of the
first. Bounded by the number of calls, never by a clock.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
from collections.abc import AsyncIterator, Mapping, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import anyio
import httpx2

from openproject_mcp.adapters.fixture import load_demo_dataset
from tests.support.fake_openproject import FakeOpenProject

TOKENS = 1000
FIRST = 1000
TOTAL = 10_000
WORKERS = 8
TOLERANCE = 0.10
CALLS: tuple[tuple[str, dict[str, Any]], ...] = (
    ("openproject_list_projects", {}),
    ("openproject_get_work_package", {"workPackageId": 114}),
    ("openproject_list_statuses", {}),
)


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def rss_mib(pid: int) -> float:
    for text in Path(f"/proc/{pid}/status").read_text().splitlines():
        if text.startswith("VmRSS:"):
            return int(text.split()[1]) / 1024
    raise RuntimeError("no VmRSS in /proc/<pid>/status")


@asynccontextmanager
async def server(args: Sequence[str], env: Mapping[str, str]) -> AsyncIterator[tuple[str, int]]:
    """``serve --http`` on a free loopback port; yields its MCP URL and pid, then SIGTERMs it."""
    port = free_port()
    base = {k: v for k, v in os.environ.items() if not k.startswith("OPENPROJECT_")}
    with tempfile.TemporaryFile() as log:
        process = await asyncio.create_subprocess_exec(
            sys.executable,
            *("-m", "openproject_mcp", "serve", "--http", "--port", str(port), *args),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=log,
            env={**base, "OPENPROJECT_LOG_LEVEL": "WARNING", **env},
        )
        url = f"http://127.0.0.1:{port}"
        try:
            with anyio.fail_after(60):
                async with httpx2.AsyncClient(timeout=2) as http:
                    while True:
                        if process.returncode is not None:
                            log.seek(0)
                            raise RuntimeError(f"the server exited early: {log.read().decode(errors='replace')}")
                        try:
                            if (await http.get(f"{url}/healthz")).status_code == 200:
                                break
                        except httpx2.TransportError:
                            pass
                        await asyncio.sleep(0.05)
            yield f"{url}/mcp", process.pid
        finally:
            if process.returncode is None:
                process.send_signal(signal.SIGTERM)
                with anyio.fail_after(30):
                    await process.wait()


async def call_many(url: str, tokens: Sequence[str], start: int, count: int) -> int:
    """Calls ``start .. start+count`` (call n uses token n mod len(tokens)); returns the errors."""
    errors = 0
    numbers = iter(range(start, start + count))
    limits = httpx2.Limits(max_connections=WORKERS, max_keepalive_connections=WORKERS)
    async with httpx2.AsyncClient(timeout=60, limits=limits) as http:

        async def worker() -> None:
            nonlocal errors
            for n in numbers:
                tool, arguments = CALLS[n % len(CALLS)]
                body = {
                    "jsonrpc": "2.0",
                    "id": n,
                    "method": "tools/call",
                    "params": {"name": tool, "arguments": arguments},
                }
                response = await http.post(
                    url,
                    content=json.dumps(body).encode(),
                    headers={
                        "Authorization": f"Bearer {tokens[n % len(tokens)]}",
                        "Accept": "application/json, text/event-stream",
                        "Content-Type": "application/json",
                    },
                )
                if response.status_code != 200 or response.json().get("result", {}).get("isError", True):
                    errors += 1

        async with anyio.create_task_group() as group:
            for _ in range(WORKERS):
                group.start_soon(worker)
    return errors


async def run() -> None:
    tokens = [f"memory-tenant-{n:04d}" for n in range(TOKENS)]
    dataset = load_demo_dataset()
    print(
        f"serve --http against the fake OpenProject; {TOKENS} tokens, calls cycle through them "
        f"({', '.join(name for name, _ in CALLS)}), {WORKERS} at a time"
    )
    async with (
        FakeOpenProject(dict.fromkeys(tokens, dataset)) as fake,
        # The per-caller rate limit is off: what is measured is memory, not the limiter.
        server([], {"OPENPROJECT_BASE_URL": fake.base_url, "OPENPROJECT_HTTP_RATE_LIMIT": "0"}) as (url, pid),
    ):
        at_start = rss_mib(pid)
        errors = await call_many(url, tokens, 0, FIRST)
        after_first = rss_mib(pid)
        fake.clear()
        errors += await call_many(url, tokens, FIRST, TOTAL - FIRST)
        after_all = rss_mib(pid)
        seen = {request.token for request in fake.requests}
    growth = (after_all - after_first) / after_first
    print(f"  RSS at start                {at_start:7.1f} MiB")
    print(f"  RSS after {FIRST:>6,} calls       {after_first:7.1f} MiB")
    print(f"  RSS after {TOTAL:>6,} calls       {after_all:7.1f} MiB   ({growth:+.1%} since {FIRST:,} calls)")
    print(f"  errors {errors}; tokens seen upstream in the last {TOTAL - FIRST:,} calls: {len(seen)}")
    verdict = "flat" if abs(growth) <= TOLERANCE else "GROWING"
    print(f"  {verdict}: within {TOLERANCE:.0%} is the requirement")
    if errors or seen - set(tokens) or abs(growth) > TOLERANCE:
        raise AssertionError(f"memory {verdict}, {errors} errors")


def main() -> None:
    asyncio.run(run())


if __name__ == "__main__":
    main()
