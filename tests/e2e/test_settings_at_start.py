"""A bad setting stops ``serve`` and ``call`` at start: exit code 2, a message naming it, no traceback."""

from __future__ import annotations

import pytest

from tests.e2e.test_cli import run

SECRET = "pw-4f1c9e"
BAD_URLS = {
    "credentials": f"https://user:{SECRET}@op.example.com/",
    "a non-http scheme with credentials": f"ftp://user:{SECRET}@op.example.com/",
    "a token in the query": f"https://op.example.com/?key={SECRET}",
}
COMMANDS = {
    "serve": ("serve",),
    "serve --http": ("serve", "--http", "--port", "1"),
    "call": ("call", "openproject_list_projects", "{}"),
}


@pytest.mark.parametrize("command", COMMANDS)
@pytest.mark.parametrize("problem", BAD_URLS)
def test_a_bad_base_url_stops_the_process_at_start(problem: str, command: str) -> None:
    proc = run(*COMMANDS[command], env={"OPENPROJECT_BASE_URL": BAD_URLS[problem], "OPENPROJECT_API_KEY": "k"})
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr.startswith("openproject-mcp: OPENPROJECT_BASE_URL is invalid: "), proc.stderr
    assert "Traceback" not in proc.stderr and "INTERNAL_ERROR" not in proc.stderr + proc.stdout
    assert SECRET not in proc.stderr + proc.stdout
    assert proc.stdout == ""
