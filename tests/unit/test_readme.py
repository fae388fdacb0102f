"""The README's snippets are what a user copies: the JSON must parse, the Python must compile, and
the commands must name the command and the distribution that exist."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text(encoding="utf-8")


def blocks(language: str) -> list[str]:
    return re.findall(rf"```{language}\n(.*?)```", README, flags=re.DOTALL)


def test_every_json_snippet_parses() -> None:
    import json

    snippets = blocks("json")
    assert len(snippets) >= 5  # Claude Desktop, VS Code, Zed, remote Cursor, remote Claude Desktop
    for snippet in snippets:
        json.loads(snippet)


def test_the_python_snippet_is_a_valid_script() -> None:
    (snippet,) = blocks("python")
    compile(snippet, "README.md", "exec")
    assert "asyncio.run(main())" in snippet


def test_install_lines_use_the_distribution_and_command_that_exist() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert project["name"] == "openproject-search-mcp"
    assert "openproject-mcp" in project["scripts"]
    assert f"`{project['name']}`" in README
    assert "uvx --from git+" in README and "pipx install git+" in README
    version = project["version"]
    assert f"openproject_search_mcp-{version}-py3-none-any.whl" in README
    for client in ("Claude Desktop", "Claude Code", "Cursor", "VS Code", "Zed"):
        assert f"**{client}**" in README, client


def test_display_id_examples_exist_in_the_demo_data() -> None:
    from openproject_mcp.adapters.fixture import load_demo_dataset

    shown = set(re.findall(r"`([A-Z]+-\d+)`", README))
    known = {wp.display_id for wp in load_demo_dataset().work_packages.values()}
    assert shown and shown <= known, shown - known
