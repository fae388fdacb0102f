"""Every request the adapter can issue is in the 17.3 OpenAPI document, or listed as newer.

The repositories build their paths from :mod:`endpoints` only, and the ``api`` fixture of the
repository and capability tests checks every request actually sent against these declarations.
"""

from __future__ import annotations

import json
import re
from functools import cache
from typing import Any

import pytest

from openproject_mcp.adapters.openproject import endpoints
from openproject_mcp.adapters.openproject.endpoints import (
    ALL_ENDPOINTS,
    NEWER_THAN_17_3,
    Endpoint,
    endpoint_for,
    filters_param,
    page_params,
    sort_param,
)
from openproject_mcp.domain.queries import Filter, PageRequest, SortKey
from tests.conftest import shared_path

IN_SPEC = [e for e in ALL_ENDPOINTS if e.since is None and e is not endpoints.ROOT_SPEC and e.method == "GET"]
WRITES = [e for e in ALL_ENDPOINTS if e.method != "GET"]


@cache
def _spec() -> dict[str, Any]:
    path = shared_path("openproject-spec", "openproject-apiv3-17.3-stable.bundled.json")
    document: dict[str, Any] = json.loads(path.read_text())
    return document


def spec() -> dict[str, Any]:
    return _spec()


def shape(template: str) -> str:
    """A path template with its placeholder names erased: ``/api/v3/projects/{}``."""
    return re.sub(r"\{[^}]+\}", "{}", "/" + template.lstrip("/"))


def spec_get(template: str) -> dict[str, Any] | None:
    for path, item in spec()["paths"].items():
        if shape(path) == shape(template) and "get" in item:
            operation: dict[str, Any] = item["get"]
            return operation
    return None


def query_parameters(operation: dict[str, Any]) -> set[str]:
    return {p["name"] for p in operation.get("parameters", []) if p.get("in") == "query"}


@pytest.mark.parametrize("endpoint", WRITES, ids=lambda e: f"{e.method} {e.template}")
def test_a_write_endpoint_is_a_path_and_method_of_the_17_3_spec_and_sends_no_parameters(endpoint: Endpoint) -> None:
    found = [
        item[endpoint.method.lower()]
        for path, item in spec()["paths"].items()
        if shape(path) == shape(endpoint.template) and endpoint.method.lower() in item
    ]
    assert found, f"{endpoint.method} /{endpoint.template} is not in the 17.3 spec"
    assert not endpoint.params and not endpoint.idempotent and endpoint.since is None


@pytest.mark.parametrize("endpoint", IN_SPEC, ids=lambda e: e.template)
def test_endpoint_is_a_get_path_of_the_17_3_spec(endpoint: Endpoint) -> None:
    assert spec_get(endpoint.template) is not None, f"GET /{endpoint.template} is not in the 17.3 spec"


@pytest.mark.parametrize("endpoint", IN_SPEC, ids=lambda e: e.template)
def test_query_parameters_are_in_the_spec_or_explained(endpoint: Endpoint) -> None:
    operation = spec_get(endpoint.template)
    assert operation is not None
    documented = query_parameters(operation)
    undocumented = set(endpoint.undocumented_params)
    assert endpoint.params - undocumented <= documented, (
        f"/{endpoint.template}: {sorted(endpoint.params - undocumented - documented)} are not in the spec"
    )
    assert not undocumented & documented, f"/{endpoint.template}: listed as undocumented but documented"
    assert undocumented <= endpoint.params
    assert all(reason.strip() for reason in endpoint.undocumented_params.values())


@pytest.mark.parametrize("endpoint", IN_SPEC, ids=lambda e: e.template)
def test_undocumented_paging_is_backed_by_a_paginated_response(endpoint: Endpoint) -> None:
    paging = {"offset", "pageSize"} & set(endpoint.undocumented_params)
    if not paging:
        return
    operation = spec_get(endpoint.template)
    assert operation is not None
    schema_ref = json.dumps(operation["responses"]["200"])
    [name] = re.findall(r"#/components/schemas/(\w+)", schema_ref)
    schema = json.dumps(spec()["components"]["schemas"][name])
    assert "PaginatedCollectionModel" in schema, f"{name} is not a paginated collection"


