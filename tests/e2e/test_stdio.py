"""The real console command over stdio, driven by the real MCP client and by raw JSON-RPC."""

from __future__ import annotations

import json
import queue
import subprocess
import sys
import threading
from collections.abc import Iterator
from typing import Any

import pytest
from mcp import Client, StdioServerParameters

from tests.conftest import REPO_ROOT

DEMO_DATASET = REPO_ROOT / "src" / "adapters" / "fixture" / "demo_dataset.json"


def server_command(*args: str) -> list[str]:
    return [sys.executable, "-m", "openproject_mcp", *args]


async def test_the_real_client_lists_and_calls_tools_over_stdio() -> None:
    command = server_command("serve", "--dataset", str(DEMO_DATASET))
    params = StdioServerParameters(command=command[0], args=command[1:])
    async with Client(params) as client:
        tools = (await client.list_tools()).tools
        found = await client.call_tool("openproject_search_wiki_pages", {"query": "onbaording checklist"})
        missing = await client.call_tool("openproject_get_work_package", {"workPackageId": 999_999})
    assert len(tools) == 25  # the 19, openproject_get_instance, four write tools and the time entry list
    assert not found.is_error and found.structured_content is not None
    assert found.structured_content["elements"][0]["title"] == "Onboarding checklist"
    assert missing.is_error


async def test_search_progress_arrives_over_stdio() -> None:
    seen: list[tuple[float, float | None]] = []

    async def on_progress(progress: float, total: float | None, message: str | None) -> None:
        seen.append((progress, total))

    command = server_command("serve", "--demo")
    async with Client(StdioServerParameters(command=command[0], args=command[1:])) as client:
        result = await client.call_tool(
            "openproject_search_meetings", {"query": "budget"}, progress_callback=on_progress
        )
    assert not result.is_error
    assert seen and seen[-1][0] == seen[-1][1]


