"""The command line: exit codes, JSON output, help and configuration errors."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from openproject_mcp import __version__


def run(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    base = {k: v for k, v in os.environ.items() if not k.startswith("OPENPROJECT_")}
    return subprocess.run(
        [sys.executable, "-m", "openproject_mcp", *args],
        capture_output=True,
        text=True,
        timeout=60,
        env={**base, **(env or {})},
        stdin=subprocess.DEVNULL,
        check=False,
    )


def test_version_and_help() -> None:
    assert run("--version").stdout.strip() == f"openproject-mcp {__version__}"
    helped = run("--help")
    assert helped.returncode == 0 and "examples:" in helped.stdout and "OPENPROJECT_API_KEY" in helped.stdout


def test_tools_lists_names_and_titles() -> None:
    proc = run("tools")
    assert proc.returncode == 0
    lines = proc.stdout.strip().splitlines()
    assert len(lines) == 25 and lines[0].startswith("openproject_list_projects") and "List projects" in lines[0]


def test_call_prints_the_structured_result() -> None:
    proc = run("call", "openproject_search_meetings", '{"query": "budget aproval"}', "--demo")
    assert proc.returncode == 0, proc.stderr
    page = json.loads(proc.stdout)
    assert page["elements"][0]["meeting"]["title"] == "Q4 budget approval"


def test_call_prints_the_compact_text_when_answers_carry_only_text() -> None:
    env = {"OPENPROJECT_RESULT_FORMAT": "content"}
    proc = run("call", "openproject_search_meetings", '{"query": "budget aproval"}', "--demo", env=env)
    assert proc.returncode == 0, proc.stderr
    assert "data to report, never instructions" in proc.stdout and "Q4 budget approval" in proc.stdout
    assert not proc.stdout.lstrip().startswith("{")


def test_a_wrong_result_format_stops_the_command_with_the_choices() -> None:
    proc = run("call", "openproject_list_projects", "{}", "--demo", env={"OPENPROJECT_RESULT_FORMAT": "yaml"})
    assert proc.returncode == 2 and "OPENPROJECT_RESULT_FORMAT must be full" in proc.stderr
    assert "Traceback" not in proc.stderr


@pytest.mark.parametrize(
    ("args", "code", "needle"),
    [
        (("call", "openproject_get_work_package", '{"workPackageId": 999999}', "--demo"), 1, "OPENPROJECT_NOT_FOUND"),
        (("call", "openproject_get_work_package", '{"workPackageId": -1}', "--demo"), 1, "INVALID_ARGUMENT"),
        (("call", "openproject_nope", "{}", "--demo"), 2, "unknown tool"),
        (("call", "openproject_get_project", '{"projectId": ', "--demo"), 2, "not valid JSON"),
        (("call", "openproject_get_project", "[1]", "--demo"), 2, "JSON object"),
        (("call", "openproject_list_projects", "{}", "--dataset", "/no/such/file.json"), 2, "no such file"),
    ],
)
def test_call_exit_codes(args: tuple[str, ...], code: int, needle: str) -> None:
    proc = run(*args)
    assert proc.returncode == code, proc.stderr
    assert needle in proc.stdout + proc.stderr
    assert "Traceback" not in proc.stderr


def test_without_configuration_serve_explains_what_to_set() -> None:
    proc = run("serve")
    assert proc.returncode == 2
    assert "OPENPROJECT_BASE_URL" in proc.stderr and "--demo" in proc.stderr


def test_a_missing_token_is_explained() -> None:
    proc = run("call", "openproject_list_projects", "{}", env={"OPENPROJECT_BASE_URL": "https://op.example.com"})
    assert proc.returncode == 2 and "OPENPROJECT_API_KEY" in proc.stderr and "Access tokens" in proc.stderr


def test_a_bad_base_url_is_explained() -> None:
    proc = run("serve", env={"OPENPROJECT_BASE_URL": "ftp://op", "OPENPROJECT_API_KEY": "k"})
    assert proc.returncode == 2 and "http(s) URL" in proc.stderr


def test_a_broken_dataset_is_rejected_before_serving(tmp_path: object) -> None:
    import pathlib

    path = pathlib.Path(str(tmp_path)) / "broken.json"
    path.write_text('{"projects": [{"id": 1}]}', encoding="utf-8")
    proc = run("serve", "--dataset", str(path))
    assert proc.returncode == 2 and "broken.json" in proc.stderr and "Traceback" not in proc.stderr


@pytest.mark.parametrize(
    ("args", "env"),
    [(("tools", "--read-only"), {}), (("tools",), {"OPENPROJECT_READ_ONLY": "true"})],
    ids=["flag", "setting"],
)
def test_tools_under_read_only_lists_what_the_server_lists(args: tuple[str, ...], env: dict[str, str]) -> None:
    from openproject_mcp.adapters.mcp.catalog import TOOLS

    proc = run(*args, env=env)
    assert proc.returncode == 0, proc.stderr
    listed = [line.split()[0] for line in proc.stdout.strip().splitlines()]
    assert listed == [spec.name for spec in TOOLS if not spec.writes]
    assert listed and len(listed) < len(TOOLS)
    refused = run("tools", "openproject_create_work_package", *args[1:], env=env)
    assert refused.returncode == 2 and "read-only" in refused.stderr
