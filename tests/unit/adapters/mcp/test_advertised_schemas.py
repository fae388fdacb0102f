"""The catalog's compact argument schemas: looser than the server's checks, never stricter.

tools/list leaves out limits a model never needs (lengths, patterns, lower bounds of ids and
counts) and notes the instructions give once. The server still checks each of them and answers
with the argument's name and what it accepts, worded from the full schema.
"""

from __future__ import annotations

import itertools
from typing import Any

import msgspec
import pytest
from jsonschema import Draft202012Validator
from mcp import Client

from openproject_mcp.adapters.mcp import arguments as a
from openproject_mcp.adapters.mcp.argument_errors import explain_validation
from openproject_mcp.adapters.mcp.catalog import TOOLS, ToolSpec
from openproject_mcp.adapters.mcp.server import build_server, instructions_for
from openproject_mcp.composition import Application
from openproject_mcp.config import Settings
from tests.support.tool_calls import MORE_CALLS, ONE_CALL_PER_TOOL, WRITE_TOOL_CALLS, text_of
from tests.unit.adapters.mcp.test_argument_mistakes import MISTAKES

SPECS = {spec.name: spec for spec in TOOLS}

# Values an assistant might send for any argument: valid ones, and ones beyond every kind of limit.
VALUES: tuple[Any, ...] = (
    0,
    1,
    -1,
    20,
    100,
    101,
    1000,
    1001,
    1.5,
    -0.5,
    "",
    "a",
    "me",
    "open",
    "fuzzy",
    "regex",
    "past",
    "active",
    "38",
    "DEMO-38",
    "DEMO 38",
    "2026-09-01",
    "2026-9-1",
    "PT1H30M",
    "x" * 101,
    "x" * 256,
    "x" * 501,
    "x" * 5001,
    True,
    [],
    [["id", "desc"]],
    [["id", "desc"]] * 11,
    [{}] * 51,
    {},
)

# A valid value for each required argument, so a call differs from a valid one in one argument only.
REQUIRED = {
    "projectId": "webshop",
    "workPackageId": 101,
    "id": 1,
    "queryId": 41,
    "query": "budget",
    "subject": "S",
    "comment": "c",
    "hours": 1,
}


def validator(schema: dict[str, Any]) -> Draft202012Validator:
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema)


def accepted_by_server(spec: ToolSpec, arguments: dict[str, Any]) -> msgspec.ValidationError | None:
    try:
        msgspec.convert(arguments, spec.arguments)
    except msgspec.ValidationError as exc:
        return exc
    return None


VALID_CALLS = [
    *ONE_CALL_PER_TOOL,
    *MORE_CALLS,
    *WRITE_TOOL_CALLS,
    *((tool, args) for tool, args, _ in MISTAKES if accepted_by_server(SPECS[tool], args) is None),
]


@pytest.mark.parametrize(("tool", "arguments"), VALID_CALLS, ids=[f"{t}-{args}"[:90] for t, args in VALID_CALLS])
def test_every_valid_call_of_the_tests_is_accepted_by_the_advertised_schema(tool: str, arguments: Any) -> None:
    spec = SPECS[tool]
    assert accepted_by_server(spec, arguments) is None
    assert validator(a.input_schema(spec.arguments)).is_valid(arguments)
    assert validator(a.advertised_schema(spec.arguments)).is_valid(arguments)


@pytest.mark.parametrize("spec", TOOLS, ids=[spec.name for spec in TOOLS])
def test_the_advertised_schema_accepts_what_the_server_accepts_and_the_server_explains_the_rest(
    spec: ToolSpec,
) -> None:
    full_schema = a.input_schema(spec.arguments)
    full, advertised = validator(full_schema), validator(a.advertised_schema(spec.arguments))
    base = {name: REQUIRED[name] for name in full_schema.get("required", ())}
    refused = 0
    for name, value in itertools.product(full_schema["properties"], VALUES):
        arguments = {**base, name: value}
        problem = accepted_by_server(spec, arguments)
        # The full schema and the server's checks are one definition: they agree on every value.
        assert full.is_valid(arguments) is (problem is None), (name, value)
        if problem is None:
            assert advertised.is_valid(arguments), f"{spec.name}: the catalog refuses {name}={value!r}"
            continue
        refused += 1
        message, hint = explain_validation(str(problem), spec.name, full_schema)
        assert message.startswith(name), (message, value)
        assert hint is not None and hint.startswith(f"Send {name} as "), (hint, value)
    assert refused or not full_schema["properties"]


