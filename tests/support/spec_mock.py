"""A mock OpenProject built mechanically from an OpenAPI document (OpenProject's 17.3 one, by default).

Nothing here is written per endpoint: every answer is derived from the document.

- Only the document's paths exist (and ``/api/v3/spec.json``, which its ``info`` names); any other
  path is 404 ``NotFound``, a method the path does not document 405.
- A write (``POST``, ``PATCH``...) must send a body that conforms to the operation's request body
  schema (:func:`request_body_problems`); one that does not is 400 ``InvalidRequestBody``. Its
  answer is the operation's success status with its example (or smallest instance).
- A query parameter the operation does not document is 400 ``InvalidQuery``, as is a filter name
  it does not document. An operation documents a parameter by listing it, or by using it in the
  links of its own example responses (OpenProject's spec shows paging that way); it documents
  filter names by listing them in its ``filters`` parameter (``- status`` or ``+ status: ...``)
  or using them in those links. Filter names are compared the way OpenProject reads them
  (``updatedAt``, ``updated_at`` and ``assignee``/``assigned_to`` are the same filter).
- The answer is the operation's example response where it has one (the media type's
  ``examples``/``example``, else the schema's ``example``), else the smallest instance of its
  schema (required properties only).
- A request without an API token is 401. Every request is logged with its verdict.
"""

from __future__ import annotations

import base64
import binascii
import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from types import TracebackType
from typing import Any
from urllib.parse import parse_qs, urlsplit

from aiohttp import web
from aiohttp.test_utils import TestServer

from tests.support.fake_openproject.errors import HAL_JSON, error_body

SPEC_PATH = "/api/v3/spec.json"
_PLACEHOLDER = re.compile(r"\{[^}]+\}")
_LISTED_FILTER = re.compile(r"^\s*[-+*]\s+`?([A-Za-z][A-Za-z0-9_]*)`?\s*(?::|$)", re.MULTILINE)
_FILTER_ALIASES: Mapping[str, str] = {"assignee": "assigned_to", "type": "type_id", "project": "project_id"}
"""API names OpenProject converts to the internal filter name (``API::Utilities::QueryFiltersNameConverter``)."""


def snake(name: str) -> str:
    return re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", name).lower()


def filter_forms(name: str) -> set[str]:
    """Every spelling under which OpenProject reads one filter name."""
    base = snake(name)
    forms = {name, base}
    if base in _FILTER_ALIASES:
        forms.add(_FILTER_ALIASES[base])
    forms |= {alias for alias, internal in _FILTER_ALIASES.items() if internal == base}
    forms |= {form.removesuffix("_id") for form in set(forms) if form.endswith("_id")}
    return forms


@dataclass(frozen=True, slots=True)
class MockRequest:
    """One request and the mock's verdict: ``status`` answered and, for an error, why."""

    method: str
    path: str
    query: dict[str, str]
    status: int
    why: str | None = None
    body: Any = None

    @property
    def off_spec(self) -> bool:
        """The document does not have this path, method, parameter or filter."""
        return self.why is not None


class _Document:
    def __init__(self, document: Mapping[str, Any]) -> None:
        self.document = document

    def resolve(self, node: Any, depth: int = 0) -> Any:
        while isinstance(node, dict) and "$ref" in node and depth < 50:
            target: Any = self.document
            for part in str(node["$ref"]).removeprefix("#/").split("/"):
                target = target[part.replace("~1", "/").replace("~0", "~")]
            node = target
            depth += 1
        return node

    def hrefs(self, node: Any, depth: int = 0) -> Iterable[str]:
        node = self.resolve(node)
        if depth > 16:
            return
        if isinstance(node, dict):
            for key, value in node.items():
                if key == "href" and isinstance(value, str):
                    yield value
                else:
                    yield from self.hrefs(value, depth + 1)
        elif isinstance(node, list):
            for value in node:
                yield from self.hrefs(value, depth + 1)

    def minimal(self, schema: Any, depth: int = 0) -> Any:
        """The smallest instance of a schema: its example if it has one, else its required parts."""
        schema = self.resolve(schema)
        if not isinstance(schema, dict) or depth > 12:
            return None
        if "example" in schema:
            return schema["example"]
        if "allOf" in schema:
            merged: dict[str, Any] = {}
            for part in schema["allOf"]:
                value = self.minimal(part, depth + 1)
                if isinstance(value, dict):
                    merged.update(value)
            return merged
        for key in ("oneOf", "anyOf"):
            if schema.get(key):
                return self.minimal(schema[key][0], depth + 1)
        if schema.get("enum"):
            return schema["enum"][0]
        kind = schema.get("type")
        if kind == "object" or "properties" in schema:
            properties = schema.get("properties", {})
            return {name: self.minimal(properties.get(name, {}), depth + 1) for name in schema.get("required", [])}
        if kind == "array":
            return []
        if kind == "string":
            return {"date-time": "2025-01-01T00:00:00.000Z", "date": "2025-01-01", "duration": "PT0S"}.get(
                str(schema.get("format")), ""
            )
        if kind == "integer":
            return 1
        if kind == "number":
            return 1.0
        if kind == "boolean":
            return False
        return None


