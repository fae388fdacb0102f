"""The core's error types.

Adapters translate their own failures into these at the boundary; the MCP adapter maps each
one to a tool error code of the contract. Messages are written for the person or model that
reads the tool result, so they say what went wrong and, where useful, what to do about it.
"""

from __future__ import annotations


class OpenProjectMcpError(Exception):
    """Base of every error the core knows how to report."""

    def __init__(self, message: str, *, hint: str | None = None, status: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint
        self.status = status

    @property
    def aborts_search(self) -> bool:
        """Whether a search must fail as a whole when this happens while enriching one record."""
        return False


class InvalidArgumentError(OpenProjectMcpError):
    """An argument failed validation; raised before any request is sent."""


class AuthenticationError(OpenProjectMcpError):
    """OpenProject rejected the credentials (401): a bad or expired token."""

    @property
    def aborts_search(self) -> bool:
        return True


class ForbiddenError(OpenProjectMcpError):
    """The token is valid but lacks the permission (403)."""

    @property
    def aborts_search(self) -> bool:
        return True


class NotFoundError(OpenProjectMcpError):
    """The requested resource does not exist or is not visible to this user (404)."""


class InvalidQueryError(OpenProjectMcpError):
    """OpenProject refused a filter or sort (400)."""


class RateLimitedError(OpenProjectMcpError):
    """OpenProject kept answering 429 after the retry budget was spent."""

    def __init__(
        self,
        message: str,
        *,
        retry_after_seconds: float | None = None,
        hint: str | None = None,
        status: int | None = 429,
    ) -> None:
        super().__init__(message, hint=hint, status=status)
        self.retry_after_seconds = retry_after_seconds

    @property
    def aborts_search(self) -> bool:
        return True


class UpstreamServerError(OpenProjectMcpError):
    """OpenProject answered 5xx after retries, or sent a body that could not be read."""


class RequestLimitError(UpstreamServerError):
    """One call reached its ceiling of requests to OpenProject; what needed more was not read."""

    def __init__(self, message: str, *, limit: int, hint: str | None = None) -> None:
        super().__init__(message, hint=hint)
        self.limit = limit


class NetworkError(OpenProjectMcpError):
    """The instance could not be reached: connection failure or timeout."""


class UnsupportedError(OpenProjectMcpError):
    """This OpenProject version lacks the endpoint or the content asked for."""


class ConflictError(OpenProjectMcpError):
    """OpenProject refused a write because the record changed since the version it was based on (409)."""


class ReadOnlyError(OpenProjectMcpError):
    """A write was attempted while the server runs read-only."""


def attachment_too_large(attachment_id: int, max_bytes: int, file_name: str | None = None) -> UnsupportedError:
    """The error for an attachment above the size this server reads (``OPENPROJECT_MAX_ATTACHMENT_BYTES``)."""
    named = f" ({file_name})" if file_name else ""
    return UnsupportedError(
        f"Attachment {attachment_id}{named} is larger than the {max_bytes:,} bytes this server reads of one "
        "attachment; it was not read.",
        hint="Open it in OpenProject, or ask the operator to raise OPENPROJECT_MAX_ATTACHMENT_BYTES.",
    )
