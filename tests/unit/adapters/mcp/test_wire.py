"""Results on the wire: camelCase keys, omitted nulls, dates as ISO text, schemas that match."""

from __future__ import annotations

from datetime import UTC, date, datetime

import jsonschema
import pytest

from openproject_mcp.adapters.mcp.catalog import TOOLS, ToolSpec
from openproject_mcp.adapters.mcp.wire import camel, outline_schema, output_schema, to_wire
from openproject_mcp.application.views import (
    ApiSpecView,
    Coverage,
    WorkPackageHit,
    WorkPackageSearchPage,
    WorkPackageSummary,
)
from openproject_mcp.domain.entities import NamedRef


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("has_more", "hasMore"),
        ("id", "id"),
        ("enrichment_failures", "enrichmentFailures"),
        ("schema_name", "schemaName"),
    ],
)
def test_camel(name: str, expected: str) -> None:
    assert camel(name) == expected


def sample_page() -> WorkPackageSearchPage:
    summary = WorkPackageSummary(
        id=7,
        subject="Fix login",
        type="Bug",
        status="New",
        project=NamedRef(1, "Demo"),
        start_date=date(2026, 9, 1),
        updated_at=datetime(2026, 9, 10, 9, 0, tzinfo=UTC),
    )
    return WorkPackageSearchPage(
        total=1,
        count=1,
        page_size=20,
        offset=1,
        has_more=False,
        elements=(WorkPackageHit(summary, 0.9, ("subject",)),),
        match_mode="fuzzy",
        degraded=False,
        enrichment_failures=0,
        coverage=Coverage(1, 1, False),
    )


def test_to_wire_omits_nulls_and_writes_dates_as_iso_text() -> None:
    data = to_wire(sample_page())
    element = data["elements"][0]
    assert element == {
        "workPackage": {
            "id": 7,
            "subject": "Fix login",
            "type": "Bug",
            "status": "New",
            "project": {"id": 1, "name": "Demo"},
            "startDate": "2026-09-01",
            "updatedAt": "2026-09-10T09:00:00Z",
        },
        "score": 0.9,
        "matchedFields": ["subject"],
    }
    assert "notes" not in data and data["coverage"] == {"candidates": 1, "enriched": 1, "candidateLimitReached": False}


def test_dictionary_keys_are_data_and_stay_as_they_are() -> None:
    view = ApiSpecView(schema_name="X", schema={"snake_case_key": {"nested_key": 1}})
    assert to_wire(view) == {"schemaName": "X", "schema": {"snake_case_key": {"nested_key": 1}}}


def test_the_generated_schema_accepts_the_generated_data_and_rejects_a_broken_one() -> None:
    schema = output_schema(WorkPackageSearchPage)
    data = to_wire(sample_page())
    jsonschema.validate(data, schema)
    broken = dict(data, elements=[{"score": "high"}])
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(broken, schema)


@pytest.mark.parametrize("spec", TOOLS, ids=[t.name for t in TOOLS])
def test_every_output_schema_is_a_valid_json_schema(spec: ToolSpec) -> None:
    schema = output_schema(spec.result)
    jsonschema.Draft202012Validator.check_schema(schema)
    assert schema["type"] == "object"


@pytest.mark.parametrize("spec", TOOLS, ids=[t.name for t in TOOLS])
def test_every_outline_is_a_valid_schema_with_the_full_schemas_keys_and_types(spec: ToolSpec) -> None:
    full = output_schema(spec.result)
    outline = outline_schema(spec.result)
    jsonschema.Draft202012Validator.check_schema(outline)
    assert set(outline["properties"]) == set(full["properties"])
    assert outline.get("required") == full.get("required")
    assert "$defs" not in outline and "$ref" not in str(outline)
    assert len(str(outline)) < len(str(full))


def test_the_outline_accepts_the_generated_data_and_rejects_a_wrong_top_level_type() -> None:
    schema = outline_schema(WorkPackageSearchPage)
    data = to_wire(sample_page())
    jsonschema.validate(data, schema)
    assert schema["properties"]["elements"] == {"type": "array"}
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(dict(data, elements={"score": 1}), schema)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({k: v for k, v in data.items() if k != "total"}, schema)