@dataclass(frozen=True, slots=True)
class _Operation:
    template: str
    pattern: re.Pattern[str]
    parameters: frozenset[str]
    filters: frozenset[str] | None
    """Filter names (every spelling) the operation documents; ``None``: it names none, any is accepted."""
    body: Any
    method: str = "get"
    status: int = 200
    request_schema: Any = None


WRITE_METHODS = ("post", "patch", "put", "delete")


def _for_requests(node: Any, links: bool = False) -> Any:
    """A schema without the ``required`` constraints that only responses can meet.

    OpenProject's document gives some writes the resource model as their request body (creating a
    work package takes ``WorkPackageModel``), whose ``_links`` requires the links only a server
    renders (``self``, ``schema``, ``author``...), and marks some required properties ``readOnly``.
    Neither applies to a request (OpenAPI: read-only properties are not sent); every type, format,
    enum and nested structure still does.
    """
    if isinstance(node, list):
        return [_for_requests(item) for item in node]
    if not isinstance(node, dict):
        return node
    out: dict[str, Any] = {}
    found = node.get("properties")
    properties: dict[str, Any] = found if isinstance(found, dict) else {}
    for key, value in node.items():
        if key == "required" and isinstance(value, list):
            if links:
                continue
            kept = [n for n in value if not (isinstance(properties.get(n), dict) and properties[n].get("readOnly"))]
            if kept:
                out[key] = kept
        elif key == "properties" and isinstance(value, dict):
            out[key] = {name: _for_requests(sub, links=name == "_links") for name, sub in value.items()}
        else:
            out[key] = _for_requests(value, links=links and key in ("allOf", "anyOf", "oneOf"))
    return out


class RequestBodies:
    """Request body validation against one document's schemas (JSON Schema 2020-12, formats checked)."""

    def __init__(self, document: Mapping[str, Any]) -> None:
        self._components = _for_requests(document.get("components", {}))
        self._validators: dict[str, Any] = {}

    def problems(self, schema: Any, body: Any) -> list[str]:
        import jsonschema  # a dependency of the tests only

        key = json.dumps(schema, sort_keys=True)
        validator = self._validators.get(key)
        if validator is None:
            kind = jsonschema.Draft202012Validator
            validator = kind({**schema, "components": self._components}, format_checker=kind.FORMAT_CHECKER)
            self._validators[key] = validator
        return [f"{'/'.join(map(str, e.absolute_path)) or '(body)'}: {e.message}" for e in validator.iter_errors(body)]


def request_schema(document: Mapping[str, Any], template: str, method: str) -> Any:
    """A write's request body schema. A ``…/form`` operation that documents none (``POST
    /time_entries/form``) takes the body of the write it validates, as OpenProject does."""
    item = document.get("paths", {}).get(template) or {}
    operation = item.get(method.lower()) if isinstance(item, dict) else None
    content = ((operation or {}).get("requestBody") or {}).get("content") or {}
    media = content.get("application/json") or next(iter(content.values()), None)
    if media and "schema" in media:
        return media["schema"]
    if template.endswith("/form"):
        return request_schema(document, template.removesuffix("/form"), "post")
    return None


