"""Result objects on the wire: camelCase JSON objects and the JSON Schemas that describe them.

Both are derived from the same dataclass type hints, so a result always matches the output
schema its tool declares. Optional fields (``X | None``) are left out of ``required`` and
omitted from the data when they are ``None``; dictionaries are passed through as they are
(their keys are data, such as an OpenAPI schema, not field names).
"""

from __future__ import annotations

import dataclasses
import types
import typing
from datetime import date, datetime
from typing import Any, Final, Literal, Union

import openproject_mcp.domain

_DOMAIN: Final = openproject_mcp.domain.__name__ + "."


def camel(name: str) -> str:
    head, *rest = name.split("_")
    return head + "".join(part[:1].upper() + part[1:] for part in rest)


def to_wire(value: Any) -> Any:
    """A JSON-ready value: dataclasses as camelCase objects without ``None`` fields."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        out: dict[str, Any] = {}
        for field in dataclasses.fields(value):
            item = getattr(value, field.name)
            if item is not None:
                out[camel(field.name)] = to_wire(item)
        return out
    if isinstance(value, datetime):
        return value.isoformat().replace("+00:00", "Z")
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, tuple | list):
        return [to_wire(v) for v in value]
    if isinstance(value, dict):
        return {str(k): to_wire(v) for k, v in value.items()}
    return value


def output_schema(result_type: type[Any]) -> dict[str, Any]:
    """The JSON Schema of a result dataclass: an object at the top, nested types in ``$defs``."""
    defs: dict[str, Any] = {}
    top = _object_schema(result_type, defs)
    defs.pop(result_type.__name__, None)
    if defs:
        top["$defs"] = defs
    return top


def outline_schema(result_type: type[Any]) -> dict[str, Any]:
    """The result's top level only: every key with its type, nested records as bare objects.

    What a client needs to validate an answer and a model to know its keys, at a fraction of the
    size of :func:`output_schema` (nested records and their field notes are left out).
    """
    full = output_schema(result_type)
    defs = full.pop("$defs", {})
    full.pop("description", None)
    full["properties"] = {name: _outline(prop, defs) for name, prop in full["properties"].items()}
    return full


def keys_schema(result_type: type[Any]) -> dict[str, Any]:
    """The result's top-level keys only, each accepting any value, none of them required.

    Names what an answer holds for a client or model that looks, and accepts every answer a
    client validates against it; :func:`outline_schema` adds each key's type and the required
    ones, :func:`output_schema` every nested record.
    """
    return {"type": "object", "properties": {name: {} for name in output_schema(result_type)["properties"]}}


def _outline(prop: dict[str, Any], defs: dict[str, Any]) -> dict[str, Any]:
    """A property's JSON type only: no nested records, item shapes or enumerations."""
    if "$ref" in prop:
        return {"type": "object"}
    if "anyOf" in prop:
        kinds = {str(_outline(branch, defs).get("type")) for branch in prop["anyOf"]}
        return {"type": sorted(kinds)} if len(kinds) > 1 else {"type": kinds.pop()}
    kind = prop.get("type")
    return {"type": kind} if isinstance(kind, str) else {}


def _object_schema(cls: type[Any], defs: dict[str, Any]) -> dict[str, Any]:
    hints = typing.get_type_hints(cls)
    properties: dict[str, Any] = {}
    required: list[str] = []
    for field in dataclasses.fields(cls):
        hint = hints[field.name]
        optional = _is_optional(hint)
        properties[camel(field.name)] = _schema(_strip_none(hint) if optional else hint, defs)
        if not optional:
            required.append(camel(field.name))
    schema: dict[str, Any] = {"type": "object", "properties": properties}
    if required:
        schema["required"] = required
    # Described by the result types' own docstrings; the domain's entities are documented for developers.
    if cls.__doc__ and not cls.__doc__.startswith(cls.__name__ + "(") and not cls.__module__.startswith(_DOMAIN):
        schema["description"] = " ".join(cls.__doc__.split())
    return schema


_SCALARS: Final[dict[Any, dict[str, str]]] = {
    str: {"type": "string"},
    bool: {"type": "boolean"},
    int: {"type": "integer"},
    float: {"type": "number"},
    datetime: {"type": "string", "format": "date-time"},
    date: {"type": "string", "format": "date"},
}


def _schema(hint: Any, defs: dict[str, Any]) -> dict[str, Any]:
    origin = typing.get_origin(hint)
    if hint in _SCALARS:
        return dict(_SCALARS[hint])
    if hint is Any or hint is object:
        return {}
    if origin is Literal:
        return {"type": "string", "enum": list(typing.get_args(hint))}
    if origin is list or (origin is tuple and typing.get_args(hint)[1:] == (Ellipsis,)):
        return {"type": "array", "items": _schema(typing.get_args(hint)[0], defs)}
    if origin is dict:
        return {"type": "object", "additionalProperties": _schema(typing.get_args(hint)[1], defs)}
    if origin in (Union, types.UnionType):
        return {"anyOf": [_schema(a, defs) for a in typing.get_args(hint)]}
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        name = hint.__name__
        if name not in defs:
            defs[name] = {}  # placeholder first, so recursive types terminate
            defs[name] = _object_schema(hint, defs)
        return {"$ref": f"#/$defs/{name}"}
    raise TypeError(f"no JSON Schema mapping for {hint!r}")


def _is_optional(hint: Any) -> bool:
    return typing.get_origin(hint) in (Union, types.UnionType) and type(None) in typing.get_args(hint)


def _strip_none(hint: Any) -> Any:
    args = tuple(a for a in typing.get_args(hint) if a is not type(None))
    return args[0] if len(args) == 1 else Union[args]  # noqa: UP007 - built from a runtime tuple
