"""Whether the requests the adapter sent are ones OpenProject documents and the played version accepts.

Every request the fake OpenProject recorded is checked against

- the endpoint registry (``openproject_mcp.adapters.openproject.endpoints``): a declared endpoint
  for that method, with only the parameters it declares;
- for a write (``POST``, ``PATCH``): the 17.3 document has that path and method, no query is sent,
  and the recorded body conforms to the document's request body schema (:func:`body_problems`);
- the 17.3 OpenAPI document: the endpoint's path is one of its GET paths and every parameter sent
  is documented there, or listed by the registry as undocumented with its reason. An endpoint
  newer than 17.3 carries the version that introduced it (``since``): on a profile older than
  that, the request can only be a probe, and the fake must have answered it 404;
- the version's filter and sort rules. These are the fake's own: the fake answers a filter name,
  operator, value or sort key its profile does not accept with 400 ``InvalidQuery``, as
  OpenProject does, and that verdict is read from the request log. There is no second copy of
  the rules here to drift from the first. A rejected request is allowed (a capability probe, or
  one try of a form before the other) in the call that first meets the rejection, never in a
  later call: by then the adapter has to know better.
"""

from __future__ import annotations

import json
import re
from bisect import bisect_right
from collections.abc import Mapping, Sequence
from functools import cache
from typing import Any

from openproject_mcp.adapters.openproject import endpoints
from openproject_mcp.adapters.openproject.endpoints import Endpoint, endpoint_for
from tests.conftest import shared_path
from tests.support.fake_openproject.profiles import Profile
from tests.support.fake_openproject.server import RecordedRequest
from tests.support.spec_mock import RequestBodies, request_schema

SPEC_FILE = ("openproject-spec", "openproject-apiv3-17.3-stable.bundled.json")


@cache
def _spec_document() -> Mapping[str, Any]:
    document: dict[str, Any] = json.loads(shared_path(*SPEC_FILE).read_text())
    return document


def spec_17_3() -> Mapping[str, Any]:
    """The bundled OpenAPI document of OpenProject 17.3 (read once)."""
    return _spec_document()


def shape(template: str) -> str:
    """A path template with its placeholder names erased: ``/api/v3/projects/{}``."""
    return re.sub(r"\{[^}]+\}", "{}", "/" + template.lstrip("/"))


def spec_get(template: str) -> Mapping[str, Any] | None:
    """The 17.3 document's GET operation for a path template, if it documents one."""
    for path, item in spec_17_3()["paths"].items():
        if shape(path) == shape(template) and "get" in item:
            operation: Mapping[str, Any] = item["get"]
            return operation
    return None


def spec_operation(template: str, method: str) -> Mapping[str, Any] | None:
    """The 17.3 document's operation for a path template and method, if it documents one."""
    for path, item in spec_17_3()["paths"].items():
        if shape(path) == shape(template) and method.lower() in item:
            operation: Mapping[str, Any] = item[method.lower()]
            return operation
    return None


def body_problems(template: str, method: str, body: Any) -> list[str]:
    """Where ``body`` breaks the 17.3 document's request body schema for this write (the checks the
    spec mock applies, :class:`tests.support.spec_mock.RequestBodies`)."""
    document = spec_17_3()
    path = next((p for p in document["paths"] if shape(p) == shape(template)), None)
    schema = None if path is None else request_schema(document, path, method)
    if schema is None:
        return [] if body is None else ["the 17.3 document gives this write no request body"]
    return _bodies().problems(schema, body)


@cache
def _bodies() -> RequestBodies:
    return RequestBodies(spec_17_3())


def documented_parameters(operation: Mapping[str, Any]) -> set[str]:
    return {p["name"] for p in operation.get("parameters", []) if p.get("in") == "query"}


def version(text: str) -> tuple[int, ...]:
    return tuple(int(part) for part in text.split(".")[:2])


def _relative(path: str, prefix: str) -> str:
    if prefix and path.startswith(prefix):
        path = path[len(prefix) :]
    return path.lstrip("/")


def rule_signature(endpoint: Endpoint, query: Mapping[str, str]) -> tuple[str, str, str]:
    """What a rejected request asked for: its endpoint, its filter names/operators, its sort keys."""
    try:
        filters = json.loads(query.get("filters", "[]"))
        names = sorted(f"{name}{spec.get('operator')}" for entry in filters for name, spec in entry.items())
    except (ValueError, AttributeError, TypeError):
        names = [query.get("filters", "")]
    return endpoint.template, ",".join(names), query.get("sortBy", "")


def call_of(index: int, call_starts: Sequence[int]) -> int:
    """Which call request ``index`` belongs to, ``call_starts`` being where each call's requests begin."""
    return max(0, bisect_right(call_starts, index) - 1)


def request_problems(
    requests: Sequence[RecordedRequest], profile: Profile, prefix: str = "", call_starts: Sequence[int] = (0,)
) -> list[str]:
    """Every way the recorded requests leave what OpenProject ``profile`` documents and accepts."""
    problems: list[str] = []
    rejected: dict[tuple[str, str, str], int] = {}  # per form: the call that first met its rejection
    for index, request in enumerate(requests):
        where = f"{request.method} {request.path}?{'&'.join(sorted(request.query))} ({profile.name})"
        path = _relative(request.path, prefix)
        endpoint = endpoint_for(path, request.method)
        if endpoint is None:
            problems.append(f"{where}: no declared endpoint has this path (no declared {request.method} endpoint)")
            continue
        if endpoint.method != "GET":
            if spec_operation(endpoint.template, endpoint.method) is None:
                problems.append(f"{where}: {endpoint.method} /{endpoint.template} is not in the 17.3 document")
            else:
                problems += [
                    f"{where}: body {problem}"
                    for problem in body_problems(endpoint.template, endpoint.method, request.body)
                ]
            if request.query:
                problems.append(f"{where}: a write sends no query parameters, got {sorted(request.query)}")
            continue
        sent = set(request.query)
        if not sent <= endpoint.params:
            problems.append(f"{where}: parameters {sorted(sent - endpoint.params)} are not declared for it")
        if endpoint.since is None and endpoint is not endpoints.ROOT_SPEC:
            operation = spec_get(endpoint.template)
            if operation is None:
                problems.append(f"{where}: GET /{endpoint.template} is not in the 17.3 document")
            else:
                known = documented_parameters(operation) | set(endpoint.undocumented_params)
                if not sent <= known:
                    problems.append(f"{where}: parameters {sorted(sent - known)} are not in the 17.3 document")
        elif endpoint.since is not None and version(profile.name) < version(endpoint.since) and request.status != 404:
            problems.append(
                f"{where}: /{endpoint.template} arrived in {endpoint.since}, yet {profile.name} answered "
                f"{request.status}, not 404"
            )
        if request.status == 400 and request.error == "InvalidQuery":
            signature = rule_signature(endpoint, request.query)
            call = call_of(index, call_starts)
            if rejected.setdefault(signature, call) < call:
                problems.append(
                    f"{where}: {profile.name} rejects {signature[1] or 'no filter'} / sort {signature[2] or '-'} "
                    "(400 InvalidQuery), and a later call sent it again"
                )
    return problems