def test_nothing_but_json_rpc_reaches_stdout() -> None:
    messages: list[dict[str, Any]] = [
        {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "initialize",
            "params": {
                "protocolVersion": "2025-11-25",
                "capabilities": {},
                "clientInfo": {"name": "raw-test", "version": "0"},
            },
        },
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": 2, "method": "tools/list"},
        {"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "openproject_list_statuses"}},
        {"jsonrpc": "2.0", "id": 4, "method": "no/such/method"},
        {"jsonrpc": "2.0", "id": 5, "method": "tools/call", "params": {"name": "openproject_get_project"}},
    ]
    proc = subprocess.Popen(
        server_command("serve", "--demo"),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert proc.stdin is not None and proc.stdout is not None
    answers: list[dict[str, Any]] = []
    try:
        for message in messages:
            proc.stdin.write(json.dumps(message) + "\n")
            proc.stdin.flush()
            if "id" in message:
                line = proc.stdout.readline()
                answers.append(json.loads(line))  # every line is JSON-RPC, or this raises
    finally:
        proc.stdin.close()
        proc.wait(timeout=30)
        proc.stdout.close()
        if proc.stderr is not None:
            proc.stderr.close()
    assert all(a.get("jsonrpc") == "2.0" for a in answers)
    by_id: dict[Any, Any] = {a["id"]: a for a in answers if "id" in a}
    assert set(by_id) >= {1, 2, 3, 4, 5}
    assert len(by_id[2]["result"]["tools"]) == 25
    assert by_id[3]["result"]["isError"] is False
    assert "error" in by_id[4]
    assert by_id[5]["result"]["isError"] is True and "INVALID_ARGUMENT" in by_id[5]["result"]["content"][0]["text"]


class RawStdio:
    """The console command over stdio, driven line by line, every answer awaited with a timeout."""

    def __init__(self) -> None:
        self.proc = subprocess.Popen(
            server_command("serve", "--demo"),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            encoding="utf-8",
        )
        self.answers: queue.Queue[str] = queue.Queue()
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.answers.put(line)

    def send(self, line: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def answer(self, timeout: float = 10.0) -> dict[str, Any]:
        try:
            line = self.answers.get(timeout=timeout)
        except queue.Empty:
            raise AssertionError(f"no answer within {timeout} s") from None
        answer: dict[str, Any] = json.loads(line)
        return answer

    def close(self) -> None:
        if self.proc.stdin is not None:
            self.proc.stdin.close()
        try:
            self.proc.wait(timeout=30)
        finally:
            if self.proc.poll() is None:
                self.proc.kill()
                self.proc.wait()
            if self.proc.stdout is not None:
                self.proc.stdout.close()


INITIALIZE = json.dumps(
    {
        "jsonrpc": "2.0",
        "id": 0,
        "method": "initialize",
        "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "raw", "version": "0"}},
    }
)


@pytest.fixture(scope="module")
def stdio() -> Iterator[RawStdio]:
    """One initialised server for the malformed-input cases: each case ends with the server answering."""
    raw = RawStdio()
    try:
        raw.send(INITIALIZE)
        assert raw.answer()["id"] == 0
        raw.send('{"jsonrpc": "2.0", "method": "notifications/initialized"}')
        yield raw
    finally:
        raw.close()


DEEP = "[" * 200 + "]" * 200
VERY_DEEP = "[" * 100_000 + "]" * 100_000


@pytest.mark.parametrize(
    ("line", "code", "answer_id", "says"),
    [
        ("{not json", -32700, None, "not valid JSON"),
        ('[{"jsonrpc": "2.0", "id": 7, "method": "tools/list"}]', -32600, None, "Batches are not supported"),
        ('{"jsonrpc": "1.0", "id": 7, "method": "tools/list"}', -32600, 7, "one JSON-RPC 2.0 message"),
        ('{"jsonrpc": "2.0", "id": "seven", "method": "tools/call", "params": "x"}', -32600, "seven", "params must"),
        ('{"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": [1, 2]}', -32600, 7, "JSON object"),
        ('{"jsonrpc": "2.0", "id": 7, "method": "tools/list", "params": {"x": ' + DEEP + "}}", -32600, 7, "deep"),
        ('{"jsonrpc": "2.0", "id": 7, "method": "tools/list", "params": {"x": ' + VERY_DEEP + "}}", -32700, None, ""),
        ('{"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": {"name": "\\ud800"}}', -32600, 7, "surrogate"),
        ('{"jsonrpc": "2.0", "id": 7.5, "method": "tools/list"}', -32600, None, "string or an integer"),
        ('{"jsonrpc": "2.0", "id": 7}', -32600, 7, "one JSON-RPC 2.0 message"),
        ('{"jsonrpc": "2.0", "id": 7, "method": 5}', -32600, 7, "one JSON-RPC 2.0 message"),
        ('"just a string"', -32600, None, "one JSON-RPC 2.0 message"),
    ],
    ids=[
        "parse-error",
        "batch",
        "version-1.0",
        "string-params",
        "array-params",
        "deep-nesting",
        "deeper-than-the-parser",
        "lone-surrogate",
        "float-id",
        "no-method",
        "numeric-method",
        "not-an-object",
    ],
)
def test_every_malformed_request_gets_an_error_over_stdio_and_the_server_goes_on(
    stdio: RawStdio, line: str, code: int, answer_id: Any, says: str
) -> None:
    stdio.send(line)
    error = stdio.answer()
    stdio.send('{"jsonrpc": "2.0", "id": 99, "method": "tools/list"}')
    after = stdio.answer()
    assert error["jsonrpc"] == "2.0"
    assert error["id"] == answer_id
    assert error["error"]["code"] == code
    assert says in error["error"]["message"]
    assert after["id"] == 99 and len(after["result"]["tools"]) == 25


def test_a_malformed_notification_is_not_answered_over_stdio(stdio: RawStdio) -> None:
    stdio.send('{"jsonrpc": "2.0", "method": "notifications/initialized", "params": "oops"}')
    stdio.send('{"jsonrpc": "2.0", "id": 1, "method": "tools/list"}')
    assert stdio.answer()["id"] == 1, "the next answer is the next request's: the notification got none"
