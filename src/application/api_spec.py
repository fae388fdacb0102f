"""Use case: views of the instance's own OpenAPI document, cached per tenant.

The document is the same for every user of an instance, but it is cached under the caller's
tenant key all the same: a cached answer is then only ever served to a credential the instance
itself accepted for that answer. A credential accepted once can be revoked since, so before a
cached document is served the instance is asked, with one small request (``/users/me``), whether
it still accepts the caller: a revoked or rejected token gets ``OPENPROJECT_AUTH_ERROR``, never
the cached answer.
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from openproject_mcp.application.caching import TenantCaches
from openproject_mcp.application.views import ApiSpecView, TagCount
from openproject_mcp.domain.errors import InvalidArgumentError, NotFoundError
from openproject_mcp.ports import ApiSpecRepository

HTTP_METHODS = ("get", "put", "post", "delete", "options", "head", "patch", "trace")
SUMMARY_PATH_LIMIT = 400
# Documents with more JSON values than this are served but not kept (OpenProject 17.3's has
# about 31,000, 4 MB in memory): one cache entry per tenant must stay a few megabytes.
CACHE_MAX_VALUES = 200_000
API_PREFIX = "/api/v3"


@dataclass(frozen=True, slots=True, kw_only=True)
class GetApiSpecRequest:
    path: str | None = None
    tag: str | None = None
    schema: str | None = None
    full: bool = False
    refresh: bool = False


class GetApiSpec:
    def __init__(self, specs: ApiSpecRepository, caches: TenantCaches, tenant: str) -> None:
        self._specs = specs
        self._caches = caches
        self._tenant = tenant

    async def execute(self, request: GetApiSpecRequest) -> ApiSpecView:
        # A blank path, tag or schema ("" or spaces alike) is no choice: the summary, like none.
        path, tag, schema = (_given(value) for value in (request.path, request.tag, request.schema))
        chosen = [name for name, value in (("path", path), ("tag", tag), ("schema", schema)) if value]
        if len(chosen) > 1 or (chosen and request.full):
            raise InvalidArgumentError(
                "Pass at most one of path, tag, schema or full=true.", hint="Call without arguments for a summary."
            )
        spec = await self._document(refresh=request.refresh)
        if request.full:
            return ApiSpecView(title=_title(spec), version=_version(spec), spec=spec)
        if path:
            return _path_view(spec, path)
        if tag:
            return _tag_view(spec, tag)
        if schema:
            return _schema_view(spec, schema)
        return _summary(spec)

    async def _document(self, *, refresh: bool) -> dict[str, Any]:
        if not refresh:
            cached = self._caches.spec.get(self._tenant)
            if cached is None:
                shared = await self._caches.shared_get("spec", self._tenant, dict[str, Any])
                if isinstance(shared, dict):
                    cached = shared
                    self._caches.spec.put(self._tenant, shared)
            if cached is not None:
                await self._specs.confirm_access()
                return dict(cached)
        document = dict(await self._specs.spec())
        if _values_within(document, CACHE_MAX_VALUES):
            self._caches.spec.put(self._tenant, document)
            ttl = self._caches.settings.spec_ttl_seconds
            await self._caches.shared_put("spec", self._tenant, document, dict[str, Any], ttl)
        return document


def _given(value: str | None) -> str | None:
    """The text of an optional argument, stripped; ``None`` when it holds only spaces."""
    text = (value or "").strip()
    return text or None


def _values_within(document: Mapping[str, Any], limit: int) -> bool:
    """Whether ``document`` holds at most ``limit`` JSON values (counted without recursion)."""
    stack: list[Any] = [document]
    seen = 0
    while stack:
        item = stack.pop()
        seen += 1
        if seen > limit:
            return False
        if isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return True


def _paths(spec: Mapping[str, Any]) -> dict[str, Any]:
    paths = spec.get("paths")
    return paths if isinstance(paths, dict) else {}


def _title(spec: Mapping[str, Any]) -> str:
    info = spec.get("info") if isinstance(spec.get("info"), dict) else {}
    return str(info.get("title", "OpenProject API")) if isinstance(info, dict) else "OpenProject API"


def _version(spec: Mapping[str, Any]) -> str:
    info = spec.get("info")
    return str(info.get("version", "")) if isinstance(info, dict) else ""


def _operations(item: Any) -> dict[str, Any]:
    if not isinstance(item, dict):
        return {}
    return {method: op for method, op in item.items() if method in HTTP_METHODS and isinstance(op, dict)}


def _summary(spec: Mapping[str, Any]) -> ApiSpecView:
    paths = _paths(spec)
    counts: dict[str, int] = {}
    for item in paths.values():
        for op in _operations(item).values():
            for tag in op.get("tags", []) or ["untagged"]:
                counts[str(tag)] = counts.get(str(tag), 0) + 1
    names = sorted(paths)
    return ApiSpecView(
        title=_title(spec),
        version=_version(spec),
        total_paths=len(paths),
        tags=tuple(TagCount(name, count) for name, count in sorted(counts.items())),
        available_paths=tuple(names[:SUMMARY_PATH_LIMIT]),
        instructions=(
            "Call again with path='/api/v3/...' for one endpoint's operations, tag='Work Packages' for the "
            "paths of one tag, or schema='WorkPackageModel' for one schema. Matching is case-insensitive."
            + (
                f" Only the first {SUMMARY_PATH_LIMIT} paths are listed here."
                if len(names) > SUMMARY_PATH_LIMIT
                else ""
            )
        ),
    )


def _path_view(spec: Mapping[str, Any], wanted: str) -> ApiSpecView:
    paths = _paths(spec)
    match = _find_path(paths, wanted)
    return ApiSpecView(path=match, operations=_operations(paths[match]))


def _path_forms(wanted: str) -> list[str]:
    """The ways a caller may have meant a path, most literal first.

    ``work_packages``, ``/work_packages``, ``api/v3/work_packages``, a full URL or a path under a
    sub-path prefix (``/openproject/api/v3/...``) all name ``/api/v3/work_packages``.
    """
    text = wanted.strip()
    scheme = text.find("://")
    if scheme != -1:
        slash = text.find("/", scheme + 3)
        text = text[slash:] if slash != -1 else "/"
    text = text.split("?", 1)[0].split("#", 1)[0]
    text = "/" + text.strip("/")
    api = text.casefold().find(API_PREFIX)
    if api > 0:
        text = text[api:]  # a sub-path prefix before /api/v3
    forms = [text]
    if api == -1:
        versioned = text.casefold() == "/v3" or text.casefold().startswith("/v3/")
        forms.append("/api" + text if versioned else (API_PREFIX + text).rstrip("/"))
    return forms


def _segments(path: str) -> list[str]:
    return [segment for segment in path.casefold().split("/") if segment]


def _is_placeholder(segment: str) -> bool:
    return segment.startswith("{") and segment.endswith("}")


def _template_matches(template: str, path: str) -> bool:
    """Whether a concrete path (``/api/v3/work_packages/42``) is an instance of a spec path."""
    expected, given = _segments(template), _segments(path)
    return len(expected) == len(given) and all(
        _is_placeholder(e) or e == g or (_is_placeholder(g) and _is_placeholder(e))
        for e, g in zip(expected, given, strict=True)
    )


def _find_path(paths: Mapping[str, Any], wanted: str) -> str:
    forms = _path_forms(wanted)
    by_folded = {name.rstrip("/").casefold() or "/": name for name in paths}
    for form in forms:
        found = by_folded.get(form.casefold())
        if found is not None:
            return found
    for form in forms:
        # Fewest placeholders first: /api/v3/work_packages/schemas beats /api/v3/work_packages/{id}.
        instances = sorted((name for name in paths if _template_matches(name, form)), key=lambda n: n.count("{"))
        if instances:
            return instances[0]
    near = _near_paths(paths, forms[-1])
    looked_for = f" (looked for {forms[-1]!r})" if forms[-1] != wanted.strip() else ""
    suggestion = f"Did you mean: {', '.join(near)}?" if near else "No path is close to it."
    raise NotFoundError(
        f"The API description has no path {wanted.strip()!r}{looked_for}.",
        hint=f"{suggestion} Call without arguments for the list of paths, or with tag='...' for one tag's paths.",
    )


def _near_paths(paths: Mapping[str, Any], form: str, limit: int = 8) -> list[str]:
    """Paths close to what was asked for: similar spellings, then paths sharing its last word."""
    # Compared without the common prefix, which would make every path look alike.
    folded = {name.casefold().removeprefix(API_PREFIX): name for name in paths}
    asked = form.casefold().removeprefix(API_PREFIX)
    close = [folded[name] for name in difflib.get_close_matches(asked, list(folded), n=limit, cutoff=0.6)]
    words = [s for s in _segments(form) if not _is_placeholder(s) and s not in ("api", "v3")]
    if words:
        last = words[-1]
        sharing = sorted(
            (name for name in paths if last in name.casefold() and name not in close),
            key=lambda name: (len(name), name),
        )
        close += sharing
    return close[:limit]


def _tag_view(spec: Mapping[str, Any], wanted: str) -> ApiSpecView:
    by_tag: dict[str, list[str]] = {}
    for path, item in _paths(spec).items():
        for op in _operations(item).values():
            for tag in op.get("tags", []) or ["untagged"]:
                bucket = by_tag.setdefault(str(tag), [])
                if path not in bucket:
                    bucket.append(path)
    match = _find(by_tag, wanted.strip(), "tag")
    return ApiSpecView(tag=match, total_paths=len(by_tag[match]), paths=tuple(sorted(by_tag[match])))


def _schema_view(spec: Mapping[str, Any], wanted: str) -> ApiSpecView:
    components = spec.get("components")
    schemas = components.get("schemas") if isinstance(components, dict) else None
    schemas = schemas if isinstance(schemas, dict) else {}
    match = _find(schemas, wanted.strip(), "schema")
    schema = schemas[match]
    return ApiSpecView(schema_name=match, schema=schema if isinstance(schema, dict) else {"value": schema})


def _find(options: Mapping[str, Any], wanted: str, what: str) -> str:
    if wanted in options:
        return wanted
    folded = wanted.casefold()
    for name in options:
        if name.casefold() == folded or name.rstrip("/").casefold() == folded:
            return name
    near = sorted(name for name in options if folded in name.casefold())[:8] or sorted(options)[:8]
    raise NotFoundError(
        f"The API description has no {what} {wanted!r}.",
        hint=f"Some valid {what} names: {', '.join(near)}.",
    )
