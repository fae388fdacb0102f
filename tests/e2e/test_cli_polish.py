"""The command line as a person meets it: a closed pipe, a terminal, one tool's arguments, the
startup line, and DEBUG logs of every request sent to OpenProject."""

from __future__ import annotations

import logging
import os
import pty
import select
import subprocess
import sys
import time

import pytest
from mcp import Client

from openproject_mcp.adapters.fixture import load_demo_dataset
from openproject_mcp.adapters.mcp.server import build_server
from openproject_mcp.composition import Application
from openproject_mcp.config import Settings, load_settings
from openproject_mcp.entrypoint import served
from tests.support.fake_openproject import FakeOpenProject

COMMAND = [sys.executable, "-m", "openproject_mcp"]


def clean_env() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if not k.startswith("OPENPROJECT_")}


def test_a_reader_that_goes_away_ends_the_command_quietly() -> None:
    with subprocess.Popen(
        [*COMMAND, "call", "openproject_list_work_packages", '{"pageSize": 100}', "--demo"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        stdin=subprocess.DEVNULL,
        env=clean_env(),
    ) as proc:
        assert proc.stdout is not None and proc.stderr is not None
        proc.stdout.close()  # like `| head -0`: nobody reads what comes
        stderr = proc.stderr.read().decode()
        assert proc.wait(timeout=60) == 0
    assert "Traceback" not in stderr and "BrokenPipeError" not in stderr


def test_serve_on_a_terminal_says_it_waits_for_a_client_on_stdin() -> None:
    controller, terminal = pty.openpty()
    proc = subprocess.Popen(
        [*COMMAND, "serve", "--demo"],
        stdin=terminal,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        env=clean_env(),
    )
    os.close(terminal)
    assert proc.stderr is not None
    seen = b""
    try:
        deadline = time.monotonic() + 60
        while b"waiting for an MCP client on stdin" not in seen and time.monotonic() < deadline:
            ready, _, _ = select.select([proc.stderr], [], [], 1)
            if ready:
                chunk = os.read(proc.stderr.fileno(), 4096)
                if not chunk:
                    break
                seen += chunk
    finally:
        proc.terminate()
        proc.wait(timeout=30)
        proc.stderr.close()
        os.close(controller)
    assert b"waiting for an MCP client on stdin" in seen, seen
    assert b"serving the embedded demo dataset over stdio" in seen


def test_serve_without_a_terminal_prints_only_the_startup_line() -> None:
    done = subprocess.run(
        [*COMMAND, "serve", "--demo"], stdin=subprocess.DEVNULL, capture_output=True, text=True, env=clean_env()
    )
    assert done.returncode == 0, done.stderr
    assert "serving the embedded demo dataset over stdio" in done.stderr
    assert "waiting for an MCP client" not in done.stderr and done.stdout == ""


def test_tools_with_a_name_prints_that_tools_arguments() -> None:
    done = subprocess.run([*COMMAND, "tools", "openproject_search_meetings"], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("openproject_search_meetings: Search meetings")
    assert "query (string, required)" in done.stdout
    assert 'matchMode (one of "exact", "fuzzy", default "fuzzy")' in done.stdout
    assert "pageSize (integer 1..100, default 20)" in done.stdout
    unknown = subprocess.run([*COMMAND, "tools", "openproject_nope"], capture_output=True, text=True)
    assert unknown.returncode == 2 and "unknown tool 'openproject_nope'" in unknown.stderr


def test_the_dataset_help_points_to_a_document_that_exists() -> None:
    done = subprocess.run([*COMMAND, "call", "--help"], capture_output=True, text=True)
    shown = done.stdout.split("(its format:", 1)[1].split(")", 1)[0]
    path = "".join(shown.split())  # argparse wraps long help lines, at spaces and hyphens
    assert os.path.isabs(path) and path.endswith("dataset-format.md") and os.path.isfile(path), path


@pytest.mark.parametrize(
    ("settings", "http", "expected"),
    [
        (Settings(backend="demo"), False, "serving the embedded demo dataset over stdio"),
        (
            Settings(backend="openproject", base_url="https://op.example.com", api_key="t"),
            False,
            "serving OpenProject at https://op.example.com/ with OPENPROJECT_API_KEY over stdio",
        ),
        (
            Settings(backend="openproject", base_url="https://op.example.com"),
            True,
            "serving OpenProject at https://op.example.com/ over streamable HTTP (remote multi-tenant: each "
            "request brings its own token",
        ),
        (
            Settings(backend="openproject", base_url="https://op.example.com", api_key="t", single_tenant=True),
            True,
            "(single tenant: requests without a token of their own use OPENPROJECT_API_KEY",
        ),
    ],
)
def test_the_startup_line_says_what_is_served(settings: Settings, http: bool, expected: str) -> None:
    line = served(settings, http=http)
    assert expected in line
    assert "t)" not in line.replace("tools)", "")  # never the token


async def test_debug_logs_each_request_with_status_and_duration_but_no_secret(caplog: pytest.LogCaptureFixture) -> None:
    token = "debug-token-4be1c0ffee"
    async with FakeOpenProject({token: load_demo_dataset()}) as fake:
        app = Application(load_settings({"OPENPROJECT_BASE_URL": fake.base_url, "OPENPROJECT_API_KEY": token}))
        caplog.set_level(logging.DEBUG, logger="openproject_mcp.adapters.openproject")
        try:
            async with Client(build_server(app.scope)) as client:
                await client.call_tool("openproject_search_work_packages", {"query": f"checkout {token}"})
        finally:
            await app.aclose()
        sent = len(fake.requests)
    lines = [r.getMessage() for r in caplog.records if r.name == "openproject_mcp.adapters.openproject"]
    requests = [line for line in lines if line.startswith("GET /api/v3/")]
    assert len(requests) == sent and sent > 1
    assert any(" -> 200 in " in line and line.endswith(" ms") for line in requests)
    assert any("/api/v3/work_packages?" in line and "filters=" in line for line in requests)
    assert all(token not in line for line in lines)


def test_the_demo_shows_the_outcome_it_promises() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "openproject_mcp.demo"], capture_output=True, text=True, env=clean_env(), timeout=300
    )
    assert done.returncode == 0, done.stderr
    step = done.stdout.split("A question answered from a meeting outcome", 1)[1].split("\n3) ", 1)[0]
    assert "openproject_get_meeting" in step
    assert "decided on “Marketing spend for the launch”: Approved 48,000 EUR" in step
