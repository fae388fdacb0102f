"""``openproject-mcp serve --http`` as a real process, against the fake OpenProject, with the real MCP client."""

from __future__ import annotations

import asyncio
import base64
import json
import os
import signal
import subprocess
import sys
from collections.abc import AsyncIterator, Callable, Iterator, Mapping
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import anyio
import httpx2
import pytest
from mcp import Client, MCPError
from mcp.client.streamable_http import streamable_http_client

from tests.support.fake_openproject import FakeOpenProject
from tests.unit.adapters.mcp_http.serving import free_port, post, quiet_client_loggers, tenant_dataset, tool_call

SENTINEL = "alpha-SENTINEL-0d9b44e2-token"
BRAVO = "bravo-token-6c1d"
REVOKED = "revoked-token-91fe"
SERVER_TOKEN = "server-own-token-never-used"
MARKERS = ("Alphacorp", "Bravocorp")
LIST_PROJECTS = tool_call("openproject_list_projects")


@dataclass
class ServerProcess:
    process: asyncio.subprocess.Process
    url: str
    stdout: Path
    stderr: Path

    @property
    def mcp_url(self) -> str:
        return f"{self.url}/mcp"

    def output(self) -> str:
        return self.stdout.read_text(encoding="utf-8") + self.stderr.read_text(encoding="utf-8")

    def access_lines(self) -> list[dict[str, Any]]:
        lines = self.stderr.read_text(encoding="utf-8").splitlines()
        return [json.loads(line) for line in lines if line.startswith('{"ts"')]

    async def terminate(self, within: float = 15.0) -> int:
        if self.process.returncode is None:
            self.process.send_signal(signal.SIGTERM)
        return await self.exited(within)

    async def exited(self, within: float = 15.0) -> int:
        """The exit code, once the process ends by itself. No further signal is sent: one arriving
        after the server has removed its handlers, while the process is exiting, would kill it."""
        with anyio.fail_after(within):
            return await self.process.wait()


def server_env(base_url: str, **extra: str) -> dict[str, str]:
    base = {k: v for k, v in os.environ.items() if not k.startswith("OPENPROJECT_")}
    return {**base, "OPENPROJECT_BASE_URL": base_url, "OPENPROJECT_LOG_LEVEL": "DEBUG", **extra}


@asynccontextmanager
async def console_server(tmp_path: Path, env: Mapping[str, str]) -> AsyncIterator[ServerProcess]:
    """The console command serving HTTP on a free loopback port, stopped (SIGTERM, then kill) at the end."""
    port = free_port()
    stdout, stderr = tmp_path / "stdout.txt", tmp_path / "stderr.txt"
    with stdout.open("wb") as out, stderr.open("wb") as err:
        process = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "openproject_mcp",
            "serve",
            "--http",
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=err,
            env=dict(env),
        )
    running = ServerProcess(process, f"http://127.0.0.1:{port}", stdout, stderr)
    try:
        await wait_until_healthy(running)
        yield running
    finally:
        if process.returncode is None:
            process.send_signal(signal.SIGTERM)
            try:
                with anyio.fail_after(15):
                    await process.wait()
            except TimeoutError:
                process.kill()
                await process.wait()


async def wait_until_healthy(running: ServerProcess) -> None:
    with anyio.fail_after(20):
        async with httpx2.AsyncClient(timeout=2) as http:
            while True:
                if running.process.returncode is not None:
                    raise AssertionError(f"the server exited early:\n{running.output()}")
                try:
                    if (await http.get(f"{running.url}/healthz")).status_code == 200:
                        return
                except httpx2.TransportError:
                    pass
                await asyncio.sleep(0.05)


async def until(condition: Callable[[], bool], within: float = 10.0) -> None:
    with anyio.fail_after(within):
        while True:
            if condition():
                return
            await asyncio.sleep(0.02)


@pytest.fixture(autouse=True)
def quiet_http_client() -> Iterator[None]:
    yield from quiet_client_loggers()


def markers_in(text: str) -> set[str]:
    return {marker for marker in MARKERS if marker in text}


