"""Argument errors an assistant can act on: what was wrong, what to send instead.

msgspec says *that* an argument is wrong ("Invalid enum value 'Closed' - at `$.status`"); the
advertised input schema says what is accepted. This module joins the two, so every message
names the argument, the valid choices and, for an argument that does not exist, the closest
one that does.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Mapping, Sequence
from typing import Any

_AT = re.compile(r"^(?P<problem>.*?) - at `\$\.(?P<path>[^`]*)`$", re.DOTALL)
_UNKNOWN = re.compile(r"^Object contains unknown field `(?P<name>[^`]*)`")
_MISSING = re.compile(r"^Object missing required field `(?P<name>[^`]*)`")
_ENUM = re.compile(r"^Invalid enum value (?P<value>.+)$", re.DOTALL)

# Names assistants reach for, taken from other APIs and from OpenProject's own vocabulary.
_SYNONYMS: Mapping[str, tuple[str, ...]] = {
    "pagesize": ("pageSize",),
    "limit": ("pageSize", "limit"),
    "perpage": ("pageSize",),
    "size": ("pageSize",),
    "count": ("pageSize",),
    "max": ("pageSize", "limit"),
    "maxresults": ("pageSize", "limit"),
    "page": ("offset",),
    "pagenumber": ("offset",),
    "skip": ("offset",),
    "q": ("query",),
    "search": ("query",),
    "searchterm": ("query",),
    "term": ("query",),
    "text": ("query", "subject"),
    "keyword": ("query",),
    "keywords": ("query",),
    "title": ("subject", "query"),
    "project": ("projectId",),
    "projectidentifier": ("projectId",),
    "projectkey": ("projectId",),
    "identifier": ("projectId",),
    "workpackage": ("workPackageId",),
    "wp": ("workPackageId",),
    "wpid": ("workPackageId",),
    "issue": ("workPackageId",),
    "issueid": ("workPackageId",),
    "ticket": ("workPackageId",),
    "ticketid": ("workPackageId",),
    "task": ("workPackageId",),
    "taskid": ("workPackageId",),
    "assignee": ("assigneeId", "assignee"),
    "assignedto": ("assigneeId", "assignee"),
    "user": ("assigneeId", "user"),
    "userid": ("assigneeId", "user"),
    "sort": ("sortBy",),
    "orderby": ("sortBy",),
    "order": ("sortBy",),
    "filter": ("filters",),
    "mode": ("matchMode",),
    "match": ("matchMode",),
    "fuzzy": ("matchMode",),
    "exact": ("matchMode",),
    "agenda": ("includeAgendaItems",),
    "includeagenda": ("includeAgendaItems",),
    "comments": ("onlyComments",),
    "refresh": ("refreshCache", "refresh"),
}


def explain_validation(raw: str, tool: str, schema: Mapping[str, Any]) -> tuple[str, str | None]:
    """The message and hint for msgspec's ``raw`` complaint about ``tool``'s arguments."""
    properties: Mapping[str, Any] = schema.get("properties") or {}
    defs: Mapping[str, Any] = schema.get("$defs") or {}
    unknown = _UNKNOWN.match(raw)
    if unknown:
        return _unknown_argument(unknown["name"], tool, properties)
    missing = _MISSING.match(raw)
    if missing:
        name = missing["name"]
        accepted = describe(properties.get(name, {}), defs)
        return f"{name} is required by {tool}.", f"Send {name}: {accepted}." if accepted else None
    located = _AT.match(raw)
    if not located:
        return f"Invalid arguments: {raw}.", _arguments_hint(tool, properties)
    path = located["path"]
    argument = path.split(".")[0].split("[")[0]
    problem = located["problem"]
    enum = _ENUM.match(problem)
    if enum:
        problem = f"{enum['value']} is not a valid value"
    elif problem.startswith("Expected `str` matching regex"):
        # The pattern itself means nothing to a reader: the argument's note says what it accepts.
        forms = str(_resolve(properties.get(argument, {}), defs).get("description") or "").rstrip(".")
        problem = f"the text is not in the accepted form ({forms})" if forms else "the text is not in the accepted form"
    else:
        problem = _plain(problem)
    accepted = describe(properties.get(argument, {}), defs)
    where = path if path != argument else argument
    return f"{where}: {problem}.", f"Send {argument} as {accepted}." if accepted else None


def _unknown_argument(name: str, tool: str, properties: Mapping[str, Any]) -> tuple[str, str | None]:
    valid = list(properties)
    if not valid:
        return f"{tool} takes no arguments, but {name!r} was given.", "Call it with an empty argument object."
    guess = closest_argument(name, valid)
    listed = ", ".join(valid)
    if guess is not None:
        return (
            f"{tool} has no argument {name!r}; did you mean {guess!r}?",
            f"Its arguments are: {listed}.",
        )
    return f"{tool} has no argument {name!r}.", f"Its arguments are: {listed}."


def closest_argument(name: str, valid: Sequence[str]) -> str | None:
    """The valid argument an assistant most likely meant by ``name``, if any is close."""
    folded = {_fold(v): v for v in valid}
    key = _fold(name)
    if key in folded:  # snake_case, kebab-case or a different case of a real name
        return folded[key]
    for candidate in _SYNONYMS.get(key, ()):
        if candidate in valid:
            return candidate
    # "meetingId" for "id", "id" for "workPackageId": the tool's one id argument.
    ids = [v for v in valid if v == "id" or v.endswith("Id")]
    if key.endswith("id") and "id" in valid and not any(_fold(v) == key for v in ids):
        stem = key.removesuffix("id")
        named = [v for v in ids if v != "id" and _fold(v).removesuffix("id") == stem]
        return named[0] if named else "id"
    if key == "id" and len(ids) == 1:
        return ids[0]
    matches = difflib.get_close_matches(key, list(folded), n=1, cutoff=0.72)
    return folded[matches[0]] if matches else None


def describe(prop: Mapping[str, Any], defs: Mapping[str, Any]) -> str:
    """What a schema accepts, in words: the choices, the range, the form."""
    prop = _resolve(prop, defs)
    branches = prop.get("anyOf")
    if isinstance(branches, list):
        parts = [describe(branch, defs) for branch in branches if branch != {"type": "null"}]
        shapes = " or ".join(p for p in parts if p)
        noted = str(prop.get("description") or "").rstrip(".")
        return f"{shapes} ({noted})" if noted and shapes else shapes or noted
    if "enum" in prop:
        return "one of " + ", ".join(_quoted(v) for v in prop["enum"])
    if "const" in prop:
        return _quoted(prop["const"])
    kind = prop.get("type")
    description = str(prop.get("description") or "").rstrip(".")
    if kind in ("integer", "number"):
        noun = "an integer" if kind == "integer" else "a number"
        low, high = prop.get("minimum"), prop.get("maximum")
        if low is not None and high is not None:
            shape = f"{noun} from {_number(low)} to {_number(high)}"
        elif low is not None:
            shape = f"{noun} of {_number(low)} or more"
        else:
            shape = noun
    elif kind == "boolean":
        shape = "true or false"
    elif kind == "string":
        shape = "a non-empty string" if (prop.get("minLength") or 0) >= 1 else "a string"
        if prop.get("maxLength") is not None:
            shape += f" of at most {prop['maxLength']} characters"
    elif kind == "array":
        shape = "an array"
    elif kind == "object":
        shape = "an object"
    else:
        shape = ""
    if description and shape:
        return f"{shape} ({description})"
    return shape or description


def _resolve(prop: Mapping[str, Any], defs: Mapping[str, Any]) -> Mapping[str, Any]:
    ref = prop.get("$ref")
    if isinstance(ref, str) and ref.startswith("#/$defs/"):
        target = defs.get(ref.removeprefix("#/$defs/"))
        if isinstance(target, Mapping):
            merged = dict(target)
            merged.update({k: v for k, v in prop.items() if k != "$ref"})
            return merged
    return prop


def _arguments_hint(tool: str, properties: Mapping[str, Any]) -> str | None:
    return f"The arguments of {tool} are: {', '.join(properties)}." if properties else None


def _plain(problem: str) -> str:
    """msgspec's wording without its type-annotation backticks: "Expected an integer, got a string"."""
    words = {
        "int": "an integer",
        "str": "a string",
        "bool": "true or false",
        "float": "a number",
        "array": "an array",
        "object": "an object",
        "null": "null",
    }

    def name(match: re.Match[str]) -> str:
        parts = [p.strip() for p in match.group(1).split("|")]
        return " or ".join(words.get(p, p) for p in parts)

    return re.sub(r"`([^`]*)`", name, problem)


def _number(value: object) -> str:
    """``0`` for ``0.0``: bounds read as people write them."""
    return str(int(value)) if isinstance(value, float) and value.is_integer() else str(value)


def _quoted(value: object) -> str:
    return f"'{value}'" if isinstance(value, str) else str(value)


def _fold(name: str) -> str:
    return re.sub(r"[^a-z0-9]", "", name.lower())