def test_the_spec_document_itself_is_named_in_the_spec() -> None:
    assert "/api/v3/spec.json" in spec()["info"]["description"]
    assert spec_get(endpoints.ROOT_SPEC.template) is None


@pytest.mark.parametrize("endpoint", NEWER_THAN_17_3, ids=lambda e: e.template)
def test_newer_endpoints_really_are_missing_from_17_3(endpoint: Endpoint) -> None:
    assert spec_get(endpoint.template) is None
    assert endpoint.note or endpoint.since


def test_the_newer_endpoints() -> None:
    assert {e.template for e in NEWER_THAN_17_3} == {
        "api/v3/meetings/{id}/agenda_items",
        "api/v3/meeting_sections/{id}",
        "api/v3/meetings/{meeting_id}/agenda_items/{id}/outcomes",
        "api/v3/meeting_outcomes/{id}",
        "api/v3/work_packages/{id}/wiki_page_links",
        "api/v3/wiki_page_links",
        "api/v3/attachments/{id}/content",
    }


# Building paths and parameters ---------------------------------------------------------------------


def test_paths_encode_their_values() -> None:
    assert endpoints.PROJECT.path(id=12) == "api/v3/projects/12"
    assert endpoints.PROJECT.path(id="a/b c?d#e") == "api/v3/projects/a%2Fb%20c%3Fd%23e"
    assert endpoints.WORK_PACKAGE.path(id="DEMO-38") == "api/v3/work_packages/DEMO-38"


@pytest.mark.parametrize(
    ("path", "template"),
    [
        ("api/v3/projects", "api/v3/projects"),
        ("api/v3/projects/demo%2Fx", "api/v3/projects/{id}"),
        ("api/v3/projects/1/types", "api/v3/projects/{id}/types"),
        ("api/v3/wiki_page_links", "api/v3/wiki_page_links"),
        ("api/v3/work_packages/38/wiki_page_links", "api/v3/work_packages/{id}/wiki_page_links"),
        ("api/v3/work_packages/schemas/1-1", "api/v3/work_packages/schemas/{identifier}"),
        ("api/v3/work_packages/38/activities", "api/v3/work_packages/{id}/activities"),
        ("api/v3/meetings/2/agenda_items/3/outcomes", "api/v3/meetings/{meeting_id}/agenda_items/{id}/outcomes"),
        ("api/v3/spec.json", "api/v3/spec.json"),
    ],
)
def test_request_paths_find_their_endpoint(path: str, template: str) -> None:
    found = endpoint_for(path)
    assert found is not None and found.template == template


@pytest.mark.parametrize("path", ["api/v3/projects/1/members", "api/v3/relations", "api/v3/users/4/extra", "x"])
def test_other_paths_are_not_declared(path: str) -> None:
    assert endpoint_for(path) is None


def test_filters_are_serialised_as_json() -> None:
    assert filters_param([]) == "[]"
    text = filters_param([Filter("subject", "~", ('a "b"', "ü")), Filter("status", "o")])
    assert json.loads(text) == [
        {"subject": {"operator": "~", "values": ['a "b"', "ü"]}},
        {"status": {"operator": "o", "values": []}},
    ]


def test_sort_keys_and_pages() -> None:
    assert json.loads(sort_param([SortKey("updatedAt", "desc"), SortKey("id")])) == [
        ["updatedAt", "desc"],
        ["id", "asc"],
    ]
    assert page_params(PageRequest(offset=0, page_size=5000)) == {"offset": 1, "pageSize": 1000}
    assert page_params(PageRequest(offset=3, page_size=25)) == {"offset": 3, "pageSize": 25}