async def test_an_independent_client_talks_to_the_console_command_with_a_header_token(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, capfd: pytest.CaptureFixture[str]
) -> None:
    tenants = {SENTINEL: tenant_dataset("Alphacorp"), BRAVO: tenant_dataset("Bravocorp")}
    async with FakeOpenProject(tenants) as fake:
        env = server_env(fake.base_url, OPENPROJECT_API_KEY=SERVER_TOKEN)
        async with console_server(tmp_path, env) as server:
            async with (
                httpx2.AsyncClient(headers={"Authorization": f"Bearer {SENTINEL}"}) as alpha_http,
                Client(streamable_http_client(server.mcp_url, http_client=alpha_http)) as alpha,
            ):
                tools = (await alpha.list_tools()).tools
                alpha_projects = await alpha.call_tool("openproject_list_projects", {})
                alpha_search = await alpha.call_tool("openproject_search_work_packages", {"query": "maintenance"})
            async with (
                httpx2.AsyncClient(headers={"X-OpenProject-Api-Key": BRAVO}) as bravo_http,
                Client(streamable_http_client(server.mcp_url, http_client=bravo_http), mode="legacy") as bravo,
            ):
                bravo_projects = await bravo.call_tool("openproject_list_projects", {})
            # OpenProject's own scheme, as `curl -u apikey:TOKEN` sends it.
            basic = base64.b64encode(f"apikey:{BRAVO}".encode()).decode()
            async with (
                httpx2.AsyncClient(headers={"Authorization": f"Basic {basic}"}) as basic_http,
                Client(streamable_http_client(server.mcp_url, http_client=basic_http)) as by_basic,
            ):
                basic_projects = await by_basic.call_tool("openproject_list_projects", {})
            async with (
                httpx2.AsyncClient(headers={"Authorization": f"Bearer {REVOKED}"}) as revoked_http,
                Client(streamable_http_client(server.mcp_url, http_client=revoked_http)) as revoked,
            ):
                refused = await revoked.call_tool("openproject_list_projects", {})
            async with httpx2.AsyncClient() as http:
                with pytest.RaisesGroup(pytest.RaisesExc(MCPError, match="API token"), flatten_subgroups=True):
                    async with Client(streamable_http_client(server.mcp_url, http_client=http)) as anonymous:
                        await anonymous.list_tools()
                in_query = await post(http, f"{server.mcp_url}?api_key={SENTINEL}", LIST_PROJECTS)
                ready = await http.get(f"{server.url}/readyz")
            exit_code = await server.terminate()

    assert len(tools) == 25  # the 19, openproject_get_instance, four write tools and the time entry list
    assert markers_in(json.dumps(alpha_projects.structured_content)) == {"Alphacorp"}
    assert not alpha_search.is_error and markers_in(json.dumps(alpha_search.structured_content)) == {"Alphacorp"}
    assert markers_in(json.dumps(bravo_projects.structured_content)) == {"Bravocorp"}
    assert basic_projects.structured_content == bravo_projects.structured_content
    refusal = "\n".join(getattr(c, "text", "") for c in refused.content)
    assert refused.is_error and refusal.startswith("Error [OPENPROJECT_AUTH_ERROR]")
    assert "Authorization" in refusal and "OPENPROJECT_API_KEY" not in refusal, refusal
    assert in_query.status_code == 401
    assert ready.status_code == 200
    assert exit_code == 0

    tokens_seen = {request.token for request in fake.requests}
    assert tokens_seen == {SENTINEL, BRAVO, REVOKED}, "only the callers' own tokens reached OpenProject"
    output = server.output()
    assert "OPENPROJECT_API_KEY is not used over HTTP" in output
    access = server.access_lines()
    assert any(line.get("tool") == "openproject_search_work_packages" for line in access)
    assert any(line.get("query_string_ignored") for line in access)
    assert {line["path"] for line in access} == {"/mcp", "/healthz", "/readyz"}, "paths only, never a query"
    for text in (output, caplog.text, "".join(capfd.readouterr())):
        assert SENTINEL not in text
        assert BRAVO not in text
        assert SERVER_TOKEN not in text
        assert REVOKED not in text


async def test_sigterm_lets_the_call_in_flight_finish_then_the_process_exits_cleanly(tmp_path: Path) -> None:
    async with FakeOpenProject({BRAVO: tenant_dataset("Bravocorp")}, latency=1.5) as fake:
        env = server_env(fake.base_url, OPENPROJECT_HTTP_SHUTDOWN_GRACE="20")
        async with console_server(tmp_path, env) as server, httpx2.AsyncClient(timeout=30) as http:
            call = asyncio.create_task(post(http, server.mcp_url, LIST_PROJECTS, token=BRAVO))
            await until(lambda: bool(fake.requests))  # the call reached OpenProject and awaits its answer
            server.process.send_signal(signal.SIGTERM)
            answer = await call
            exit_code = await server.exited()
            with pytest.raises(httpx2.ConnectError):
                await http.get(f"{server.url}/healthz")

    assert answer.status_code == 200
    assert markers_in(answer.text) == {"Bravocorp"}
    assert exit_code == 0
    output = server.output()
    assert "received SIGTERM" in output
    assert "shutting down: 1 request(s) in flight" in output


async def test_single_tenant_mode_serves_the_operator_token_only_when_enabled(tmp_path: Path) -> None:
    tenants = {SENTINEL: tenant_dataset("Alphacorp"), BRAVO: tenant_dataset("Bravocorp")}
    async with FakeOpenProject(tenants) as fake:
        env = server_env(fake.base_url, OPENPROJECT_API_KEY=SENTINEL, OPENPROJECT_SINGLE_TENANT="true")
        async with console_server(tmp_path, env) as server, httpx2.AsyncClient() as http:
            without = await post(http, server.mcp_url, LIST_PROJECTS)
            with_own = await post(http, server.mcp_url, LIST_PROJECTS, token=BRAVO)
    assert markers_in(without.text) == {"Alphacorp"}
    assert markers_in(with_own.text) == {"Bravocorp"}
    assert SENTINEL not in server.output()


@pytest.mark.parametrize(
    ("args", "env", "needle"),
    [
        (("serve", "--demo", "--port", "8123"), {}, "--host and --port only apply with --http"),
        (
            ("serve", "--http"),
            {"OPENPROJECT_BASE_URL": "https://op.example.com", "OPENPROJECT_SINGLE_TENANT": "true"},
            "OPENPROJECT_SINGLE_TENANT=true needs OPENPROJECT_API_KEY",
        ),
        (("serve", "--http", "--demo"), {"OPENPROJECT_HTTP_MAX_BODY_BYTES": "huge"}, "must be a number"),
        (("serve", "--http", "--demo", "--port", "0"), {}, "--port must be between 1 and 65535"),
        (("serve", "--http"), {}, "OPENPROJECT_BASE_URL is not set"),
    ],
)
def test_remote_mode_refuses_to_start_with_a_bad_configuration(
    args: tuple[str, ...], env: dict[str, str], needle: str
) -> None:
    base = {k: v for k, v in os.environ.items() if not k.startswith("OPENPROJECT_")}
    proc = subprocess.run(
        [sys.executable, "-m", "openproject_mcp", *args],
        capture_output=True,
        text=True,
        timeout=60,
        env={**base, **env},
        stdin=subprocess.DEVNULL,
        check=False,
    )
    assert proc.returncode == 2
    assert needle in proc.stderr