def _write_operations(document: Mapping[str, Any]) -> list[_Operation]:
    doc = _Document(document)
    found: list[_Operation] = []
    for template, item in document.get("paths", {}).items():
        for method in WRITE_METHODS:
            operation = item.get(method) if isinstance(item, dict) else None
            if not isinstance(operation, dict):
                continue
            responses = operation.get("responses", {})
            status = min((int(code) for code in responses if str(code).startswith("2")), default=200)
            response = doc.resolve(responses.get(str(status), {}))
            content = response.get("content", {}) if isinstance(response, dict) else {}
            media: dict[str, Any] = content.get(HAL_JSON) or content.get("application/json") or {}
            examples = [doc.resolve(e) for e in (media.get("examples") or {}).values()]
            if examples and isinstance(examples[0], dict) and "value" in examples[0]:
                body = examples[0]["value"]
            elif "example" in media:
                body = media["example"]
            else:
                body = doc.minimal(media.get("schema", {})) if media else None
            pattern = re.compile("[^/]+".join(re.escape(p) for p in _PLACEHOLDER.split(template.rstrip("/"))))
            found.append(
                _Operation(
                    template,
                    pattern,
                    frozenset(),
                    None,
                    body,
                    method=method,
                    status=status,
                    request_schema=request_schema(document, template, method),
                )
            )
    return sorted(found, key=lambda op: op.template.count("{"))


def _operations(document: Mapping[str, Any]) -> list[_Operation]:
    doc = _Document(document)
    found: list[_Operation] = []
    for template, item in document.get("paths", {}).items():
        operation = item.get("get") if isinstance(item, dict) else None
        if not isinstance(operation, dict):
            continue
        declared = [doc.resolve(p) for p in [*item.get("parameters", []), *operation.get("parameters", [])]]
        parameters = {p["name"] for p in declared if isinstance(p, dict) and p.get("in") == "query"}
        content = doc.resolve(operation.get("responses", {}).get("200", {})).get("content", {})
        media: dict[str, Any] = (
            content.get(HAL_JSON) or content.get("application/json") or next(iter(content.values()), {})
        )
        examples = [doc.resolve(e) for e in (media.get("examples") or {}).values()]
        listed_filters: set[str] = set()
        for p in declared:
            if isinstance(p, dict) and p.get("name") == "filters":
                listed_filters |= set(_LISTED_FILTER.findall(str(p.get("description", ""))))
        # Parameters and filters shown in the operation's own example links count as documented.
        for href in doc.hrefs([examples, media.get("example"), media.get("schema")]):
            link = urlsplit(href)
            if _PLACEHOLDER.sub("x", link.path.rstrip("/")) != _PLACEHOLDER.sub("x", template.rstrip("/")):
                continue
            shown = parse_qs(link.query, keep_blank_values=True)
            parameters |= set(shown)
            for raw in shown.get("filters", []):
                try:
                    listed_filters |= {name for entry in json.loads(raw) for name in entry}
                except (ValueError, TypeError, AttributeError):
                    continue
        if examples and isinstance(examples[0], dict) and "value" in examples[0]:
            body = examples[0]["value"]
        elif "example" in media:
            body = media["example"]
        else:
            body = doc.minimal(media.get("schema", {}))
        filters = frozenset(form for name in listed_filters for form in filter_forms(name)) or None
        pattern = re.compile("[^/]+".join(re.escape(part) for part in _PLACEHOLDER.split(template.rstrip("/"))))
        found.append(_Operation(template, pattern, frozenset(parameters), filters, body))
    # A literal segment beats a placeholder (/work_packages/schemas before /work_packages/{id}).
    return sorted(found, key=lambda op: op.template.count("{"))


def _has_token(authorization: str | None) -> bool:
    if not authorization:
        return False
    scheme, _, credentials = authorization.strip().partition(" ")
    if scheme.lower() == "bearer":
        return bool(credentials.strip())
    if scheme.lower() != "basic":
        return False
    try:
        user, _, password = base64.b64decode(credentials.strip(), validate=True).decode().partition(":")
    except (binascii.Error, UnicodeDecodeError):
        return False
    return user == "apikey" and bool(password)


def _error(status: int, name: str, message: str) -> web.Response:
    return web.Response(status=status, body=error_body(name, message), content_type=HAL_JSON, charset="utf-8")


