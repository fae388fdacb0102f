"""OpenProject's HAL error objects, and the exception the routes raise to answer with one."""

from __future__ import annotations

import json
from collections.abc import Mapping

IDENTIFIER_PREFIX = "urn:openproject-org:api:v3:errors:"
HAL_JSON = "application/hal+json"

# The error name OpenProject (or, for 502-504, a proxy in front of it) answers each status with.
NAME_FOR_STATUS: Mapping[int, str] = {
    400: "InvalidQuery",
    401: "Unauthenticated",
    403: "MissingPermission",
    404: "NotFound",
    405: "NotFound",
    406: "NotAcceptable",
    409: "UpdateConflict",
    415: "TypeNotSupported",
    422: "PropertyConstraintViolation",
    429: "TooManyRequests",
}

MESSAGE_FOR_NAME: Mapping[str, str] = {
    "Unauthenticated": "You need to be authenticated to access this resource.",
    "MissingPermission": "You are not authorized to access this resource.",
    "NotFound": "The requested resource could not be found.",
    "TooManyRequests": "You have sent too many requests. Please wait a moment before trying again.",
    "InternalServerError": "An internal error has occurred.",
    "InvalidQuery": "The query is invalid.",
}


def error_name_for(status: int) -> str:
    return NAME_FOR_STATUS.get(status, "InternalServerError" if status >= 500 else "BadRequest")


def error_object(
    name: str, message: str | None = None, embedded: Mapping[str, object] | None = None
) -> dict[str, object]:
    """``{"_type": "Error", "errorIdentifier": "urn:...:<name>", "message": ..., "_embedded"?: ...}``."""
    payload: dict[str, object] = {
        "_type": "Error",
        "errorIdentifier": f"{IDENTIFIER_PREFIX}{name}",
        "message": message if message is not None else MESSAGE_FOR_NAME.get(name, f"{name}."),
    }
    if embedded is not None:
        payload["_embedded"] = dict(embedded)
    return payload


def error_body(name: str, message: str | None = None, embedded: Mapping[str, object] | None = None) -> bytes:
    """:func:`error_object` as UTF-8 JSON."""
    return json.dumps(error_object(name, message, embedded), ensure_ascii=False).encode()


class ApiError(Exception):
    """Raised by a route: answered as a HAL error with this status (and ``_embedded``, if given)."""

    def __init__(
        self,
        status: int,
        name: str,
        message: str,
        headers: Mapping[str, str] | None = None,
        embedded: Mapping[str, object] | None = None,
    ) -> None:
        super().__init__(message)
        self.status = status
        self.name = name
        self.message = message
        self.headers = dict(headers or {})
        self.embedded = embedded


def not_found(message: str = "The requested resource could not be found.") -> ApiError:
    return ApiError(404, "NotFound", message)


def invalid_query(message: str) -> ApiError:
    return ApiError(400, "InvalidQuery", message)


def bad_request(message: str) -> ApiError:
    """Grape's parameter validation (a non-integer id, for instance)."""
    return ApiError(400, "BadRequest", message)


def forbidden(message: str) -> ApiError:
    return ApiError(403, "MissingPermission", message)


MULTIPLE_ERRORS_MESSAGE = "Multiple field constraints have been violated."


def validation_error(field: str, message: str) -> dict[str, object]:
    """One attribute's error as OpenProject renders it: PropertyConstraintViolation with
    ``_embedded.details.attribute`` (``API::Errors::Validation``)."""
    return error_object("PropertyConstraintViolation", message, {"details": {"attribute": field}})


def validation_failure(errors: list[tuple[str, str]]) -> ApiError:
    """The 422 of a write its form would have refused: the single error, or ``MultipleErrors``
    embedding each one under ``_embedded.errors`` (``MultipleErrors.create_if_many``)."""
    if len(errors) == 1:
        field, message = errors[0]
        return ApiError(422, "PropertyConstraintViolation", message, embedded={"details": {"attribute": field}})
    singles = [validation_error(field, message) for field, message in errors]
    return ApiError(422, "MultipleErrors", MULTIPLE_ERRORS_MESSAGE, embedded={"errors": singles})