# Limits tools/list no longer shows, each still refused before anything is sent, saying what to send.
UNADVERTISED: list[tuple[str, dict[str, Any], tuple[str, ...]]] = [
    ("openproject_search_work_packages", {"query": "x" * 5001}, ("query", "at most 5000 characters")),
    ("openproject_get_project", {"projectId": ""}, ("projectId", "non-empty string of at most 255")),
    ("openproject_get_project", {"projectId": 0}, ("projectId", "an integer of 1 or more", "identifier")),
    ("openproject_get_meeting", {"id": 0}, ("id: Expected an integer >= 1", "Send id as an integer of 1 or more")),
    ("openproject_list_work_packages", {"offset": 0}, ("offset", "1 or more", "Page number, from 1")),
    ("openproject_list_work_packages", {"pageSize": 0}, ("pageSize", "from 1 to 100")),
    ("openproject_list_work_packages", {"subject": "x" * 501}, ("subject", "at most 500 characters")),
    ("openproject_get_work_package", {"workPackageId": "DEMO 38"}, ("workPackageId", "display id such as DEMO-38")),
    ("openproject_list_time_entries", {"from": "2026/09/01"}, ("from", "not in the accepted form", "YYYY-MM-DD")),
    ("openproject_list_projects", {"sortBy": [["id", "asc"]] * 11}, ("sortBy", "length <= 10")),
    ("openproject_list_projects", {"filters": [{}] * 51}, ("filters", "length <= 50")),
    ("openproject_create_work_package", {"projectId": "webshop", "subject": ""}, ("subject", "non-empty string")),
    ("openproject_update_work_package", {"workPackageId": 104, "lockVersion": -1}, ("lockVersion", "0 or more")),
    ("openproject_log_time", {"workPackageId": 104, "hours": -1}, ("hours", "a number from 0 to 1000")),
    ("openproject_add_work_package_comment", {"workPackageId": 104, "comment": ""}, ("comment", "non-empty")),
    ("openproject_list_users", {"colour": "red"}, ("no argument 'colour'", "Its arguments are")),
]


async def test_limits_the_catalog_leaves_out_are_still_refused_with_what_to_send() -> None:
    async with Client(build_server(Application(Settings(backend="demo")).scope)) as client:
        listed = {tool.name: tool.input_schema for tool in (await client.list_tools()).tools}
        for tool, arguments, expected in UNADVERTISED:
            # The catalog lets the value through (no client refuses it with a bare schema error) ...
            assert validator(listed[tool]).is_valid(arguments), (tool, arguments)
            result = await client.call_tool(tool, arguments)
            text = text_of(result)
            # ... and the server refuses it, naming the argument and what it accepts.
            assert result.is_error and text.startswith("Error [INVALID_ARGUMENT]: "), text
            for part in expected:
                assert part in text, f"{part!r} missing from {text!r}"


def test_a_union_becomes_a_type_list_only_where_that_accepts_the_same() -> None:
    string_or_array = {"anyOf": [{"type": "string", "maxLength": 5}, {"type": "array", "maxItems": 2}]}
    assert a._compact(string_or_array) == {"type": ["string", "array"]}
    hours = {"anyOf": [{"type": "number", "minimum": 2, "maximum": 9}, {"type": "string"}]}
    assert a._compact(hours) == {"type": ["number", "string"], "minimum": 2, "maximum": 9}
    # An enumeration constrains every type, and two numeric branches share their bounds: kept apart.
    me = {"anyOf": [{"type": "integer", "minimum": 1}, {"enum": ["me"]}]}
    assert a._compact(me) == {"anyOf": [{"type": "integer"}, {"enum": ["me"]}]}
    numbers = {"anyOf": [{"type": "integer", "maximum": 5}, {"type": "number"}]}
    assert a._compact(numbers) == numbers
    choices = {"anyOf": [{"type": "integer", "enum": [1, 2]}, {"type": "string", "format": "date"}]}
    assert a._compact(choices) == choices
    for union in (hours, choices):  # no guards to leave out: the compact form accepts exactly the same
        compact, full = validator(a._compact(union)), validator(union)
        for value in (1, 2, 9, 10, 5.5, "x", "2026-09-01", "", [], [1, 2, 3], None, True):
            assert compact.is_valid(value) is full.is_valid(value), (union, value)


# Where the server's instructions say what each note tools/list leaves out says.
SAID_ONCE = {
    a.OFFSET_NOTE: "offset is a 1-based page number",
    a.PROJECT_NOTE: "projectId is a project's id or identifier",
    a.WORK_PACKAGE_NOTE: "display id such as DEMO-38",
    a.DAY_NOTE: "dates are YYYY-MM-DD",
    a.MATCH_NOTE: "exact matches the literal text only",
    a.DRY_RUN_NOTE: "dryRun: true shows field: before -> after without saving",
    a.NAME_NOTE: "Names of types, statuses, priorities, activities and assignees are resolved",
    a.QUERY_NOTE: "query is what to look for, in natural words",
}


def test_every_note_the_catalog_leaves_out_is_in_the_instructions_and_in_the_errors() -> None:
    assert set(SAID_ONCE) == a.EXPLAINED_ONCE
    instructions = " ".join(instructions_for(read_only=False).split())
    for note, said in SAID_ONCE.items():
        assert said in instructions, note
    carried = set()
    for spec in TOOLS:
        full = a.input_schema(spec.arguments)["properties"]
        advertised = a.advertised_schema(spec.arguments)["properties"]
        assert list(full) == list(advertised)
        for name, prop in full.items():
            if prop.get("description") in a.EXPLAINED_ONCE:
                carried.add(prop["description"])
                assert "description" not in advertised[name], (spec.name, name)
    assert carried == a.EXPLAINED_ONCE
