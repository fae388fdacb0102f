"""The request conformance check finds each kind of off-spec or rejected request, and passes clean ones."""

from __future__ import annotations

import json

import pytest

from openproject_mcp.adapters.openproject.endpoints import NEWER_THAN_17_3
from tests.support.conformance import request_problems, shape, version
from tests.support.fake_openproject.profiles import PROFILES, profile_named
from tests.support.fake_openproject.routes import Routes
from tests.support.fake_openproject.server import RecordedRequest

WORK_PACKAGE_FILTERS = json.dumps([{"status": {"operator": "o", "values": []}}])


def sent(path: str, status: int = 200, error: str | None = None, method: str = "GET", **query: str) -> RecordedRequest:
    return RecordedRequest(method, path, dict(query), "token", 0.0, 0.0, status, error)


def problems(*requests: RecordedRequest, profile: str = "17.3", prefix: str = "") -> list[str]:
    return request_problems(list(requests), profile_named(profile), prefix)


def test_documented_requests_pass() -> None:
    assert not problems(
        sent("/api/v3/work_packages", filters=WORK_PACKAGE_FILTERS, offset="1", pageSize="20"),
        sent("/api/v3/projects/webshop"),
        sent("/api/v3/queries/41", offset="1", pageSize="20"),
        sent("/api/v3/spec.json"),
        sent("/openproject/api/v3/statuses"),
        prefix="/openproject",
    )


@pytest.mark.parametrize(
    ("request_", "why"),
    [
        (sent("/api/v3/relations"), "no declared endpoint"),
        (sent("/api/v3/projects", method="POST"), "no declared POST endpoint"),
        (
            RecordedRequest("PATCH", "/api/v3/work_packages/1", {}, "token", 0.0, 0.0, 200, None, {"subject": "x"}),
            "'lockVersion' is a required property",
        ),
        (
            RecordedRequest("POST", "/api/v3/work_packages/1/activities", {"notify": "false"}, "t", 0.0, 0.0, 201),
            "a write sends no query parameters",
        ),
        (sent("/api/v3/statuses", pageSize="5"), "parameters ['pageSize'] are not declared"),
        (sent("/api/v3/queries", filters="[]", pageSize="5"), "parameters ['pageSize'] are not declared"),
    ],
)
def test_off_spec_requests_are_named(request_: RecordedRequest, why: str) -> None:
    found = problems(request_)
    assert found and all(request_.path in problem for problem in found)
    assert any(why in problem for problem in found), found


def test_a_newer_endpoint_on_an_older_version_is_a_probe_answered_404() -> None:
    agenda = "/api/v3/meetings/7/agenda_items"
    assert not problems(sent(agenda, status=404, error="NotFound"), profile="17.3")
    [problem] = problems(sent(agenda, status=200), profile="17.3")
    assert "arrived in" in problem and "not 404" in problem
    assert not problems(sent(agenda, status=200), profile="18.0")


def test_a_rejected_filter_may_be_tried_in_one_call_never_in_a_later_one() -> None:
    def rejected(term: str = "x") -> RecordedRequest:
        search = json.dumps([{"search": {"operator": "**", "values": [term]}}])
        return sent("/api/v3/meetings", status=400, error="InvalidQuery", filters=search, pageSize="1")

    profile = profile_named("17.3")
    assert not request_problems([rejected()], profile)
    assert not request_problems([rejected(), rejected("y")], profile), "one call, two legs"
    [problem] = request_problems([rejected(), rejected("y")], profile, call_starts=(0, 1))
    assert "search**" in problem and "a later call sent it again" in problem
    other = sent("/api/v3/meetings", status=400, error="InvalidQuery", sortBy='[["id","asc"]]')
    assert not request_problems([rejected(), other], profile, call_starts=(0, 1)), "another form is another probe"


def test_every_newer_endpoint_is_served_by_exactly_the_profiles_from_its_version_on() -> None:
    """The registry's ``since`` and the fake's profiles agree (the truth table checks the profiles)."""
    for profile in PROFILES.values():
        served = {shape(path) for path, _ in Routes(profile, None).table()}
        for endpoint in NEWER_THAN_17_3:
            assert endpoint.since is not None
            expected = version(profile.name) >= version(endpoint.since)
            assert (shape(endpoint.template) in served) == expected, (
                f"{profile.name} {'lacks' if expected else 'serves'} /{endpoint.template} (since {endpoint.since})"
            )
