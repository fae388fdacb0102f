"""``serve --http`` stops at start on a Host, Origin or in-flight setting that could never work as written.

An allowed host or origin in another form than the one the checks compare matches nothing: every
request (hosts) or every browser (origins) would be refused, without a word at start.
"""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from tests.unit.adapters.mcp_http.serving import free_port

SECRET = "pw-0a7c55e1"
HOSTS, ORIGINS = "OPENPROJECT_HTTP_ALLOWED_HOSTS", "OPENPROJECT_HTTP_ALLOWED_ORIGINS"
PER_CALLER = "OPENPROJECT_HTTP_MAX_IN_FLIGHT_PER_CALLER"


def serve(env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """``serve --http --demo`` with ``env``; one still running after 20 s started serving."""
    base = {k: v for k, v in os.environ.items() if not k.startswith("OPENPROJECT_")}
    command = [sys.executable, "-m", "openproject_mcp", "serve", "--http", "--demo", "--port", str(free_port())]
    try:
        return subprocess.run(
            command, capture_output=True, text=True, timeout=20, env={**base, **env}, stdin=subprocess.DEVNULL
        )
    except subprocess.TimeoutExpired:
        pytest.fail(f"the server started with {env}")


@pytest.mark.parametrize(
    ("name", "value", "says"),
    [
        (
            HOSTS,
            "https://mcp.example.com",
            "'https://mcp.example.com' is not in the accepted form; write host, host:port",
        ),
        (HOSTS, "mcp.example.com/mcp", "'mcp.example.com/mcp' is not in the accepted form"),
        (ORIGINS, "*", "'*' is not accepted"),
        (ORIGINS, "https://app.example.com/chat", "'https://app.example.com/chat' is not in the accepted form"),
        (ORIGINS, "https://app.example.com:443", "write https://app.example.com."),
        (ORIGINS, f"https://me:{SECRET}@app.example.com", "an entry holds a login"),
        (PER_CALLER, "0", "must be between 1 and 64"),
        (PER_CALLER, "65", "one caller's share of OPENPROJECT_HTTP_MAX_IN_FLIGHT (64)"),
    ],
)
def test_a_setting_that_could_never_work_stops_the_server_at_start(name: str, value: str, says: str) -> None:
    proc = serve({name: value})
    assert proc.returncode == 2, proc.stderr[-2000:]  # a usage error, as every other bad setting
    assert "Traceback" not in proc.stderr and proc.stderr.startswith("openproject-mcp: "), proc.stderr[-2000:]
    assert f"{name}: " in proc.stderr or f"{name} must be" in proc.stderr, proc.stderr[-2000:]
    assert says in proc.stderr, proc.stderr[-2000:]
    assert "serving MCP over streamable HTTP" not in proc.stderr
    assert SECRET not in proc.stderr + proc.stdout