class SpecMock:
    """``async with SpecMock(document) as mock``: serves ``document`` on 127.0.0.1, logs ``mock.requests``."""

    def __init__(self, document: Mapping[str, Any]) -> None:
        self.document = document
        self.requests: list[MockRequest] = []
        self._operations = _operations(document)
        self._writes = _write_operations(document)
        self._bodies = RequestBodies(document)
        self._server: TestServer | None = None

    async def __aenter__(self) -> SpecMock:
        app = web.Application()
        app.router.add_route("*", "/{tail:.*}", self._handle)
        self._server = TestServer(app, host="127.0.0.1")
        await self._server.start_server()
        return self

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        server, self._server = self._server, None
        if server is not None:
            await server.close()

    @property
    def base_url(self) -> str:
        if self._server is None:
            raise RuntimeError("the mock is not running: use it as `async with SpecMock(...)`")
        return str(self._server.make_url("/"))

    def off_spec(self) -> list[MockRequest]:
        return [r for r in self.requests if r.off_spec]

    async def _handle(self, request: web.Request) -> web.StreamResponse:
        query = dict(request.query)
        raw = await request.read() if request.body_exists else b""
        try:
            body: Any = json.loads(raw) if raw else None
        except ValueError:
            body = raw.decode("utf-8", "replace")
        response, why = self._answer(request, query, body)
        self.requests.append(MockRequest(request.method, request.path, query, response.status, why, body))
        return response

    def _answer(
        self, request: web.Request, query: Mapping[str, str], body: Any = None
    ) -> tuple[web.Response, str | None]:
        if not _has_token(request.headers.get("Authorization")):
            return _error(401, "Unauthenticated", "You need to be authenticated to access this resource."), None
        path = request.path.rstrip("/") or "/"
        if path == SPEC_PATH and request.method == "GET":
            return _json(self.document), None
        if request.method.lower() in WRITE_METHODS:
            return self._write(request.method, path, query, body)
        operation = next((op for op in self._operations if op.pattern.fullmatch(path)), None)
        if operation is None:
            why = "no such path in the document"
            return _error(404, "NotFound", "The requested resource could not be found."), why
        if request.method not in ("GET", "HEAD"):
            return _error(405, "NotFound", f"{request.method} is not documented here."), "method not documented"
        unknown = sorted(set(query) - operation.parameters)
        if unknown:
            why = f"parameters {unknown} are not documented for GET {operation.template}"
            return _error(400, "InvalidQuery", f"Unknown parameter(s): {', '.join(unknown)}."), why
        if "filters" in query and operation.filters is not None:
            try:
                names = [name for entry in json.loads(query["filters"]) for name in entry]
            except (ValueError, TypeError, AttributeError):
                return _error(400, "InvalidQuery", "Filters is not valid JSON."), "filters are not valid JSON"
            undocumented = sorted(name for name in names if not filter_forms(name) & operation.filters)
            if undocumented:
                why = f"filters {undocumented} are not documented for GET {operation.template}"
                return _error(400, "InvalidQuery", f"Filters {', '.join(undocumented)} do not exist."), why
        return _json(operation.body), None

    def _write(self, method: str, path: str, query: Mapping[str, str], body: Any) -> tuple[web.Response, str | None]:
        candidates = [op for op in self._writes if op.pattern.fullmatch(path)]
        operation = next((op for op in candidates if op.method == method.lower()), None)
        if operation is None:
            known = any(op.pattern.fullmatch(path) for op in self._operations) or candidates
            if not known:
                return _error(
                    404, "NotFound", "The requested resource could not be found."
                ), "no such path in the document"
            return _error(405, "NotFound", f"{method} is not documented here."), "method not documented"
        if query:
            why = f"parameters {sorted(query)} are not documented for {method} {operation.template}"
            return _error(400, "InvalidQuery", f"Unknown parameter(s): {', '.join(sorted(query))}."), why
        if operation.request_schema is None:
            if body is not None:
                return _error(400, "InvalidRequestBody", "No body is documented."), "a body where none is documented"
        else:
            problems = self._bodies.problems(operation.request_schema, body)
            if problems:
                why = f"the body breaks the request schema of {method} {operation.template}: {'; '.join(problems)}"
                return _error(400, "InvalidRequestBody", "The request body is invalid."), why
        if operation.body is None:
            return web.Response(status=operation.status), None
        return _json(operation.body, operation.status), None


def _json(payload: Any, status: int = 200) -> web.Response:
    return web.Response(status=status, body=json.dumps(payload).encode(), content_type=HAL_JSON, charset="utf-8")
